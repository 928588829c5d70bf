package io.zabkit.zab;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import io.zabkit.zab.LearnerProgress.Learner;
import io.zabkit.zab.Message.Ack;
import io.zabkit.zab.Message.AckEpoch;
import io.zabkit.zab.Message.Commit;
import io.zabkit.zab.Message.Diff;
import io.zabkit.zab.Message.FollowerInfo;
import io.zabkit.zab.Message.Forward;
import io.zabkit.zab.Message.LeaderInfo;
import io.zabkit.zab.Message.NewLeader;
import io.zabkit.zab.Message.Ping;
import io.zabkit.zab.Message.Proposal;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Message.Snap;
import io.zabkit.zab.Message.SyncReply;
import io.zabkit.zab.Message.SyncRequest;
import io.zabkit.zab.Message.Trunc;
import io.zabkit.zab.Message.UpToDate;
import io.zabkit.zab.Zab.ZabState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * LEADING: discovery (a quorum of FOLLOWERINFO, a new epoch in LEADERINFO, a quorum of ACKEPOCH),
 * synchronization (DIFF/TRUNC/SNAP and NEWLEADER per learner, a quorum of ACKLD) and broadcast
 * (PROPOSAL, a quorum of ACK, COMMIT). Handlers are named after spec/Zab.tla's actions.
 */
final class Leading extends Role {
    private final LearnerProgress learners;
    private final FastRules fastRules;
    /** The epoch this leader proposed in LEADERINFO (0 until a quorum of FOLLOWERINFO). */
    private long leaderEpoch;
    private long infoMaxEpoch;
    /** The last zxid of the leader's initial history (what NEWLEADER establishes). */
    private long initialHistoryZxid;
    /** The leader took its epoch and began to sync learners; invariant: then currentEpoch == leaderEpoch. */
    private boolean syncStarted;
    private final long roleStartMs;
    private long nextPingMs;
    /** ACKEPOCHs from the quorum on that wait for the leader's own history to be durable (trace only). */
    private final List<Long> ackEpochsAwaitingDisk = new ArrayList<>();

    Leading(Zab zab) {
        super(zab, ZabState.DISCOVERY);
        assert zab.config.quorum().isVoter(zab.self) : "observer " + zab.self + " leading";
        this.learners = new LearnerProgress(zab.self, zab.config);
        this.fastRules = new FastRules(zab.config);
        this.roleStartMs = zab.nowMs;
        this.nextPingMs = zab.nowMs;
    }

    @Override
    ServerState state() {
        return ServerState.LEADING;
    }

    @Override
    long leaderId() {
        return zab.self;
    }

    /** Just elected: answer the FOLLOWERINFOs that came during the finalize wait. */
    void start(Map<Long, FollowerInfo> early) {
        for (Map.Entry<Long, FollowerInfo> e : early.entrySet()) {
            leaderProcessFollowerInfo(e.getKey(), e.getValue());
        }
        leaderMaybeProposeEpoch();
    }

    /** A standalone server: its own quorum, so it establishes its epoch at once. */
    void establishStandalone() {
        assert zab.config.standaloneFor(zab.self);
        leaderEpoch = zab.currentEpoch;
        initialHistoryZxid = zab.history.lastZxid();
        syncStarted = true;
        establish();
    }

    @Override
    void receive(long from, Message m) {
        Learner l = learners.get(from);
        if (l != null) {
            l.lastHeardMs = zab.nowMs;
        }
        if (m instanceof FollowerInfo fi) {
            leaderProcessFollowerInfo(from, fi);
        } else if (m instanceof AckEpoch ae) {
            leaderProcessAckEpoch(from, ae);
        } else if (m instanceof Ack a) {
            leaderProcessAck(from, a);
        } else if (m instanceof Ping p) {
            leaderProcessPing(p);
        } else if (m instanceof Forward f) {
            leaderProcessForward(from, f);
        } else if (m instanceof SyncRequest s) {
            leaderProcessSync(from, s);
        } else {
            zab.discardStale(from, m);
        }
    }

    @Override
    void peerDisconnected(long peer) {
        Learner l = learners.remove(peer);
        if (l != null) {
            Zab.LOG.log(System.Logger.Level.INFO, "server {0}: lost learner {1}", zab.self, peer);
            ackEpochsAwaitingDisk.remove(Long.valueOf(peer)); // not counted yet in the spec: the link took it
            zab.trace("PartitionStart", peer, -1); // the link to a learner broke (spec/README.md, D9)
            if (!syncStarted) {
                leaderRecountEpochQuorum();
            }
            leaderCheckQuorum("learner " + peer + " disconnected");
        }
    }

