package io.zabkit.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.core.CoreConfig;
import io.zabkit.txn.Txn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NEWLEADER's synced log and currentEpoch become durable as one step ({@link Storage#markSyncTail}):
 * a restart between the log's fsync and the epoch's write finds the log as it was before NEWLEADER.
 */
class StorageSyncTailTest {
    private MemDisk logDisk = new MemDisk();
    private MemDisk snapshotDisk = new MemDisk();
    private final List<String> warnings = new ArrayList<>();

    private Storage open() {
        return new Storage(logDisk, snapshotDisk, new Storage.Options(true, 3, CoreConfig.DEFAULT_MAX_BUFFER),
                warnings::add);
    }

    /** A follower of epoch 1 with 1:1..1:2 logged, at NEWLEADER of epoch 2 with 1:3..1:4 synced. */
    private Storage atNewLeaderWithTheTailSynced() throws IOException {
        Storage s = open();
        s.recover();
        s.append(Txns.range(1, 1, 2));
        s.sync();
        s.writeEpochs(2, 1); // LEADERINFO of epoch 2
        s.markSyncTail(Txn.zxid(1, 2), 2);
        s.append(Txns.range(1, 3, 4));
        s.sync();
        return s;
    }

    private RecoveredState restart() throws IOException {
        logDisk = logDisk.crash();
        snapshotDisk = snapshotDisk.crash();
        return open().recover();
    }

    private boolean marked() {
        return logDisk.list().stream().anyMatch(n -> n.startsWith(FileNames.SYNC_TAIL_PREFIX));
    }

    @Test
    void aRestartBeforeCurrentEpochDropsTheSyncedTail() throws IOException {
        atNewLeaderWithTheTailSynced();
        RecoveredState state = restart();
        assertEquals(Txn.zxid(1, 2), state.lastZxid(), "the log as before NEWLEADER");
        assertEquals(1, state.currentEpoch());
        assertEquals(1, warnings.size(), "the drop is reported: " + warnings);
        assertFalse(marked(), "the mark goes with its tail");
        // and it stays dropped: the next restart reads the same log
        assertEquals(Txn.zxid(1, 2), restart().lastZxid());
    }

    @Test
    void currentEpochVouchesForTheTailAndClearsTheMark() throws IOException {
        Storage s = atNewLeaderWithTheTailSynced();
        assertTrue(marked());
        s.writeEpochs(2, 2);
        assertFalse(marked(), "currentEpoch 2 vouches for the tail");
        RecoveredState state = restart();
        assertEquals(Txn.zxid(1, 4), state.lastZxid());
        assertEquals(2, state.currentEpoch());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void aMarkFoundWithCurrentEpochWrittenKeepsTheTail() throws IOException {
        Storage s = atNewLeaderWithTheTailSynced();
        // the crash cut writeEpochs between the epoch file and the mark's deletion
        snapshotDisk.writeAtomically(EpochFiles.CURRENT, EpochFiles.encode(2));
        assertTrue(marked());
        RecoveredState state = restart();
        assertEquals(Txn.zxid(1, 4), state.lastZxid());
        assertFalse(marked());
    }

    @Test
    void aTruncateThatCutsTheTailClearsTheMark() throws IOException {
        Storage s = atNewLeaderWithTheTailSynced();
        s.truncate(Txn.zxid(1, 2)); // the follower left its synchronization
        assertFalse(marked());
        s.writeEpochs(3, 1); // and accepted a later epoch's LEADERINFO
        s.append(Txns.range(1, 3, 3)); // a DIFF's proposal... logged as an ordinary entry
        s.sync();
        assertEquals(Txn.zxid(1, 3), restart().lastZxid(), "no stale mark cuts what came after");
    }

    /** A follower 3 snapshots back (1:1..1:2 logged, snapshot at 1:1), at NEWLEADER of epoch 2 after a SNAP at 2:5. */
    private Storage atNewLeaderWithASnapInstalled() throws IOException {
        Storage s = open();
        s.recover();
        s.append(Txns.range(1, 1, 2));
        s.sync();
        s.writeSnapshot(new Snapshot(Txn.zxid(1, 1), new byte[] {1, 1}));
        s.writeEpochs(2, 1);
        s.markSyncTail(Txn.zxid(1, 2), 2);
        s.installSnapshot(new Snapshot(Txn.zxid(2, 5), new byte[] {2, 5}));
        s.append(Txns.range(2, 6, 7));
        s.sync();
        return s;
    }

    @Test
    void aRestartBeforeCurrentEpochUndoesTheSnap() throws IOException {
        atNewLeaderWithASnapInstalled();
        RecoveredState state = restart();
        assertEquals(Txn.zxid(1, 2), state.lastZxid(), "the state before the SNAP, old snapshot and log kept");
        assertEquals(Txn.zxid(1, 1), state.snapshot().zxid());
        assertFalse(snapshotDisk.list().contains(FileNames.snapshot(Txn.zxid(2, 5))));
    }

    @Test
    void currentEpochVouchesForTheSnapAndPurgesWhatItNoLongerNeeds() throws IOException {
        Storage s = atNewLeaderWithASnapInstalled();
        s.writeEpochs(2, 2);
        RecoveredState state = restart();
        assertEquals(Txn.zxid(2, 7), state.lastZxid());
        assertEquals(Txn.zxid(2, 5), state.snapshot().zxid());
    }

    @Test
    void leavingAfterTheSnapTruncatesItAway() throws IOException {
        Storage s = atNewLeaderWithASnapInstalled();
        s.truncate(Txn.zxid(1, 2)); // the follower left: its memory went back to 1:2, and so does its disk
        assertFalse(marked());
        assertEquals(Txn.zxid(1, 2), s.lastLoggedZxid());
        assertEquals(Txn.zxid(1, 2), restart().lastZxid());
    }

    @Test
    void anEpochAlreadyVouchedForWritesNoMark() throws IOException {
        Storage s = open();
        s.recover();
        s.writeEpochs(2, 2);
        s.markSyncTail(0, 2);
        assertFalse(marked());
    }

    @Test
    void aMarkBehindTheLogIsRefused() throws IOException {
        Storage s = open();
        s.recover();
        s.append(Txns.range(1, 1, 3));
        assertThrows(IllegalStateException.class, () -> s.markSyncTail(Txn.zxid(1, 2), 2));
        assertThrows(IllegalArgumentException.class, () -> s.markSyncTail(-1, 2));
    }
}
