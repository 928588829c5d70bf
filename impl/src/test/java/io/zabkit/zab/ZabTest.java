package io.zabkit.zab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import io.zabkit.zab.Message.ServerState;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.txn.CreateSessionTxn;
import org.junit.jupiter.api.Test;

/**
 * Zab's protocol rules, one server driven by hand: messages in, effects out, in the order the rules
 * demand. The whole ensemble under faults is the simulator's (EnsembleSimulationTest).
 */
class ZabTest {

    /** Records effects in order, and applies nothing (the replica is a counter). */
    static final class Recorder implements Effects, Replica {
        final List<String> log = new ArrayList<>();
        final List<Message> sent = new ArrayList<>();
        final List<Txn> delivered = new ArrayList<>();
        long lastProcessed;

        @Override public void truncateLog(long zxid) { log.add("truncate " + Txn.zxidString(zxid)); }
        @Override public void installSnapshot(Snapshot s) { log.add("install " + Txn.zxidString(s.zxid())); }
        @Override public void storeEpochs(long a, long c) { log.add("epochs " + a + "/" + c); }
        @Override public void markSyncTail(long z, long e) { log.add("synctail " + Long.toHexString(z) + "/" + e); }
        @Override public void log(Txn t) { log.add("log " + Txn.zxidString(t.zxid())); }
        @Override public void send(long to, Message m) { log.add("send " + to + " " + m.getClass().getSimpleName()); sent.add(m); }
        @Override public void resetLink(long peer) { log.add("reset " + peer); }
        @Override public long lastProcessedZxid() { return lastProcessed; }
        @Override public void deliver(Txn t) { delivered.add(t); lastProcessed = t.zxid(); }
        @Override public Snapshot snapshotOfAppliedState() { return new Snapshot(lastProcessed, new byte[] {1}); }
        @Override public void install(Snapshot s) { lastProcessed = s.zxid(); }
        @Override public void startServing(boolean leading) { log.add("serving " + (leading ? "leader" : "follower")); }
        @Override public void stopServing(String why) { log.add("stop serving"); }
        @Override public Txn prepareForwarded(Message.Forward f, long zxid) { return txn(zxid); }
        @Override public void syncReplied(long s, int c, long z) { }
        @Override public void sessionsAlive(List<Message.SessionTouch> t) { }
        @Override public List<Message.SessionTouch> drainTouchedSessions() { return List.of(); }

        int indexOf(String prefix) {
            for (int i = 0; i < log.size(); i++) {
                if (log.get(i).startsWith(prefix)) {
                    return i;
                }
            }
            return -1;
        }
    }

    static Txn txn(long zxid) {
        return new Txn(zxid, 0x42, 0, 0, OpCode.CREATE_SESSION, new CreateSessionTxn(30_000));
    }

    static ZabConfig three() {
        return new ZabConfig(List.of(1L, 2L, 3L), 10, 5, 0, Variant.Zab, 1.0, 1);
    }

    /** Server 2 of {1,2,3}, with the given history, settled on leader 3 after the first notifications. */
    private static Zab follower(Recorder r, long acceptedEpoch, long currentEpoch, List<Txn> history) {
        Zab z = new Zab(2, three(), 100, r, r, acceptedEpoch, currentEpoch, history);
        z.tick(1_000);
        long last = history.isEmpty() ? 0 : history.get(history.size() - 1).zxid();
        // 1 and 3 both vote for 3, which says it leads: 2 joins them.
        z.receive(3, new Message.Notification(5, ServerState.LEADING, 3, last, currentEpoch));
        z.receive(1, new Message.Notification(5, ServerState.FOLLOWING, 3, last, currentEpoch));
        assertEquals(ServerState.FOLLOWING, z.state(), "server 2 should follow 3");
        return z;
    }

    @Test
    void aFollowerStoresAcceptedEpochBeforeItsAckEpochLeaves() {
        Recorder r = new Recorder();
        Zab z = follower(r, 1, 1, List.of(txn(Txn.zxid(1, 1))));
        z.receive(3, new Message.LeaderInfo(2));
        int stored = r.indexOf("epochs 2/1");
        int acked = r.indexOf("send 3 AckEpoch");
        assertTrue(stored >= 0 && acked > stored, "acceptedEpoch must be stored before ACKEPOCH: " + r.log);
        Message.AckEpoch ae = (Message.AckEpoch) r.sent.get(r.sent.size() - 1);
        assertEquals(1, ae.currentEpoch(), "a fresh ACKEPOCH carries currentEpoch");
    }

