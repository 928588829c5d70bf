package io.zabkit.tree;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;

/**
 * Writes and reads every node of a tree (path, data, ACL, Stat) in path order, so parents come
 * before their children. The /zookeeper system nodes are written too: they carry the same fields.
 */
public final class TreeCodec {
    private TreeCodec() {}

    /** Bounds on what a snapshot may claim, so a corrupt one fails clearly instead of allocating wildly. */
    private static final int MAX_ACL_ENTRIES = 1 << 16;
    /** The data length of a node whose data is null (jute's length for a null buffer). */
    private static final int NULL_DATA = -1;

    public static void write(DataTree tree, DataOutputStream out) throws IOException {
        Map<String, Znode> nodes = tree.sortedNodes();
        out.writeInt(nodes.size());
        for (Map.Entry<String, Znode> e : nodes.entrySet()) {
            Znode n = e.getValue();
            out.writeUTF(e.getKey());
            if (n.data == null) {
                out.writeInt(NULL_DATA); // a node created or set with null data reads back null
            } else {
                out.writeInt(n.data.length);
                out.write(n.data);
            }
            out.writeInt(n.acl.size());
            for (ACL a : n.acl) {
                out.writeInt(a.getPerms());
                out.writeUTF(a.getId().getScheme());
                out.writeUTF(a.getId().getId());
            }
            Stat s = n.storedStat();
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

    public static DataTree read(DataInputStream in, int maxDataBytes) throws IOException {
        DataTree tree = new DataTree();
        int count = in.readInt();
        if (count < 1) {
            throw new IOException("snapshot claims " + count + " nodes; a tree has at least the root");
        }
        java.util.Set<String> read = new java.util.HashSet<>();
        for (int i = 0; i < count; i++) {
            String path = in.readUTF();
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
                acl.add(new ACL(perms, new Id(in.readUTF(), in.readUTF())));
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