    @Override
    void persisted() {
        if (zabState == ZabState.SYNCHRONIZATION) {
            leaderMaybeStartSync();
        } else {
            leaderMaybeCommit();
            if (zabState == ZabState.BROADCAST) {
                zab.trace("LeaderPersistLog", -1, zab.lastPersisted);
            }
        }
    }

    @Override
    void resetLinks() {
        for (Learner l : learners.all()) {
            zab.effects.resetLink(l.id);
        }
    }

    // ================================================================== discovery

    private void leaderProcessFollowerInfo(long from, FollowerInfo fi) {
        if (learners.contains(from)) {
            return; // a re-sent FOLLOWERINFO; a real re-registration comes after a disconnect
        }
        Learner l = learners.add(from, zab.nowMs);
        l.acceptedEpoch = fi.acceptedEpoch();
        l.lastZxid = fi.lastZxid();
        if (leaderEpoch != 0) {
            if (fi.acceptedEpoch() > leaderEpoch) {
                Zab.LOG.log(System.Logger.Level.WARNING, "server {0}: learner {1} accepted epoch {2} beyond ours ({3})",
                        zab.self, from, fi.acceptedEpoch(), leaderEpoch);
            }
            zab.effects.send(from, new LeaderInfo(leaderEpoch)); // epoch already proposed: answer at once
            zab.trace("LeaderProcessFOLLOWERINFO", from, -1);
            return;
        }
        infoMaxEpoch = Math.max(infoMaxEpoch, fi.acceptedEpoch());
        leaderMaybeProposeEpoch();
        zab.trace("LeaderProcessFOLLOWERINFO", from, -1);
    }

    /** With a quorum of FOLLOWERINFO (itself included), the leader picks an epoch above all accepted ones. */
    private void leaderMaybeProposeEpoch() {
        if (leaderEpoch != 0 || !learners.isQuorum(l -> true)) {
            return;
        }
        leaderEpoch = Math.max(infoMaxEpoch, zab.acceptedEpoch) + 1;
        zab.acceptedEpoch = leaderEpoch;
        zab.effects.storeEpochs(zab.acceptedEpoch, zab.currentEpoch);
        for (Learner l : learners.all()) {
            zab.effects.send(l.id, new LeaderInfo(leaderEpoch));
        }
    }

    private void leaderProcessAckEpoch(long from, AckEpoch ae) {
        Learner l = learners.get(from);
        if (l == null || l.ackedEpoch || leaderEpoch == 0) {
            zab.discardStale(from, ae);
            return;
        }
        boolean fresh = ae.currentEpoch() >= 0;
        // An observer ahead of us holds only what no quorum vouched for (it syncs without voting): it is
        // truncated, not obeyed; giving up for it would re-elect this leader for ever, as it does not vote.
        boolean ahead = fresh && !l.observer && (ae.currentEpoch() > zab.currentEpoch
                || (ae.currentEpoch() == zab.currentEpoch && ae.lastZxid() > zab.history.lastZxid()));
        if (ahead) {
            zab.lookForLeader("follower " + from + " is ahead of this leader (epoch " + ae.currentEpoch() + ", zxid "
                    + Txn.zxidString(ae.lastZxid()) + ")");
            return;
        }
        l.ackedEpoch = true;
        l.fresh = fresh || zab.config.bug(Bug.STALE_ACKEPOCH_COUNTED);
        l.lastZxid = ae.lastZxid();
        if (zabState == ZabState.DISCOVERY) {
            List<Long> promised = learners.leaderAnd(x -> x.ackedEpoch && x.fresh);
            if (zab.config.isQuorum(promised)) {
                zabState = ZabState.SYNCHRONIZATION;
                initialHistoryZxid = zab.history.lastZxid();
                Zab.LOG.log(System.Logger.Level.INFO, "server {0}: epoch {1} has a quorum {2}", zab.self, leaderEpoch,
                        promised);
                ackEpochsAwaitingDisk.add(from);
                leaderMaybeStartSync();
                return;
            }
        } else if (syncStarted) {
            leaderSync(l); // epoch established: sync this late follower at once
        } else {
            ackEpochsAwaitingDisk.add(from); // the spec's step completes once the leader takes its epoch
            return;
        }
        zab.trace("LeaderProcessACKEPOCH", from, -1);
    }

