package io.zabkit.bench.avail;

import java.time.Duration;
import java.util.List;

/** N watch clients of one client library, each watching every topic znode. */
interface WatchFleet extends AutoCloseable {
    /** "lean" (jute-level, one NIO thread) or "java" (the official client, two threads per session). */
    String kind();

    int size();

    /** Waits until every session is established and has a watch on every topic. */
    void awaitReady(Duration timeout) throws Exception;

    /** Starts a fault's record: times from now on are measured from faultNs. */
    void arm(long faultNs) throws Exception;

    /**
     * Moves the fault's mark to the instant the signal was sent (known only after the kill returns):
     * later than the arm, so no loss can precede it; a change issued before it no longer counts.
     */
    void rebase(long faultNs) throws Exception;

    /** How many clients have received a change issued after the fault. */
    int closed() throws Exception;

    /** Each client's window for the fault armed last. */
    List<ClientWindow> windows() throws Exception;

    @Override
    void close() throws Exception;
}
