package io.zabkit.bench.papers;

import io.zabkit.core.SnapshotCodec;
import io.zabkit.session.Sessions;
import io.zabkit.storage.Snapshot;
import io.zabkit.tree.DataTree;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;
import org.apache.jute.BinaryInputArchive;
import org.apache.jute.BinaryOutputArchive;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.server.util.SerializeUtils;

/**
 * The thesis's serialization cost (seed 000, section 4.4.2, lines 709-716) as it matters to a server:
 * the time to write and to read back a snapshot of a large tree, in this JVM, for zabkit's snapshot
 * codec and ZooKeeper 3.9.4's (SerializeUtils over a jute archive), both into memory so no disk is
 * timed. The same tree: `parents` znodes under /, each with `perParent` children of `bytes` each.
 */
final class SnapshotCost {
    /** Best of `rounds` (the least disturbed by the other jobs on the machine), in ms. */
    record Result(String system, int nodes, long snapshotBytes, double writeMs, double readMs) {}

    private SnapshotCost() {}

    static Result zabkit(int parents, int perParent, int bytes, int rounds) throws Exception {
        DataTree tree = new DataTree();
        byte[] data = new byte[bytes];
        long zxid = 0;
        for (int p = 0; p < parents; p++) {
            tree.create("/p" + p, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, 0, 0, ++zxid, 0);
            for (int c = 0; c < perParent; c++) {
                tree.create("/p" + p + "/c" + c, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, 0, c, ++zxid, 0);
            }
        }
        Sessions sessions = new Sessions(1, 42);
        double write = Double.MAX_VALUE;
        double read = Double.MAX_VALUE;
        Snapshot snap = null;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            snap = SnapshotCodec.encode(tree, sessions, zxid);
            write = Math.min(write, (System.nanoTime() - t0) / 1e6);
            long t1 = System.nanoTime();
            SnapshotCodec.Decoded back = SnapshotCodec.decode(snap, 1 << 20);
            read = Math.min(read, (System.nanoTime() - t1) / 1e6);
            if (back.tree().nodeCount() != tree.nodeCount()) {
                throw new IllegalStateException("zabkit snapshot read back " + back.tree().nodeCount() + " nodes of "
                        + tree.nodeCount());
            }
        }
        return new Result("zabkit", tree.nodeCount(), snap.data().length, write, read);
    }

    static Result zookeeper(int parents, int perParent, int bytes, int rounds) throws Exception {
        org.apache.zookeeper.server.DataTree tree = new org.apache.zookeeper.server.DataTree();
        byte[] data = new byte[bytes];
        long zxid = 0;
        for (int p = 0; p < parents; p++) {
            tree.createNode("/p" + p, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, 0, 0, ++zxid, 0);
            for (int c = 0; c < perParent; c++) {
                tree.createNode("/p" + p + "/c" + c, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, 0, c, ++zxid, 0);
            }
        }
        Map<Long, Integer> sessions = new HashMap<>();
        double write = Double.MAX_VALUE;
        double read = Double.MAX_VALUE;
        byte[] snap = null;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
            SerializeUtils.serializeSnapshot(tree, BinaryOutputArchive.getArchive(out), sessions);
            snap = out.toByteArray();
            write = Math.min(write, (System.nanoTime() - t0) / 1e6);
            long t1 = System.nanoTime();
            org.apache.zookeeper.server.DataTree back = new org.apache.zookeeper.server.DataTree();
            SerializeUtils.deserializeSnapshot(back, BinaryInputArchive.getArchive(new ByteArrayInputStream(snap)),
                    new HashMap<>());
            read = Math.min(read, (System.nanoTime() - t1) / 1e6);
            if (back.getNodeCount() != tree.getNodeCount()) {
                throw new IllegalStateException("ZooKeeper snapshot read back " + back.getNodeCount() + " nodes of "
                        + tree.getNodeCount());
            }
        }
        return new Result("zookeeper", tree.getNodeCount(), snap.length, write, read);
    }
}