    /**
     * A learner left before this leader took its epoch (its own history was still going to disk): without
     * it the ACKEPOCHs may be no quorum any more, and then the epoch is not established (Zab.tla counts
     * an ACKEPOCH and takes currentEpoch in one step, and forgets a learner whose link broke): back to
     * DISCOVERY, to wait for more ACKEPOCHs.
     */
    private void leaderRecountEpochQuorum() {
        assert !syncStarted : "recounting an established epoch";
        if (zabState == ZabState.SYNCHRONIZATION && !zab.config.isQuorum(learners.leaderAnd(x -> x.ackedEpoch && x.fresh))) {
            zabState = ZabState.DISCOVERY;
            Zab.LOG.log(System.Logger.Level.INFO, "server {0}: epoch {1} lost its quorum before it was taken",
                    zab.self, leaderEpoch);
            // The ACKEPOCHs that waited for the disk are now the spec's steps without a quorum.
            for (long from : ackEpochsAwaitingDisk) {
                zab.trace("LeaderProcessACKEPOCH", from, -1);
            }
            ackEpochsAwaitingDisk.clear();
        }
    }

    /**
     * The leader takes the new epoch as its currentEpoch only once its own history is durable: a
     * currentEpoch on disk vouches for the history beside it (ZOOKEEPER-4643 is the follower's side).
     */
    private void leaderMaybeStartSync() {
        if (syncStarted || zab.lastPersisted < initialHistoryZxid) {
            return;
        }
        syncStarted = true;
        zab.currentEpoch = leaderEpoch;
        zab.effects.storeEpochs(zab.acceptedEpoch, zab.currentEpoch);
        for (Learner x : learners.all()) {
            if (x.ackedEpoch) {
                leaderSync(x);
            }
        }
        // The quorum's ACKEPOCH, and any that came while the leader's history went to disk, are the
        // spec's LeaderProcessACKEPOCH steps: the spec takes currentEpoch at once (spec/README.md, D1).
        for (long from : ackEpochsAwaitingDisk) {
            zab.trace("LeaderProcessACKEPOCH", from, -1);
        }
        ackEpochsAwaitingDisk.clear();
        leaderMaybeEstablish();
    }

    // ================================================================== synchronization

    /** SyncPacket, the history after it, and NEWLEADER; the learner joins the forwarding set. */
    private void leaderSync(Learner l) {
        assert syncStarted && zab.currentEpoch == leaderEpoch : "sync before the epoch is taken";
        long z = l.lastZxid;
        History history = zab.history;
        long last = history.lastZxid();
        List<Txn> txns;
        if (history.contains(z)) {
            zab.effects.send(l.id, new Diff(z));
            txns = history.after(z);
        } else if (z > last) {
            zab.effects.send(l.id, new Trunc(last));
            txns = List.of();
        } else {
            Snapshot snap = zab.replica.snapshotOfAppliedState();
            zab.effects.send(l.id, new Snap(snap.zxid(), snap.data()));
            txns = history.after(snap.zxid());
        }
        for (Txn t : txns) {
            zab.effects.send(l.id, new Proposal(t, false));
        }
        l.newLeaderZxid = last;
        l.informedZxid = last;
        l.forwarding = true;
        zab.effects.send(l.id, new NewLeader(last));
    }

    private void leaderProcessAck(long from, Ack a) {
        Learner l = learners.get(from);
        if (l == null || !l.forwarding || a.epoch() != zab.currentEpoch) {
            zab.discardStale(from, a);
            return;
        }
        if (l.observer && a.zxid() > l.newLeaderZxid && !zab.config.bug(Bug.OBSERVER_ACK_COUNTED)) {
            zab.discardStale(from, a); // an observer acknowledges NEWLEADER only
            return;
        }
        l.ackedZxid = Math.max(l.ackedZxid, a.zxid());
        boolean wasAckld = l.ackedNewLeader;
        if (!l.ackedNewLeader && l.ackedZxid >= l.newLeaderZxid) {
            l.ackedNewLeader = true; // ACKLD
            if (zabState == ZabState.SYNCHRONIZATION) {
                leaderMaybeEstablish();
                zab.trace("LeaderProcessACKLD", from, -1);
                return;
            }
            if (zabState == ZabState.BROADCAST) {
                zab.effects.send(l.id, new UpToDate(zab.lastCommitted));
            }
            zab.trace("LeaderProcessACKLD", from, -1);
        }
        if (zabState == ZabState.BROADCAST) {
            long committedBefore = zab.lastCommitted;
            // An ACK past NEWLEADER, or (fast variants) a Zab-mode re-ack of the synced history after ACKLD
            // (Zab.tla's FollowerReackZab, spec/README.md D21): the spec's LeaderProcessACK
            boolean pastNewLeader = a.zxid() > l.newLeaderZxid
                    || wasAckld && zab.config.variant() != Variant.Zab && a.zab();
            if (pastNewLeader) {
                l.zabAcker = a.zab(); // 2.7: a Zab-mode follower waits for COMMITs
            }
            leaderMaybeCommit();
            if (pastNewLeader && zab.config.variant() != Variant.Zab && a.zab() && a.zxid() <= committedBefore) {
                zab.effects.send(l.id, new Commit(a.zxid())); // 2.7: a Zab-mode ACK of what is committed already
            }
            if (pastNewLeader) {
                // the ACKs past NEWLEADER (spec/README.md, D2); the zab bit only where it can be 0
                zab.trace("LeaderProcessACK", from, a.zxid(), zab.config.variant() == Variant.Zab ? -1 : a.zab() ? 1 : 0);
            }
        }
    }

