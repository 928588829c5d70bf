package io.zabkit.wire;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.jute.BinaryInputArchive;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;

/**
 * Jute (ZooKeeper's record encoding) to and from byte arrays. Strings are written as standard UTF-8
 * ({@link Utf8OutputArchive}), so what a server encodes decodes to the same record everywhere.
 */
public final class Jute {
    private Jute() {}

    /** Serializes records back to back, as ZooKeeper puts a header and a body in one packet. */
    public static byte[] encode(Record... records) {
        Scratch bytes = ENCODE_SCRATCH.get();
        if (bytes.inUse) { // a record whose serialize encodes another record: give the inner one its own
            bytes = new Scratch();
        }
        bytes.inUse = true;
        try {
            bytes.reset();
            BinaryOutputArchive out = new Utf8OutputArchive(bytes);
            for (Record r : records) {
                if (r != null) {
                    r.serialize(out, "");
                }
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory jute encoding cannot fail", e);
        } finally {
            bytes.inUse = false;
            if (bytes.capacity() > SCRATCH_BYTES_KEPT_MAX) {
                ENCODE_SCRATCH.remove();
            }
        }
    }

    private static final ThreadLocal<Scratch> ENCODE_SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * The per-thread buffer {@link #encode} serializes into and copies out of once: a new 64-byte
     * stream grew five times for a 1 KB transaction and was copied again by toByteArray, on every
     * log append and every proposal.
     */
    private static final class Scratch extends ByteArrayOutputStream {
        boolean inUse;

        Scratch() {
            super(4096);
        }

        int capacity() {
            return buf.length;
        }
    }

    /** A reader over one packet; {@code maxBuffer} bounds every length prefix inside it. */
    public static BinaryInputArchive reader(byte[] packet, int offset, int length, int maxBuffer) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(packet, offset, length));
        return new BinaryInputArchive(in, maxBuffer, 0);
    }

    public static BinaryInputArchive reader(byte[] packet, int maxBuffer) {
        return reader(packet, 0, packet.length, maxBuffer);
    }

    public static <R extends Record> R decode(byte[] bytes, R into, int maxBuffer) throws IOException {
        into.deserialize(reader(bytes, maxBuffer), "");
        return into;
    }

    /** A scratch buffer larger than this is dropped after use rather than kept for the thread. */
    static final int SCRATCH_BYTES_KEPT_MAX = 1 << 20;
    private static final ThreadLocal<FrameBuffer> SCRATCH = ThreadLocal.withInitial(FrameBuffer::new);

    /**
     * Records back to back behind their 4-byte big-endian length: the same bytes as
     * {@code frame(encode(records))}, built in one reused buffer and copied out once. Replies take
     * this path, one per read, so the copies that encode-then-frame makes (a 1 KB getData reply was
     * copied about five times) are the largest part of a read's cost on the loop thread.
     */
    public static byte[] encodeFrame(Record... records) {
        FrameBuffer bytes = SCRATCH.get();
        bytes.reset();
        BinaryOutputArchive out = new Utf8OutputArchive(bytes);
        try {
            out.writeInt(0, "length"); // patched below, once the length is known
            for (Record r : records) {
                if (r != null) {
                    r.serialize(out, "");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory jute encoding cannot fail", e);
        }
        byte[] framed = bytes.framed();
        if (bytes.capacity() > SCRATCH_BYTES_KEPT_MAX) {
            SCRATCH.remove();
        }
        return framed;
    }

    /** A byte stream whose first four bytes become the length of the rest. */
    private static final class FrameBuffer extends ByteArrayOutputStream {
        FrameBuffer() {
            super(4096);
        }

        int capacity() {
            return buf.length;
        }

        byte[] framed() {
            assert count >= 4 : "no room for the length";
            int length = count - 4;
            buf[0] = (byte) (length >>> 24);
            buf[1] = (byte) (length >>> 16);
            buf[2] = (byte) (length >>> 8);
            buf[3] = (byte) length;
            return Arrays.copyOf(buf, count);
        }
    }

    /** Writes a 4-byte big-endian length followed by the payload: one frame of the client protocol. */
    public static byte[] frame(byte[] payload) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(payload.length + 4);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(payload.length);
            out.write(payload);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
