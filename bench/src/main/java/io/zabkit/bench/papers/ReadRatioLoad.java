package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * The saturation workload of the ZooKeeper paper (seed 004, lines 300-309, Fig 5/6): each client keeps
 * `outstanding` asynchronous requests in flight, each a getData (with probability readPercent) or a
 * setData of 1 KB of a random key. Replies that arrive in the measuring window count.
 */
final class ReadRatioLoad {
    private static final long DRAIN_MS = 30_000;

    record Result(int readPercent, long ops, long errors, double seconds) {
        double opsPerSecond() {
            return ops / seconds;
        }
    }

    /** Where a sweep's sessions connect: round-robin over the servers (Fig 5), or all on the leader (Fig 6). */
    enum Placement {
        SPREAD, LEADER;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private ReadRatioLoad() {}

    /**
     * Opens `clients` sessions placed by `placement`, measures one point per read percent on them, and
     * closes them: the sessions outlive the points so a point does not pay for connecting.
     */
    static List<Result> sweep(Ensemble e, int leader, Placement placement, int clients, List<String> keys,
            byte[] value, List<Integer> readPercents, int outstanding, double warmupS, double measureS)
            throws IOException, InterruptedException {
        assert leader >= 1 && leader <= e.size() : "leader " + leader + " is not a server of the ensemble";
        List<ZooKeeper> sessions = new ArrayList<>();
        List<Result> results = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                sessions.add(Systems.session(e, placement == Placement.LEADER ? leader : i % e.size() + 1));
            }
            for (int r : readPercents) {
                results.add(run(sessions, keys, value, r, outstanding, warmupS, measureS));
            }
        } finally {
            sessions.forEach(Systems::close);
        }
        assert results.size() == readPercents.size();
        return results;
    }

    static Result run(List<ZooKeeper> clients, List<String> keys, byte[] value, int readPercent, int outstanding,
            double warmupS, double measureS) throws InterruptedException {
        if (readPercent < 0 || readPercent > 100 || outstanding < 1 || measureS <= 0) {
            throw new IllegalArgumentException("read % in 0..100, outstanding >= 1 and a positive window required");
        }
        long start = System.nanoTime();
        long from = start + (long) (warmupS * 1e9);
        long to = from + (long) (measureS * 1e9);
        AtomicLong ops = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            ZooKeeper zk = clients.get(i);
            SplittableRandom random = new SplittableRandom(7919L * i + readPercent);
            Thread t = new Thread(() -> drive(zk, random, keys, value, readPercent, outstanding, from, to, ops, errors),
                    "load-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return new Result(readPercent, ops.get(), errors.get(), measureS);
    }

    private static void drive(ZooKeeper zk, SplittableRandom random, List<String> keys, byte[] value, int readPercent,
            int outstanding, long from, long to, AtomicLong ops, AtomicLong errors) {
        Semaphore window = new Semaphore(outstanding);
        try {
            while (System.nanoTime() < to) {
                if (!window.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                String key = keys.get(random.nextInt(keys.size()));
                if (random.nextInt(100) < readPercent) {
                    zk.getData(key, false, (rc, p, c, data, stat) -> done(rc, from, to, ops, errors, window), null);
                } else {
                    zk.setData(key, value, -1, (rc, p, c, stat) -> done(rc, from, to, ops, errors, window), null);
                }
            }
            if (!window.tryAcquire(outstanding, DRAIN_MS, TimeUnit.MILLISECONDS)) {
                errors.addAndGet(outstanding - window.availablePermits());
            }
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }

    private static void done(int rc, long from, long to, AtomicLong ops, AtomicLong errors, Semaphore window) {
        long now = System.nanoTime();
        if (now >= from && now < to) {
            if (rc == KeeperException.Code.OK.intValue()) {
                ops.incrementAndGet();
            } else {
                errors.incrementAndGet();
            }
        }
        window.release();
    }
}
