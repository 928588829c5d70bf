package io.zabkit.sim;

import java.util.List;
import org.apache.zookeeper.proto.WatcherEvent;

/** What a simulated client reports: the history and the client-level checkers listen. */
interface ClientObserver {
    void invoked(SimClient client, ClientOp op);

    void completed(SimClient client, ClientOp op);

    /** Any reply but a notification, in arrival order; {@code expectedXid} is the head of the client's queue. */
    void reply(SimClient client, long connId, int expectedXid, int xid, long zxid);

    void notification(SimClient client, long connId, WatcherEvent event, long zxid);

    /** The client re-sent its watches (SetWatches) on a new connection of a resumed session. */
    void watchesRestored(SimClient client, long connId, List<String> data, List<String> exist,
                         List<String> child);

    void sessionStarted(SimClient client, long sessionId, boolean resumed);

    /** The session is gone: expired (learned on reconnect) or closed by this client's closeSession. */
    void sessionEnded(SimClient client, long sessionId, boolean expired);

    /** The connection of the client closed; every request outstanding on it has been completed. */
    void disconnected(SimClient client, long connId);
}
