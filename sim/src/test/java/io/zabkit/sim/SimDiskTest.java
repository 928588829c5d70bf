package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** SimDisk keeps exactly Disk's crash contract: synced bytes survive, unsynced ones as a prefix plus a torn tail. */
class SimDiskTest {

    @Test
    void aCrashKeepsTheSyncedBytesAndAPrefixOfTheRest() throws Exception {
        Prng prng = new Prng(99);
        int tornSeen = 0;
        int partialSeen = 0;
        for (int round = 0; round < 500; round++) {
            SimDisk disk = new SimDisk("t", SimDisk.Mode.HONEST);
            ByteArrayOutputStream written = new ByteArrayOutputStream();
            byte[] synced = new byte[prng.between(1, 40)];
            prng.fill(synced);
            disk.append("log", synced);
            written.writeBytes(synced);
            disk.sync("log");
            byte[] unsynced = new byte[prng.between(1, 40)];
            prng.fill(unsynced);
            disk.append("log", unsynced);
            written.writeBytes(unsynced);
            disk.writeAtomically("snap", new byte[] {1, 2, 3});
            disk.crash(prng, 0.5);

            byte[] after = disk.read("log");
            byte[] all = written.toByteArray();
            assertTrue(after.length >= synced.length && after.length <= all.length, "length " + after.length);
            assertArrayEquals(synced, Arrays.copyOf(after, synced.length), "synced bytes changed");
            int same = synced.length;
            while (same < after.length && after[same] == all[same]) {
                same++;
            }
            if (same < after.length) {
                tornSeen++;
            } else if (after.length < all.length) {
                partialSeen++;
            }
            assertArrayEquals(new byte[] {1, 2, 3}, disk.read("snap"), "writeAtomically is durable");
        }
        assertTrue(tornSeen > 0 && partialSeen > 0, "crashes never tore (" + tornSeen + ") or cut (" + partialSeen + ")");
    }

    /** Storage's truncate relies on this: a cut (even into unsynced bytes) and a delete are durable at once. */
    @Test
    void truncateAndDeleteSurviveACrashAndLaterAppendsTearAfterTheCut() throws Exception {
        Prng prng = new Prng(3);
        for (int round = 0; round < 200; round++) {
            SimDisk disk = new SimDisk("t", SimDisk.Mode.HONEST);
            byte[] all = new byte[prng.between(2, 60)];
            prng.fill(all);
            int synced = prng.between(0, all.length);
            disk.append("log", Arrays.copyOf(all, synced));
            disk.sync("log");
            disk.append("log", Arrays.copyOfRange(all, synced, all.length)); // unsynced
            int cut = prng.between(0, all.length);
            disk.truncate("log", cut);
            disk.append("gone", new byte[] {1});
            disk.sync("gone");
            disk.delete("gone");
            byte[] later = {7, 7, 7, 7};
            boolean appendAfterCut = prng.chance(0.5);
            if (appendAfterCut) {
                disk.append("log", later);
            }
            disk.crash(prng, 0.5);

            byte[] after = disk.read("log");
            assertArrayEquals(Arrays.copyOf(all, cut), Arrays.copyOf(after, Math.min(cut, after.length)),
                    "round " + round + ": the kept bytes changed");
            assertTrue(after.length >= cut, "round " + round + ": a crash undid the cut's durability: "
                    + after.length + " < " + cut);
            assertTrue(after.length <= cut + (appendAfterCut ? later.length : 0),
                    "round " + round + ": bytes cut off came back: " + after.length + " > " + cut);
            assertTrue(!disk.list().contains("gone"), "round " + round + ": a deleted file came back");
        }
    }

    @Test
    void aFileNeverSyncedMayVanishAndALyingDiskLosesSyncedBytes() throws Exception {
        Prng prng = new Prng(7);
        int vanished = 0;
        int lost = 0;
        for (int round = 0; round < 200; round++) {
            SimDisk honest = new SimDisk("h", SimDisk.Mode.HONEST);
            honest.append("new", new byte[10]);
            honest.crash(prng, 0);
            vanished += honest.list().contains("new") ? 0 : 1;

            SimDisk lying = new SimDisk("l", SimDisk.Mode.LYING_SYNC);
            lying.append("log", new byte[50]);
            lying.sync("log");
            lying.crash(prng, 0);
            lost += lying.list().contains("log") && lying.read("log").length == 50 ? 0 : 1;
        }
        assertTrue(vanished > 50 && vanished < 150, "never-synced files vanished " + vanished + " of 200 times");
        assertTrue(lost > 100, "a lying disk lost synced data only " + lost + " of 200 times");
        assertEquals(0, new SimDisk("e", SimDisk.Mode.HONEST).unsyncedBytes());
    }
}
