package io.zabkit.bench.lean;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * One ZooKeeper session of the lean client: a non-blocking socket driven by a {@link LeanLoop}
 * thread, never blocking and never owning a thread. It connects to its servers in a fixed order
 * (its home server first), renews the session after a connection loss with the same id, password and
 * last zxid seen, pings when idle and drops a connection that stays silent for two thirds of the
 * session timeout, as ZooKeeper's own clients do. Its policy after a loss is the one the figures
 * depend on: the next server at once after a lost connection, {@link #RETRY_PAUSE_MS} after a failed
 * attempt, no random back-off.
 */
public final class LeanSession {
    /** The pause after an attempt that did not get a session (refused, closed, timed out). */
    static final long RETRY_PAUSE_MS = 20;
    private static final int READ_CHUNK = 64 * 1024;

    /** What the session reports, always on the loop thread. */
    public interface Handler {
        /** A session is established: renewed when it is the same session as before the loss. */
        void connected(LeanSession s, boolean renewed);

        void reply(LeanSession s, int xid, int err, ByteBuffer body);

        void notification(LeanSession s, int type, String path);

        /** The connection of an established session was lost; the session tries the next server. */
        void disconnected(LeanSession s);

        /** The server refused to renew the session (expired); the next connection starts a new one. */
        default void expired(LeanSession s) {}
    }

    public enum State { WAITING, CONNECTING, HANDSHAKE, CONNECTED, CLOSED }

    public final int index;
    private final List<InetSocketAddress> order;
    private final int timeoutMs;
    private final Handler handler;
    private int cursor;
    private SocketChannel channel;
    private SelectionKey key;
    private State state = State.WAITING;
    private long stateSinceNs;
    private long retryAtNs;
    private long sessionId;
    private byte[] passwd = new byte[16];
    private long lastZxid;
    private int nextXid = 1;
    private ByteBuffer in = ByteBuffer.allocate(READ_CHUNK);
    private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
    /** While a read batch is handled, frames queue up and leave in one gathering write at its end. */
    private boolean corked;
    private ByteBuffer[] gather = new ByteBuffer[16];
    private long lastSendNs;
    private long lastRecvNs;
    private int negotiatedTimeoutMs;
    /** Connection attempts since the session was last established. */
    public int attempts;

    public LeanSession(int index, List<InetSocketAddress> order, int timeoutMs, Handler handler) {
        if (order.isEmpty() || timeoutMs < 1000) {
            throw new IllegalArgumentException("a session needs a server and a timeout >= 1000 ms");
        }
        this.index = index;
        this.order = List.copyOf(order);
        this.timeoutMs = timeoutMs;
        this.handler = handler;
    }

    public State state() { return state; }

    public boolean connected() { return state == State.CONNECTED; }

    /** The server this session talks to now, or tries next. */
    public InetSocketAddress server() { return order.get(cursor); }

    public int nextXid() {
        int x = nextXid++;
        if (nextXid == Integer.MAX_VALUE) {
            nextXid = 1;
        }
        return x;
    }

    /** Queues a frame and writes what the socket takes now; dropped silently unless established. */
    public void send(ByteBuffer frame) {
        if (state != State.CONNECTED) {
            return;
        }
        enqueue(frame);
    }

    private void enqueue(ByteBuffer frame) {
        out.add(frame);
        lastSendNs = System.nanoTime();
        if (!corked) {
            flush();
        }
    }

    /** Timers, called by the loop every tick: reconnect when due, connect timeout, read timeout, ping. */
    void check(Selector selector, long now) {
        switch (state) {
            case WAITING -> {
                if (now >= retryAtNs) {
                    startConnect(selector, now);
                }
            }
            case CONNECTING, HANDSHAKE -> {
                if (now - stateSinceNs > connectTimeoutNs()) {
                    fail(now, "connect timeout");
                }
            }
            case CONNECTED -> {
                long timeoutNs = negotiatedTimeoutMs * 1_000_000L;
                if (now - lastRecvNs > timeoutNs * 2 / 3) {
                    lose(now);
                } else if (now - lastSendNs > timeoutNs / 3) {
                    enqueue(Wire.ping());
                }
            }
            case CLOSED -> { }
        }
    }

    /** The Java client's connect timeout: the session timeout shared among the servers. */
    private long connectTimeoutNs() {
        return Math.max(500L, timeoutMs / order.size()) * 1_000_000L;
    }

    private void startConnect(Selector selector, long now) {
        attempts++;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            boolean done = channel.connect(server());
            key = channel.register(selector, done ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, this);
            setState(done ? State.HANDSHAKE : State.CONNECTING, now);
            if (done) {
                handshake();
            }
        } catch (IOException e) {
            fail(now, e.getMessage());
        }
    }

    void onConnectable() {
        try {
            if (channel.finishConnect()) {
                key.interestOps(SelectionKey.OP_READ);
                setState(State.HANDSHAKE, System.nanoTime());
                handshake();
            }
        } catch (IOException e) {
            fail(System.nanoTime(), e.getMessage());
        }
    }

    private void handshake() {
        lastRecvNs = System.nanoTime();
        enqueue(Wire.connect(lastZxid, timeoutMs, sessionId, passwd));
    }

    void onWritable() { flush(); }

    /**
     * Writes the queue with as few system calls as the socket allows: one gathering write of every
     * queued frame (a reply batch's worth of requests), so the client's cost per request stays small
     * next to the servers' and the figures measure the servers.
     */
    private void flush() {
        try {
            while (!out.isEmpty()) {
                int n = Math.min(out.size(), 1024); // IOV_MAX
                if (gather.length < n) {
                    gather = new ByteBuffer[Math.max(n, gather.length * 2)];
                }
                int i = 0;
                for (ByteBuffer b : out) {
                    if (i == n) {
                        break;
                    }
                    gather[i++] = b;
                }
                assert i == n : "gathered " + i + " of " + n;
                channel.write(gather, 0, n);
                Arrays.fill(gather, 0, n, null);
                int written = 0;
                while (!out.isEmpty() && !out.peek().hasRemaining()) {
                    out.poll();
                    written++;
                }
                if (written < n) { // the socket is full: the rest goes when it drains
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
            }
            if (key.isValid()) {
                key.interestOps(SelectionKey.OP_READ);
            }
        } catch (IOException e) {
            dropNow(e.getMessage());
        }
    }

    void onReadable() {
        try {
            if (!in.hasRemaining()) {
                grow(in.capacity() * 2);
            }
            int n = channel.read(in);
            if (n < 0) {
                dropNow("closed by the server");
                return;
            }
            lastRecvNs = System.nanoTime();
            corked = true;
            in.flip();
            while (in.remaining() >= 4 && state != State.WAITING) {
                int len = in.getInt(in.position());
                if (len < 0 || len > Wire.MAX_FRAME) {
                    throw new IOException("frame of " + len + " bytes");
                }
                if (in.remaining() < 4 + len) {
                    if (in.capacity() < 4 + len) {
                        in.compact();
                        grow(4 + len);
                        in.flip();
                    }
                    break;
                }
                in.position(in.position() + 4);
                ByteBuffer frame = in.slice(in.position(), len);
                in.position(in.position() + len);
                frame(frame);
            }
            if (state == State.WAITING) {
                in.clear();
            } else {
                in.compact();
                uncork();
            }
        } catch (IOException | RuntimeException e) {
            dropNow(e.toString());
        } finally {
            corked = false;
        }
    }

    private void uncork() {
        corked = false;
        if (!out.isEmpty() && channel != null) {
            flush();
        }
    }

    private void grow(int capacity) {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(capacity, READ_CHUNK));
        in.flip();
        bigger.put(in);
        in = bigger;
    }

    private void frame(ByteBuffer f) {
        if (state == State.HANDSHAKE) {
            Wire.Granted g = Wire.connectResponse(f);
            if (g.timeoutMs() <= 0) {
                boolean hadSession = sessionId != 0;
                sessionId = 0;
                passwd = new byte[16];
                lastZxid = 0;
                if (hadSession) {
                    handler.expired(this);
                }
                fail(System.nanoTime(), "session expired");
                return;
            }
            boolean renewed = sessionId != 0 && sessionId == g.sessionId();
            sessionId = g.sessionId();
            passwd = g.passwd();
            negotiatedTimeoutMs = g.timeoutMs();
            setState(State.CONNECTED, System.nanoTime());
            handler.connected(this, renewed); // reads attempts: the count that led to this session
            attempts = 0;
            return;
        }
        int xid = f.getInt();
        long zxid = f.getLong();
        int err = f.getInt();
        if (xid == Wire.XID_NOTIFICATION) {
            int type = f.getInt();
            f.getInt(); // keeper state
            handler.notification(this, type, Wire.string(f));
            return;
        }
        if (zxid > lastZxid) {
            lastZxid = zxid;
        }
        if (xid != Wire.XID_PING) {
            handler.reply(this, xid, err, f);
        }
    }

    public long lastZxid() { return lastZxid; }

    /** The connection broke: an established session reports the loss and tries the next server at once. */
    private void dropNow(String why) {
        long now = System.nanoTime();
        if (state == State.CONNECTED) {
            lose(now);
        } else {
            fail(now, why);
        }
    }

    private void lose(long now) {
        closeChannel();
        cursor = (cursor + 1) % order.size();
        setState(State.WAITING, now);
        retryAtNs = now;
        handler.disconnected(this);
    }

    private void fail(long now, String why) {
        closeChannel();
        cursor = (cursor + 1) % order.size();
        setState(State.WAITING, now);
        retryAtNs = now + RETRY_PAUSE_MS * 1_000_000L;
    }

    private void setState(State s, long now) {
        assert state != State.CLOSED : "a closed session changes state";
        state = s;
        stateSinceNs = now;
    }

    private void closeChannel() {
        out.clear();
        in.clear();
        if (key != null) {
            key.cancel();
            key = null;
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing a socket that already broke
            }
            channel = null;
        }
    }

    /** Ends the session: closeSession if established (not awaited), then the socket. */
    void close() {
        if (state == State.CONNECTED) {
            try {
                ByteBuffer bye = Wire.closeSession(nextXid());
                while (bye.hasRemaining() && channel.write(bye) > 0) {
                    // a few bytes into an open socket: at most a couple of rounds
                }
            } catch (IOException ignored) {
                // the server is gone: the session expires on its own
            }
        }
        closeChannel();
        state = State.CLOSED;
    }
}
