package io.zabkit.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.core.CoreConfig;
import io.zabkit.txn.Txn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Zab TRUNC and SNAP on the log: {@link Storage#truncate} and {@link Storage#installSnapshot}. */
class StorageTruncateTest {
    private final List<String> warnings = new ArrayList<>();

    private Storage open(MemDisk disk, boolean forceSync) {
        return new Storage(disk, disk, new Storage.Options(forceSync, 3, CoreConfig.DEFAULT_MAX_BUFFER), warnings::add);
    }

    private Storage recovered(MemDisk disk) throws IOException {
        Storage s = open(disk, true);
        s.recover();
        return s;
    }

    private RecoveredState recover(MemDisk disk) throws IOException {
        return open(disk, true).recover();
    }

    private static List<Txn> concat(List<Txn> a, List<Txn> b) {
        List<Txn> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static void assertSameTxns(List<Txn> expected, List<Txn> actual) {
        assertEquals(Txns.zxids(expected), Txns.zxids(actual));
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i).encode(), actual.get(i).encode(), "txn " + i);
        }
    }

    private static final String LOG_1 = FileNames.log(Txn.zxid(1, 1));
    private static final String LOG_11 = FileNames.log(Txn.zxid(1, 11));
    private static final String LOG_21 = FileNames.log(Txn.zxid(1, 21));

    /** Three files, one per session: LOG_1 holds 1:1..1:10, LOG_11 1:11..1:20, LOG_21 1:21..1:30; all synced. */
    private MemDisk threeFiles() throws IOException {
        MemDisk disk = new MemDisk();
        for (long c = 1; c <= 21; c += 10) {
            Storage s = recovered(disk);
            s.append(Txns.range(1, c, c + 9));
            s.sync();
        }
        assertEquals(List.of(LOG_1, LOG_11, LOG_21), logFiles(disk));
        return disk;
    }

    private static List<String> logFiles(MemDisk disk) {
        List<String> logs = new ArrayList<>();
        for (String name : disk.list()) {
            if (FileNames.zxidOf(name, FileNames.LOG_PREFIX) >= 0) {
                logs.add(name);
            }
        }
        logs.sort((a, b) -> Long.compare(FileNames.zxidOf(a, FileNames.LOG_PREFIX),
                FileNames.zxidOf(b, FileNames.LOG_PREFIX)));
        return logs;
    }

    private static Map<String, byte[]> contents(MemDisk disk) {
        Map<String, byte[]> files = new HashMap<>();
        for (String name : disk.list()) {
            files.put(name, disk.read(name));
        }
        return files;
    }

    private static void assertSameFiles(Map<String, byte[]> expected, MemDisk disk) {
        assertEquals(expected.keySet(), contents(disk).keySet());
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            assertArrayEquals(e.getValue(), disk.read(e.getKey()), e.getKey());
        }
    }

    @Test
    void truncateInTheMiddleOfAFileCutsItAtTheRecordBoundaryAndDeletesLaterFiles() throws IOException {
        MemDisk disk = threeFiles();
        byte[] middleBefore = disk.read(LOG_11);
        Storage s = recovered(disk);
        s.truncate(Txn.zxid(1, 15));
        assertEquals(Txn.zxid(1, 15), s.lastLoggedZxid());
        assertEquals(List.of(LOG_1, LOG_11), logFiles(disk));
        byte[] cut = disk.read(LOG_11);
        int droppedBytes = 0;
        for (Txn t : Txns.range(1, 16, 20)) {
            droppedBytes += LogFormat.RECORD_OVERHEAD_BYTES + t.encode().length;
        }
        assertArrayEquals(Arrays.copyOf(middleBefore, middleBefore.length - droppedBytes), cut,
                "the file keeps exactly its first five records, byte for byte");
        assertFalse(disk.list().stream().anyMatch(n -> n.startsWith(FileNames.TRUNCATE_PREFIX)), disk.list().toString());

        // The new leader's history continues after 1:15 with epoch 2; recovery sees no trace of 1:16..1:30.
        s.append(Txns.range(2, 1, 3));
        s.sync();
        assertSameTxns(concat(Txns.range(1, 1, 15), Txns.range(2, 1, 3)), recover(disk.crash()).txns());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void truncateAtAFileBoundaryKeepsThatFileWhole() throws IOException {
        MemDisk disk = threeFiles();
        byte[] middleBefore = disk.read(LOG_11);
        Storage s = recovered(disk);
        s.truncate(Txn.zxid(1, 20));
        assertEquals(List.of(LOG_1, LOG_11), logFiles(disk));
        assertArrayEquals(middleBefore, disk.read(LOG_11));
        s.append(Txns.range(1, 21, 22)); // the same zxid as the deleted file's name: it must be free again
        s.sync();
        assertSameTxns(Txns.range(1, 1, 22), recover(disk.crash()).txns());

        MemDisk other = threeFiles();
        Storage t = recovered(other);
        t.truncate(Txn.zxid(1, 10)); // the last record of the first file
        assertEquals(List.of(LOG_1), logFiles(other));
        assertSameTxns(Txns.range(1, 1, 10), recover(other.crash()).txns());
    }

    @Test
    void truncateBetweenTwoZxidsKeepsEverythingBelow() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = recovered(disk);
        s.append(Txns.range(1, 1, 4));
        s.append(Txns.range(3, 1, 2));
        s.sync();
        s.truncate(Txn.zxid(2, 7)); // never logged: drops epoch 3, keeps epoch 1
        assertEquals(Txn.zxid(1, 4), s.lastLoggedZxid());
        s.append(Txns.range(2, 8, 8));
        s.sync();
        assertSameTxns(concat(Txns.range(1, 1, 4), Txns.range(2, 8, 8)), recover(disk.crash()).txns());
    }

    @Test
    void truncateToZeroDropsTheWholeLog() throws IOException {
        MemDisk disk = threeFiles();
        Storage s = recovered(disk);
        s.truncate(0);
        assertEquals(0, s.lastLoggedZxid());
        assertTrue(disk.list().isEmpty(), disk.list().toString());
        assertEquals(RecoveredState.empty(), recover(disk.crash()));
        s.append(Txns.range(2, 1, 2));
        s.sync();
        assertSameTxns(Txns.range(2, 1, 2), recover(disk.crash()).txns());
    }

    @Test
    void truncateToTheLastZxidOrBeyondChangesNothing() throws IOException {
        MemDisk disk = threeFiles();
        Map<String, byte[]> before = contents(disk);
        Storage s = recovered(disk);
        int writes = disk.atomicWrites;
        s.truncate(Txn.zxid(1, 30));
        s.truncate(Txn.zxid(5, 0));
        assertEquals(writes, disk.atomicWrites, "a no-op truncate writes no marker");
        assertSameFiles(before, disk);
        assertEquals(Txn.zxid(1, 30), s.lastLoggedZxid());
        s.append(Txns.range(1, 31, 31)); // and the session goes on
        s.sync();
        assertSameTxns(Txns.range(1, 1, 31), recover(disk.crash()).txns());
    }

    @Test
    void truncateInsideTheFileBeingAppendedToDropsUnsyncedRecordsToo() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = recovered(disk);
        s.append(Txns.range(1, 1, 5));
        s.sync();
        s.append(Txns.range(1, 6, 9)); // not yet synced when the leader says TRUNC
        s.truncate(Txn.zxid(1, 7));
        assertSameTxns(Txns.range(1, 1, 7), recover(disk.crash()).txns()); // truncate made the kept prefix durable
        s.append(Txns.range(2, 1, 1));
        s.sync();
        assertSameTxns(concat(Txns.range(1, 1, 7), Txns.range(2, 1, 1)), recover(disk.crash()).txns());
    }

    @Test
    void truncateBelowASnapshotIsRefusedAndChangesNothing() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = recovered(disk);
        s.append(Txns.range(1, 1, 10));
        s.writeSnapshot(new Snapshot(Txn.zxid(1, 6), new byte[] {6}));
        s.append(Txns.range(1, 11, 12));
        s.sync();
        Map<String, byte[]> before = contents(disk);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.truncate(Txn.zxid(1, 5)));
        assertTrue(e.getMessage().contains(FileNames.snapshot(Txn.zxid(1, 6))), e.getMessage());
        assertTrue(e.getMessage().contains("committed"), e.getMessage());
        assertSameFiles(before, disk);
        assertThrows(IllegalArgumentException.class, () -> s.truncate(-1));

        s.truncate(Txn.zxid(1, 6)); // at the snapshot itself is fine: drops 1:7..1:12
        assertEquals(Txn.zxid(1, 6), s.lastLoggedZxid());
        RecoveredState state = recover(disk.crash());
        assertEquals(Txn.zxid(1, 6), state.snapshot().zxid());
        assertTrue(state.txns().isEmpty(), Txns.zxids(state.txns()).toString());
    }

    /** A marker left by a crash in the middle of a truncate: recovery finishes the truncate and says so. */
    @Test
    void recoveryFinishesATruncateThatACrashInterrupted() throws IOException {
        MemDisk disk = threeFiles();
        disk.delete(LOG_21); // the crash came after the first delete, before the cut
        disk.put(FileNames.truncateMarker(Txn.zxid(1, 4)), new byte[] {'x'});
        RecoveredState state = recover(disk);
        assertSameTxns(Txns.range(1, 1, 4), state.txns());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("interrupted truncating the log after " + Txn.zxidString(Txn.zxid(1, 4))),
                warnings.toString());
        assertEquals(List.of(LOG_1), disk.list(), "the marker is gone with the truncated files");
    }

    @Test
    void installSnapshotAheadOfTheLogLeavesAGapThatRecoveryStartsAfter() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = recovered(disk);
        s.append(Txns.range(1, 1, 5));
        s.sync();
        Snapshot leaders = new Snapshot(Txn.zxid(2, 40), new byte[] {4, 2});
        s.installSnapshot(leaders);
        assertEquals(Txn.zxid(2, 40), s.lastLoggedZxid());
        RecoveredState state = recover(disk.crash());
        assertArrayEquals(leaders.data(), state.snapshot().data());
        assertEquals(Txn.zxid(2, 40), state.lastZxid());
        assertTrue(state.txns().isEmpty());

        s.append(Txns.range(2, 41, 43));
        s.sync();
        state = recover(disk.crash());
        assertEquals(Txn.zxid(2, 40), state.snapshot().zxid());
        assertSameTxns(Txns.range(2, 41, 43), state.txns());
        assertTrue(warnings.isEmpty(), warnings.toString());

        // Without the installed snapshot the old log cannot reach the new file: a gap, not a silent loss.
        disk.delete(FileNames.snapshot(Txn.zxid(2, 40)));
        CorruptStorageException e = assertThrows(CorruptStorageException.class, () -> recover(disk));
        assertTrue(e.getMessage().contains("transactions are missing"), e.getMessage());
    }

    @Test
    void installSnapshotBehindTheLogEndDropsTheDivergentTail() throws IOException {
        MemDisk disk = threeFiles();
        Storage s = recovered(disk);
        s.installSnapshot(new Snapshot(Txn.zxid(1, 14), new byte[] {14}));
        assertEquals(List.of(LOG_1, LOG_11), logFiles(disk));
        RecoveredState state = recover(disk.crash());
        assertEquals(Txn.zxid(1, 14), state.snapshot().zxid());
        assertTrue(state.txns().isEmpty(), "1:15..1:30 must not be replayed on top: " + Txns.zxids(state.txns()));

        s.append(Txns.range(2, 1, 2));
        s.sync();
        state = recover(disk.crash());
        assertSameTxns(Txns.range(2, 1, 2), state.txns());
        // Even if the installed snapshot turns out unusable, the fallback replays only the kept prefix.
        disk.put(FileNames.snapshot(Txn.zxid(1, 14)), new byte[] {1, 2, 3});
        state = recover(disk);
        assertNull(state.snapshot());
        assertSameTxns(concat(Txns.range(1, 1, 14), Txns.range(2, 1, 2)), state.txns());
    }

    @Test
    void installSnapshotReplacesALocalSnapshotOfTheSameZxidAndRefusesAnOlderOne() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = recovered(disk);
        s.append(Txns.range(1, 1, 8));
        s.writeSnapshot(new Snapshot(Txn.zxid(1, 8), new byte[] {1}));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> s.installSnapshot(new Snapshot(Txn.zxid(1, 7), new byte[] {7})));
        assertTrue(e.getMessage().contains("SNAP"), e.getMessage());
        s.installSnapshot(new Snapshot(Txn.zxid(1, 8), new byte[] {8, 8}));
        assertArrayEquals(new byte[] {8, 8}, recover(disk.crash()).snapshot().data());
    }

    /** With forceSync off the file being appended to holds unsynced records; it stops being the newest. */
    @Test
    void installSnapshotSyncsTheFileItClosesEvenWithForceSyncOff() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, false);
        s.recover();
        s.append(Txns.range(1, 1, 3));
        s.sync();
        assertEquals(0, disk.syncs);
        s.installSnapshot(new Snapshot(Txn.zxid(1, 9), new byte[] {9}));
        assertEquals(1, disk.syncs);
        s.append(Txns.range(1, 10, 10));
        s.sync();
        RecoveredState state = recover(disk);
        assertEquals(Txn.zxid(1, 9), state.snapshot().zxid());
        assertSameTxns(Txns.range(1, 10, 10), state.txns());
    }
}