    /** LeaderProcessACKLD with a quorum: the initial history is committed and broadcast begins. */
    private void leaderMaybeEstablish() {
        // syncStarted: the leader's own history is durable, so it counts itself
        if (!syncStarted || !learners.isQuorum(l -> l.ackedNewLeader)) {
            return;
        }
        establish();
        for (Learner l : learners.all()) {
            if (l.ackedNewLeader) {
                zab.effects.send(l.id, new UpToDate(zab.lastCommitted));
            }
        }
    }

    private void establish() {
        assert syncStarted && zabState != ZabState.BROADCAST;
        zabState = ZabState.BROADCAST;
        Zab.LOG.log(System.Logger.Level.INFO, "server {0}: leading epoch {1}, initial history up to {2}", zab.self,
                zab.currentEpoch, Txn.zxidString(initialHistoryZxid));
        zab.advanceCommit(initialHistoryZxid);
        zab.replica.startServing(true);
    }

    // ================================================================== broadcast

    /** LeaderPropose: log a new transaction and send it to the forwarding set. */
    void leaderPropose(Txn txn) {
        assert zabState == ZabState.BROADCAST;
        zab.history.append(txn);
        zab.effects.log(txn);
        boolean fast = fastRules.leaderProposesFast(learners);
        for (Learner l : learners.all()) {
            if (l.forwarding && (!l.observer || zab.config.bug(Bug.OBSERVER_ACK_COUNTED))) {
                zab.effects.send(l.id, new Proposal(txn, fast)); // an observer learns it once committed (INFORM)
            }
        }
        zab.trace("LeaderProcessRequest", -1, txn.zxid());
        leaderMaybeCommit();
    }

    /** The highest zxid a quorum (the leader included) has logged; commits and delivers up to it. */
    private void leaderMaybeCommit() {
        if (zabState != ZabState.BROADCAST) {
            return;
        }
        long z = learners.commitReach(zab.selfAck());
        if (z <= zab.lastCommitted) {
            zab.deliverCommitted();
            return;
        }
        long committedBefore = zab.lastCommitted;
        List<Txn> newlyCommitted = zab.history.range(committedBefore, z); // taken before delivery trims the history
        zab.advanceCommit(z);
        // Classic Zab: COMMIT to every synced follower. The fast variants (Zab.tla's CommitTo): only to the
        // followers whose last ACK was in Zab mode; the others commit to themselves (FollowerCommitIndex).
        boolean classic = zab.config.variant() == Variant.Zab;
        for (Learner l : learners.all()) {
            if (l.observer && l.forwarding && !zab.config.bug(Bug.OBSERVER_ACK_COUNTED)) {
                leaderInform(l, committedBefore, z, newlyCommitted);
            } else if (l.forwarding && (classic || l.zabAcker)) {
                assert classic || l.ackedNewLeader : "a Zab-mode acker that never acknowledged NEWLEADER";
                zab.effects.send(l.id, new Commit(z));
            }
        }
    }

    /**
     * An observer learns what committed from committedBefore to z: a COMMIT of what its synced history
     * held uncommitted, then an INFORM for each transaction after it (ZooKeeper's Leader.inform).
     */
    private void leaderInform(Learner l, long committedBefore, long z, List<Txn> newlyCommitted) {
        assert l.observer && l.informedZxid >= committedBefore : "observer " + l.id + " informed only to "
                + Txn.zxidString(l.informedZxid) + ", behind the commit point " + Txn.zxidString(committedBefore);
        if (committedBefore < l.newLeaderZxid) {
            zab.effects.send(l.id, new Commit(Math.min(z, l.newLeaderZxid)));
        }
        for (Txn t : newlyCommitted) {
            if (t.zxid() > l.informedZxid) {
                zab.effects.send(l.id, new Message.Inform(t));
                l.informedZxid = t.zxid();
            }
        }
        assert l.informedZxid >= z : "observer " + l.id + " not informed up to " + Txn.zxidString(z);
    }

