package io.zabkit.zab;

import io.zabkit.txn.Txn;
import io.zabkit.zab.Message.Inform;
import io.zabkit.zab.Message.Proposal;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Zab.ZabState;

/**
 * OBSERVING one leader, as ZooKeeper's Observer does: discovery and synchronization exactly as a
 * follower's (FOLLOWERINFO, LEADERINFO, ACKEPOCH, DIFF/TRUNC/SNAP, NEWLEADER and its ACK, UPTODATE), then
 * in broadcast only INFORMs, each a committed transaction that it logs and applies in zxid order. It
 * acknowledges nothing but NEWLEADER, which the leader counts in no quorum; it relays its clients' writes
 * and syncs to the leader as a follower does. An observer never leads: the election settles only on voters.
 */
final class Observing extends Following {

    Observing(Zab zab, long leader) {
        super(zab, leader);
        assert zab.config.quorum().isObserver(zab.self) : "server " + zab.self + " observes but is a voter";
    }

    @Override
    ServerState state() {
        return ServerState.OBSERVING;
    }

    /** Planted (Bug.OBSERVER_ACK_COUNTED): the observer acknowledges as a follower would. */
    @Override
    boolean acksProposals() {
        return zab.config.bug(Bug.OBSERVER_ACK_COUNTED);
    }

    @Override
    void receiveOtherFromLeader(Message m) {
        if (m instanceof Inform i) {
            observerProcessInform(i.txn());
        } else {
            super.receiveOtherFromLeader(m);
        }
    }

    /**
     * A committed transaction: logged as a follower logs a PROPOSAL and committed at once; it is applied
     * once it is durable here (log, then deliver), so a restart never shows less than its clients read.
     */
    private void observerProcessInform(Txn txn) {
        if (zabState == ZabState.DISCOVERY) {
            zab.lookForLeader("INFORM " + Txn.zxidString(txn.zxid()) + " before this observer synced");
            return;
        }
        followerProcessProposal(new Proposal(txn, false));
        if (hasLeft) {
            return; // it did not extend our history: the proposal step left the role
        }
        assert zab.history.lastZxid() == txn.zxid() : "an INFORM not appended";
        followerProcessCommit(txn.zxid(), "ObserverProcessINFORM");
    }
}
