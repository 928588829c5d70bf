package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.storage.RecoveredState;
import io.zabkit.storage.Snapshot;
import io.zabkit.storage.Storage;
import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.txn.CreateTxn;
import org.junit.jupiter.api.Test;

/**
 * Zab TRUNC and SNAP on storage, with the process killed before each disk step in turn and the
 * {@link SimDisk}s then losing or tearing whatever was not synced. Recovery must give the old log or
 * the new one (for a truncate), or a consistent older state (for an installed snapshot), never a gap,
 * a torn middle, or a divergent tail on top of the leader's snapshot.
 */
class StorageCrashTest {
    private static final Storage.Options OPTIONS = new Storage.Options(true, 3, 0xfffff);
    /** Different tears of the unsynced bytes for every crash point. */
    private static final int SEEDS_PER_CRASH_POINT = 6;

    /** One server's log and snapshot disks, written through one crash-point budget. */
    private static final class Node {
        final SimDisk log = new SimDisk("log", SimDisk.Mode.HONEST);
        final SimDisk snap = new SimDisk("snap", SimDisk.Mode.HONEST);
        final CrashPointDisk.Budget budget = new CrashPointDisk.Budget();
        final List<String> warnings = new ArrayList<>();

        Storage open() {
            return new Storage(new CrashPointDisk(log, budget), new CrashPointDisk(snap, budget), OPTIONS, warnings::add);
        }

        void powerLoss(long seed) {
            budget.disarm();
            log.crash(new Prng(seed), 0.5);
            snap.crash(new Prng(seed ^ 0x5eed), 0.5);
        }

        RecoveredState recover() throws IOException {
            budget.disarm();
            return open().recover();
        }
    }

    private static Txn txn(long epoch, long counter) {
        long zxid = Txn.zxid(epoch, counter);
        return new Txn(zxid, 0x100000001L, (int) counter, 1000 + counter, OpCode.CREATE,
                new CreateTxn("/n" + Long.toHexString(zxid), new byte[] {(byte) counter}, ClientCodec.OPEN_ACL, false,
                        (int) counter));
    }

    private static List<Txn> range(long epoch, long from, long to) {
        List<Txn> txns = new ArrayList<>();
        for (long c = from; c <= to; c++) {
            txns.add(txn(epoch, c));
        }
        return txns;
    }

    private static List<Long> zxids(long epoch, long from, long to) {
        List<Long> zxids = new ArrayList<>();
        for (long c = from; c <= to; c++) {
            zxids.add(Txn.zxid(epoch, c));
        }
        return zxids;
    }

    private static List<Long> zxidsOf(List<Txn> txns) {
        return txns.stream().map(Txn::zxid).toList();
    }

    /**
     * 1:1..1:30 in three log files (one per session: 1..10, 11..20, 21..30), synced up to
     * {@code unsyncedFrom} - 1; returns the live storage of the last session.
     */
    private static Storage threeFiles(Node node, long unsyncedFrom) throws IOException {
        for (long c = 1; c <= 11; c += 10) {
            Storage s = node.open();
            s.recover();
            s.append(range(1, c, c + 9));
            s.sync();
        }
        Storage s = node.open();
        s.recover();
        s.append(range(1, 21, unsyncedFrom - 1));
        s.sync();
        s.append(range(1, unsyncedFrom, 30));
        assertEquals(Txn.zxid(1, 30), s.lastLoggedZxid());
        return s;
    }

    private interface StorageStep {
        void run() throws IOException;
    }

    /** Runs the step; true when it was cut short by the crash point. */
    private static boolean crashes(StorageStep step) throws IOException {
        try {
            step.run();
            return false;
        } catch (CrashPointDisk.Crash expected) {
            return true;
        }
    }

    /** {@code actual} extends {@code lower} and is a prefix of {@code upper}. */
    private static void assertBetween(List<Long> lower, List<Long> upper, List<Long> actual, String what) {
        assertTrue(actual.size() >= lower.size() && actual.size() <= upper.size()
                && actual.equals(upper.subList(0, actual.size())) && actual.subList(0, lower.size()).equals(lower),
                what + ": recovered " + actual.size() + " txns " + hex(actual) + ", want a prefix of " + hex(upper)
                        + " holding at least " + lower.size());
    }