    private void leaderProcessPing(Ping p) {
        zab.replica.sessionsAlive(p.sessions());
    }

    private void leaderProcessForward(long from, Forward f) {
        if (zabState != ZabState.BROADCAST) {
            return;
        }
        Txn txn;
        try {
            txn = zab.replica.prepareForwarded(f, zab.nextZxid());
        } catch (IOException e) {
            Zab.LOG.log(System.Logger.Level.WARNING, "server {0}: dropping a malformed request relayed by {1}: {2}",
                    zab.self, from, e.getMessage());
            return;
        }
        leaderPropose(txn);
    }

    /** A follower's client syncs: it must apply everything this leader proposed so far. */
    private void leaderProcessSync(long from, SyncRequest s) {
        if (zabState == ZabState.BROADCAST) {
            zab.effects.send(from, new SyncReply(s.sessionId(), s.cxid(), zab.history.lastZxid()));
        }
    }

    /** The learners' silence is counted without our own stall (see Role#afterOwnStall). */
    @Override
    void afterOwnStall(long stalledMs) {
        assert stalledMs > 0 : "a stall takes time";
        for (Learner l : learners.all()) {
            l.lastHeardMs = Math.min(zab.nowMs, l.lastHeardMs + stalledMs);
        }
    }

    @Override
    void tick() {
        long nowMs = zab.nowMs;
        ZabConfig config = zab.config;
        long silenceLimit = (long) (zabState == ZabState.BROADCAST ? config.syncLimitTicks() : config.initLimitTicks())
                * zab.tickTimeMs;
        if (zabState != ZabState.BROADCAST && nowMs - roleStartMs > (long) config.initLimitTicks() * zab.tickTimeMs) {
            zab.lookForLeader("no quorum established epoch " + Math.max(leaderEpoch, zab.currentEpoch)
                    + " within initLimit");
            return;
        }
        List<Long> dropped = new ArrayList<>();
        for (Learner l : learners.all()) {
            if (nowMs - l.lastHeardMs > silenceLimit) {
                dropped.add(l.id);
            }
        }
        for (long id : dropped) {
            Zab.LOG.log(System.Logger.Level.INFO, "server {0}: learner {1} silent for {2} ms; dropping it", zab.self,
                    id, nowMs - learners.get(id).lastHeardMs);
            learners.remove(id);
            zab.effects.resetLink(id);
            zab.trace("PartitionStart", id, -1);
        }
        if (!dropped.isEmpty() && !leaderCheckQuorum("learners " + dropped + " went silent")) {
            return;
        }
        if (zabState == ZabState.BROADCAST && nowMs >= nextPingMs) {
            nextPingMs = nowMs + Math.max(1, zab.tickTimeMs / 2);
            for (Learner l : learners.all()) {
                if (l.forwarding) {
                    zab.effects.send(l.id, new Ping(List.of()));
                }
            }
        }
    }

    /** In broadcast the leader needs a quorum of synced followers; returns false when it gave up. */
    private boolean leaderCheckQuorum(String why) {
        if (zabState != ZabState.BROADCAST) {
            return true;
        }
        List<Long> synced = learners.leaderAnd(l -> l.forwarding);
        if (zab.config.isQuorum(synced)) {
            return true;
        }
        zab.lookForLeader("lost the quorum: " + why + "; synced only with " + synced);
        return false;
    }

    /** Learners connected to this leader (mntr's zk_learners). */
    int followerCount() {
        return learners.all().size();
    }

    /** Voting learners synced with this leader, receiving PROPOSALs and COMMITs (mntr's zk_synced_followers). */
    int syncedFollowerCount() {
        int n = (int) learners.all().stream().filter(l -> l.forwarding && !l.observer).count();
        assert n <= followerCount() : "more synced learners than learners";
        return n;
    }

    /** Observers synced with this leader, receiving INFORMs (mntr's zk_synced_observers). */
    int syncedObserverCount() {
        int n = (int) learners.all().stream().filter(l -> l.forwarding && l.observer).count();
        assert n + syncedFollowerCount() <= followerCount() : "more synced learners than learners";
        return n;
    }
}
