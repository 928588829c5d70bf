package io.zabkit.bench.papers;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * Seed 003's workload (section 3): closed-loop clients, each with one request in flight, a write
 * (setData of 1 KB on the client's own znode) with probability writePercent, else a read (getData of it,
 * which the server answers at once); on the reply the client sends its next request. After a warm-up of
 * warmupWrites acknowledged writes, the run is cut into `windows` back-to-back windows of windowWrites
 * acknowledged writes each; each window gives its duration, the client-observed mean write latency and
 * (zabkit) the servers' own receipt-to-abdelivery mean from {@code serverProbe}.
 */
final class AbcastLoad {
    private static final long WINDOW_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final long DRAIN_MS = 30_000;
    /** More failed requests than this ends the run: a client that lost its session would spin on errors. */
    private static final long ERRORS_MAX = 1000;

    /** One window: its wall time, writes and reads acknowledged, client mean write latency, server mean (NaN: none). */
    record Window(double seconds, long writes, long reads, double clientWriteMs, double serverWriteMs) {
        double writesPerSecond() {
            return writes / seconds;
        }
    }

    /** The windows, every write acknowledged in the run (warm-up and drain included), failed requests. */
    record Result(List<Window> windows, long totalWrites, long errors) {}

    private record Mark(long nanos, long writes, long reads, long writeNanos, WriteLatencyProbe.Snapshot server) {}

    private final List<ZooKeeper> clients;
    private final List<String> keys;
    private final byte[] value;
    private final int writePercent;
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong writeNanos = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private volatile boolean stop;
    private final CountDownLatch idle;

    private AbcastLoad(List<ZooKeeper> clients, List<String> keys, byte[] value, int writePercent) {
        this.clients = clients;
        this.keys = keys;
        this.value = value;
        this.writePercent = writePercent;
        this.idle = new CountDownLatch(clients.size());
    }

    /** serverProbe: the servers' cumulative write latency figures, or null where the system has none. */
    static Result run(List<ZooKeeper> clients, List<String> keys, byte[] value, int writePercent, long warmupWrites,
            long windowWrites, int windows, Supplier<WriteLatencyProbe.Snapshot> serverProbe)
            throws InterruptedException {
        if (writePercent < 1 || writePercent > 100 || windowWrites < 1 || windows < 1 || clients.size() != keys.size()) {
            throw new IllegalArgumentException("write % in 1..100, windows of at least one write, a key per client");
        }
        AbcastLoad load = new AbcastLoad(clients, keys, value, writePercent);
        for (int i = 0; i < clients.size(); i++) {
            load.next(i, new SplittableRandom(104_729L * i + writePercent));
        }
        List<Window> out = new ArrayList<>();
        try {
            load.awaitWrites(warmupWrites);
            Mark last = load.mark(serverProbe);
            for (int w = 0; w < windows; w++) {
                load.awaitWrites(last.writes + windowWrites);
                Mark now = load.mark(serverProbe);
                long n = now.writes - last.writes;
                out.add(new Window((now.nanos - last.nanos) / 1e9, n, now.reads - last.reads,
                        (now.writeNanos - last.writeNanos) / 1e6 / n,
                        now.server == null ? Double.NaN : now.server.meanMsSince(last.server)));
                last = now;
            }
        } finally {
            load.stop = true;
            if (!load.idle.await(DRAIN_MS, TimeUnit.MILLISECONDS)) {
                load.errors.addAndGet(load.idle.getCount());
            }
        }
        assert out.size() == windows : "every window measured";
        return new Result(out, load.writes.get(), load.errors.get());
    }

    private void awaitWrites(long target) throws InterruptedException {
        long deadline = System.nanoTime() + WINDOW_TIMEOUT_NS;
        while (writes.get() < target) {
            if (System.nanoTime() > deadline || errors.get() > ERRORS_MAX) {
                throw new IllegalStateException("only " + writes.get() + " of " + target + " writes acknowledged within "
                        + WINDOW_TIMEOUT_NS / 1_000_000_000 + " s (" + errors.get() + " errors)");
            }
            Thread.sleep(1);
        }
    }

    private Mark mark(Supplier<WriteLatencyProbe.Snapshot> serverProbe) {
        long t = System.nanoTime();
        long w = writes.get();
        long r = reads.get();
        long wn = writeNanos.get();
        return new Mark(t, w, r, wn, serverProbe == null ? null : serverProbe.get());
    }

    /** Client i's next request, sent from its reply's callback (one in flight per client). */
    private void next(int i, SplittableRandom random) {
        if (stop) {
            idle.countDown();
            return;
        }
        long start = System.nanoTime();
        ZooKeeper zk = clients.get(i);
        if (random.nextInt(100) < writePercent) {
            zk.setData(keys.get(i), value, -1, (rc, p, c, stat) -> {
                if (rc == KeeperException.Code.OK.intValue()) {
                    writeNanos.addAndGet(System.nanoTime() - start);
                    writes.incrementAndGet();
                } else {
                    errors.incrementAndGet();
                }
                next(i, random);
            }, null);
        } else {
            zk.getData(keys.get(i), false, (rc, p, c, data, stat) -> {
                if (rc == KeeperException.Code.OK.intValue() && data != null && data.length == value.length) {
                    reads.incrementAndGet();
                } else {
                    errors.incrementAndGet();
                }
                next(i, random);
            }, null);
        }
    }
}
