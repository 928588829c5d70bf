package io.zabkit.bench.papers;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The thesis's create test (seed 000, section 5.2.2, lines 792-794): one client creates `count`
 * znodes of `bytes` each, with the synchronous API (each create waits for its reply) or the
 * asynchronous one (up to `window` in flight); the time from the first request to the last reply.
 */
final class CreateRun {
    private static final long DRAIN_MS = 30_000;

    record Result(String api, CreateMode mode, int created, long errors, double seconds) {
        double createsPerSecond() {
            return created / seconds;
        }

        double meanLatencyMs() {
            return seconds * 1000 / created;
        }
    }

    private CreateRun() {}

    /** Stops early at deadlineS (the synchronous API on a slow disk); `created` says how far it got. */
    static Result run(ZooKeeper zk, String parent, CreateMode mode, boolean async, int count, int bytes, int window,
            double deadlineS) throws Exception {
        if (zk.exists(parent, false) == null) {
            zk.create(parent, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        byte[] data = new byte[bytes];
        AtomicLong ok = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long t0 = System.nanoTime();
        long deadline = t0 + (long) (deadlineS * 1e9);
        if (async) {
            Semaphore inFlight = new Semaphore(window);
            int issued = 0;
            for (; issued < count && System.nanoTime() < deadline; issued++) {
                if (!inFlight.tryAcquire(DRAIN_MS, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("creates unanswered for " + DRAIN_MS + " ms");
                }
                zk.create(parent + "/n" + issued, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, mode, (rc, p, c, name) -> {
                    (rc == KeeperException.Code.OK.intValue() ? ok : errors).incrementAndGet();
                    inFlight.release();
                }, null);
            }
            if (!inFlight.tryAcquire(window, DRAIN_MS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("creates unanswered for " + DRAIN_MS + " ms");
            }
        } else {
            for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
                try {
                    zk.create(parent + "/n" + i, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, mode);
                    ok.incrementAndGet();
                } catch (KeeperException x) {
                    errors.incrementAndGet();
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Result(async ? "async" : "sync", mode, (int) ok.get(), errors.get(), seconds);
    }
}
