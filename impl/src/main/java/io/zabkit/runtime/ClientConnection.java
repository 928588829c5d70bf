package io.zabkit.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

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
    private static final int GATHER_BUFFERS_MAX = 64;

    final long id;
    final SocketChannel channel;
    final SelectionKey key;
    final String remoteAddress;
    private final ArrayDeque<ByteBuffer> output = new ArrayDeque<>();
    /** Invariant: the sum of remaining() over output. */
    private long outputBytes;
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
            outputBytes += bytes.length;
        }
    }

    void closeAfterFlush() {
        closeAfterFlush = true;
    }

    boolean overflowing() {
        return outputBytes > OUTPUT_MAX_BYTES;
    }

    /**
     * Writes what the socket takes now. Returns true when the connection is done: everything is out
     * and the core asked to close it.
     */
    boolean flush() throws IOException {
        ByteBuffer[] gather = new ByteBuffer[GATHER_BUFFERS_MAX];
        while (!output.isEmpty()) {
            int n = 0;
            for (ByteBuffer b : output) {
                if (n == gather.length) {
                    break;
                }
                gather[n++] = b;
            }
            long written = channel.write(gather, 0, n);
            outputBytes -= written;
            while (!output.isEmpty() && !output.peekFirst().hasRemaining()) {
                output.removeFirst();
            }
            if (written == 0) {
                break; // the socket buffer is full: wait for OP_WRITE
            }
        }
        assert outputBytes >= 0 && (outputBytes == 0) == output.isEmpty() : "output accounting off: " + outputBytes;
        return output.isEmpty() && closeAfterFlush;
    }

    /** Interest ops for the selector, given whether the server as a whole takes more requests. */
    int interestOps(boolean serverAcceptsRequests) {
        if (throttled && outputBytes < OUTPUT_LOW_WATER_BYTES) {
            throttled = false;
        } else if (!throttled && outputBytes > OUTPUT_HIGH_WATER_BYTES) {
            throttled = true;
        }
        boolean read = serverAcceptsRequests && !throttled && !closeAfterFlush;
        return (read ? SelectionKey.OP_READ : 0) | (output.isEmpty() ? 0 : SelectionKey.OP_WRITE);
    }

    long outputBytes() {
        return outputBytes;
    }
}
