package io.zabkit.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client socket on the loop thread: the requests not yet handed to the core ({@link RequestGate}),
 * the bytes waiting to be written, in order, and whether the core asked to close it once they are out.
 * A client that does not read its replies gets no more requests handed to the core, and no more reads,
 * until its backlog drains (backpressure); it is cut off if the backlog grows past a bound anyway
 * (watch notifications, which no request of its own paces).
 */
final class ClientConnection {
    /** Stop reading a client with this much unwritten output... */
    static final int OUTPUT_HIGH_WATER_BYTES = 1 << 20;
    /** ...until it is back under this. */
    static final int OUTPUT_LOW_WATER_BYTES = 256 << 10;
    /** Replies and notifications already in flight can still arrive; beyond this the client is gone. */
    static final int OUTPUT_MAX_BYTES = 64 << 20;

    final long id;
    final SocketChannel channel;
    final SelectionKey key;
    final String remoteAddress;
    final long acceptedAtMs;
    final RequestGate gate;
    /** The TLS session of a connection to the secure client port; null on the plaintext port. */
    private final TlsChannel tls;
    private final OutputQueue output = new OutputQueue();
    private boolean closeAfterFlush;
    private boolean throttled;

    ClientConnection(long id, SocketChannel channel, SelectionKey key, String remoteAddress, long acceptedAtMs,
                     int maxPacketBytes) {
        this(id, channel, key, remoteAddress, acceptedAtMs, maxPacketBytes, null);
    }

    ClientConnection(long id, SocketChannel channel, SelectionKey key, String remoteAddress, long acceptedAtMs,
                     int maxPacketBytes, TlsChannel tls) {
        this.tls = tls;
        this.id = id;
        this.channel = channel;
        this.key = key;
        this.remoteAddress = remoteAddress;
        this.acceptedAtMs = acceptedAtMs;
        this.gate = new RequestGate(maxPacketBytes);
    }

    void enqueue(byte[] bytes) {
        assert !closeAfterFlush : "send after close on connection " + id;
        if (bytes.length > 0) {
            output.add(ByteBuffer.wrap(bytes));
        }
    }

    void closeAfterFlush() {
        closeAfterFlush = true;
    }

    boolean overflowing() {
        return output.bytes() > OUTPUT_MAX_BYTES;
    }

    /**
     * Writes what the socket takes now. Returns true when the connection is done: everything is out
     * and the core asked to close it.
     */
    boolean flush() throws IOException {
        if (tls == null) {
            return output.flushTo(channel) && closeAfterFlush;
        }
        tls.progressHandshake();
        return output.flushTo(tls) && tls.flushNet() && closeAfterFlush;
    }

    /** The TLS engine, once, right after its handshake finished; null otherwise and on the plaintext port. */
    javax.net.ssl.SSLEngine takeFinishedHandshake() {
        return tls == null ? null : tls.takeFinishedHandshake();
    }

    /** Plaintext from the client into {@code dst}: what one socket read brings; -1 at the end. */
    int read(java.nio.ByteBuffer dst) throws IOException {
        return tls == null ? channel.read(dst) : tls.read(dst);
    }

    /**
     * Whether the core may be handed this connection's next request now: its unsent replies are under
     * the high-water mark (checked before the reply is built, so one request at most overshoots it),
     * its outstanding requests under {@code outstandingMax}, and, while the server as a whole is over
     * its outstanding limit, only a connection with none outstanding (ZooKeeper's rule) goes on.
     */
    boolean mayTakeRequest(boolean serverAcceptsRequests, int outstandingMax, boolean serverOverOutstanding) {
        updateThrottle();
        int outstanding = gate.outstanding();
        return serverAcceptsRequests && !throttled && !closeAfterFlush && outstanding < outstandingMax
                && !(serverOverOutstanding && outstanding > 0);
    }

    /** Interest ops for the selector, given whether the server as a whole takes more requests. */
    int interestOps(boolean serverAcceptsRequests) {
        updateThrottle();
        // read only to complete a request: whole ones not yet handed wait in the gate, not in memory twice
        boolean read = serverAcceptsRequests && !throttled && !closeAfterFlush && gate.nextChunkBytes() == 0;
        boolean write = !output.isEmpty() || (tls != null && tls.hasPendingOutput());
        return (read ? SelectionKey.OP_READ : 0) | (write ? SelectionKey.OP_WRITE : 0);
    }

    private void updateThrottle() {
        if (throttled && output.bytes() < OUTPUT_LOW_WATER_BYTES) {
            throttled = false;
        } else if (!throttled && output.bytes() > OUTPUT_HIGH_WATER_BYTES) {
            throttled = true;
        }
    }

    long outputBytes() {
        return output.bytes();
    }
}
