package io.zabkit.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.time.Duration;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * Runs one point of the throughput workload: every client issues getData (with probability
 * readPercent) or setData of a random key through the official client's async API, with at most
 * {@code outstanding} requests in flight. Operations that complete during the measuring window
 * (after the warm-up) are counted; their latency is issue-to-callback.
 */
final class LoadPoint {
    private static final long DRAIN_TIMEOUT_MS = 30_000;
    private static final long PROGRESS_EVERY_MS = 2_000;
    private static final long WINDOW_POLL_MS = 50;
    /** Not a ZooKeeper code: a read that succeeded with other bytes than the workload writes; an error. */
    private static final int WRONG_VALUE = Integer.MIN_VALUE;

    private final List<ZooKeeper> clients;
    private final List<String> keys;
    private final LoadSettings settings;
    private final int readPercent;
    private final byte[] value;
    private final long[] latenciesNs;
    private final AtomicInteger measured = new AtomicInteger();
    private final AtomicLong errors = new AtomicLong();
    private volatile long measureStartNs = Long.MAX_VALUE;
    private volatile long measureEndNs = Long.MAX_VALUE;
    /** When the ops bound was reached, if it was: the point ends there. */
    private final AtomicLong boundReachedNs = new AtomicLong(Long.MAX_VALUE);

    private LoadPoint(List<ZooKeeper> clients, List<String> keys, LoadSettings settings, int readPercent) {
        this.clients = clients;
        this.keys = keys;
        this.settings = settings;
        this.readPercent = readPercent;
        this.value = value(settings.valueBytes());
        this.latenciesNs = new long[settings.measuredOpsMax()];
    }

    /** The bytes every key is created with and set to, so that every read can be checked against them. */
    static byte[] value(int bytes) {
        byte[] v = new byte[bytes];
        Arrays.fill(v, (byte) 'v');
        return v;
    }

    /** serverCpu: the servers' CPU time so far, sampled when the measuring window opens and when it closes. */
    static PointResult run(SystemUnderTest system, List<ZooKeeper> clients, List<String> keys, LoadSettings settings,
            int readPercent, Supplier<Duration> serverCpu, Consumer<String> progress) throws Exception {
        if (readPercent < 0 || readPercent > 100) {
            throw new IllegalArgumentException("read percentage must be 0..100, got " + readPercent);
        }
        return new LoadPoint(clients, keys, settings, readPercent).run(system, serverCpu, progress);
    }

