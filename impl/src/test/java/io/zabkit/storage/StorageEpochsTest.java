package io.zabkit.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.core.CoreConfig;
import io.zabkit.txn.Txn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Zab's durable epochs: {@link Storage#writeEpochs} and what {@link Storage#recover} makes of the files. */
class StorageEpochsTest {
    private final MemDisk logDisk = new MemDisk();
    private final MemDisk snapshotDisk = new MemDisk();

    private Storage open() {
        return new Storage(logDisk, snapshotDisk, new Storage.Options(true, 3, CoreConfig.DEFAULT_MAX_BUFFER), w -> { });
    }

    private RecoveredState recover() throws IOException {
        return open().recover();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void withoutEpochFilesBothAreTheEpochOfTheLastZxid() throws IOException {
        RecoveredState fresh = recover();
        assertEquals(0, fresh.acceptedEpoch());
        assertEquals(0, fresh.currentEpoch());
        Storage s = open();
        s.recover();
        s.append(Txns.range(3, 1, 2));
        s.sync();
        RecoveredState standalone = recover();
        assertEquals(3, standalone.acceptedEpoch());
        assertEquals(3, standalone.currentEpoch());
        assertTrue(snapshotDisk.list().isEmpty(), "recovery writes no epoch file: " + snapshotDisk.list());
    }

    @Test
    void writtenEpochsSurviveACrashAndLiveOnTheSnapshotDisk() throws IOException {
        Storage s = open();
        s.recover();
        s.append(Txns.range(1, 1, 2));
        s.sync();
        s.writeEpochs(5, 4);
        assertArrayEquals(ascii("5\n"), snapshotDisk.read("acceptedEpoch"), "ZooKeeper's file name, readable");
        assertArrayEquals(ascii("4\n"), snapshotDisk.read("currentEpoch"));
        assertFalse(logDisk.list().contains("acceptedEpoch"));
        RecoveredState state = new Storage(logDisk.crash(), snapshotDisk.crash(),
                new Storage.Options(true, 3, CoreConfig.DEFAULT_MAX_BUFFER), w -> { }).recover();
        assertEquals(5, state.acceptedEpoch());
        assertEquals(4, state.currentEpoch());
        assertEquals(Txn.zxid(1, 2), state.lastZxid());

        s.writeEpochs(EpochFiles.MAX_EPOCH, EpochFiles.MAX_EPOCH);
        assertEquals(EpochFiles.MAX_EPOCH, recover().currentEpoch());
    }

    @Test
    void anUnchangedEpochIsNotRewritten() throws IOException {
        Storage s = open();
        s.recover();
        s.writeEpochs(2, 1); // LEADERINFO then
        assertEquals(2, snapshotDisk.atomicWrites);
        s.writeEpochs(2, 2); // NEWLEADER: only currentEpoch changes
        assertEquals(3, snapshotDisk.atomicWrites);
        s.writeEpochs(2, 2);
        assertEquals(3, snapshotDisk.atomicWrites);
        RecoveredState state = recover();
        assertEquals(List.of(2L, 2L), List.of(state.acceptedEpoch(), state.currentEpoch()));
    }

    @Test
    void rejectsEpochsThatBreakZabsRules() throws IOException {
        Storage s = open();
        assertThrows(IllegalStateException.class, () -> s.writeEpochs(1, 1), "before recover()");
        s.recover();
        s.writeEpochs(4, 3);
        IllegalArgumentException above = assertThrows(IllegalArgumentException.class, () -> s.writeEpochs(4, 5));
        assertTrue(above.getMessage().contains("currentEpoch <= acceptedEpoch"), above.getMessage());
        IllegalArgumentException back = assertThrows(IllegalArgumentException.class, () -> s.writeEpochs(3, 3));
        assertTrue(back.getMessage().contains("never go back"), back.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.writeEpochs(4, 2));
        assertThrows(IllegalArgumentException.class, () -> s.writeEpochs(EpochFiles.MAX_EPOCH + 1, 3));
        RecoveredState state = recover();
        assertEquals(List.of(4L, 3L), List.of(state.acceptedEpoch(), state.currentEpoch()), "nothing was written");
    }

    @Test
    void unparsableEpochFilesAreCorruptionNamingTheFile() throws IOException {
        for (String bad : List.of("", "\n", "7", "abc\n", "-1\n", "07\n", "4294967296\n", "99999999999\n", "7\n\n", "7 \n")) {
            for (String name : List.of("acceptedEpoch", "currentEpoch")) {
                snapshotDisk.put("acceptedEpoch", ascii("9\n"));
                snapshotDisk.put("currentEpoch", ascii("9\n"));
                snapshotDisk.put(name, ascii(bad));
                CorruptStorageException e = assertThrows(CorruptStorageException.class, this::recover,
                        name + " = \"" + bad + "\"");
                assertTrue(e.getMessage().contains("mem:/" + name + " holds"), e.getMessage());
                assertTrue(e.getMessage().contains("Restore it from a backup"), e.getMessage());
            }
        }
        snapshotDisk.put("currentEpoch", new byte[] {0, (byte) 0xff, '\n'});
        CorruptStorageException binary = assertThrows(CorruptStorageException.class, this::recover);
        assertTrue(binary.getMessage().contains("\\x00\\xff\\n"), binary.getMessage());
    }

    @Test
    void aMissingEpochFileDefaultsToTheLastZxidsEpochAndMustStillBeConsistent() throws IOException {
        Storage s = open();
        s.recover();
        s.append(Txns.range(2, 1, 1));
        s.sync();
        snapshotDisk.put("acceptedEpoch", ascii("7\n"));
        RecoveredState state = recover();
        assertEquals(List.of(7L, 2L), List.of(state.acceptedEpoch(), state.currentEpoch()));

        snapshotDisk.delete("acceptedEpoch");
        snapshotDisk.put("currentEpoch", ascii("6\n"));
        CorruptStorageException e = assertThrows(CorruptStorageException.class, this::recover);
        assertTrue(e.getMessage().contains("currentEpoch 6 is beyond acceptedEpoch 2 (no file"), e.getMessage());
    }
}
