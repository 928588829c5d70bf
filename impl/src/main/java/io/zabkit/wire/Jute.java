package io.zabkit.wire;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.jute.BinaryInputArchive;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;

/** Jute (ZooKeeper's record encoding) to and from byte arrays. */
public final class Jute {
    private Jute() {}

    /** Serializes records back to back, as ZooKeeper puts a header and a body in one packet. */
    public static byte[] encode(Record... records) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        BinaryOutputArchive out = BinaryOutputArchive.getArchive(bytes);
        try {
            for (Record r : records) {
                if (r != null) {
                    r.serialize(out, "");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory jute encoding cannot fail", e);
        }
        return bytes.toByteArray();
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
