package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.OrderedHostProvider;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Seed 004's Fig 8 (lines 332-350): the saturation workload at a constant 30% writes on 5 servers while
 * servers are killed and restarted, throughput counted per 100 ms bucket of completion time. The marks
 * are the paper's: (1) a follower fails and recovers, (2) a different follower does, (3) the leader
 * fails, (4) two followers fail at marks a and b and recover at c, (5) the leader fails. The paper does
 * not say when a failed leader came back; here it is restarted (as a follower) two gaps later.
 */
final class FailureTimeline {
    static final double BUCKET_S = 0.1;
    private static final long DRAIN_MS = 20_000;

    /** A point of the schedule: the paper's mark label, when it happened (s from the load's start), what and whom. */
    record Mark(String label, double atS, String what, int server) {}

    /** One system's run: operations and errors completed per bucket, the marks as executed. */
    record Run(String system, long[] ops, long[] errors, List<Mark> marks) {
        Run {
            assert ops.length == errors.length : "one error count per bucket";
            assert marks.stream().allMatch(m -> m.atS() >= 0 && m.atS() <= ops.length * BUCKET_S) : "marks inside the run";
        }

        double seconds() {
            return ops.length * BUCKET_S;
        }

        /** Mean ops/s over [fromS, toS). */
        double rate(double fromS, double toS) {
            int a = Math.max(0, (int) Math.floor(fromS / BUCKET_S));
            int b = Math.min(ops.length, (int) Math.floor(toS / BUCKET_S));
            long sum = 0;
            for (int i = a; i < b; i++) {
                sum += ops[i];
            }
            return b > a ? sum / ((b - a) * BUCKET_S) : Double.NaN;
        }

        /** The longest run of buckets with no completed operation in [fromS, toS), in seconds. */
        double longestStall(double fromS, double toS) {
            int a = Math.max(0, (int) Math.floor(fromS / BUCKET_S));
            int b = Math.min(ops.length, (int) Math.floor(toS / BUCKET_S));
            int best = 0;
            int run = 0;
            for (int i = a; i < b; i++) {
                run = ops[i] == 0 ? run + 1 : 0;
                best = Math.max(best, run);
            }
            return best * BUCKET_S;
        }

        /** The lowest 100 ms rate in [fromS, toS), ops/s. */
        double lowest(double fromS, double toS) {
            int a = Math.max(0, (int) Math.floor(fromS / BUCKET_S));
            int b = Math.min(ops.length, (int) Math.floor(toS / BUCKET_S));
            long min = Long.MAX_VALUE;
            for (int i = a; i < b; i++) {
                min = Math.min(min, ops[i]);
            }
            return b > a ? min / BUCKET_S : Double.NaN;
        }
    }

    private FailureTimeline() {}

