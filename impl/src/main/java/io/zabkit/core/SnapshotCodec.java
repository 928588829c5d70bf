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

    /** lastApplied: the keepConnections table (empty without it); a snapshot has it only when non-empty. */
    public record Decoded(long zxid, DataTree tree, Map<Long, Integer> sessionTimeouts,
                          Map<Long, Sessions.LastApplied> lastApplied) {}

    public static Snapshot encode(DataTree tree, Sessions sessions, long zxid) {
        return new Snapshot(zxid, bytes(zxid, TreeCodec.capture(tree), new LinkedHashMap<>(sessions.timeouts()),
                new LinkedHashMap<>(sessions.lastApplied())));
    }

    /**
     * The same snapshot with only the copy of the state made now (linear in the nodes, no sort, no
     * bytes): the bytes are made on the first {@link Snapshot#data()}, which the server's disk thread
     * asks for, so the core's thread, which also pings the ensemble, is not held while they are.
     */
    public static Snapshot encodeLater(DataTree tree, Sessions sessions, long zxid) {
        TreeCodec.Image nodes = TreeCodec.capture(tree);
        Map<Long, Integer> timeouts = new LinkedHashMap<>(sessions.timeouts());
        // its records are immutable (their replies are never written after the apply), so a shallow copy is the state now
        Map<Long, Sessions.LastApplied> lastApplied = new LinkedHashMap<>(sessions.lastApplied());
        return Snapshot.deferred(zxid, () -> bytes(zxid, nodes, timeouts, lastApplied));
    }

    private static byte[] bytes(long zxid, TreeCodec.Image nodes, Map<Long, Integer> timeouts,
            Map<Long, Sessions.LastApplied> lastApplied) {
        long length = 4 + 4 + 8 + TreeCodec.encodedBytes(nodes) + 4 + 12L * timeouts.size();
        if (!lastApplied.isEmpty()) {
            length += 4;
            for (Sessions.LastApplied a : lastApplied.values()) {
                length += 8 + 4 + 8 + 4 + a.reply().length;
            }
        }
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
            // Written only when non-empty, so that without keepConnections a snapshot is what it always was.
            if (!lastApplied.isEmpty()) {
                out.writeInt(lastApplied.size());
                for (Map.Entry<Long, Sessions.LastApplied> e : lastApplied.entrySet()) {
                    out.writeLong(e.getKey());
                    out.writeInt(e.getValue().cxid());
                    out.writeLong(e.getValue().zxid());
                    out.writeInt(e.getValue().reply().length);
                    out.write(e.getValue().reply());
                }
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
        Map<Long, Sessions.LastApplied> lastApplied = new LinkedHashMap<>();
        if (in.available() != 0) {
            int count = in.readInt();
            if (count <= 0 || count > sessionCount) {
                throw new IOException("snapshot claims " + count + " last replies for " + sessionCount + " sessions");
            }
            for (int i = 0; i < count; i++) {
                long sessionId = in.readLong();
                int cxid = in.readInt();
                long lastZxid = in.readLong();
                int length = in.readInt();
                if (length < 0 || length > in.available() || !timeouts.containsKey(sessionId)) {
                    throw new IOException("snapshot's last reply of session 0x" + Long.toHexString(sessionId)
                            + " is malformed (" + length + " bytes)");
                }
                byte[] reply = new byte[length];
                in.readFully(reply);
                lastApplied.put(sessionId, new Sessions.LastApplied(cxid, lastZxid, reply));
            }
        }
        if (in.available() != 0) {
            throw new IOException("snapshot has " + in.available() + " trailing bytes");
        }
        return new Decoded(zxid, tree, timeouts, lastApplied);
    }
}