    private static String hex(List<Long> zxids) {
        return zxids.isEmpty() ? "[]" : "[" + Txn.zxidString(zxids.get(0)) + ".." + Txn.zxidString(zxids.get(zxids.size() - 1)) + "]";
    }

    /** The node restarts and goes on: a new epoch's transactions land after what it recovered. */
    private static void carriesOn(Node node, RecoveredState state, String what) throws IOException {
        Storage s = node.open();
        s.recover();
        s.append(range(7, 1, 2));
        s.sync();
        List<Long> expected = new ArrayList<>(zxidsOf(state.txns()));
        expected.addAll(zxids(7, 1, 2));
        RecoveredState after = node.recover();
        assertEquals(expected, zxidsOf(after.txns()), what + ": after the restart");
        assertEquals(state.snapshot() == null ? -1 : state.snapshot().zxid(),
                after.snapshot() == null ? -1 : after.snapshot().zxid(), what);
    }

    @Test
    void aCrashAnywhereInTruncateLeavesTheOldLogOrTheTruncatedOne() throws IOException {
        long[][] cases = { // target (epoch, counter), first unsynced counter (31: all synced), crash points expected
            {1, 15, 31, 4}, // marker, delete log.21, cut log.11, delete marker
            {1, 20, 31, 3}, // a file boundary: marker, delete log.21, delete marker
            {1, 27, 26, 3}, // inside the file with an unsynced tail: marker, cut log.21, delete marker
            {1, 15, 26, 4},
            {0, 0, 31, 5}, // everything: marker, delete three files, delete marker
        };
        int crashRuns = 0;
        for (long[] c : cases) {
            long target = Txn.zxid(c[0], c[1]);
            long unsyncedFrom = c[2];
            List<Long> old = zxids(1, 1, 30);
            List<Long> truncated = c[1] == 0 ? List.of() : zxids(1, 1, c[1]);
            List<Long> synced = zxids(1, 1, unsyncedFrom - 1);
            int crashPoints = 0;
            while (true) {
                boolean crashed = false;
                for (long seed = 0; seed < SEEDS_PER_CRASH_POINT; seed++) {
                    String what = "truncate to " + Txn.zxidString(target) + ", unsynced from 1:" + unsyncedFrom
                            + ", crash before step " + crashPoints + ", seed " + seed;
                    Node node = new Node();
                    Storage s = threeFiles(node, unsyncedFrom);
                    node.budget.crashBefore(crashPoints);
                    crashed = crashes(() -> s.truncate(target));
                    node.powerLoss(seed);
                    RecoveredState state = node.recover();
                    List<Long> got = zxidsOf(state.txns());
                    if (!crashed || crashPoints > 0) { // the marker is durable: recovery finishes the truncate
                        assertBetween(synced.subList(0, Math.min(synced.size(), truncated.size())), truncated, got, what);
                    } else {
                        assertBetween(synced, old, got, what);
                    }
                    carriesOn(node, state, what);
                    crashRuns += crashed ? 1 : 0;
                }
                if (!crashed) {
                    break;
                }
                crashPoints++;
            }
            assertEquals(c[3], crashPoints, "steps of truncate to " + Txn.zxidString(target));
        }
        assertTrue(crashRuns >= 19 * SEEDS_PER_CRASH_POINT, "crash runs " + crashRuns);
    }

    /** Recovery's finishing of an interrupted truncate can itself be cut short by a crash, at any step. */
    @Test
    void aCrashWhileRecoveryFinishesATruncateIsFinishedByTheNextRecovery() throws IOException {
        long target = Txn.zxid(1, 15);
        for (int firstCrash = 1; firstCrash <= 3; firstCrash++) {
            for (int secondCrash = 0; ; secondCrash++) {
                String what = "truncate crashed before step " + firstCrash + ", recovery before step " + secondCrash;
                Node node = new Node();
                Storage s = threeFiles(node, 31);
                node.budget.crashBefore(firstCrash);
                assertTrue(crashes(() -> s.truncate(target)), what);
                node.powerLoss(firstCrash);
                node.budget.crashBefore(secondCrash);
                boolean crashed = crashes(() -> node.open().recover());
                node.powerLoss(secondCrash);
                RecoveredState state = node.recover();
                assertEquals(zxids(1, 1, 15), zxidsOf(state.txns()), what);
                assertTrue(node.warnings.stream().anyMatch(w -> w.contains("interrupted truncating")), what);
                if (!crashed) {
                    assertTrue(secondCrash >= 1, what + ": recovery did no work to finish the truncate");
                    break;
                }
            }
        }
    }