    /**
     * Runs the load for warmupS seconds, then 16 gaps of gapS seconds on e (5 servers, serving), the marks
     * from gap 2 on.
     * clients sessions, each starting on server i mod N and failing over to the next ids in turn (the
     * paper's clients move only when their connection breaks), each keeping `outstanding` requests in
     * flight on `keys` (1 KB values).
     */
    static Run run(Ensemble e, List<String> keys, byte[] value, int clients, int outstanding, int writePercent,
            double gapS, double warmupS, Consumer<String> log) throws Exception {
        if (e.size() < 5 || writePercent < 0 || writePercent > 100 || gapS <= 0) {
            throw new IllegalArgumentException("Fig 8 needs 5 or more servers, a write % in 0..100 and a positive gap");
        }
        int buckets = (int) Math.ceil(16 * gapS / BUCKET_S);
        AtomicLongArray ops = new AtomicLongArray(buckets);
        AtomicLongArray errors = new AtomicLongArray(buckets);
        List<ZooKeeper> sessions = new ArrayList<>();
        List<Mark> marks = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        try {
            for (int i = 0; i < clients; i++) {
                sessions.add(session(e, i % e.size() + 1));
            }
            // completions before `start` (the warm-up) fall in no bucket
            long start = System.nanoTime() + (long) (warmupS * 1e9);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                ZooKeeper zk = sessions.get(i);
                SplittableRandom random = new SplittableRandom(104_729L * (i + 1));
                Thread t = new Thread(() -> drive(zk, random, keys, value, writePercent, outstanding, start, ops,
                        errors, stop), "fig8-load-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            schedule(e, start, gapS, marks, log);
            sleepUntil(start, buckets * BUCKET_S);
            stop.set(true);
            for (Thread t : threads) {
                t.join(DRAIN_MS + 5_000);
            }
            for (int id : e.ids()) {
                if (!e.isRunning(id)) {
                    e.restart(id); // leave the ensemble whole for the next part
                }
            }
        } finally {
            stop.set(true);
            sessions.forEach(Systems::close);
        }
        long[] o = new long[buckets];
        long[] x = new long[buckets];
        for (int i = 0; i < buckets; i++) {
            o[i] = ops.get(i);
            x[i] = errors.get(i);
        }
        return new Run(e.system().label(), o, x, List.copyOf(marks));
    }

    /** The paper's five events, one gap apart, from 2 gaps in (a baseline first). */
    private static void schedule(Ensemble e, long start, double g, List<Mark> marks, Consumer<String> log)
            throws Exception {
        int f1 = follower(e, List.of(), start, 2 * g);
        kill(e, "1", f1, start, 2 * g, marks, log);
        restart(e, "1", f1, start, 3 * g, marks, log);
        int f2 = follower(e, List.of(f1), start, 4 * g);
        kill(e, "2", f2, start, 4 * g, marks, log);
        restart(e, "2", f2, start, 5 * g, marks, log);
        int l1 = leader(e, start, 6 * g);
        kill(e, "3", l1, start, 6 * g, marks, log);
        restart(e, "3", l1, start, 8 * g, marks, log);
        int a = follower(e, List.of(), start, 9 * g);
        kill(e, "4a", a, start, 9 * g, marks, log);
        int b = follower(e, List.of(a), start, 10 * g);
        kill(e, "4b", b, start, 10 * g, marks, log);
        restart(e, "4c", a, start, 11 * g, marks, log);
        restart(e, "4c", b, start, 11 * g, marks, log);
        int l2 = leader(e, start, 12 * g);
        kill(e, "5", l2, start, 12 * g, marks, log);
        restart(e, "5", l2, start, 14 * g, marks, log);
    }

    private static void kill(Ensemble e, String label, int id, long start, double atS, List<Mark> marks,
            Consumer<String> log) throws InterruptedException {
        sleepUntil(start, atS);
        long ns = e.killTimed(id);
        marks.add(new Mark(label, (ns - start) / 1e9, "kill -9", id));
        log.accept(String.format("   %s t=%.1f s: kill -9 of server %d", label, (ns - start) / 1e9, id));
    }

    private static void restart(Ensemble e, String label, int id, long start, double atS, List<Mark> marks,
            Consumer<String> log) throws Exception {
        sleepUntil(start, atS);
        double t = (System.nanoTime() - start) / 1e9;
        e.restart(id);
        marks.add(new Mark(label, t, "restart", id));
        log.accept(String.format("   %s t=%.1f s: restart of server %d", label, t, id));
    }

    /** A running follower not in `avoid`, asked for right before its mark (the leader may have moved). */
    private static int follower(Ensemble e, List<Integer> avoid, long start, double atS) throws InterruptedException {
        int leader = leader(e, start, atS);
        for (int id : e.runningIds()) {
            if (id != leader && !avoid.contains(id)) {
                return id;
            }
        }
        throw new IllegalStateException(e.system().label() + ": no running follower outside " + avoid);
    }

    /** The serving leader, polled until shortly before its mark (at most 30 s past it). */
    private static int leader(Ensemble e, long start, double atS) throws InterruptedException {
        long deadline = start + (long) ((atS + 30) * 1e9);
        while (System.nanoTime() < deadline) {
            OptionalInt l = e.leader();
            if (l.isPresent()) {
                return l.getAsInt();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(e.system().label() + ": no leader 30 s after t=" + atS + " s; "
                + e.modes());
    }

    private static void sleepUntil(long start, double atS) throws InterruptedException {
        long wait = start + (long) (atS * 1e9) - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    /** A session on server `first`, failing over to first+1, first+2, ... (wrapping), so clients spread out. */
    private static ZooKeeper session(Ensemble e, int first) throws Exception {
        List<InetSocketAddress> order = new ArrayList<>();
        for (int k = 0; k < e.size(); k++) {
            order.add(e.clientAddress((first - 1 + k) % e.size() + 1));
        }
        CountDownLatch connected = new CountDownLatch(1);
        Watcher w = event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        };
        ZooKeeper zk = new ZooKeeper(e.connectString(), Systems.SESSION_TIMEOUT_MS, w, false,
                new OrderedHostProvider(order));
        if (!connected.await(30, TimeUnit.SECONDS)) {
            Systems.close(zk);
            throw new IllegalStateException("no session with server " + first + " of " + e.system().label());
        }
        return zk;
    }

    private static void drive(ZooKeeper zk, SplittableRandom random, List<String> keys, byte[] value,
            int writePercent, int outstanding, long start, AtomicLongArray ops, AtomicLongArray errors,
            AtomicBoolean stop) {
        Semaphore window = new Semaphore(outstanding);
        try {
            while (!stop.get()) {
                if (!window.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                String key = keys.get(random.nextInt(keys.size()));
                if (random.nextInt(100) < writePercent) {
                    zk.setData(key, value, -1, (rc, p, c, stat) -> done(rc, start, ops, errors, window), null);
                } else {
                    zk.getData(key, false, (rc, p, c, data, stat) -> done(rc, start, ops, errors, window), null);
                }
            }
            window.tryAcquire(outstanding, DRAIN_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }

    private static void done(int rc, long start, AtomicLongArray ops, AtomicLongArray errors, Semaphore window) {
        int bucket = (int) ((System.nanoTime() - start) / (long) (BUCKET_S * 1e9));
        if (bucket >= 0 && bucket < ops.length()) {
            (rc == KeeperException.Code.OK.intValue() ? ops : errors).incrementAndGet(bucket);
        }
        window.release();
    }
}