    @Test
    void anEpochAlreadyAcceptedIsAnsweredWithMinusOne() {
        Recorder r = new Recorder();
        Zab z = follower(r, 2, 1, List.of());
        z.receive(3, new Message.LeaderInfo(2));
        Message.AckEpoch ae = (Message.AckEpoch) r.sent.get(r.sent.size() - 1);
        assertEquals(-1, ae.currentEpoch(), "an ACKEPOCH for an epoch already promised must not count: " + r.log);
    }

    /** ZOOKEEPER-4643: the new currentEpoch must not reach disk before the history it vouches for. */
    @Test
    void currentEpochIsStoredOnlyOnceTheSyncedHistoryIsDurableAndBeforeTheAck() {
        Recorder r = new Recorder();
        Zab z = follower(r, 1, 1, List.of(txn(Txn.zxid(1, 1))));
        z.receive(3, new Message.LeaderInfo(2));
        z.receive(3, new Message.Diff(Txn.zxid(1, 1)));
        z.receive(3, new Message.Proposal(txn(Txn.zxid(1, 2)), false));
        z.receive(3, new Message.NewLeader(Txn.zxid(1, 2)));
        assertEquals(-1, r.indexOf("epochs 2/2"), "currentEpoch stored before the synced history is durable: " + r.log);
        assertEquals(-1, r.indexOf("send 3 Ack["), "ACK of NEWLEADER before the history is durable");
        assertFalse(r.log.stream().anyMatch(l -> l.equals("send 3 Ack")), r.log.toString());
        z.persisted(Txn.zxid(1, 2));
        int stored = r.indexOf("epochs 2/2");
        int ack = r.log.lastIndexOf("send 3 Ack");
        assertTrue(stored >= 0 && ack > stored, "currentEpoch, then the ACK: " + r.log);
        assertEquals(2, z.currentEpoch());
        z.receive(3, new Message.UpToDate(Txn.zxid(1, 2)));
        assertEquals(2, r.delivered.size(), "UPTODATE commits the synced history");
        assertTrue(r.log.contains("serving follower"));
    }

    /**
     * D17 (spec/README.md): the synced proposals reach the log only at NEWLEADER, so a crash during
     * synchronization loses them, as Zab.tla's does; their ACK and currentEpoch still wait for the disk.
     */
    @Test
    void syncedProposalsAreLoggedOnlyAtNewLeader() {
        Recorder r = new Recorder();
        Zab z = follower(r, 1, 0, List.of(txn(Txn.zxid(1, 1))));
        z.receive(3, new Message.LeaderInfo(2));
        z.receive(3, new Message.Diff(Txn.zxid(1, 1)));
        z.receive(3, new Message.Proposal(txn(Txn.zxid(1, 2)), false));
        z.receive(3, new Message.Proposal(txn(Txn.zxid(1, 3)), false));
        assertEquals(-1, r.indexOf("log "), "a synced proposal on disk before NEWLEADER: " + r.log);
        assertEquals(Txn.zxid(1, 3), z.lastLoggedZxid(), "held in memory, part of the history");
        z.receive(3, new Message.NewLeader(Txn.zxid(1, 3)));
        int first = r.indexOf("log 0x100000002");
        assertTrue(first >= 0 && r.log.get(first + 1).equals("log 0x100000003"), "logged at NEWLEADER, in order: " + r.log);
        assertEquals(-1, r.indexOf("epochs 2/2"), "currentEpoch before the synced history is durable: " + r.log);
        z.persisted(Txn.zxid(1, 3));
        assertTrue(r.indexOf("epochs 2/2") > first, r.log.toString());
        assertEquals(2, z.currentEpoch());
    }

