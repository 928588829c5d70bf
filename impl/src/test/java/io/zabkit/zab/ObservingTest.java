package io.zabkit.zab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.txn.Txn;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.ZabTest.Recorder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Observers in the core, one server driven by hand: voters {1, 2, 3} and observer 4. The observer
 * votes for nobody, syncs as a follower, ACKs NEWLEADER only and applies INFORMs; the leader counts it
 * in no quorum (discovery, NEWLEADER, proposals) and sends it INFORMs instead of PROPOSALs.
 */
class ObservingTest {

    static ZabConfig threeAndObserver() {
        return new ZabConfig(List.of(1L, 2L, 3L), 10, 5, 0, Variant.Zab, 1.0, 1).withObservers(List.of(4L));
    }

    private static long sentTo(Recorder r, long to, String type) {
        return r.log.stream().filter(l -> l.equals("send " + to + " " + type)).count();
    }

    /** Observer 4, settled on leader 3 (which says it leads, with follower 1 behind it). */
    private static Zab observer(Recorder r) {
        Zab z = new Zab(4, threeAndObserver(), 100, r, r, 1, 1, List.of(ZabTest.txn(Txn.zxid(1, 1))));
        z.tick(1_000);
        Message.Notification own = (Message.Notification) r.sent.get(0);
        assertEquals(-1, own.leader(), "an observer votes for nobody: " + own);
        assertEquals(3, sentTo(r, 1, "Notification") + sentTo(r, 2, "Notification") + sentTo(r, 3, "Notification"));
        z.receive(3, new Message.Notification(5, ServerState.LEADING, 3, Txn.zxid(1, 1), 1));
        z.receive(1, new Message.Notification(5, ServerState.FOLLOWING, 3, Txn.zxid(1, 1), 1));
        assertEquals(ServerState.OBSERVING, z.state(), "server 4 observes 3: " + r.log);
        assertEquals(1, sentTo(r, 3, "FollowerInfo"), r.log.toString());
        return z;
    }

    @Test
    void anObserverSyncsAsAFollowerAcksOnlyNewLeaderAndAppliesInforms() {
        Recorder r = new Recorder();
        Zab z = observer(r);
        z.receive(3, new Message.LeaderInfo(2));
        assertEquals(1, sentTo(r, 3, "AckEpoch"));
        z.receive(3, new Message.Diff(Txn.zxid(1, 1)));
        z.receive(3, new Message.Proposal(ZabTest.txn(Txn.zxid(1, 2)), false));
        z.receive(3, new Message.NewLeader(Txn.zxid(1, 2)));
        z.persisted(Txn.zxid(1, 2));
        assertEquals(1, sentTo(r, 3, "Ack"), "the ACK of NEWLEADER: " + r.log);
        assertEquals(2, z.currentEpoch());
        z.receive(3, new Message.UpToDate(Txn.zxid(1, 2)));
        assertTrue(z.isServingObserver() && z.isServingLearner() && !z.isServingFollower());
        assertEquals(2, r.delivered.size(), "UPTODATE commits the synced history");

        z.receive(3, new Message.Inform(ZabTest.txn(Txn.zxid(2, 1))));
        z.receive(3, new Message.Inform(ZabTest.txn(Txn.zxid(2, 2))));
        assertEquals(2, r.delivered.size(), "an INFORM is applied once durable here, not before");
        assertTrue(r.log.contains("log 0x200000001") && r.log.contains("log 0x200000002"), r.log.toString());
        z.persisted(Txn.zxid(2, 2));
        assertEquals(List.of(Txn.zxid(1, 1), Txn.zxid(1, 2), Txn.zxid(2, 1), Txn.zxid(2, 2)),
                r.delivered.stream().map(Txn::zxid).toList(), "informed transactions applied in zxid order");
        assertEquals(1, sentTo(r, 3, "Ack"), "an observer acknowledges nothing in broadcast: " + r.log);
        z.checkInvariants();
    }

    @Test
    void aVoterAnswersAnObserversNotificationWithoutCountingIt() {
        Recorder r = new Recorder();
        Zab z = new Zab(1, threeAndObserver(), 100, r, r, 0, 0, List.of());
        z.tick(1_000);
        int before = r.sent.size();
        // The observer adopted a vote for 1; were it counted, 1 would have a quorum {1, 4} and lead.
        z.receive(4, new Message.Notification(1, ServerState.LOOKING, 1, 0, 0));
        assertEquals(ServerState.LOOKING, z.state(), "an observer's vote counted: " + r.log);
        assertEquals(before + 1, r.sent.size());
        assertEquals("send 4 Notification", r.log.get(r.log.size() - 1), "the observer gets our vote back");
        z.tick(2_000);
        assertEquals(ServerState.LOOKING, z.state());
    }

    @Test
    void theLeaderCountsTheObserverInNoQuorumAndInformsIt() {
        Recorder r = new Recorder();
        Zab z = new Zab(1, threeAndObserver(), 100, r, r, 0, 0, List.of());
        z.tick(1_000);
        z.receive(2, new Message.Notification(1, ServerState.LOOKING, 1, 0, 0));
        assertEquals(ServerState.LEADING, z.state(), r.log.toString());

        // Discovery: the observer's FOLLOWERINFO and ACKEPOCH make no quorum with the leader.
        z.receive(4, new Message.FollowerInfo(0, 0));
        assertEquals(0, sentTo(r, 4, "LeaderInfo"), "an epoch proposed on an observer's FOLLOWERINFO: " + r.log);
        z.receive(2, new Message.FollowerInfo(0, 0));
        assertEquals(1, sentTo(r, 4, "LeaderInfo"));
        z.receive(4, new Message.AckEpoch(0, 0));
        assertEquals(0, sentTo(r, 4, "NewLeader"), "an epoch established on an observer's ACKEPOCH: " + r.log);
        z.receive(2, new Message.AckEpoch(0, 0));
        assertEquals(1, sentTo(r, 4, "NewLeader"), "the observer is synced as a follower is: " + r.log);

        // NEWLEADER: the observer's ACK does not establish the epoch.
        z.receive(4, new Message.Ack(1, 0));
        assertFalse(z.isServingLeader(), "established with an observer's ACK: " + r.log);
        z.receive(2, new Message.Ack(1, 0));
        assertTrue(z.isServingLeader(), r.log.toString());
        assertEquals(1, sentTo(r, 4, "UpToDate"));
        assertEquals(1, z.syncedFollowerCount());
        assertEquals(1, z.syncedObserverCount());

        // Broadcast: no PROPOSAL to the observer; its ACK is never counted; the commit reaches it as INFORM.
        long zxid = z.nextZxid();
        z.propose(ZabTest.txn(zxid));
        z.persisted(zxid);
        assertEquals(1, sentTo(r, 2, "Proposal"));
        assertEquals(0, sentTo(r, 4, "Proposal"), r.log.toString());
        z.receive(4, new Message.Ack(1, zxid));
        assertTrue(z.lastCommitted() < zxid, "committed with the leader and an observer: " + r.log);
        assertEquals(0, sentTo(r, 4, "Inform"));
        z.receive(2, new Message.Ack(1, zxid));
        assertEquals(zxid, z.lastCommitted());
        assertEquals(1, sentTo(r, 2, "Commit"));
        assertEquals(1, sentTo(r, 4, "Inform"), r.log.toString());
        List<Long> informed = r.sent.stream().filter(m -> m instanceof Message.Inform)
                .map(m -> ((Message.Inform) m).txn().zxid()).toList();
        assertEquals(List.of(zxid), informed, "the INFORM carries the committed transaction");
        z.checkInvariants();
    }
}
