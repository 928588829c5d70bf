package io.zabkit.tree;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;

/**
 * Writes and reads every node of a tree (path, data, ACL, Stat) in path order, so parents come
 * before their children. The /zookeeper system nodes are written too: they carry the same fields.
 *
 * <p>Format 2 writes a string as jute does: its length, then its UTF-8 bytes. Format 1 (still read)
 * wrote modified UTF-8 with a 2-byte length, which cannot hold more than 65,535 bytes: a client's path
 * or ACL id may be longer (a request is bounded by jute.maxbuffer, 1 MB), and the snapshot then failed.
 */
public final class TreeCodec {
    private TreeCodec() {}

    /** The format {@link #write} writes. */
    public static final int FORMAT = 2;
    /** The first format: strings as modified UTF-8 ({@code writeUTF}). */
    public static final int FORMAT_MODIFIED_UTF8 = 1;
    /** A null string, as jute writes it. */
    private static final int NULL_STRING = -1;

    /** Bounds on what a snapshot may claim, so a corrupt one fails clearly instead of allocating wildly. */
    private static final int MAX_ACL_ENTRIES = 1 << 16;
    /** The data length of a node whose data is null (jute's length for a null buffer). */
    private static final int NULL_DATA = -1;

    /**
     * One node as a snapshot writes it. The data and ACL are the node's own: the tree replaces a
     * node's data and ACL on a change and never alters them in place, so the copy stays as of now.
     */
    public record NodeImage(String path, byte[] data, List<ACL> acl, Stat stat) {}

    /**
     * The tree's nodes as of now, in no order: a copy made in time linear in the nodes without
     * sorting or encoding anything, so the core's thread can take it and another thread write it.
     */
    public static List<NodeImage> capture(DataTree tree) {
        List<NodeImage> image = new ArrayList<>(tree.nodeCount());
        tree.forEachNode((path, n) -> image.add(new NodeImage(path, n.data, n.acl, n.storedStat())));
        assert image.size() == tree.nodeCount() : "a captured node per node";
        return image;
    }

    public static void write(DataTree tree, DataOutputStream out) throws IOException {
        write(capture(tree), out);
    }

    /** Writes the nodes in path order, whatever order the image has them in. */
    public static void write(List<NodeImage> image, DataOutputStream out) throws IOException {
        List<NodeImage> nodes = new ArrayList<>(image);
        nodes.sort(java.util.Comparator.comparing(NodeImage::path));
        out.writeInt(nodes.size());
        for (NodeImage n : nodes) {
            writeString(out, n.path());
            if (n.data() == null) {
                out.writeInt(NULL_DATA); // a node created or set with null data reads back null
            } else {
                out.writeInt(n.data().length);
                out.write(n.data());
            }
            out.writeInt(n.acl().size());
            for (ACL a : n.acl()) {
                out.writeInt(a.getPerms());
                writeString(out, a.getId().getScheme());
                writeString(out, a.getId().getId());
            }
            Stat s = n.stat();
            out.writeLong(s.getCzxid());
            out.writeLong(s.getMzxid());
            out.writeLong(s.getPzxid());
            out.writeLong(s.getCtime());
            out.writeLong(s.getMtime());
            out.writeInt(s.getVersion());
            out.writeInt(s.getCversion());
            out.writeInt(s.getAversion());
            out.writeLong(s.getEphemeralOwner());
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        // Paths and ACL schemes and ids are never null in a tree: requests are validated (Acls.fixup)
        assert s != null : "a null path or ACL string in the tree";
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    /** A string of the given format; format 2's length is bounded by {@code maxBytes}, as a request's is. */
    private static String readString(DataInputStream in, int format, int maxBytes) throws IOException {
        if (format == FORMAT_MODIFIED_UTF8) {
            return in.readUTF();
        }
        int length = in.readInt();
        if (length == NULL_STRING) {
            // no tree holds one (writeString never writes it); a peer's SNAP or a damaged file may
            throw new IOException("snapshot holds a null string where a path or an ACL scheme or id goes");
        }
        if (length < 0 || length > maxBytes) {
            throw new IOException("snapshot claims a string of " + length + " bytes");
        }
        byte[] utf8 = in.readNBytes(length);
        if (utf8.length != length) {
            throw new IOException("snapshot ends inside a string");
        }
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /** Reads a tree that {@link #write} wrote (format {@link #FORMAT}). */
    public static DataTree read(DataInputStream in, int maxDataBytes) throws IOException {
        return read(in, maxDataBytes, FORMAT);
    }

    public static DataTree read(DataInputStream in, int maxDataBytes, int format) throws IOException {
        if (format != FORMAT && format != FORMAT_MODIFIED_UTF8) {
            throw new IllegalArgumentException("no tree format " + format);
        }
        DataTree tree = new DataTree();
        int count = in.readInt();
        if (count < 1) {
            throw new IOException("snapshot claims " + count + " nodes; a tree has at least the root");
        }
        java.util.Set<String> read = new java.util.HashSet<>();
        for (int i = 0; i < count; i++) {
            String path = readString(in, format, maxDataBytes);
            // a snapshot may come from a peer's SNAP: its paths are checked like a client's before the tree
            // takes them (found by StorageReaderFuzzTest: a child before its parent threw past the IOException)
            String problem = Paths.problem(path);
            if (problem != null) {
                throw new IOException("snapshot node " + Paths.quote(path) + ": " + problem);
            }
            if (!read.add(path)) {
                throw new IOException("snapshot has node " + path + " twice");
            }
            if (!path.equals("/") && !read.contains(Paths.parent(path)) && tree.get(Paths.parent(path)) == null) {
                throw new IOException("snapshot has " + path + " before its parent");
            }
            int length = in.readInt();
            if (length < NULL_DATA || length > maxDataBytes) {
                throw new IOException("snapshot node " + path + " claims " + length + " data bytes");
            }
            byte[] data = length == NULL_DATA ? null : in.readNBytes(length);
            if (data != null && data.length != length) {
                throw new IOException("snapshot ends inside the data of " + path);
            }
            int aclCount = in.readInt();
            if (aclCount < 0 || aclCount > MAX_ACL_ENTRIES) {
                throw new IOException("snapshot node " + path + " claims " + aclCount + " ACL entries");
            }
            List<ACL> acl = new ArrayList<>(aclCount);
            for (int j = 0; j < aclCount; j++) {
                int perms = in.readInt();
                String scheme = readString(in, format, maxDataBytes);
                acl.add(new ACL(perms, new Id(scheme, readString(in, format, maxDataBytes))));
            }
            Stat s = new Stat();
            s.setCzxid(in.readLong());
            s.setMzxid(in.readLong());
            s.setPzxid(in.readLong());
            s.setCtime(in.readLong());
            s.setMtime(in.readLong());
            s.setVersion(in.readInt());
            s.setCversion(in.readInt());
            s.setAversion(in.readInt());
            s.setEphemeralOwner(in.readLong());
            tree.restore(path, new Znode(data, List.copyOf(acl), s));
        }
        return tree;
    }
}