    /**
     * forceSync=no may lose acknowledged writes, but must not leave a server that refuses to start: the
     * file a snapshot rolls away from is synced anyway, so only the newest file can be torn.
     */
    @Test
    void withForceSyncOffACrashAfterASnapshotRollStillRecovers() throws IOException {
        Storage.Options noForceSync = new Storage.Options(false, 3, 0xfffff);
        int tornNewest = 0;
        for (long seed = 0; seed < 40; seed++) {
            Node node = new Node();
            Storage s = new Storage(node.log, node.snap, noForceSync, node.warnings::add);
            s.recover();
            s.append(range(1, 1, 10));
            s.sync();
            s.writeSnapshot(new Snapshot(Txn.zxid(1, 5), new byte[] {5})); // behind the log end, as is usual
            s.append(range(1, 11, 14));
            s.sync();
            node.powerLoss(seed);
            RecoveredState state = new Storage(node.log, node.snap, noForceSync, node.warnings::add).recover();
            assertEquals(Txn.zxid(1, 5), state.snapshot().zxid(), "seed " + seed);
            assertBetween(zxids(1, 6, 10), zxids(1, 6, 14), zxidsOf(state.txns()), "seed " + seed);
            tornNewest += state.txns().size() < 9 ? 1 : 0;
        }
        assertTrue(tornNewest > 0, "no crash lost any of the newest file");
    }

    @Test
    void aCrashAnywhereInInstallSnapshotNeverReplaysTheOldTailOnTopOfIt() throws IOException {
        long[][] cases = { // snapshot (epoch, counter), first unsynced counter, crash points expected
            {1, 14, 31, 5}, // behind the log end: marker, delete log.21, cut log.11, delete marker, snapshot
            {1, 27, 26, 4}, // inside the unsynced tail: marker, cut log.21, delete marker, snapshot
            {2, 5, 26, 2}, // ahead of the log: sync log.21, snapshot
            {2, 5, 31, 1}, // ahead of a synced log: snapshot
        };
        for (long[] c : cases) {
            Snapshot leaders = new Snapshot(Txn.zxid(c[0], c[1]), new byte[] {(byte) c[0], (byte) c[1]});
            List<Long> old = zxids(1, 1, 30);
            List<Long> synced = zxids(1, 1, c[2] - 1);
            List<Long> upToSnapshot = old.stream().filter(z -> z <= leaders.zxid()).toList();
            int crashPoints = 0;
            while (true) {
                boolean crashed = false;
                for (long seed = 0; seed < SEEDS_PER_CRASH_POINT; seed++) {
                    String what = "install " + Txn.zxidString(leaders.zxid()) + ", unsynced from 1:" + c[2]
                            + ", crash before step " + crashPoints + ", seed " + seed;
                    Node node = new Node();
                    Storage s = threeFiles(node, c[2]);
                    node.budget.crashBefore(crashPoints);
                    crashed = crashes(() -> s.installSnapshot(leaders));
                    node.powerLoss(seed);
                    RecoveredState state = node.recover();
                    List<Long> got = zxidsOf(state.txns());
                    if (!crashed) {
                        assertArrayEquals(leaders.data(), state.snapshot().data(), what);
                        assertEquals(leaders.zxid(), state.snapshot().zxid(), what);
                        assertEquals(List.of(), got, what + ": the old tail must not be replayed on the snapshot");
                    } else if (crashPoints == 0) {
                        assertNull(state.snapshot(), what);
                        assertBetween(synced, old, got, what);
                    } else { // the old state, cut to the snapshot's zxid
                        assertNull(state.snapshot(), what);
                        assertBetween(synced.stream().filter(z -> z <= leaders.zxid()).toList(), upToSnapshot, got, what);
                    }
                    carriesOn(node, state, what);
                }
                if (!crashed) {
                    break;
                }
                crashPoints++;
            }
            assertEquals(c[3], crashPoints, "steps of installing " + Txn.zxidString(leaders.zxid()));
        }
    }
}
