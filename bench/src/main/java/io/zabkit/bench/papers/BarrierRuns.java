package io.zabkit.bench.papers;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/** The barrier experiments: seed 002's Table 3 (b barriers in a row) and seed 004's Table 3 (double barriers). */
final class BarrierRuns {
    /**
     * A sequence of barriers: secondsAfter[k] is the time from the start until every client had passed
     * barriers 0..k (so one run of b barriers also gives the totals for every shorter prefix).
     */
    record Sequence(double[] secondsAfter, int early, String firstViolation) {}

    /**
     * A double-barrier run: every client entered barriers 0..b-1, then left them in the same order.
     * longestStepS: the longest single enter or leave of any client, which tells one stall (a
     * reconnect, a slow fsync) from a run that is slow throughout.
     */
    record Double(int clients, int barriers, double seconds, int early, double longestStepS) {
        double barrierOpsPerSecond() {
            return 2.0 * clients * barriers / seconds;
        }
    }

    private BarrierRuns() {}

    /** Barrier znodes root/b-0 .. root/b-(count-1), persistent. */
    static void createBarriers(ZooKeeper zk, String root, int count) throws KeeperException, InterruptedException {
        zk.create(root, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        for (int i = 0; i < count; i++) {
            zk.create(root + "/b-" + i, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
    }

    /** Seed 002 Table 3: each client passes root/b-0 .. b-(barriers-1) in order, each with threshold = clients. */
    static Sequence sequence(List<BarrierRecipe> clients, String root, int barriers, double maxSeconds) throws Exception {
        int n = clients.size();
        BarrierAudit audit = new BarrierAudit(barriers, n);
        AtomicLongArray lastPass = new AtomicLongArray(barriers);
        long t0 = System.nanoTime();
        long deadline = t0 + (long) (maxSeconds * 1e9);
        ClientThreads.run(n, maxSeconds + 30, c -> {
            for (int i = 0; i < barriers; i++) {
                audit.arrive(i);
                if (!clients.get(c).await(root + "/b-" + i, n, deadline)) {
                    throw new IllegalStateException("client " + c + " still waiting at barrier " + i + " after "
                            + maxSeconds + " s");
                }
                audit.passed(i);
                long now = System.nanoTime();
                lastPass.accumulateAndGet(i, now, Math::max);
            }
        });
        double[] after = new double[barriers];
        for (int i = 0; i < barriers; i++) {
            after[i] = (lastPass.get(i) - t0) / 1e9;
        }
        return new Sequence(after, audit.early(), audit.firstViolation());
    }

    /**
     * Seed 004 Table 3 with Curator's DistributedDoubleBarrier (the ZooKeeper paper's section 2.4
     * algorithm: a "ready" child to enter, the lowest and highest children to leave): each client enters
     * barriers 0..b-1 in order, then leaves them in order.
     */
    static Double doubleBarriers(List<CuratorFramework> clients, String root, int barriers, double maxSeconds)
            throws Exception {
        int n = clients.size();
        BarrierAudit entered = new BarrierAudit(barriers, n);
        BarrierAudit left = new BarrierAudit(barriers, n);
        long t0 = System.nanoTime();
        long deadline = t0 + (long) (maxSeconds * 1e9);
        AtomicLong longestStepNs = new AtomicLong();
        ClientThreads.run(n, maxSeconds + 30, c -> {
            DistributedDoubleBarrier[] b = new DistributedDoubleBarrier[barriers];
            for (int i = 0; i < barriers; i++) {
                b[i] = new DistributedDoubleBarrier(clients.get(c), root + "/b-" + i, n);
                entered.arrive(i);
                long s0 = System.nanoTime();
                if (!b[i].enter(Math.max(1, deadline - s0), TimeUnit.NANOSECONDS)) {
                    throw new IllegalStateException("client " + c + " could not enter barrier " + i + " in time");
                }
                longestStepNs.accumulateAndGet(System.nanoTime() - s0, Math::max);
                entered.passed(i);
            }
            for (int i = 0; i < barriers; i++) {
                left.arrive(i);
                long s0 = System.nanoTime();
                if (!b[i].leave(Math.max(1, deadline - s0), TimeUnit.NANOSECONDS)) {
                    throw new IllegalStateException("client " + c + " could not leave barrier " + i + " in time");
                }
                longestStepNs.accumulateAndGet(System.nanoTime() - s0, Math::max);
                left.passed(i);
            }
        });
        return new Double(n, barriers, (System.nanoTime() - t0) / 1e9, entered.early() + left.early(),
                longestStepNs.get() / 1e9);
    }
}
