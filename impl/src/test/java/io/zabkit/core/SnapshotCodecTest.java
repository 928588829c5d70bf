package io.zabkit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.session.Sessions;
import io.zabkit.storage.Snapshot;
import io.zabkit.tree.Acls;
import io.zabkit.tree.DataTree;
import io.zabkit.wire.OpCode;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.zookeeper.proto.CreateRequest;
import org.junit.jupiter.api.Test;

/**
 * The core takes a snapshot on its own thread, which also pings the ensemble, but only copies the
 * state there; the bytes are made by whoever writes them. The copy must be the state as of the
 * snapshot's zxid however the tree changes before the bytes are made.
 */
class SnapshotCodecTest {
    @Test
    void aDeferredSnapshotIsTheStateAtItsZxidNotAtEncoding() throws Exception {
        DataTree tree = new DataTree();
        tree.create("/a", bytes("a1"), Acls.OPEN, 0, 1, 1, 10);
        tree.create("/a/b", bytes("b1"), Acls.OPEN, 0, 2, 2, 11);
        tree.create("/gone", null, Acls.OPEN, 0, 3, 3, 12);
        Sessions sessions = new Sessions(1, 7);
        long session = sessions.newSessionId(0);
        sessions.beginCreate(session);
        sessions.applyCreate(session, 4000, 0);
        long digestBefore = tree.digest();
        byte[] eager = SnapshotCodec.encode(tree, sessions, 3).data();

        Snapshot later = SnapshotCodec.encodeLater(tree, sessions, 3);
        tree.setData("/a", bytes("a2"), 0, 4, 13); // every kind of change a node's copy could miss
        tree.create("/a/c", bytes("c"), Acls.OPEN, 0, 2, 5, 14);
        tree.delete("/gone", 6);
        tree.setAcl("/a/b", Acls.OPEN, 0);
        long next = sessions.newSessionId(0);
        sessions.beginCreate(next);
        sessions.applyCreate(next, 5000, 0);
        assertFalse(later.encoded(), "the bytes wait for whoever writes the snapshot");

        assertArrayEquals(eager, later.data(), "the bytes are those of zxid 3's state");
        SnapshotCodec.Decoded back = SnapshotCodec.decode(later, 1 << 20);
        assertEquals(digestBefore, back.tree().digest());
        assertEquals(Set.of(session), back.sessionTimeouts().keySet());
    }

    @Test
    void theCoreHandsOverItsSnapshotsUnencoded() {
        CoreConfig d = CoreConfig.defaults(1, 100, 7);
        int snapCount = 3;
        CoreHarness h = new CoreHarness(new CoreConfig(d.serverId(), d.tickTimeMs(), d.minSessionTimeoutMs(),
                d.maxSessionTimeoutMs(), d.maxClientCnxns(), d.maxBufferBytes(), snapCount, d.forceSync(),
                d.fourLetterWords(), d.sessionSecret(), d.describe()));
        h.connect(1, 0, null);
        for (int i = 0; i < 2 * snapCount; i++) {
            h.send(1, i + 1, OpCode.CREATE, new CreateRequest("/n" + i, bytes("v"), Acls.OPEN, 0));
            h.persistAll();
        }
        assertTrue(h.snapshots.size() >= 2, "snapshots taken: " + h.snapshots);
        assertTrue(h.snapshots.stream().noneMatch(Snapshot::encoded), "the core encoded a snapshot itself");
        assertTrue(h.snapshots.stream().allMatch(s -> s.data().length > 0));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
