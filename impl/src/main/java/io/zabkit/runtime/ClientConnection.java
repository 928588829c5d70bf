package io.zabkit.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client socket on the loop thread: the bytes waiting to be written, in order, and whether the
 * core asked to close it once they are out. A client that does not read its replies gets no more
 * reads until its backlog drains (backpressure), and is cut off if the backlog grows past a bound.
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
    private final OutputQueue output = new OutputQueue();
    private boolean closeAfterFlush;
    private boolean throttled;

    ClientConnection(long id, SocketChannel channel, SelectionKey key, String remoteAddress) {
        this.id = id;
        this.channel = channel;
        this.key = key;
        this.remoteAddress = remoteAddress;
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
        return output.flushTo(channel) && closeAfterFlush;
    }

    /** Interest ops for the selector, given whether the server as a whole takes more requests. */
    int interestOps(boolean serverAcceptsRequests) {
        if (throttled && output.bytes() < OUTPUT_LOW_WATER_BYTES) {
            throttled = false;
        } else if (!throttled && output.bytes() > OUTPUT_HIGH_WATER_BYTES) {
            throttled = true;
        }
        boolean read = serverAcceptsRequests && !throttled && !closeAfterFlush;
        return (read ? SelectionKey.OP_READ : 0) | (output.isEmpty() ? 0 : SelectionKey.OP_WRITE);
    }

    long outputBytes() {
        return output.bytes();
    }
}
