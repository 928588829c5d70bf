package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * System S's multi-op limits (seed 001, section 5.2 and Fig 6, lines 219-225): one multi creating
 * `count` znodes of `nodeBytes` each under a fresh parent, with a client-side operation timeout; then,
 * on every server after a sync, the parent's child count, which must be 0 (the multi failed) or
 * `count` (it succeeded): anything between is a half-applied multi.
 */
final class MultiLimits {
    /** The paper's operation timeout (line 223). */
    static final long TIMEOUT_MS = 30_000;
    /** How long a timed-out or lost multi may still take to land before the tree is read. */
    private static final long SETTLE_MS = 60_000;
    private static final int DELETE_WINDOW = 500;

    enum Outcome { OK, FAILED, TIMEOUT }

    /**
     * @param code the error of a failed multi (ConnectionLoss when a server closes on an oversized request)
     * @param childrenPerServer each server's child count of the parent after the multi settled
     */
    record Result(int nodeBytes, int count, Outcome outcome, String code, double seconds,
            List<Integer> childrenPerServer) {
        /** All or nothing on every server, and the same on every server. */
        boolean atomic() {
            int first = childrenPerServer.get(0);
            return (first == 0 || first == count) && childrenPerServer.stream().allMatch(c -> c == first);
        }

        /** The child count every server shows (meaningful when atomic). */
        int applied() {
            return childrenPerServer.get(0);
        }
    }

    private MultiLimits() {}

    /**
     * One multi of `count` creates under parent; if plantFailure, its last op creates the first path
     * again, so the server must reject the whole multi (NodeExists) and apply none of it.
     */
    static Result run(Ensemble e, int leaderId, int maxBuffer, String parent, int nodeBytes, int count,
            boolean plantFailure) throws Exception {
        ZooKeeper zk = Systems.session(e, leaderId, maxBuffer);
        try {
            zk.create(parent, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            byte[] data = new byte[nodeBytes];
            List<Op> ops = new ArrayList<>(count + 1);
            for (int i = 0; i < count; i++) {
                ops.add(Op.create(parent + "/n" + i, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
            }
            if (plantFailure) {
                ops.add(Op.create(parent + "/n0", data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
            }
            CountDownLatch done = new CountDownLatch(1);
            AtomicInteger rc = new AtomicInteger(Integer.MIN_VALUE);
            long t0 = System.nanoTime();
            zk.multi(ops, (code, path, ctx, results) -> {
                rc.set(code);
                done.countDown();
            }, null);
            boolean answered = done.await(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            double seconds = (System.nanoTime() - t0) / 1e9;
            Outcome outcome = !answered ? Outcome.TIMEOUT
                    : rc.get() == KeeperException.Code.OK.intValue() ? Outcome.OK : Outcome.FAILED;
            String code = answered ? KeeperException.Code.get(rc.get()).name() : "-";
            List<Integer> children = settledChildren(e, maxBuffer, parent, count);
            return new Result(nodeBytes, count, outcome, code, seconds, children);
        } finally {
            Systems.close(zk);
        }
    }

    /**
     * Each server's child count of parent after a sync, read until every server shows 0 or count alike
     * (a timed-out multi may still commit), or SETTLE_MS pass: then whatever they show is the verdict.
     */
    static List<Integer> settledChildren(Ensemble e, int maxBuffer, String parent, int count) throws Exception {
        long deadline = System.nanoTime() + SETTLE_MS * 1_000_000;
        List<Integer> counts;
        do {
            counts = new ArrayList<>();
            for (int id : e.runningIds()) {
                counts.add(childCount(e, id, maxBuffer, parent));
            }
            int first = counts.get(0);
            boolean settled = (first == 0 || first == count) && counts.stream().allMatch(c -> c == first);
            if (settled) {
                return counts;
            }
            Thread.sleep(1000);
        } while (System.nanoTime() < deadline);
        return counts;
    }

    private static int childCount(Ensemble e, int id, int maxBuffer, String parent) throws Exception {
        ZooKeeper zk = Systems.session(e, id, maxBuffer);
        try {
            CountDownLatch synced = new CountDownLatch(1);
            zk.sync(parent, (rc, p, ctx) -> synced.countDown(), null);
            if (!synced.await(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("server " + id + " did not answer a sync within " + TIMEOUT_MS + " ms");
            }
            Stat stat = zk.exists(parent, false);
            if (stat == null) {
                throw new IllegalStateException("server " + id + " lost " + parent + ", created before the multi");
            }
            return stat.getNumChildren();
        } finally {
            Systems.close(zk);
        }
    }

    /** Deletes parent and its children n0..n(count-1), pipelined, so the next point starts from the same tree. */
    static void clean(Ensemble e, int leaderId, int maxBuffer, String parent, int count) throws Exception {
        ZooKeeper zk = Systems.session(e, leaderId, maxBuffer);
        try {
            Semaphore window = new Semaphore(DELETE_WINDOW);
            for (int i = 0; i < count; i++) {
                if (!window.tryAcquire(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("deletes unanswered for " + TIMEOUT_MS + " ms");
                }
                zk.delete(parent + "/n" + i, -1, (rc, p, ctx) -> window.release(), null);
            }
            if (!window.tryAcquire(DELETE_WINDOW, TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("deletes unanswered for " + TIMEOUT_MS + " ms");
            }
            zk.delete(parent, -1);
        } finally {
            Systems.close(zk);
        }
    }

    /**
     * The paper's blue lines (Fig 6, line 234): a job of `total` creates split into multis of `perMulti`
     * each, issued one after another; seconds until the last is answered.
     */
    static double splitJob(Ensemble e, int leaderId, int maxBuffer, String parent, int nodeBytes, int total,
            int perMulti) throws Exception {
        ZooKeeper zk = Systems.session(e, leaderId, maxBuffer);
        try {
            zk.create(parent, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            byte[] data = new byte[nodeBytes];
            long t0 = System.nanoTime();
            for (int from = 0; from < total; from += perMulti) {
                List<Op> ops = new ArrayList<>(perMulti);
                for (int i = from; i < Math.min(total, from + perMulti); i++) {
                    ops.add(Op.create(parent + "/n" + i, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
                }
                zk.multi(ops);
            }
            return (System.nanoTime() - t0) / 1e9;
        } finally {
            Systems.close(zk);
        }
    }
}
