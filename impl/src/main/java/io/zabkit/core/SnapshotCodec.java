package io.zabkit.core;

import io.zabkit.session.Sessions;
import io.zabkit.storage.Snapshot;
import io.zabkit.tree.DataTree;
import io.zabkit.tree.TreeCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The bytes of a snapshot: the data tree and the session table at one zxid. Storage adds the checksum. */
public final class SnapshotCodec {
    private SnapshotCodec() {}

    private static final int MAGIC = 0x5A4B534E; // "ZKSN"
    /** Version 2: the tree in TreeCodec's format 2 (strings of any length); version 1 is still read. */
    private static final int VERSION = 2;
    private static final int VERSION_MODIFIED_UTF8 = 1;

    public record Decoded(long zxid, DataTree tree, Map<Long, Integer> sessionTimeouts) {}

    public static Snapshot encode(DataTree tree, Sessions sessions, long zxid) {
        return new Snapshot(zxid, bytes(zxid, TreeCodec.capture(tree), new LinkedHashMap<>(sessions.timeouts())));
    }

    /**
     * The same snapshot with only the copy of the state made now (linear in the nodes, no sort, no
     * bytes): the bytes are made on the first {@link Snapshot#data()}, which the server's disk thread
     * asks for, so the core's thread, which also pings the ensemble, is not held while they are.
     */
    public static Snapshot encodeLater(DataTree tree, Sessions sessions, long zxid) {
        TreeCodec.Image nodes = TreeCodec.capture(tree);
        Map<Long, Integer> timeouts = new LinkedHashMap<>(sessions.timeouts());
        return Snapshot.deferred(zxid, () -> bytes(zxid, nodes, timeouts));
    }

    private static byte[] bytes(long zxid, TreeCodec.Image nodes, Map<Long, Integer> timeouts) {
        long length = 4 + 4 + 8 + TreeCodec.encodedBytes(nodes) + 4 + 12L * timeouts.size();
        if (length > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a snapshot of " + length + " bytes does not fit in an array");
        }
        ExactBuffer bytes = new ExactBuffer((int) length);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeLong(zxid);
            TreeCodec.write(nodes, out);
            out.writeInt(timeouts.size());
            for (Map.Entry<Long, Integer> e : timeouts.entrySet()) {
                out.writeLong(e.getKey());
                out.writeInt(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assert bytes.size() == length : "snapshot of " + bytes.size() + " bytes, " + length + " computed";
        return bytes.array();
    }

    /** A buffer sized in advance that hands over its array without copying when it was filled exactly. */
    private static final class ExactBuffer extends ByteArrayOutputStream {
        ExactBuffer(int bytes) {
            super(bytes);
        }

        byte[] array() {
            return count == buf.length ? buf : toByteArray();
        }
    }

    public static Decoded decode(Snapshot snapshot, int maxDataBytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot.data()));
        if (in.readInt() != MAGIC) {
            throw new IOException("not a zabkit snapshot (bad magic)");
        }
        int version = in.readInt();
        if (version != VERSION && version != VERSION_MODIFIED_UTF8) {
            throw new IOException("snapshot format version " + version + ", this server reads "
                    + VERSION_MODIFIED_UTF8 + " and " + VERSION);
        }
        long zxid = in.readLong();
        if (zxid != snapshot.zxid()) {
            throw new IOException("snapshot file says zxid 0x" + Long.toHexString(snapshot.zxid())
                    + " but its contents say 0x" + Long.toHexString(zxid));
        }
        DataTree tree = TreeCodec.read(in, maxDataBytes,
                version == VERSION ? TreeCodec.FORMAT : TreeCodec.FORMAT_MODIFIED_UTF8);
        int sessionCount = in.readInt();
        if (sessionCount < 0) {
            throw new IOException("snapshot claims " + sessionCount + " sessions");
        }
        Map<Long, Integer> timeouts = new LinkedHashMap<>();
        for (int i = 0; i < sessionCount; i++) {
            timeouts.put(in.readLong(), in.readInt());
        }
        if (in.available() != 0) {
            throw new IOException("snapshot has " + in.available() + " trailing bytes");
        }
        return new Decoded(zxid, tree, timeouts);
    }
}
