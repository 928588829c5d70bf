package io.zabkit.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.ArrayDeque;

/** Bytes waiting for a non-blocking socket, written with gathering writes; one per client or peer link. */
final class OutputQueue {
    private static final int GATHER_BUFFERS_MAX = 64;

    private final ArrayDeque<ByteBuffer> buffers = new ArrayDeque<>();
    /** Invariant: the sum of remaining() over buffers. */
    private long bytes;

    void add(ByteBuffer buffer) {
        buffers.add(buffer);
        bytes += buffer.remaining();
    }

    long bytes() {
        return bytes;
    }

    boolean isEmpty() {
        return buffers.isEmpty();
    }

    /** Writes what the channel takes now; returns true when everything queued is out. */
    boolean flushTo(GatheringByteChannel channel) throws IOException {
        ByteBuffer[] gather = new ByteBuffer[GATHER_BUFFERS_MAX];
        while (!buffers.isEmpty()) {
            int n = 0;
            for (ByteBuffer b : buffers) {
                if (n == gather.length) {
                    break;
                }
                gather[n++] = b;
            }
            long written = channel.write(gather, 0, n);
            bytes -= written;
            while (!buffers.isEmpty() && !buffers.peekFirst().hasRemaining()) {
                buffers.removeFirst();
            }
            if (written == 0) {
                break; // the socket buffer is full: wait for OP_WRITE
            }
        }
        assert bytes >= 0 && (bytes == 0) == buffers.isEmpty() : "output accounting off: " + bytes;
        return buffers.isEmpty();
    }
}
