package io.zabkit.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.core.CoreConfig;
import io.zabkit.txn.Txn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StorageTest {
    private final List<String> warnings = new ArrayList<>();

    private Storage open(MemDisk disk, boolean forceSync) {
        return new Storage(disk, disk, new Storage.Options(forceSync, 3, CoreConfig.DEFAULT_MAX_BUFFER), warnings::add);
    }

    private RecoveredState recover(MemDisk disk) throws IOException {
        return open(disk, true).recover();
    }

    private static void assertSameTxns(List<Txn> expected, List<Txn> actual) {
        assertEquals(Txns.zxids(expected), Txns.zxids(actual));
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i).encode(), actual.get(i).encode(), "txn " + i);
        }
    }

    /** Writes the batches with a sync after each; returns the disk as it would look after a clean stop. */
    private MemDisk logged(List<List<Txn>> batches) throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        assertEquals(RecoveredState.empty(), s.recover());
        for (List<Txn> batch : batches) {
            s.append(batch);
            s.sync();
        }
        return disk;
    }

    @Test
    void freshDirectoryRecoversEmpty() throws IOException {
        RecoveredState state = recover(new MemDisk());
        assertNull(state.snapshot());
        assertTrue(state.txns().isEmpty());
        assertEquals(0, state.lastZxid());
    }

    @Test
    void recoversEverySyncedTransaction() throws IOException {
        List<Txn> all = Txns.range(1, 1, 30);
        MemDisk disk = logged(List.of(all.subList(0, 10), all.subList(10, 11), all.subList(11, 30)));
        assertSameTxns(all, recover(disk.crash()).txns());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void groupCommitIsOneSyncPerBatch() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        s.recover();
        s.append(Txns.range(1, 1, 100));
        s.sync();
        s.sync(); // nothing new to sync
        assertEquals(1, disk.syncs);
    }

    @Test
    void forceSyncOffWritesWithoutSyncing() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, false);
        s.recover();
        s.append(Txns.range(1, 1, 5));
        s.sync();
        assertEquals(0, disk.syncs);
        assertEquals(5, recover(disk).txns().size(), "written, just not synced");
        assertTrue(recover(disk.crash()).txns().isEmpty(), "power loss takes the unsynced writes");
    }

    @Test
    void unsyncedAppendsAreLostButSyncedOnesAreNot() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        s.recover();
        s.append(Txns.range(1, 1, 4));
        s.sync();
        s.append(Txns.range(1, 5, 9));
        assertEquals(List.of(Txn.zxid(1, 1), Txn.zxid(1, 2), Txn.zxid(1, 3), Txn.zxid(1, 4)),
                Txns.zxids(recover(disk.crash()).txns()));
    }

    @Test
    void rejectsAppendsOutOfZxidOrder() throws IOException {
        Storage s = open(logged(List.of(Txns.range(1, 1, 3))).crash(), true);
        s.recover();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> s.append(List.of(Txns.create(Txn.zxid(1, 3)))));
        assertTrue(e.getMessage().contains("out of zxid order"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> open(new MemDisk(), true).append(Txns.range(1, 1, 1)));
    }

    /** Every way a crash can leave the last record: cut at each byte, zeros after it, or garbage after it. */
    @Test
    void tornTailAtEveryByteOfTheLastRecord() throws IOException {
        List<Txn> all = Txns.range(1, 1, 6);
        MemDisk pristine = logged(List.of(all.subList(0, 5), all.subList(5, 6)));
        String name = FileNames.log(all.get(0).zxid());
        byte[] full = pristine.read(name);
        int lastRecordStart = full.length - LogFormat.RECORD_OVERHEAD_BYTES - all.get(5).encode().length;
        Random random = new Random(42);
        for (int cut = lastRecordStart; cut < full.length; cut++) {
            for (String shape : List.of("cut", "zeros", "garbage")) {
                byte[] torn = Arrays.copyOf(full, shape.equals("cut") ? cut : full.length + 64);
                if (shape.equals("zeros")) {
                    Arrays.fill(torn, cut, torn.length, (byte) 0);
                } else if (shape.equals("garbage")) {
                    for (int i = cut; i < torn.length; i++) {
                        torn[i] = (byte) random.nextInt(256);
                    }
                }
                boolean anyTail = torn.length > lastRecordStart; // a cut on the record boundary tears nothing
                checkTornTailRecovery(name, torn, all, anyTail, shape + " at " + cut);
            }
        }
    }

    private void checkTornTailRecovery(String name, byte[] torn, List<Txn> all, boolean anyTail, String what)
            throws IOException {
        MemDisk disk = new MemDisk();
        disk.put(name, torn);
        Storage s = open(disk, true);
        assertSameTxns(all.subList(0, 5), s.recover().txns());
        assertEquals(anyTail ? 1 : 0, warnings.size(), what);
        assertTrue(!anyTail || warnings.get(0).contains("torn tail"), what + ": " + warnings);
        warnings.clear();
        // The server proposes the lost zxid again; the log must come back clean, with no warning.
        s.append(all.subList(5, 6));
        s.sync();
        assertSameTxns(all, recover(disk.crash()).txns());
        assertTrue(warnings.isEmpty(), what + ": " + warnings);
    }

    @Test
    void tornHeaderOfANewLogFileDeletesIt() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        s.recover();
        s.append(Txns.range(1, 1, 3));
        s.writeSnapshot(new Snapshot(Txn.zxid(1, 3), new byte[] {1, 2, 3}));
        s.append(Txns.range(1, 4, 4));
        s.sync();
        String newest = FileNames.log(Txn.zxid(1, 4));
        byte[] full = disk.read(newest);
        for (int cut = 0; cut < LogFormat.HEADER_BYTES; cut++) {
            MemDisk torn = disk.crash();
            torn.put(newest, Arrays.copyOf(full, cut));
            RecoveredState state = recover(torn);
            assertEquals(Txn.zxid(1, 3), state.lastZxid(), "cut " + cut);
            assertTrue(!torn.list().contains(newest), "torn empty file deleted, cut " + cut);
        }
    }

    @Test
    void damageFollowedByAWellFormedRecordIsCorruption() throws IOException {
        MemDisk disk = logged(List.of(Txns.range(1, 1, 5)));
        String name = FileNames.log(Txn.zxid(1, 1));
        byte[] bytes = disk.read(name);
        int payload1 = Txns.range(1, 1, 1).get(0).encode().length;
        byte[] flipped = bytes.clone();
        flipped[LogFormat.HEADER_BYTES + LogFormat.RECORD_HEADER_BYTES + 3] ^= 0x40; // inside record 1's payload
        disk.put(name, flipped);
        CorruptStorageException e = assertThrows(CorruptStorageException.class, () -> recover(disk));
        assertTrue(e.getMessage().contains("offset " + LogFormat.HEADER_BYTES + " (after zxid 0x0"), e.getMessage());
        assertTrue(e.getMessage().contains("whole but fails its crc32"), e.getMessage());
        assertTrue(e.getMessage().contains(name), e.getMessage());
        // a damaged trailer makes record 1 look torn, but record 2 follows it
        byte[] trailer = bytes.clone();
        trailer[LogFormat.HEADER_BYTES + LogFormat.RECORD_HEADER_BYTES + payload1] ^= 0x01;
        disk.put(name, trailer);
        e = assertThrows(CorruptStorageException.class, () -> recover(disk));
        assertTrue(e.getMessage().contains("well-formed record follows"), e.getMessage());
    }

    /**
     * A bit flip anywhere in the last record, which is whole and ends the file: damage to written (and
     * possibly acknowledged) bytes, not a torn append, so recovery refuses, naming the file, the offset
     * and the zxid; the operator's --discard-corrupt-log-tail drops it as a torn tail.
     */
    @Test
    void aBitFlipInTheWholeLastRecordIsCorruptionUnlessTheOperatorDiscardsIt() throws IOException {
        List<Txn> all = Txns.range(1, 1, 6);
        MemDisk pristine = logged(List.of(all.subList(0, 5), all.subList(5, 6)));
        String name = FileNames.log(all.get(0).zxid());
        byte[] full = pristine.read(name);
        int lastRecordStart = full.length - LogFormat.RECORD_OVERHEAD_BYTES - all.get(5).encode().length;
        for (int flip = lastRecordStart + 4; flip < full.length - LogFormat.TRAILER_BYTES; flip++) { // crc, payload
            byte[] bad = full.clone();
            bad[flip] ^= 0x10;
            MemDisk disk = new MemDisk();
            disk.put(name, bad);
            CorruptStorageException e = assertThrows(CorruptStorageException.class, () -> recover(disk),
                    "flipped byte " + flip);
            assertTrue(e.getMessage().contains(name) && e.getMessage().contains("offset " + lastRecordStart)
                    && e.getMessage().contains("after zxid " + Txn.zxidString(all.get(4).zxid()))
                    && e.getMessage().contains("--discard-corrupt-log-tail"), e.getMessage());
            assertArrayEquals(bad, disk.read(name), "nothing is cut without the operator");
            warnings.clear();
            Storage discarding = new Storage(disk, disk, new Storage.Options(true, 3, CoreConfig.DEFAULT_MAX_BUFFER,
                    true), warnings::add);
            assertSameTxns(all.subList(0, 5), discarding.recover().txns());
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("discarded"), warnings.toString());
            warnings.clear();
        }
        byte[] badTrailer = full.clone();
        badTrailer[full.length - 1] ^= 0x10; // indistinguishable from a torn append: dropped with a warning
        MemDisk torn = new MemDisk();
        torn.put(name, badTrailer);
        assertSameTxns(all.subList(0, 5), recover(torn).txns());
        assertTrue(warnings.size() == 1 && warnings.get(0).contains("torn tail"), warnings.toString());
        warnings.clear();
        MemDisk intact = new MemDisk();
        intact.put(name, full);
        assertSameTxns(all, recover(intact).txns()); // and the check does not fire on a good log
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    /** Logs written before the trailer (version 1) are still recovered, a torn last record included. */
    @Test
    void aVersionOneLogIsStillRead() throws IOException {
        List<Txn> all = Txns.range(1, 1, 4);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4096);
        b.putInt(LogFormat.MAGIC).putInt(1).putLong(0);
        b.putInt(LogFormat.crc(b.array(), 0, 16));
        for (Txn t : all) {
            byte[] payload = t.encode();
            b.putInt(payload.length).putInt(LogFormat.crc(payload, 0, payload.length)).put(payload);
        }
        byte[] v1 = Arrays.copyOf(b.array(), b.position());
        String name = FileNames.log(all.get(0).zxid());
        MemDisk disk = new MemDisk();
        disk.put(name, v1);
        assertSameTxns(all, recover(disk).txns());
        assertTrue(warnings.isEmpty(), warnings.toString());
        disk.put(name, Arrays.copyOf(v1, v1.length - 2));
        assertSameTxns(all.subList(0, 3), recover(disk).txns());
        assertTrue(warnings.size() == 1 && warnings.get(0).contains("torn tail"), warnings.toString());
    }

    @Test
    void damageInAnOlderLogFileIsCorruption() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        s.recover();
        s.append(Txns.range(1, 1, 3));
        s.writeSnapshot(new Snapshot(Txn.zxid(1, 2), new byte[] {9}));
        s.append(Txns.range(1, 4, 6));
        s.sync();
        String older = FileNames.log(Txn.zxid(1, 1));
        byte[] bytes = disk.read(older);
        disk.put(older, Arrays.copyOf(bytes, bytes.length - 1));
        CorruptStorageException e = assertThrows(CorruptStorageException.class, () -> recover(disk));
        assertTrue(e.getMessage().contains("not the newest"), e.getMessage());
    }

    @Test
    void missingLogFileIsAGapNotASilentLoss() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        s.recover();
        for (long c = 1; c <= 9; c += 3) {
            s.append(Txns.range(1, c, c + 2));
            s.writeSnapshot(new Snapshot(Txn.zxid(1, c), new byte[] {(byte) c}));
        }
        disk.delete(FileNames.log(Txn.zxid(1, 4)));
        disk.delete(FileNames.snapshot(Txn.zxid(1, 7)));
        CorruptStorageException e = assertThrows(CorruptStorageException.class, () -> recover(disk));
        assertTrue(e.getMessage().contains("transactions are missing"), e.getMessage());
    }

    @Test
    void recoversFromSnapshotPlusLaterTransactions() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        s.recover();
        s.append(Txns.range(1, 1, 10));
        s.writeSnapshot(new Snapshot(Txn.zxid(1, 7), new byte[] {7, 7}));
        s.append(Txns.range(2, 1, 3)); // a new epoch: zxids jump
        s.sync();
        RecoveredState state = recover(disk.crash());
        assertEquals(Txn.zxid(1, 7), state.snapshot().zxid());
        assertArrayEquals(new byte[] {7, 7}, state.snapshot().data());
        List<Txn> expected = new ArrayList<>(Txns.range(1, 8, 10));
        expected.addAll(Txns.range(2, 1, 3));
        assertSameTxns(expected, state.txns());
    }

    @Test
    void corruptOrMissingNewestSnapshotFallsBackToThePreviousOne() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        s.recover();
        s.append(Txns.range(1, 1, 4));
        s.writeSnapshot(new Snapshot(Txn.zxid(1, 2), new byte[] {2}));
        s.append(Txns.range(1, 5, 8));
        s.writeSnapshot(new Snapshot(Txn.zxid(1, 6), new byte[] {6}));
        s.append(Txns.range(1, 9, 9));
        s.sync();
        String newest = FileNames.snapshot(Txn.zxid(1, 6));
        byte[] good = disk.read(newest);
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 1;
            disk.put(newest, bad);
            RecoveredState state = recover(disk);
            assertEquals(Txn.zxid(1, 2), state.snapshot().zxid(), "flipped byte " + i);
            assertSameTxns(Txns.range(1, 3, 9), state.txns());
            assertTrue(warnings.get(warnings.size() - 1).contains("falling back"), warnings.toString());
            assertFalse(disk.list().contains(newest), "the unusable snapshot is out of recovery's way");
            assertArrayEquals(bad, disk.read(newest + ".corrupt"), "and kept, byte for byte, for a post-mortem");
        }
        assertEquals(Txn.zxid(1, 2), recover(disk).snapshot().zxid());
        disk.delete(FileNames.snapshot(Txn.zxid(1, 2)));
        RecoveredState fromScratch = recover(disk);
        assertNull(fromScratch.snapshot());
        assertSameTxns(Txns.range(1, 1, 9), fromScratch.txns());
    }

    @Test
    void snapshotsRollTheLogAndPurgeKeepsTheNewestThreeWithTheirLogs() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        s.recover();
        for (long c = 1; c <= 60; c += 10) {
            s.append(Txns.range(1, c, c + 9));
            s.sync();
            s.writeSnapshot(new Snapshot(Txn.zxid(1, c + 9), new byte[] {(byte) c}));
        }
        s.append(Txns.range(1, 61, 65));
        s.sync();
        List<Long> snapshots = new ArrayList<>();
        List<Long> logs = new ArrayList<>();
        for (String name : disk.list()) {
            if (FileNames.zxidOf(name, FileNames.SNAPSHOT_PREFIX) >= 0) {
                snapshots.add(Txn.counterOf(FileNames.zxidOf(name, FileNames.SNAPSHOT_PREFIX)));
            } else {
                logs.add(Txn.counterOf(FileNames.zxidOf(name, FileNames.LOG_PREFIX)));
            }
        }
        snapshots.sort(null);
        logs.sort(null);
        assertEquals(List.of(40L, 50L, 60L), snapshots);
        // One file per snapshot interval (rolled after each); the oldest kept snapshot (40) needs 41.. on.
        assertEquals(List.of(41L, 51L, 61L), logs);
        // Any kept snapshot can be the one recovery falls back to, and still yields the whole history.
        for (long fallback : List.of(60L, 50L, 40L)) {
            RecoveredState state = recover(disk);
            assertEquals(Txn.zxid(1, fallback), state.snapshot().zxid());
            assertSameTxns(Txns.range(1, fallback + 1, 65), state.txns());
            disk.put(FileNames.snapshot(Txn.zxid(1, fallback)), new byte[] {1, 2, 3});
        }
    }

    /** A crash between writing a snapshot and purging leaves extra files; the next recovery purges them. */
    @Test
    void recoveryFinishesAPurgeThatACrashCutShort() throws IOException {
        MemDisk disk = new MemDisk();
        Storage s = open(disk, true);
        s.recover();
        for (long c = 1; c <= 40; c += 10) {
            s.append(Txns.range(1, c, c + 9));
            s.writeSnapshot(new Snapshot(Txn.zxid(1, c + 9), new byte[] {(byte) c}));
        }
        disk.put(FileNames.snapshot(Txn.zxid(1, 5)), disk.read(FileNames.snapshot(Txn.zxid(1, 40))));
        disk.put(FileNames.log(Txn.zxid(1, 1)), LogFormat.header(0));
        RecoveredState state = recover(disk);
        assertEquals(Txn.zxid(1, 40), state.snapshot().zxid());
        assertFalse(disk.list().contains(FileNames.log(Txn.zxid(1, 1))), disk.list().toString());
        assertEquals(3, disk.list().stream().filter(n -> n.startsWith(FileNames.SNAPSHOT_PREFIX)).count(),
                disk.list().toString());
        // With exactly the retained count, logs older than the oldest kept snapshot still go.
        disk.put(FileNames.log(Txn.zxid(1, 1)), LogFormat.header(0));
        recover(disk);
        assertFalse(disk.list().contains(FileNames.log(Txn.zxid(1, 1))), disk.list().toString());
    }

    @Test
    void rejectsASnapshotAheadOfTheLog() throws IOException {
        Storage s = open(new MemDisk(), true);
        s.recover();
        s.append(Txns.range(1, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> s.writeSnapshot(new Snapshot(Txn.zxid(1, 3), new byte[] {1})));
    }

    @Test
    void continuesAfterRestartInANewFile() throws IOException {
        MemDisk disk = logged(List.of(Txns.range(1, 1, 3)));
        Storage s = open(disk, true);
        assertEquals(Txn.zxid(1, 3), s.recover().lastZxid());
        s.append(Txns.range(1, 4, 5));
        s.sync();
        assertNotNull(disk.read(FileNames.log(Txn.zxid(1, 4))));
        assertSameTxns(Txns.range(1, 1, 5), recover(disk.crash()).txns());
    }
}