    /** The bug-zoo switch re-enacting D17: the synced proposals are logged as they arrive. */
    @Test
    void theD17SwitchLogsSyncedProposalsOnArrival() {
        Recorder r = new Recorder();
        Zab z = new Zab(2, three().withBugs(java.util.Set.of(Bug.ZK2354_SYNC_LOGGED_BEFORE_NEWLEADER)), 100, r, r, 1, 0,
                List.of(txn(Txn.zxid(1, 1))));
        z.tick(1_000);
        z.receive(3, new Message.Notification(5, ServerState.LEADING, 3, Txn.zxid(1, 1), 0));
        z.receive(1, new Message.Notification(5, ServerState.FOLLOWING, 3, Txn.zxid(1, 1), 0));
        z.receive(3, new Message.LeaderInfo(2));
        z.receive(3, new Message.Diff(Txn.zxid(1, 1)));
        z.receive(3, new Message.Proposal(txn(Txn.zxid(1, 2)), false));
        assertTrue(r.log.contains("log 0x100000002"), "the switch must re-enact the early write: " + r.log);
    }

    @Test
    void truncAndSnapRewriteTheHistoryBeforeAnythingIsLogged() {
        Recorder r = new Recorder();
        Zab z = follower(r, 1, 1, List.of(txn(Txn.zxid(1, 1)), txn(Txn.zxid(1, 2)), txn(Txn.zxid(1, 3))));
        z.receive(3, new Message.LeaderInfo(2));
        z.receive(3, new Message.Trunc(Txn.zxid(1, 1)));
        assertTrue(r.log.contains("truncate 0x100000001"), r.log.toString());
        assertEquals(Txn.zxid(1, 1), z.lastLoggedZxid());
        assertEquals(Txn.zxid(1, 1), z.lastPersisted(), "what TRUNC cut is no longer durable history");
        z.receive(3, new Message.NewLeader(Txn.zxid(1, 1)));
        assertTrue(r.log.contains("send 3 Ack"), "history durable up to the NEWLEADER zxid: ACK at once " + r.log);
    }

    @Test
    void aProposalThatDoesNotExtendTheHistoryEndsTheFollowing() {
        Recorder r = new Recorder();
        Zab z = follower(r, 1, 1, List.of(txn(Txn.zxid(1, 5))));
        z.receive(3, new Message.LeaderInfo(2));
        z.receive(3, new Message.Proposal(txn(Txn.zxid(1, 4)), false));
        assertEquals(ServerState.LOOKING, z.state(), "a gap or a step back in the history is a broken sync");
        assertTrue(r.log.contains("reset 3"), "the link to the leader is reset so that it notices: " + r.log);
    }

    @Test
    void aLeaderCommitsOnAQuorumOfDurableAcksAndSendsCommit() {
        Recorder r = new Recorder();
        Zab z = new Zab(3, three(), 100, r, r, 0, 0, List.of());
        z.tick(1_000);
        z.receive(1, new Message.Notification(1, ServerState.LOOKING, 3, 0, 0));
        z.tick(1_001); // finalize wait 0
        assertEquals(ServerState.LEADING, z.state(), r.log.toString());
        z.receive(1, new Message.FollowerInfo(0, 0));
        assertTrue(r.log.contains("send 1 LeaderInfo"), r.log.toString());
        z.receive(1, new Message.AckEpoch(0, 0));
        z.receive(1, new Message.Ack(1, 0));
        assertTrue(z.isServingLeader(), "a quorum (3 and 1) acknowledged NEWLEADER: " + r.log);
        Txn t = txn(z.nextZxid());
        z.propose(t);
        assertTrue(r.delivered.isEmpty(), "nothing is committed before a quorum has it durably");
        z.receive(1, new Message.Ack(1, t.zxid()));
        assertTrue(r.delivered.isEmpty(), "the leader's own log is not durable yet: 1 of 2 needed");
        z.persisted(t.zxid());
        assertEquals(List.of(t), r.delivered);
        Message last = r.sent.get(r.sent.size() - 1);
        assertNotNull(last);
        assertEquals(new Message.Commit(t.zxid()), last);
    }

