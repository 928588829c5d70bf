package io.zabkit.bench.papers;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Seed 002's own barrier (section 5.4 a): a client reaching barrier b creates an ephemeral child of b,
 * then watches b's children and counts them; every new child wakes every client still waiting, which
 * reads the whole list again (the herd the paper measures in its Table 3).
 */
final class NaiveBarrier implements BarrierRecipe {
    private static final long RETRY_PAUSE_MS = 50;
    private final ZooKeeper zk;
    private final AtomicLong zkOps;
    /** A planted bug for the tests only: pass when this many fewer children than the threshold are there. */
    private final int shortBy;
    /** Counts the re-counts that lost their connection and were sent again. */
    private final AtomicLong connectionLosses;

    NaiveBarrier(ZooKeeper zk, AtomicLong zkOps) {
        this(zk, zkOps, 0, new AtomicLong());
    }

    NaiveBarrier(ZooKeeper zk, AtomicLong zkOps, int shortBy) {
        this(zk, zkOps, shortBy, new AtomicLong());
    }

    NaiveBarrier(ZooKeeper zk, AtomicLong zkOps, int shortBy, AtomicLong connectionLosses) {
        this.zk = zk;
        this.zkOps = zkOps;
        this.shortBy = shortBy;
        this.connectionLosses = connectionLosses;
    }

    @Override
    public boolean await(String path, int threshold, long deadlineNanos) throws KeeperException, InterruptedException {
        assert threshold > 0 : "a barrier needs at least one client";
        zkOps.incrementAndGet();
        zk.create(path + "/p-", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        while (true) {
            CountDownLatch changed = new CountDownLatch(1);
            zkOps.incrementAndGet();
            int arrived;
            try {
                arrived = zk.getChildren(path, event -> changed.countDown()).size();
            } catch (KeeperException.ConnectionLossException x) {
                // A read is safe to send again once the client has reconnected (its session lives on),
                // as any ZooKeeper client must; the create above is not, and still fails the run.
                connectionLosses.incrementAndGet();
                if (deadlineNanos - System.nanoTime() <= 0) {
                    return false;
                }
                Thread.sleep(RETRY_PAUSE_MS); // no spinning while the client reconnects
                continue;
            }
            if (arrived >= threshold - shortBy) {
                return true;
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0 || !changed.await(left, TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
    }
}