    private PointResult run(SystemUnderTest system, Supplier<Duration> serverCpu, Consumer<String> progress)
            throws Exception {
        long start = System.nanoTime();
        measureStartNs = start + settings.warmup().toNanos();
        measureEndNs = measureStartNs + settings.measure().toNanos();
        List<Thread> drivers = new ArrayList<>();
        List<String> stuck = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            ZooKeeper zk = clients.get(i);
            long seed = 0x5eedL * 31 + i * 1_000_003L + readPercent;
            Thread t = new Thread(() -> drive(zk, new SplittableRandom(seed), stuck), "load-" + i);
            t.setDaemon(true);
            drivers.add(t);
            t.start();
        }
        String label = system.label() + " reads=" + readPercent + "%";
        awaitNs(() -> measureStartNs, () -> reportProgress(label, progress));
        CpuWindow cpu = CpuWindow.open(serverCpu);
        awaitNs(() -> Math.min(measureEndNs, boundReachedNs.get()), () -> reportProgress(label, progress));
        double[] cpuMs = cpu.closeMs();
        for (Thread t : drivers) {
            while (t.isAlive()) {
                t.join(PROGRESS_EVERY_MS);
                reportProgress(label, progress);
            }
        }
        if (!stuck.isEmpty()) {
            progress.accept(label + ": " + String.join("; ", stuck));
        }
        return result(system, cpuMs);
    }

    /** A progress line of a point in flight; the lean client's asks its loop thread, hence the exception. */
    interface Report {
        void progress() throws Exception;
    }

    /**
     * Sleeps until the (possibly moving) deadline, running report every PROGRESS_EVERY_MS: the one wait
     * of both load clients, so a long point shows progress the same way whichever client drives it.
     */
    static void awaitNs(LongSupplier deadlineNs, Report report) throws Exception {
        long nextReportNs = System.nanoTime() + PROGRESS_EVERY_MS * 1_000_000;
        for (long now = System.nanoTime(); now < deadlineNs.getAsLong(); now = System.nanoTime()) {
            Thread.sleep(Math.max(1, Math.min(WINDOW_POLL_MS, (deadlineNs.getAsLong() - now) / 1_000_000)));
            if (System.nanoTime() >= nextReportNs) {
                report.progress();
                nextReportNs += PROGRESS_EVERY_MS * 1_000_000;
            }
        }
    }

    private void reportProgress(String label, Consumer<String> progress) {
        long now = System.nanoTime();
        if (now < measureStartNs) {
            progress.accept(String.format("%s: warming up (%.0f s left)", label, (measureStartNs - now) / 1e9));
        } else if (now < Math.min(measureEndNs, boundReachedNs.get())) {
            double s = (now - measureStartNs) / 1e9;
            progress.accept(String.format("%s: measuring %.0f/%d s, %,.0f ops/s so far", label, s,
                    settings.measure().toSeconds(), Math.min(measured.get(), latenciesNs.length) / Math.max(s, 1e-3)));
        }
    }

    /** One client's issuing loop: bounded by the measuring window and the ops bound; then it waits for its replies. */
    private void drive(ZooKeeper zk, SplittableRandom random, List<String> stuck) {
        Semaphore window = new Semaphore(settings.outstanding());
        try {
            while (System.nanoTime() < Math.min(measureEndNs, boundReachedNs.get())) {
                if (!window.tryAcquire(WINDOW_POLL_MS, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                String key = keys.get(random.nextInt(keys.size()));
                long issuedNs = System.nanoTime();
                if (random.nextInt(100) < readPercent) {
                    zk.getData(key, false, (rc, path, ctx, data, stat) -> completed(
                            rc == KeeperException.Code.OK.intValue() && !holdsValue(data) ? WRONG_VALUE : rc,
                            issuedNs, window), null);
                } else {
                    zk.setData(key, value, -1, (rc, path, ctx, stat) -> completed(rc, issuedNs, window), null);
                }
            }
            if (!window.tryAcquire(settings.outstanding(), DRAIN_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                int missing = settings.outstanding() - window.availablePermits();
                errors.addAndGet(missing);
                synchronized (stuck) {
                    stuck.add(missing + " requests unanswered " + DRAIN_TIMEOUT_MS / 1000 + " s after the point ended");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Every key holds the workload's value (created with it, only ever set to it), so a read must return it. */
    private boolean holdsValue(byte[] data) {
        return Arrays.equals(data, value);
    }

    /** Runs on the client's event thread. */
    private void completed(int rc, long issuedNs, Semaphore window) {
        long doneNs = System.nanoTime();
        if (doneNs >= measureStartNs && doneNs < Math.min(measureEndNs, boundReachedNs.get())) {
            if (rc != KeeperException.Code.OK.intValue()) {
                errors.incrementAndGet();
            } else {
                int slot = measured.getAndIncrement();
                if (slot < latenciesNs.length) {
                    latenciesNs[slot] = doneNs - issuedNs;
                } else {
                    boundReachedNs.compareAndSet(Long.MAX_VALUE, doneNs);
                }
            }
        }
        window.release();
    }

    private PointResult result(SystemUnderTest system, double[] cpuMs) {
        int n = Math.min(measured.get(), latenciesNs.length);
        long[] sorted = Arrays.copyOf(latenciesNs, n);
        Arrays.sort(sorted);
        double seconds = (Math.min(measureEndNs, boundReachedNs.get()) - measureStartNs) / 1e9;
        return new PointResult(system, readPercent, n, errors.get(), seconds, percentileMs(sorted, 50),
                percentileMs(sorted, 99), cpuMs[0], cpuMs[1]);
    }

    /** Nearest-rank percentile; NaN when nothing completed. */
    static double percentileMs(long[] sortedNs, double p) {
        if (sortedNs.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sortedNs.length);
        return sortedNs[Math.max(0, Math.min(sortedNs.length - 1, rank - 1))] / 1e6;
    }
}
