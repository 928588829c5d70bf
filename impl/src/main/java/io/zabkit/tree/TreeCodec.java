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
     * The tree's nodes as of one moment, in columns: an array per field and no object per node, so
     * the core's thread copies 100,000 nodes in a few milliseconds and leaves sorting and encoding to
     * the thread that writes the snapshot. Data and ACLs are the nodes' own: the tree replaces a node's
     * data and ACL on a change and never alters them in place, so the copy stays as of its moment.
     */
    public static final class Image {
        private static final int LONGS = 6; // czxid, mzxid, pzxid, ctime, mtime, ephemeralOwner
        private static final int INTS = 3; // version, cversion (stored), aversion
        private final String[] paths;
        private final byte[][] data;
        private final Object[] acls;
        private final long[] longs;
        private final int[] ints;

        private Image(int size) {
            paths = new String[size];
            data = new byte[size][];
            acls = new Object[size];
            longs = new long[LONGS * size];
            ints = new int[INTS * size];
        }

        public int size() {
            return paths.length;
        }

        private void put(int i, String path, Znode n) {
            paths[i] = path;
            data[i] = n.data;
            acls[i] = n.acl;
            int l = LONGS * i;
            longs[l] = n.czxid;
            longs[l + 1] = n.mzxid;
            longs[l + 2] = n.pzxid;
            longs[l + 3] = n.ctime;
            longs[l + 4] = n.mtime;
            longs[l + 5] = n.ephemeralOwner;
            int k = INTS * i;
            ints[k] = n.version;
            ints[k + 1] = n.cversion;
            ints[k + 2] = n.aversion;
        }

        @SuppressWarnings("unchecked")
        private List<ACL> acl(int i) {
            return (List<ACL>) acls[i];
        }
    }

    /** A copy of every node as it is now, in time linear in the nodes (see {@link Image}). */
    public static Image capture(DataTree tree) {
        Image image = new Image(tree.nodeCount());
        int[] next = {0};
        tree.forEachNode((path, n) -> image.put(next[0]++, path, n));
        assert next[0] == image.size() : "a captured node per node: " + next[0] + " of " + image.size();
        return image;
    }

    public static void write(DataTree tree, DataOutputStream out) throws IOException {
        write(capture(tree), out);
    }

    /**
     * The bytes {@link #write(Image, DataOutputStream)} writes, so the snapshot's buffer is allocated
     * once: a 300,000-node tree is about 38 MB, and a buffer grown by doubling allocated about three
     * times that on a 512 MB heap, enough to force a full collection of seconds under load.
     */
    public static long encodedBytes(Image image) {
        long bytes = 4;
        for (int i = 0; i < image.size(); i++) {
            bytes += 4 + utf8Bytes(image.paths[i]) + 4 + (image.data[i] == null ? 0 : image.data[i].length) + 4;
            for (ACL a : image.acl(i)) {
                bytes += 4 + 4 + utf8Bytes(a.getId().getScheme()) + 4 + utf8Bytes(a.getId().getId());
            }
            bytes += 6 * 8 + 3 * 4;
        }
        return bytes;
    }

    /** The length of s in UTF-8 as String#getBytes writes it (an unpaired surrogate becomes one '?'). */
    static int utf8Bytes(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes += 1;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** Writes the image's nodes in path order (parents before their children). */
    public static void write(Image image, DataOutputStream out) throws IOException {
        Integer[] order = new Integer[image.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> image.paths[a].compareTo(image.paths[b]));
        out.writeInt(order.length);
        for (int i : order) {
            writeString(out, image.paths[i]);
            byte[] data = image.data[i];
            if (data == null) {
                out.writeInt(NULL_DATA); // a node created or set with null data reads back null
            } else {
                out.writeInt(data.length);
                out.write(data);
            }
            List<ACL> acl = image.acl(i);
            out.writeInt(acl.size());
            for (ACL a : acl) {
                out.writeInt(a.getPerms());
                writeString(out, a.getId().getScheme());
                writeString(out, a.getId().getId());
            }
            int l = Image.LONGS * i;
            int k = Image.INTS * i;
            out.writeLong(image.longs[l]); // czxid
            out.writeLong(image.longs[l + 1]); // mzxid
            out.writeLong(image.longs[l + 2]); // pzxid
            out.writeLong(image.longs[l + 3]); // ctime
            out.writeLong(image.longs[l + 4]); // mtime
            out.writeInt(image.ints[k]); // version
            out.writeInt(image.ints[k + 1]); // cversion, stored
            out.writeInt(image.ints[k + 2]); // aversion
            out.writeLong(image.longs[l + 5]); // ephemeralOwner
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