    @Test
    void aFollowerInfoThatArrivesDuringTheFinalizeWaitIsAnsweredOnceLeading() {
        Recorder r = new Recorder();
        ZabConfig slowFinalize = new ZabConfig(List.of(1L, 2L, 3L), 10, 5, 200, Variant.Zab, 1.0, 1);
        Zab z = new Zab(3, slowFinalize, 100, r, r, 0, 0, List.of());
        z.tick(1_000);
        z.receive(1, new Message.Notification(1, ServerState.LOOKING, 3, 0, 0));
        assertEquals(ServerState.LOOKING, z.state(), "still in the finalize wait");
        z.receive(1, new Message.FollowerInfo(0, 0)); // 1 settled at once and says so
        assertFalse(r.log.contains("send 1 LeaderInfo"));
        z.tick(1_250);
        assertEquals(ServerState.LEADING, z.state());
        assertTrue(r.log.contains("send 1 LeaderInfo"), "the early FOLLOWERINFO must not wait for a re-send: " + r.log);
    }

    /** Server 3 leading {1,2,3} with learner 1 synced (broadcast), at nowMs 1001; syncLimit 5 ticks of 100 ms. */
    private static Zab servingLeader(Recorder r) {
        Zab z = new Zab(3, three(), 100, r, r, 0, 0, List.of());
        z.tick(1_000);
        z.receive(1, new Message.Notification(1, ServerState.LOOKING, 3, 0, 0));
        z.tick(1_001);
        z.receive(1, new Message.FollowerInfo(0, 0));
        z.receive(1, new Message.AckEpoch(0, 0));
        z.receive(1, new Message.Ack(1, 0));
        assertTrue(z.isServingLeader(), r.log.toString());
        return z;
    }

    @Test
    void aLeaderDropsALearnerSilentForSyncLimitWhileItRuns() {
        Recorder r = new Recorder();
        Zab z = servingLeader(r);
        for (long t = 1_101; t <= 1_601; t += 100) {
            z.tick(t);
        }
        assertTrue(r.log.contains("reset 1"), "600 ms of silence > syncLimit 500 ms: " + r.log);
        assertEquals(ServerState.LOOKING, z.state(), "without learner 1 there is no quorum");
    }

    @Test
    void aLeaderDoesNotBlameLearnersForItsOwnStall() {
        Recorder r = new Recorder();
        Zab z = servingLeader(r);
        z.tick(1_101);
        z.tick(5_101); // SIGSTOP for 4 s: the learner's messages wait in the socket, unheard
        assertEquals(ServerState.LEADING, z.state(), "a stall of the leader itself is not learner silence: " + r.log);
        assertFalse(r.log.contains("reset 1"), r.log.toString());
        z.receive(1, new Message.Ping(List.of())); // what learner 1 sent meanwhile arrives
        for (long t = 5_201; t <= 5_501; t += 100) {
            z.tick(t);
        }
        assertEquals(ServerState.LEADING, z.state(), r.log.toString());
        for (long t = 5_601; t <= 6_101; t += 100) {
            z.tick(t); // then silent for 600 ms of running time: dropped as usual
        }
        assertTrue(r.log.contains("reset 1"), "silence after the stall still counts: " + r.log);
    }

    @Test
    void aFollowerTakesPartOfAMessageFromItsLeaderForLifeButNotFromAnotherServer() {
        Recorder r = new Recorder();
        Zab z = follower(r, 0, 0, List.of());
        for (long t = 1_100; t <= 3_000; t += 100) {
            z.heardFrom(3); // a large frame from leader 3 streams in, 64 KiB a pass, never whole yet
            z.heardFrom(1);
            z.tick(t);
        }
        assertEquals(ServerState.FOLLOWING, z.state(), "a leader still sending is not silent: " + r.log);
        for (long t = 3_100; t <= 4_200; t += 100) {
            z.heardFrom(1); // bytes from another server say nothing about the leader
            z.tick(t);
        }
        assertEquals(ServerState.LOOKING, z.state(), "silence after the bytes stop still counts: " + r.log);
    }

    @Test
    void aFollowerWhoseLeaderSendsFollowerInfoStillTimesOut() {
        Recorder r = new Recorder();
        Zab z = follower(r, 0, 0, List.of());
        for (long t = 1_100; t <= 3_000; t += 100) {
            // 3 settled on us as its leader while we settled on it: it re-sends FOLLOWERINFO, never LEADERINFO
            z.receive(3, new Message.FollowerInfo(0, 0));
            z.tick(t);
        }
        assertEquals(ServerState.LOOKING, z.state(), "a FOLLOWERINFO does not prove its sender leads: " + r.log);
    }
}
