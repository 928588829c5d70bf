package io.zabkit.runtime;

import io.zabkit.zab.MessageCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * One TCP connection between two servers, on the loop thread. The connecting side opens it with a
 * handshake (magic, codec version, its server id); after that both directions carry frames: a 4-byte
 * big-endian length, then a {@link MessageCodec} message. This class only moves bytes and cuts frames;
 * {@link PeerLinks} decides what a link is for and what its end means.
 */
final class PeerLink {
    /** "ZABK": a stray client on the quorum port is told apart from a server at once. */
    static final int MAGIC = 0x5a41424b;
    static final int HANDSHAKE_BYTES = 4 + 4 + 8;
    static final int READ_BYTES_PER_PASS = 64 << 10;

    enum State { CONNECTING, HANDSHAKING, OPEN }

    final SocketChannel channel;
    final SelectionKey key;
    final long openedAtMs;
    /** The server at the other end; -1 for an accepted link until its handshake arrives. */
    long peer;
    State state;
    private final OutputQueue output = new OutputQueue();
    private ByteBuffer input = ByteBuffer.allocate(READ_BYTES_PER_PASS);

    PeerLink(SocketChannel channel, SelectionKey key, long peer, State state, long openedAtMs) {
        this.channel = channel;
        this.key = key;
        this.peer = peer;
        this.state = state;
        this.openedAtMs = openedAtMs;
    }

    static byte[] handshake(long myId) {
        return ByteBuffer.allocate(HANDSHAKE_BYTES).putInt(MAGIC).putInt(MessageCodec.VERSION).putLong(myId).array();
    }

    void enqueueFrame(byte[] message) {
        output.add(ByteBuffer.allocate(4).putInt(message.length).flip());
        output.add(ByteBuffer.wrap(message));
    }

    void enqueueRaw(byte[] bytes) {
        output.add(ByteBuffer.wrap(bytes));
    }

    long outputBytes() {
        return output.bytes();
    }

    /** Writes what the socket takes now; returns true when everything queued is out. */
    boolean flush() throws IOException {
        return output.flushTo(channel);
    }

    /** Reads once (at most {@link #READ_BYTES_PER_PASS} new bytes); returns false at end of stream. */
    /** Reads what has arrived (at most READ_BYTES_PER_PASS); returns the bytes read, -1 at the end of the stream. */
    int read() throws IOException {
        if (!input.hasRemaining()) {
            return 0; // a frame is being grown into; nothing fits until it is cut
        }
        int limit = input.limit();
        input.limit(Math.min(limit, input.position() + READ_BYTES_PER_PASS));
        int n = channel.read(input);
        input.limit(limit);
        assert n <= READ_BYTES_PER_PASS : "read at most a pass's bytes";
        return n;
    }

    /** The size of the input buffer (for tests: it grows with the bytes received, not the announced length). */
    int inputCapacity() {
        return input.capacity();
    }

    /** The handshake's peer id once its bytes are in; -1 while they are not. */
    long takeHandshake(int expectedVersion) throws IOException {
        if (input.position() < HANDSHAKE_BYTES) {
            return -1;
        }
        input.flip();
        int magic = input.getInt();
        int version = input.getInt();
        long id = input.getLong();
        input.compact();
        if (magic != MAGIC) {
            throw new IOException("not a zabkit server (first bytes 0x" + Integer.toHexString(magic) + ")");
        }
        if (version != expectedVersion) {
            throw new IOException("server " + id + " speaks peer codec version " + version + ", this server "
                    + expectedVersion);
        }
        return id;
    }

    /**
     * The complete frames read so far. {@code maxFrameBytes} bounds an ordinary frame, {@code
     * snapshotFrameBytes} a SNAP frame (a whole data tree); a larger length breaks the link.
     */
    List<byte[]> takeFrames(int maxFrameBytes, int snapshotFrameBytes, byte snapType) throws IOException {
        List<byte[]> frames = new ArrayList<>();
        input.flip();
        while (input.remaining() >= 5) { // a length and at least the type byte
            int length = input.getInt(input.position());
            int limit = input.get(input.position() + 4) == snapType ? snapshotFrameBytes : maxFrameBytes;
            if (length <= 0 || length > limit) {
                throw new IOException("peer frame length " + length + " outside 1.." + limit);
            }
            if (input.remaining() < 4 + length) {
                if (input.capacity() < 4 + length && input.remaining() == input.capacity()) {
                    // Grow only as the bytes arrive (at most double what is in), never to the announced
                    // length at once: a peer announcing 256 MB and sending nothing costs nothing.
                    ByteBuffer bigger = ByteBuffer.allocate((int) Math.min(4L + length, 2L * input.capacity()));
                    bigger.put(input);
                    input = bigger;
                    return frames; // already compacted into the new buffer
                }
                break;
            }
            input.getInt();
            byte[] frame = new byte[length];
            input.get(frame);
            frames.add(frame);
        }
        input.compact();
        if (input.capacity() > READ_BYTES_PER_PASS && input.position() <= READ_BYTES_PER_PASS / 2) {
            ByteBuffer normal = ByteBuffer.allocate(READ_BYTES_PER_PASS); // give a snapshot's buffer back
            normal.put(input.flip());
            input = normal;
        }
        return frames;
    }
}
