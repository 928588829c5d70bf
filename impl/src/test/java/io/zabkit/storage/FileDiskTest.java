package io.zabkit.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.core.CoreConfig;
import io.zabkit.txn.Txn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileDiskTest {
    @TempDir
    Path dir;

    @Test
    void appendSyncReadTruncateDelete() throws IOException {
        try (FileDisk disk = new FileDisk(dir.resolve("d"))) {
            disk.append("a", new byte[] {1, 2});
            disk.append("a", new byte[] {3});
            disk.sync("a");
            assertArrayEquals(new byte[] {1, 2, 3}, disk.read("a"));
            disk.truncate("a", 1);
            assertArrayEquals(new byte[] {1}, disk.read("a"));
            disk.append("a", new byte[] {4}); // appends after a truncate land at the new end
            assertArrayEquals(new byte[] {1, 4}, disk.read("a"));
            assertEquals(List.of("a"), disk.list());
            disk.delete("a");
            assertTrue(disk.list().isEmpty());
        }
    }

    @Test
    void writeAtomicallyReplacesAndLeavesNoTempFile() throws IOException {
        Path d = dir.resolve("d");
        try (FileDisk disk = new FileDisk(d)) {
            disk.writeAtomically("snap", new byte[] {1});
            disk.writeAtomically("snap", new byte[] {2, 3});
            assertArrayEquals(new byte[] {2, 3}, disk.read("snap"));
            assertEquals(List.of("snap"), disk.list());
        }
        Files.write(d.resolve("snap.tmp"), new byte[] {9}); // left by a crash mid-write
        try (FileDisk disk = new FileDisk(d)) {
            assertEquals(List.of("snap"), disk.list());
        }
    }

    @Test
    void storageRoundTripOnRealFilesInSeparateDirs() throws IOException {
        Storage.Options options = new Storage.Options(true, 3, CoreConfig.DEFAULT_MAX_BUFFER);
        List<String> warnings = new ArrayList<>();
        try (Storage s = new Storage(new FileDisk(dir.resolve("log")), new FileDisk(dir.resolve("snap")), options,
                warnings::add)) {
            s.recover();
            s.append(Txns.range(1, 1, 50));
            s.sync();
            s.writeSnapshot(new Snapshot(Txn.zxid(1, 40), new byte[] {4, 0}));
            s.append(Txns.range(1, 51, 60));
            s.sync();
        }
        try (Storage s = new Storage(new FileDisk(dir.resolve("log")), new FileDisk(dir.resolve("snap")), options,
                warnings::add)) {
            RecoveredState state = s.recover();
            assertEquals(Txn.zxid(1, 40), state.snapshot().zxid());
            assertEquals(Txns.zxids(Txns.range(1, 41, 60)), Txns.zxids(state.txns()));
        }
        assertTrue(warnings.isEmpty(), warnings.toString());
        assertFalse(Files.exists(dir.resolve("log").resolve("snapshot.280000000")));
    }

    @Test
    void truncateInstallSnapshotAndEpochsOnRealFiles() throws IOException {
        Storage.Options options = new Storage.Options(true, 3, CoreConfig.DEFAULT_MAX_BUFFER);
        List<String> warnings = new ArrayList<>();
        Path log = dir.resolve("log");
        Path snap = dir.resolve("snap");
        try (Storage s = new Storage(new FileDisk(log), new FileDisk(snap), options, warnings::add)) {
            s.recover();
            s.append(Txns.range(1, 1, 20));
            s.sync();
            s.truncate(Txn.zxid(1, 12));
            s.writeEpochs(2, 2);
            s.append(Txns.range(2, 1, 3));
            s.sync();
        }
        try (Storage s = new Storage(new FileDisk(log), new FileDisk(snap), options, warnings::add)) {
            RecoveredState state = s.recover();
            List<Txn> expected = new ArrayList<>(Txns.range(1, 1, 12));
            expected.addAll(Txns.range(2, 1, 3));
            assertEquals(Txns.zxids(expected), Txns.zxids(state.txns()));
            assertEquals(List.of(2L, 2L), List.of(state.acceptedEpoch(), state.currentEpoch()));
            assertEquals("2\n", Files.readString(snap.resolve("currentEpoch")));
            s.installSnapshot(new Snapshot(Txn.zxid(2, 2), new byte[] {2, 2})); // drops 2:3
            s.writeEpochs(3, 2);
        }
        try (Storage s = new Storage(new FileDisk(log), new FileDisk(snap), options, warnings::add)) {
            RecoveredState state = s.recover();
            assertEquals(Txn.zxid(2, 2), state.snapshot().zxid());
            assertTrue(state.txns().isEmpty(), Txns.zxids(state.txns()).toString());
            assertEquals(List.of(3L, 2L), List.of(state.acceptedEpoch(), state.currentEpoch()));
        }
        assertTrue(warnings.isEmpty(), warnings.toString());
        try (var files = Files.list(log)) {
            assertEquals(List.of("log.100000001", "log.200000001"), files.map(p -> p.getFileName().toString()).sorted()
                    .toList(), "no truncate marker or temp file is left behind");
        }
    }
}
