package io.zabkit.bench.avail;

import io.zabkit.bench.lean.LeanLoop;
import io.zabkit.bench.lean.LeanSession;
import io.zabkit.bench.lean.Wire;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

/**
 * The publisher: one lean session, on a loop of its own, that changes the watched znodes one after
 * the other at a fixed rate. Each value carries the System.nanoTime at which it was issued, so a
 * watcher in the same JVM can tell a change made after the crash from one made before it. While the
 * session is down no write is issued (none is queued to burst out later); at most
 * {@link #MAX_OUTSTANDING} are in flight.
 */
final class Writer implements LeanSession.Handler, AutoCloseable {
    static final int MAX_OUTSTANDING = 100;
    private final List<String> paths;
    private final long periodNs;
    private final LeanSession session;
    private final LeanLoop loop;
    private long nextDueNs;
    private int next;
    /** Issue times of the writes in flight, in order: ZooKeeper answers a session's requests in order. */
    private final java.util.ArrayDeque<Long> inFlight = new java.util.ArrayDeque<>();
    private volatile long issued;
    private volatile long acked;
    private volatile long errors;
    /** The loop's record of the first acknowledgement of a write issued after {@link #armNs}. */
    private volatile long armNs = Long.MAX_VALUE;
    private volatile long firstAckAfterArmNs;
    private boolean running;

    Writer(List<String> paths, int writesPerSecond, List<InetSocketAddress> order, int timeoutMs) throws Exception {
        if (writesPerSecond < 1 || writesPerSecond > 10_000 || paths.isEmpty()) {
            throw new IllegalArgumentException("writes/s must be 1..10000 over at least one znode");
        }
        this.paths = List.copyOf(paths);
        this.periodNs = 1_000_000_000L / writesPerSecond;
        this.session = new LeanSession(-1, order, timeoutMs, this);
        this.loop = new LeanLoop("avail-writer", Duration.ofMillis(1), this::tick);
        loop.add(List.of(session));
    }

    /** Starts (or resumes) issuing writes. */
    void start() throws Exception {
        loop.call(() -> {
            running = true;
            nextDueNs = System.nanoTime();
            return null;
        });
    }

    void stop() throws Exception {
        loop.call(() -> running = false);
    }

    static byte[] value(long issuedNs, long seq) {
        return ByteBuffer.allocate(16).putLong(issuedNs).putLong(seq).array();
    }

    /** The issue time a value carries (Long.MIN_VALUE for a value the writer did not write). */
    static long issuedNs(byte[] data) {
        return data == null || data.length < 16 ? Long.MIN_VALUE : ByteBuffer.wrap(data).getLong();
    }

    private void tick() {
        long now = System.nanoTime();
        if (!running || !session.connected()) {
            nextDueNs = now;
            return;
        }
        if (now - nextDueNs > periodNs) {
            nextDueNs = now; // behind after a stall: do not burst the missed writes
        }
        while (nextDueNs <= now && inFlight.size() < MAX_OUTSTANDING) {
            long t = System.nanoTime();
            session.send(Wire.setData(session.nextXid(), paths.get(next), value(t, issued)));
            next = (next + 1) % paths.size();
            inFlight.add(t);
            issued++;
            nextDueNs += periodNs;
        }
    }

    /** From now on, the first acknowledged write issued at or after atNs is recorded. */
    void arm(long atNs) throws Exception {
        loop.call(() -> {
            firstAckAfterArmNs = 0;
            armNs = atNs;
            return null;
        });
    }

    long firstAckAfterArmNs() { return firstAckAfterArmNs; }

    long issued() { return issued; }

    long acked() { return acked; }

    long errors() { return errors; }

    @Override
    public void connected(LeanSession s, boolean renewed) {
        inFlight.clear();
    }

    @Override
    public void reply(LeanSession s, int xid, int err, ByteBuffer body) {
        Long issuedAt = inFlight.poll();
        assert issuedAt != null : "a reply to a write the writer did not issue";
        if (err != 0) {
            errors++;
            return;
        }
        acked++;
        if (firstAckAfterArmNs == 0 && issuedAt != null && issuedAt >= armNs) {
            firstAckAfterArmNs = System.nanoTime();
        }
    }

    @Override
    public void notification(LeanSession s, int type, String path) {}

    @Override
    public void disconnected(LeanSession s) {
        inFlight.clear();
    }

    @Override
    public void close() throws Exception {
        loop.close();
    }
}
