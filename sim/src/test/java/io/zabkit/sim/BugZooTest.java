package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.zabkit.zab.Bug;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Variant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The bug zoo in CI (bounded): a handful of switches, each caught by the simulator within a small number
 * of seeds by the invariant meant for it, and the same seeds passing with no switch on. `make mutants`
 * measures every switch at CI's seed counts (results/bugzoo/).
 */
class BugZooTest {
    private static final int TICKS = 600;

    /** The first failing seed of 1..maxSeeds with the switch on, or a test failure. */
    private static SimResult firstCaught(Bug bug, int servers, int maxSeeds) {
        for (long seed = 1; seed <= maxSeeds; seed++) {
            SimOptions o = SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST, servers, Variant.Zab).withBugs(Set.of(bug));
            SimResult r = new Simulator(o, null, false).run();
            if (!r.ok()) {
                assertTrue(r.replayCommand().contains("--bug " + bug.name()), r.replayCommand());
                SimResult correct = new Simulator(SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST, servers,
                        Variant.Zab), null, false).run();
                assertTrue(correct.ok(), "the same seed without the switch fails: " + correct.report());
                return r;
            }
        }
        fail(bug + " not caught in " + maxSeeds + " seeds of " + servers + " servers");
        return null;
    }

    @Test
    void anElectionRankingIdBeforeZxidBreaksLeaderElectionOrder() {
        SimResult r = firstCaught(Bug.ELECTION_ID_BEFORE_ZXID, 3, 40);
        assertEquals("LeaderElectionOrder", r.violation().property(), r.report());
    }

    @Test
    void aQuorumOffByOneLosesAcknowledgedWrites() {
        SimResult r = firstCaught(Bug.QUORUM_OFF_BY_ONE, 3, 40);
        assertTrue(Set.of("ZabInvariantOnDeliver", "Durability", "TreeDigest", "PrefixConsistency")
                .contains(r.violation().property()), r.report());
    }

    @Test
    void aQuorumPortTrustingClaimedIdsCountsAStrayInTheQuorum() {
        // the stray peers are refused by the real admission rule; planted, one joins as a member and ACKs unlogged
        SimResult r = firstCaught(Bug.PEER_SOURCE_UNCHECKED, 3, 60);
        assertTrue(r.violation().property().equals("ZabInvariantOnDeliver"), r.report());
        assertTrue(r.coverage().count(Coverage.Branch.STRAY_PEER_ACCEPTED) > 0, "a stray was accepted");
    }

    @Test
    void syncedProposalsLoggedBeforeNewLeaderBreakEpochNotBehindLog() {
        // ZOOKEEPER-2354: a crash between the synced log and currentEpoch leaves a log ahead of the epoch
        SimResult r = firstCaught(Bug.ZK2354_SYNC_LOGGED_BEFORE_NEWLEADER, 3, 40);
        assertEquals("EpochNotBehindLog", r.violation().property(), r.report());
    }

    @Test
    void aLeaderExpiringOnlyItsOwnSessionsBreaksSessionExpiry() {
        SimResult r = firstCaught(Bug.LEADER_EXPIRES_OWN_SESSIONS_ONLY, 3, 40);
        assertEquals("SessionExpiry", r.violation().property(), r.report());
        assertTrue(r.coverage().count(Coverage.Branch.SESSION_ABANDONED_ON_FOLLOWER) > 0
                || r.coverage().count(Coverage.Branch.SESSION_EXPIRED_VIA_FOLLOWER) > 0, r.report());
    }

    @Test
    void aSnapInstalledBehindTheAppliedStateIsCaughtOnItsPinnedSeed() {
        // Issue 13 found the real bug on seed 407 (5 servers, before the targeted scenarios); that seed stopped
        // reaching the path when election began to finalize at once on a unanimous reachable quorum. Re-chosen
        // by running 5-server seeds 1..1000 with all scenarios and this fix undone: 622 is the only one that
        // fails with "is newer" (36 reach SNAP_BEHIND_APPLIED; EnsembleSimulationTest pins it passing with the fix).
        SimOptions o = SimOptions.fromSeed(622, TICKS, SimDisk.Mode.HONEST, 5, Variant.Zab)
                .withBugs(Set.of(Bug.SNAP_BEHIND_APPLIED_INSTALLED));
        SimResult r = new Simulator(o, null, false).run();
        assertTrue(!r.ok() && r.violation().getMessage().contains("is newer"), r.report());
    }

    @Test
    void lastProcessedMayGoBackOnlyThroughNodeCrash() {
        ProgressChecker p = new ProgressChecker();
        p.afterStep(1, 0, 10, true);
        p.afterStep(1, 0, 12, true);
        p.afterStep(1, 1, 5, true); // restarted: recovered from disk
        Violation v = assertThrows(Violation.class, () -> p.afterStep(1, 1, 4, false));
        assertEquals("LastProcessedMonotonic", v.property());
    }

    @Test
    void anAbandonedSynchronizationMayPutBackOnlyWhatWasNeverServed() {
        ProgressChecker p = new ProgressChecker();
        p.afterStep(1, 0, 10, true); // served up to 10
        p.afterStep(1, 0, 20, false); // a SNAP applied in memory during synchronization
        p.afterStep(1, 0, 10, false); // abandoned: back to what the disk holds, which it served
        Violation v = assertThrows(Violation.class, () -> p.afterStep(1, 0, 9, false));
        assertEquals("LastProcessedMonotonic", v.property());
    }

    @Test
    void aFollowerElectingAWorseVoteBreaksLeaderElectionOrder() {
        ElectionChecker e = new ElectionChecker();
        e.observe(1, ServerState.LOOKING, -1, 2, 0x200000005L);
        e.observe(2, ServerState.LOOKING, -1, 2, 0x200000007L);
        e.endStep();
        e.observe(1, ServerState.LOOKING, -1, 2, 0x200000005L);
        e.observe(2, ServerState.FOLLOWING, 1, 2, 0x200000007L);
        Violation v = assertThrows(Violation.class, e::endStep);
        assertEquals("LeaderElectionOrder", v.property());
        // a restarted leader may win on a vote for itself that claims more than its log kept (seed 663): its
        // vote is in order, and discovery is what catches the gap
        ElectionChecker stale = new ElectionChecker();
        stale.observe(1, ServerState.LOOKING, -1, 4, 0x400000001L, 1, 4, 0x400000001L);
        stale.observe(2, ServerState.LOOKING, -1, 4, 0x300000012L, 2, 4, 0x400000001L);
        stale.endStep();
        stale.observe(1, ServerState.FOLLOWING, 2, 4, 0x400000001L, 2, 4, 0x400000001L);
        stale.observe(2, ServerState.LOOKING, -1, 4, 0x300000012L, 2, 4, 0x400000001L);
        stale.endStep();
        assertEquals(1, stale.checks());
        // a server joining a leader that already leads is not part of its electing quorum
        ElectionChecker joined = new ElectionChecker();
        joined.observe(1, ServerState.LEADING, 1, 3, 0x300000001L);
        joined.observe(2, ServerState.LOOKING, -1, 2, 0x200000009L);
        joined.endStep();
        joined.observe(2, ServerState.FOLLOWING, 1, 2, 0x200000009L);
        joined.endStep();
        assertEquals(0, joined.checks());
        // ... also when that leader gives up within the step the follower joins it (5-server seed 40129:
        // an ACKEPOCH ahead of it): it was LEADING when the step began
        ElectionChecker gaveUp = new ElectionChecker();
        gaveUp.observe(2, ServerState.LEADING, 2, 3, 0x300000003L);
        gaveUp.observe(5, ServerState.LOOKING, -1, 4, 0x300000005L);
        gaveUp.endStep();
        gaveUp.observe(2, ServerState.LOOKING, -1, 3, 0x300000003L);
        gaveUp.observe(5, ServerState.FOLLOWING, 2, 4, 0x300000005L);
        gaveUp.endStep();
        assertEquals(0, gaveUp.checks());
        // ... or gave up a few steps before, its LEADING notifications still in flight on a slow peer link
        // (5-server seed 60246): within the links' maximum delay it is not judged, after it it is
        ElectionChecker late = new ElectionChecker(3);
        late.observe(3, ServerState.LEADING, 3, 2, 0x100000004L);
        late.observe(4, ServerState.LOOKING, -1, 2, 0x200000001L);
        late.endStep();
        late.observe(3, ServerState.LOOKING, -1, 2, 0x100000004L);
        late.endStep();
        late.observe(4, ServerState.FOLLOWING, 3, 2, 0x200000001L);
        late.endStep();
        assertEquals(0, late.checks());
        for (int i = 0; i < 3; i++) {
            late.observe(3, ServerState.LOOKING, -1, 2, 0x100000004L);
            late.observe(4, ServerState.LOOKING, -1, 2, 0x200000001L);
            late.endStep();
        }
        late.observe(4, ServerState.FOLLOWING, 3, 2, 0x200000001L);
        Violation tooLate = assertThrows(Violation.class, late::endStep);
        assertEquals("LeaderElectionOrder", tooLate.property());
        // a follower that settled on a pre-crash vote for a restarted leader its peers carried (5-server
        // seed 20588): the leader already votes with what its log kept; discovery catches the gap
        ElectionChecker carried = new ElectionChecker();
        carried.observe(4, ServerState.LOOKING, -1, 1, 0x100000005L, 4, 1, 0x100000005L);
        carried.observe(2, ServerState.LOOKING, -1, 1, 0x100000006L, 4, 1, 0x100000006L);
        carried.endStep();
        carried.observe(4, ServerState.LOOKING, -1, 1, 0x100000005L, 4, 1, 0x100000005L);
        carried.observe(2, ServerState.FOLLOWING, 4, 1, 0x100000006L);
        carried.endStep();
        assertEquals(1, carried.checks());
        // but a follower whose own vote beats the vote it settled on is caught (an election ranking wrongly)
        ElectionChecker wrong = new ElectionChecker();
        wrong.observe(4, ServerState.LOOKING, -1, 1, 0x100000005L, 4, 1, 0x100000005L);
        wrong.observe(2, ServerState.LOOKING, -1, 1, 0x100000006L, 4, 1, 0x100000005L);
        wrong.endStep();
        wrong.observe(4, ServerState.LOOKING, -1, 1, 0x100000005L, 4, 1, 0x100000005L);
        wrong.observe(2, ServerState.FOLLOWING, 4, 1, 0x100000006L);
        Violation w = assertThrows(Violation.class, wrong::endStep);
        assertEquals("LeaderElectionOrder", w.property());
    }

    /**
     * ZOOKEEPER-4646: the NEWLEADER ACK left before the synced history was durable, so the new epoch's
     * initial history is delivered while it rests on fewer disks than a quorum (ZabInvariantOnDeliver at
     * once; the durability-window scenario then loses it: Durability, TreeDigest).
     */
    @Test
    void aNewLeaderAckBeforeFsyncIsCaught() {
        SimResult r = firstCaught(Bug.ZK4646_NEWLEADER_ACK_BEFORE_FSYNC, 3, 25);
        assertTrue(Set.of("ZabInvariantOnDeliver", "Durability", "TreeDigest", "PrefixConsistency", "Exception")
                .contains(r.violation().property()), r.report());
    }

    /**
     * A follower applying a proposal before its COMMIT delivers a transaction only two disks (in 3) may
     * not yet hold: ZabInvariantOnDeliver, the spec's invariant, not a check of the switch.
     */
    @Test
    void applyingBeforeCommitBreaksZabInvariantOnDeliver() {
        SimResult r = firstCaught(Bug.APPLY_BEFORE_COMMIT, 3, 10);
        assertEquals("ZabInvariantOnDeliver", r.violation().property(), r.report());
        SimResult five = firstCaught(Bug.APPLY_BEFORE_COMMIT, 5, 10);
        assertEquals("ZabInvariantOnDeliver", five.violation().property(), five.report());
    }

    /** An ACK before the fsync lets the leader deliver what a quorum holds only in memory. */
    @Test
    void anAckBeforeFsyncBreaksZabInvariantOnDeliver() {
        SimResult r = firstCaught(Bug.ACK_BEFORE_FSYNC, 3, 10);
        assertEquals("ZabInvariantOnDeliver", r.violation().property(), r.report());
    }

    @Test
    void aSyncAnsweredBelowAnAcknowledgedWriteBreaksSyncReads() {
        SyncReadsChecker s = new SyncReadsChecker();
        ClientOp write = ClientOp.of(ClientOp.Kind.SET_DATA, "/k");
        write.session = 1;
        s.invoked(write);
        write.outcome = ClientOp.Outcome.OK;
        write.zxid = 0x100000009L;
        s.completed(write);
        ClientOp sync = ClientOp.of(ClientOp.Kind.SYNC, "/");
        sync.session = 2;
        s.invoked(sync);
        sync.outcome = ClientOp.Outcome.OK;
        sync.zxid = 0x100000008L;
        Violation v = assertThrows(Violation.class, () -> s.completed(sync));
        assertEquals("SyncReads", v.property());
    }
}
