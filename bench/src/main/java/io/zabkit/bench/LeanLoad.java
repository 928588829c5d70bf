package io.zabkit.bench;

import io.zabkit.bench.lean.LeanLoop;
import io.zabkit.bench.lean.LeanSession;
import io.zabkit.bench.lean.Wire;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The throughput workload driven by the lean client (io.zabkit.bench.lean): every session on one
 * selector thread, each pinned to one server, speaking ZooKeeper's wire protocol at the jute level.
 * It issues what {@link LoadPoint} issues (getData with probability readPercent, else setData of the
 * workload's value, on a random key, up to {@code outstanding} in flight per session) for a few
 * microseconds of client CPU per operation, where the official client's two threads per session took
 * the cores the servers needed (on a 2-core machine the clients, not the servers, limited zabkit). As
 * the paper's C++ clients did for its Java ones (seed 001, section 6.3).
 *
 * <p>A session's replies come in the order of its requests (ZooKeeper's FIFO client order), so each
 * session keeps its issue times in a ring and checks every reply's xid against it.
 */
final class LeanLoad implements LeanSession.Handler, AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);
    private static final long POLL_MS = 50;

    /** One session's requests in flight, oldest first; touched on the loop thread only. */
    private static final class InFlight {
        final int[] xids;
        final long[] issuedNs;
        final boolean[] reads;
        int head;
        int size;
        SplittableRandom random;

        InFlight(int outstanding) {
            xids = new int[outstanding];
            issuedNs = new long[outstanding];
            reads = new boolean[outstanding];
        }
    }

    private final LeanLoop loop;
    private final List<LeanSession> sessions = new ArrayList<>();
    private final InFlight[] inFlight;
    private final int outstanding;
    // The running point; written by the caller through loop.call, read on the loop thread.
    private List<String> keys = List.of();
    private byte[] value = new byte[0];
    private int readPercent;
    private long measureStartNs = Long.MAX_VALUE;
    private long measureEndNs = Long.MAX_VALUE;
    private long[] latenciesNs = new long[0];
    private int measured;
    private long errors;
    private long boundReachedNs = Long.MAX_VALUE;
    private String broken;

    /** clients sessions, client i pinned to servers[i mod servers.size()], connected before it returns. */
    LeanLoad(List<InetSocketAddress> servers, int clients, int outstanding, int sessionTimeoutMs) throws Exception {
        if (servers.isEmpty() || clients < 1 || outstanding < 1) {
            throw new IllegalArgumentException("the lean load needs a server, a client and a window of at least 1");
        }
        this.outstanding = outstanding;
        this.inFlight = new InFlight[clients];
        this.loop = new LeanLoop("bench-lean-clients", Duration.ofMillis(5), () -> { }); // replies drive issuing
        for (int i = 0; i < clients; i++) {
            inFlight[i] = new InFlight(outstanding);
            sessions.add(new LeanSession(i, List.of(servers.get(i % servers.size())), sessionTimeoutMs, this));
        }
        loop.add(sessions);
        long deadlineNs = System.nanoTime() + CONNECT_TIMEOUT.toNanos();
        while (loop.query(all -> all.stream().filter(LeanSession::connected).count()) < clients) {
            if (System.nanoTime() > deadlineNs) {
                loop.close();
                throw new IllegalStateException("lean client: not every one of " + clients
                        + " sessions connected within " + CONNECT_TIMEOUT);
            }
            Thread.sleep(POLL_MS);
        }
    }

    /** One point; the same figures as {@link LoadPoint#run}. */
    PointResult run(SystemUnderTest system, List<String> keys, LoadSettings settings, int readPercent,
            Supplier<Duration> serverCpu, Consumer<String> progress) throws Exception {
        if (readPercent < 0 || readPercent > 100 || settings.outstanding() != outstanding) {
            throw new IllegalArgumentException("read % in 0..100 and the sessions' window required");
        }
        String label = system.label() + " reads=" + readPercent + "% (lean client)";
        long startNs = System.nanoTime();
        loop.call(() -> start(keys, LoadPoint.value(settings.valueBytes()), readPercent, settings, startNs));
        long measureFromNs = startNs + settings.warmup().toNanos();
        LoadPoint.awaitNs(() -> measureFromNs, () -> reportProgress(measureFromNs, label, progress));
        CpuWindow cpu = CpuWindow.open(serverCpu);
        long endNs = startNs + settings.warmup().toNanos() + settings.measure().toNanos();
        LoadPoint.awaitNs(() -> endNs, () -> reportProgress(measureFromNs, label, progress));
        double[] cpuMs = cpu.closeMs();
        long drainDeadlineNs = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        while (loop.query(all -> Arrays.stream(inFlight).mapToInt(f -> f.size).sum()) > 0) {
            if (System.nanoTime() > drainDeadlineNs) {
                progress.accept(label + ": requests unanswered " + DRAIN_TIMEOUT.toSeconds() + " s after the point");
                break;
            }
            Thread.sleep(POLL_MS);
        }
        return loop.call(() -> result(system, cpuMs, label, progress));
    }

    private boolean start(List<String> keys, byte[] value, int readPercent, LoadSettings settings, long startNs) {
        assert Arrays.stream(inFlight).allMatch(f -> f.size == 0) : "a point starts with nothing in flight";
        this.keys = keys;
        this.value = value;
        this.readPercent = readPercent;
        this.measureStartNs = startNs + settings.warmup().toNanos();
        this.measureEndNs = measureStartNs + settings.measure().toNanos();
        this.latenciesNs = new long[settings.measuredOpsMax()];
        this.measured = 0;
        this.errors = 0;
        this.boundReachedNs = Long.MAX_VALUE;
        this.broken = null;
        for (LeanSession s : sessions) {
            inFlight[s.index].random = new SplittableRandom(0x5eedL * 31 + s.index * 1_000_003L + readPercent);
            for (int i = 0; i < outstanding; i++) {
                issue(s);
            }
        }
        return true;
    }

    private boolean issuing(long nowNs) {
        return nowNs < Math.min(measureEndNs, boundReachedNs) && broken == null;
    }

    private void issue(LeanSession s) {
        InFlight f = inFlight[s.index];
        assert f.size < outstanding : "session " + s.index + " issues past its window";
        String key = keys.get(f.random.nextInt(keys.size()));
        boolean read = f.random.nextInt(100) < readPercent;
        int xid = s.nextXid();
        int slot = (f.head + f.size) % outstanding;
        f.xids[slot] = xid;
        f.issuedNs[slot] = System.nanoTime();
        f.reads[slot] = read;
        f.size++;
        s.send(read ? Wire.getData(xid, key, false) : Wire.setData(xid, key, value));
    }

    @Override
    public void reply(LeanSession s, int xid, int err, ByteBuffer body) {
        long doneNs = System.nanoTime();
        InFlight f = inFlight[s.index];
        if (f.size == 0 || f.xids[f.head] != xid) {
            broken = "session " + s.index + ": reply to xid " + xid + " where "
                    + (f.size == 0 ? "nothing was in flight" : "xid " + f.xids[f.head] + " was next")
                    + " (FIFO client order)";
            return;
        }
        long issuedNs = f.issuedNs[f.head];
        boolean wasRead = f.reads[f.head];
        f.head = (f.head + 1) % outstanding;
        f.size--;
        if (doneNs >= measureStartNs && doneNs < Math.min(measureEndNs, boundReachedNs)) {
            if (err != 0 || wasRead && !holdsValue(body)) {
                errors++;
            } else if (measured < latenciesNs.length) {
                latenciesNs[measured++] = doneNs - issuedNs;
            } else {
                boundReachedNs = doneNs;
            }
        }
        if (issuing(doneNs)) {
            issue(s);
        }
    }

    /** Every key holds the workload's value (created with it, only ever set to it), so a read must return it. */
    private boolean holdsValue(ByteBuffer body) {
        int n = body.getInt(body.position());
        if (n != value.length || body.remaining() < 4 + n) {
            return false;
        }
        return body.slice(body.position() + 4, n).equals(ByteBuffer.wrap(value));
    }

    @Override
    public void connected(LeanSession s, boolean renewed) {}

    @Override
    public void notification(LeanSession s, int type, String path) {}

    @Override
    public void disconnected(LeanSession s) {
        InFlight f = inFlight[s.index];
        if (measureEndNs != Long.MAX_VALUE && broken == null) {
            broken = "session " + s.index + " lost its connection to " + s.server() + " with " + f.size
                    + " requests in flight";
        }
        errors += f.size;
        f.size = 0;
    }

    private PointResult result(SystemUnderTest system, double[] cpuMs, String label, Consumer<String> progress) {
        if (broken != null) {
            progress.accept(label + ": " + broken);
            errors++;
        }
        long[] sorted = Arrays.copyOf(latenciesNs, measured);
        Arrays.sort(sorted);
        double seconds = (Math.min(measureEndNs, boundReachedNs) - measureStartNs) / 1e9;
        measureEndNs = Long.MAX_VALUE; // between points: a lost connection is not this point's
        measureStartNs = Long.MAX_VALUE;
        return new PointResult(system, readPercent, measured, errors, seconds, LoadPoint.percentileMs(sorted, 50),
                LoadPoint.percentileMs(sorted, 99), cpuMs[0], cpuMs[1]);
    }

    private void reportProgress(long measureFromNs, String label, Consumer<String> progress) throws Exception {
        long t = System.nanoTime();
        int done = loop.call(() -> measured);
        progress.accept(t < measureFromNs ? label + ": warming up"
                : String.format("%s: measuring, %,.0f ops/s so far", label, done / Math.max((t - measureFromNs) / 1e9, 1e-3)));
    }

    @Override
    public void close() throws Exception {
        loop.close();
    }
}
