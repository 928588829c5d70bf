package io.zabkit.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zabkit.core.CoreConfig;
import io.zabkit.core.SnapshotCodec;
import io.zabkit.fuzz.Seeds;
import io.zabkit.session.Sessions;
import io.zabkit.tree.DataTree;
import io.zabkit.txn.Txn;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A damaged data directory never crashes recovery with anything but its own clear refusal: any bytes as
 * a log file give records or a CorruptStorageException naming the file; any bytes as a logged
 * transaction or as a snapshot's tree give a value or an IOException. (The log and snapshot files carry
 * checksums, which random bytes rarely pass, so the transaction and tree decoders behind them are fuzzed
 * on their own too.) Inputs in StorageReaderFuzzTestInputs/ start from real files (writeSeeds).
 */
class StorageReaderFuzzTest {
    static final int MAX_BUFFER = 1 << 16;

    @FuzzTest(maxDuration = "2m")
    void anyBytesAsALogFile(byte[] file) {
        for (boolean newest : new boolean[] {false, true}) {
            for (boolean discardTail : new boolean[] {false, true}) {
                try {
                    LogSegment s = new LogReader(MAX_BUFFER + 1024, MAX_BUFFER, discardTail).read("log.1", 1, file, newest);
                    assert s != null : "a read log has a segment";
                } catch (CorruptStorageException refused) {
                    assert refused.getMessage().contains("log.1") : "a refusal names the file: " + refused.getMessage();
                }
            }
        }
    }

    @FuzzTest(maxDuration = "2m")
    void anyBytesAsALoggedTransaction(byte[] bytes) throws IOException {
        Txn t;
        try {
            t = Txn.decode(bytes, MAX_BUFFER);
        } catch (IOException refused) {
            return;
        }
        byte[] again = t.encode();
        assertArrayEquals(again, Txn.decode(again, Integer.MAX_VALUE).encode(), "a decoded txn re-encodes stably");
    }

    @FuzzTest(maxDuration = "2m")
    void anyBytesAsASnapshot(byte[] data) {
        try {
            SnapshotFormat.decode(data, 0x100000001L);
        } catch (CorruptStorageException refused) {
            // refused with its reason
        }
        if (data.length == 0) {
            return; // a Snapshot is never empty: the file format and the SNAP codec refuse that first
        }
        try {
            SnapshotCodec.Decoded d = SnapshotCodec.decode(new Snapshot(0x100000001L, data), MAX_BUFFER);
            assert d != null : "a decoded tree exists";
        } catch (IOException refused) {
            // refused with its reason
        }
    }

    /** A real log file (two syncs of ten transactions) and a real snapshot of a small tree. */
    @Test
    @EnabledIfSystemProperty(named = Seeds.WRITE_PROPERTY, matches = "true")
    void writeSeeds() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = new Storage(disk, disk, new Storage.Options(true, 3, CoreConfig.DEFAULT_MAX_BUFFER), w -> { });
        s.recover();
        s.append(Txns.range(1, 1, 10));
        s.sync();
        s.append(Txns.range(1, 11, 20));
        s.sync();
        for (String name : disk.list()) {
            if (name.startsWith("log.")) {
                Seeds.write(getClass(), "anyBytesAsALogFile", "seed-" + name, disk.read(name));
            }
        }
        int i = 0;
        for (Txn t : Txns.range(2, 1, 4)) {
            Seeds.write(getClass(), "anyBytesAsALoggedTransaction", "seed-" + i++, t.encode());
        }
        DataTree tree = new DataTree();
        Sessions sessions = new Sessions(1, 7);
        tree.create("/a", new byte[] {1, 2}, io.zabkit.tree.Acls.OPEN, 0, 0, Txn.zxid(1, 1), 1_700_000_000_000L);
        tree.create("/a/b", new byte[0], io.zabkit.tree.Acls.OPEN, 0x100000001L, 0, Txn.zxid(1, 2), 1_700_000_000_000L);
        tree.setData("/a", new byte[] {3}, 1, Txn.zxid(1, 3), 1_700_000_000_001L);
        Seeds.write(getClass(), "anyBytesAsASnapshot", "seed-tree", SnapshotCodec.encode(tree, sessions, Txn.zxid(1, 2)).data());
    }
}
