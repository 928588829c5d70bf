package io.zabkit.zab;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import io.zabkit.zab.Message.Ack;
import io.zabkit.zab.Message.AckEpoch;
import io.zabkit.zab.Message.Commit;
import io.zabkit.zab.Message.Diff;
import io.zabkit.zab.Message.FollowerInfo;
import io.zabkit.zab.Message.Forward;
import io.zabkit.zab.Message.LeaderInfo;
import io.zabkit.zab.Message.NewLeader;
import io.zabkit.zab.Message.Notification;
import io.zabkit.zab.Message.Ping;
import io.zabkit.zab.Message.Proposal;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Message.Snap;
import io.zabkit.zab.Message.SyncReply;
import io.zabkit.zab.Message.SyncRequest;
import io.zabkit.zab.Message.Trunc;
import io.zabkit.zab.Message.UpToDate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One server's Zab: election, discovery, synchronization and broadcast, after the Zab paper, ZooKeeper
 * and spec/Zab.tla, whose names it uses (state, zabState, acceptedEpoch, currentEpoch, history,
 * lastCommitted; handlers named after the spec's actions). Deterministic: messages, disk completions
 * and clock ticks come in; {@link Effects} go out; the {@link Replica} applies what commits.
 *
 * <p>A standalone server (one voter) leads from the start, in the epoch of its last zxid, and commits a
 * transaction once it is durable: the same broadcast path with a quorum of one.
 */
public final class Zab {
    private static final System.Logger LOG = System.getLogger("zabkit.zab");
    private static final long FOLLOWERINFO_RESEND_MS = 200;

    public enum ZabState { ELECTION, DISCOVERY, SYNCHRONIZATION, BROADCAST }

    /** What the leader knows of one learner. */
    private static final class Learner {
        final long id;
        long acceptedEpoch = -1;
        /** Its ACKEPOCH arrived (with its last zxid); {@code fresh}: it promised our epoch (counts toward the quorum). */
        boolean ackedEpoch;
        boolean fresh;
        long lastZxid;
        /** Synced: in the forwarding set, receiving PROPOSALs and COMMITs. */
        boolean forwarding;
        /** The zxid its NEWLEADER carried, and whether the ACK for it arrived (ACKLD). */
        long newLeaderZxid = -1;
        boolean ackedNewLeader;
        /** Highest zxid it acknowledged as logged (cumulative). */
        long ackedZxid = -1;
        long lastHeardMs;

        Learner(long id, long nowMs) {
            this.id = id;
            this.lastHeardMs = nowMs;
        }
    }

    private final long self;
    private final ZabConfig config;
    private final int tickTimeMs;
    private final Replica replica;
    private final Effects effects;
    private final Election election;
    private final SplittableRandom coin;

    // ---- persistent state (spec: acceptedEpoch, currentEpoch, history) ----
    private long acceptedEpoch;
    private long currentEpoch;
    private final History history;

    // ---- volatile state ----
    private ServerState state = ServerState.LOOKING;
    private ZabState zabState = ZabState.ELECTION;
    /** Durable prefix of the history on this server; invariant: lastProcessed <= lastPersisted <= last zxid (classic Zab). */
    private long lastPersisted;
    /** Highest zxid known committed; invariant: lastProcessed <= lastCommitted. */
    private long lastCommitted;
    private long nowMs;
    private boolean started;

    // ---- leader ----
    private final Map<Long, Learner> learners = new TreeMap<>();
    /** The epoch this leader proposed in LEADERINFO (0 until a quorum of FOLLOWERINFO). */
    private long leaderEpoch;
    /** FOLLOWERINFOs that arrived while this server was still looking, by sender. */
    private final Map<Long, FollowerInfo> earlyFollowerInfo = new TreeMap<>();
    private long infoMaxEpoch;
    /** The last zxid of the leader's initial history (what NEWLEADER establishes). */
    private long initialHistoryZxid;
    /** The leader took its epoch and began to sync learners. */
    private boolean syncStarted;
    private long roleStartMs;
    private long nextPingMs;
    /** Proposals of this epoch made under a fast variant, by zxid; absent means classic. */
    private final TreeMap<Long, Boolean> fastProposals = new TreeMap<>();

    // ---- follower ----
    private long leader = -1;
    private long leaderLastHeardMs;
    private long nextFollowerInfoMs;
    private boolean gotLeaderInfo;
    /** NEWLEADER arrived with this zxid; the ACK goes once the history is durable up to it. */
    private long newLeaderZxid = -1;
    private boolean ackedNewLeader;
    private long lastAckSent = -1;
    /** Fast proposals received and not yet delivered, by zxid. */
    private final TreeMap<Long, Boolean> receivedFast = new TreeMap<>();
    /** Ack-to-all variants: the highest zxid each other server acknowledged to us. */
    private final Map<Long, Long> peerAcks = new TreeMap<>();

    public Zab(long self, ZabConfig config, int tickTimeMs, Replica replica, Effects effects, long acceptedEpoch,
               long currentEpoch, List<Txn> unappliedHistory) {
        this.self = self;
        this.config = config;
        this.tickTimeMs = tickTimeMs;
        this.replica = replica;
        this.effects = effects;
        this.election = new Election(self, config, effects::send);
        this.coin = new SplittableRandom(config.seed() * 31 + self);
        this.acceptedEpoch = acceptedEpoch;
        this.currentEpoch = currentEpoch;
        this.history = new History(replica.lastProcessedZxid());
        for (Txn t : unappliedHistory) {
            history.append(t);
        }
        this.lastPersisted = history.lastZxid();
        this.lastCommitted = replica.lastProcessedZxid();
    }

    // ================================================================== events

    /**
     * A standalone server leads at once and applies its whole log; an ensemble member starts looking
     * at its first tick, when it knows the time.
     */
    public void startStandalone() {
        assert config.standaloneFor(self) && !started : "startStandalone on an ensemble member or twice";
        started = true;
        becomeStandaloneLeader();
    }

    /** Time passes (the core's only clock). */
    public void tick(long wallClockMs) {
        nowMs = Math.max(nowMs, wallClockMs);
        if (!started) {
            started = true;
            lookForLeader("start-up");
            return;
        }
        switch (state) {
            case LOOKING -> {
                long decided = election.tick(nowMs);
                if (decided >= 0) {
                    settle(decided);
                }
            }
            case LEADING -> leaderTick();
            case FOLLOWING -> followerTick();
        }
    }

    /** A message from another server. */
    public void receive(long from, Message m) {
        if (!started || from == self || !config.voters().contains(from)) {
            return;
        }
        if (m instanceof Notification n) {
            receiveNotification(from, n);
            return;
        }
        if (state == ServerState.LOOKING && m instanceof FollowerInfo fi) {
            // A follower settled on us while we still wait out the finalize wait: keep its FOLLOWERINFO
            // for when we lead, rather than let it wait for a re-send.
            earlyFollowerInfo.put(from, fi);
            return;
        }
        if (state == ServerState.LEADING) {
            Learner l = learners.get(from);
            if (l != null) {
                l.lastHeardMs = nowMs;
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
                discardStale(from, m);
            }
        } else if (state == ServerState.FOLLOWING && from == leader) {
            leaderLastHeardMs = nowMs;
            if (m instanceof LeaderInfo li) {
                followerProcessLeaderInfo(li);
            } else if (m instanceof Diff d) {
                followerProcessDiff(d);
            } else if (m instanceof Trunc t) {
                followerProcessTrunc(t);
            } else if (m instanceof Snap s) {
                followerProcessSnap(s);
            } else if (m instanceof Proposal p) {
                followerProcessProposal(p);
            } else if (m instanceof NewLeader nl) {
                followerProcessNewLeader(nl);
            } else if (m instanceof UpToDate u) {
                followerProcessUpToDate(u);
            } else if (m instanceof Commit c) {
                followerProcessCommit(c.zxid());
            } else if (m instanceof Ping) {
                effects.send(leader, new Ping(replica.drainTouchedSessions()));
            } else if (m instanceof SyncReply r) {
                replica.syncReplied(r.sessionId(), r.cxid(), r.zxid());
            } else {
                discardStale(from, m);
            }
        } else if (state == ServerState.FOLLOWING && m instanceof Ack a && config.variant().acksToAll()) {
            followerProcessPeerAck(from, a);
        } else {
            discardStale(from, m);
        }
    }

    /** The link to a server broke: whatever was in flight on it may be lost. */
    public void peerDisconnected(long peer) {
        earlyFollowerInfo.remove(peer);
        if (state == ServerState.LEADING) {
            Learner l = learners.remove(peer);
            if (l != null) {
                LOG.log(System.Logger.Level.INFO, "server {0}: lost learner {1}", self, peer);
                leaderCheckQuorum("learner " + peer + " disconnected");
            }
        } else if (state == ServerState.FOLLOWING && peer == leader) {
            lookForLeader("the link to leader " + peer + " broke");
        }
        peerAcks.remove(peer);
    }

    /** The log is durable up to zxid (a disk completion). */
    public void persisted(long zxid) {
        long z = Math.min(zxid, history.lastZxid());
        if (z <= lastPersisted) {
            return;
        }
        lastPersisted = z;
        if (state == ServerState.LEADING && zabState == ZabState.SYNCHRONIZATION) {
            leaderMaybeStartSync();
        } else if (state == ServerState.LEADING) {
            leaderMaybeCommit();
        } else if (state == ServerState.FOLLOWING) {
            followerAfterPersist();
        }
    }

    // ================================================================== client side (called by the core)

    /** The zxid of the next transaction this leader proposes. */
    public long nextZxid() {
        assert isServingLeader() : "only a leader in broadcast proposes";
        long last = history.lastZxid();
        long counter = Txn.epochOf(last) == currentEpoch ? Txn.counterOf(last) + 1 : 1;
        if (counter > 0xffffffffL) {
            throw new IllegalStateException("zxid counter exhausted in epoch " + currentEpoch
                    + (config.standaloneFor(self) ? "; a standalone server cannot start a new epoch"
                    : "; a new election is needed"));
        }
        return Txn.zxid(currentEpoch, counter);
    }

    /** Leader in broadcast: log a new transaction and send it to the forwarding set (LeaderPropose). */
    public void propose(Txn txn) {
        assert isServingLeader() : "propose outside broadcast on the leader";
        history.append(txn);
        effects.log(txn);
        boolean fast = fastNow();
        if (fast) {
            fastProposals.put(txn.zxid(), Boolean.TRUE);
        }
        for (Learner l : learners.values()) {
            if (l.forwarding) {
                effects.send(l.id, new Proposal(txn, fast));
            }
        }
        leaderMaybeCommit();
    }

    /** Follower in broadcast: relay a client's write to the leader. */
    public void forward(Forward f) {
        assert isServingFollower() : "forward outside broadcast on a follower";
        effects.send(leader, f);
    }

    /** Follower in broadcast: ask the leader how far a client's sync must catch up. */
    public void forwardSync(long sessionId, int cxid) {
        assert isServingFollower() : "sync outside broadcast on a follower";
        effects.send(leader, new SyncRequest(sessionId, cxid));
    }

    // ================================================================== queries

    public ServerState state() {
        return state;
    }

    public ZabState zabState() {
        return zabState;
    }

    public long acceptedEpoch() {
        return acceptedEpoch;
    }

    public long currentEpoch() {
        return currentEpoch;
    }

    public long lastLoggedZxid() {
        return history.lastZxid();
    }

    public long lastCommitted() {
        return lastCommitted;
    }

    public long lastPersisted() {
        return lastPersisted;
    }

    public long leader() {
        return state == ServerState.LEADING ? self : state == ServerState.FOLLOWING ? leader : -1;
    }

    public boolean isServingLeader() {
        return state == ServerState.LEADING && zabState == ZabState.BROADCAST;
    }

    public boolean isServingFollower() {
        return state == ServerState.FOLLOWING && zabState == ZabState.BROADCAST;
    }

    public boolean isServing() {
        return zabState == ZabState.BROADCAST;
    }

    /** The transactions held in memory after zxid. */
    public List<Txn> historyAfter(long zxid) {
        return history.range(zxid, history.lastZxid());
    }

    public long historyFloor() {
        return history.floor();
    }

    public ZabConfig config() {
        return config;
    }

    /** Invariants of this server's Zab state; on in tests and simulation. */
    public void checkInvariants() {
        check(currentEpoch <= acceptedEpoch, "currentEpoch " + currentEpoch + " > acceptedEpoch " + acceptedEpoch);
        long processed = replica.lastProcessedZxid();
        check(processed <= lastCommitted, "applied " + Txn.zxidString(processed) + " beyond lastCommitted "
                + Txn.zxidString(lastCommitted));
        check(processed >= history.floor(), "history floor above what is applied");
        check(lastCommitted <= history.lastZxid() || lastCommitted == processed,
                "committed beyond the history");
        if (!config.variant().acksFromMemory()) {
            check(processed <= lastPersisted, "applied " + Txn.zxidString(processed)
                    + " which is not durable here (lastPersisted " + Txn.zxidString(lastPersisted) + ")");
        }
        if (state == ServerState.LEADING && zabState == ZabState.BROADCAST) {
            check(Txn.epochOf(history.lastZxid()) <= currentEpoch, "history holds a zxid of a later epoch");
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("Zab invariant: " + what);
        }
    }

    // ================================================================== election

    private void lookForLeader(String why) {
        earlyFollowerInfo.clear(); // links were reset: a follower that still wants us says so again
        boolean wasServing = zabState == ZabState.BROADCAST;
        if (state == ServerState.LEADING) {
            for (long id : learners.keySet()) {
                effects.resetLink(id);
            }
        } else if (state == ServerState.FOLLOWING && leader >= 0) {
            effects.resetLink(leader);
        }
        LOG.log(System.Logger.Level.INFO, "server {0}: LOOKING ({1})", self, why);
        if (wasServing) {
            replica.stopServing(why);
        }
        clearRoleState();
        state = ServerState.LOOKING;
        zabState = ZabState.ELECTION;
        election.start(nowMs, history.lastZxid(), currentEpoch);
    }

    private void clearRoleState() {
        learners.clear();
        syncStarted = false;
        leaderEpoch = 0;
        infoMaxEpoch = 0;
        fastProposals.clear();
        leader = -1;
        gotLeaderInfo = false;
        newLeaderZxid = -1;
        ackedNewLeader = false;
        lastAckSent = -1;
        peerAcks.clear();
        receivedFast.clear();
    }

    private void receiveNotification(long from, Notification n) {
        if (state == ServerState.LOOKING) {
            long decided = election.receive(from, n, nowMs);
            if (decided >= 0) {
                settle(decided);
            }
        } else if (n.state() == ServerState.LOOKING && election.proposal() != null) {
            // A looking server learns whom we follow (or that we lead): the vote we settled on.
            effects.send(from, election.settledNotification(state, election.proposal()));
        }
    }

    private void settle(long decidedLeader) {
        roleStartMs = nowMs;
        if (decidedLeader == self) {
            LOG.log(System.Logger.Level.INFO, "server {0}: LEADING (round {1}, last zxid {2})", self,
                    election.logicalClock(), Txn.zxidString(history.lastZxid()));
            state = ServerState.LEADING;
            zabState = ZabState.DISCOVERY;
            nextPingMs = nowMs;
            Map<Long, FollowerInfo> early = new TreeMap<>(earlyFollowerInfo);
            earlyFollowerInfo.clear();
            for (Map.Entry<Long, FollowerInfo> e : early.entrySet()) {
                leaderProcessFollowerInfo(e.getKey(), e.getValue());
            }
            leaderMaybeProposeEpoch();
        } else {
            LOG.log(System.Logger.Level.INFO, "server {0}: FOLLOWING {1} (round {2})", self, decidedLeader,
                    election.logicalClock());
            earlyFollowerInfo.clear();
            state = ServerState.FOLLOWING;
            zabState = ZabState.DISCOVERY;
            leader = decidedLeader;
            leaderLastHeardMs = nowMs;
            sendFollowerInfo();
        }
    }

    private void becomeStandaloneLeader() {
        state = ServerState.LEADING;
        // A standalone server keeps the epoch of its last zxid, as ZooKeeper's standalone server does.
        currentEpoch = Math.max(currentEpoch, Txn.epochOf(history.lastZxid()));
        acceptedEpoch = Math.max(acceptedEpoch, currentEpoch);
        leaderEpoch = currentEpoch;
        initialHistoryZxid = history.lastZxid();
        syncStarted = true;
        establish();
    }

    // ================================================================== leader: discovery

    private void leaderProcessFollowerInfo(long from, FollowerInfo fi) {
        if (learners.containsKey(from)) {
            return; // a re-sent FOLLOWERINFO; a real re-registration comes after a disconnect
        }
        Learner l = new Learner(from, nowMs);
        l.acceptedEpoch = fi.acceptedEpoch();
        l.lastZxid = fi.lastZxid();
        learners.put(from, l);
        if (leaderEpoch != 0) {
            if (fi.acceptedEpoch() > leaderEpoch) {
                LOG.log(System.Logger.Level.WARNING, "server {0}: learner {1} accepted epoch {2} beyond ours ({3})",
                        self, from, fi.acceptedEpoch(), leaderEpoch);
            }
            effects.send(from, new LeaderInfo(leaderEpoch)); // epoch already proposed: answer at once
            return;
        }
        infoMaxEpoch = Math.max(infoMaxEpoch, fi.acceptedEpoch());
        leaderMaybeProposeEpoch();
    }

    /** With a quorum of FOLLOWERINFO (itself included), the leader picks an epoch above all accepted ones. */
    private void leaderMaybeProposeEpoch() {
        if (leaderEpoch != 0) {
            return;
        }
        if (!config.isQuorum(leaderAnd(l -> true))) {
            return;
        }
        leaderEpoch = Math.max(infoMaxEpoch, acceptedEpoch) + 1;
        acceptedEpoch = leaderEpoch;
        effects.storeEpochs(acceptedEpoch, currentEpoch);
        for (Learner l : learners.values()) {
            effects.send(l.id, new LeaderInfo(leaderEpoch));
        }
    }

    private void leaderProcessAckEpoch(long from, AckEpoch ae) {
        Learner l = learners.get(from);
        if (l == null || l.ackedEpoch || leaderEpoch == 0) {
            discardStale(from, ae);
            return;
        }
        boolean fresh = ae.currentEpoch() >= 0;
        boolean ahead = fresh && (ae.currentEpoch() > currentEpoch
                || (ae.currentEpoch() == currentEpoch && ae.lastZxid() > history.lastZxid()));
        if (ahead) {
            lookForLeader("follower " + from + " is ahead of this leader (epoch " + ae.currentEpoch() + ", zxid "
                    + Txn.zxidString(ae.lastZxid()) + ")");
            return;
        }
        l.ackedEpoch = true;
        l.fresh = fresh;
        l.lastZxid = ae.lastZxid();
        if (zabState == ZabState.DISCOVERY) {
            List<Long> promised = leaderAnd(x -> x.ackedEpoch && x.fresh);
            if (config.isQuorum(promised)) {
                zabState = ZabState.SYNCHRONIZATION;
                initialHistoryZxid = history.lastZxid();
                LOG.log(System.Logger.Level.INFO, "server {0}: epoch {1} has a quorum {2}", self, leaderEpoch, promised);
                leaderMaybeStartSync();
            }
        } else if (syncStarted) {
            leaderSync(l); // epoch established: sync this late follower at once
        }
    }

    /**
     * The leader takes the new epoch as its currentEpoch only once its own history is durable: a
     * currentEpoch on disk vouches for the history beside it (ZOOKEEPER-4643 is the follower's side).
     */
    private void leaderMaybeStartSync() {
        if (syncStarted || lastPersisted < initialHistoryZxid) {
            return;
        }
        syncStarted = true;
        currentEpoch = leaderEpoch;
        effects.storeEpochs(acceptedEpoch, currentEpoch);
        for (Learner x : learners.values()) {
            if (x.ackedEpoch) {
                leaderSync(x);
            }
        }
        leaderMaybeEstablish();
    }

    // ================================================================== leader: synchronization

    /** SyncPacket, the history after it, and NEWLEADER; the learner joins the forwarding set. */
    private void leaderSync(Learner l) {
        long z = l.lastZxid;
        long last = history.lastZxid();
        List<Txn> txns;
        if (history.contains(z)) {
            effects.send(l.id, new Diff(z));
            txns = history.after(z);
        } else if (z > last) {
            effects.send(l.id, new Trunc(last));
            txns = List.of();
        } else {
            Snapshot snap = replica.snapshotOfAppliedState();
            effects.send(l.id, new Snap(snap.zxid(), snap.data()));
            txns = history.after(snap.zxid());
        }
        for (Txn t : txns) {
            effects.send(l.id, new Proposal(t, false));
        }
        l.newLeaderZxid = last;
        l.forwarding = true;
        effects.send(l.id, new NewLeader(last));
    }

    private void leaderProcessAck(long from, Ack a) {
        Learner l = learners.get(from);
        if (l == null || !l.forwarding || a.epoch() != currentEpoch) {
            discardStale(from, a);
            return;
        }
        l.ackedZxid = Math.max(l.ackedZxid, a.zxid());
        if (!l.ackedNewLeader && l.ackedZxid >= l.newLeaderZxid) {
            l.ackedNewLeader = true; // ACKLD
            if (zabState == ZabState.SYNCHRONIZATION) {
                leaderMaybeEstablish();
                return;
            }
            if (zabState == ZabState.BROADCAST) {
                effects.send(l.id, new UpToDate(lastCommitted));
            }
        }
        if (zabState == ZabState.BROADCAST) {
            leaderMaybeCommit();
        }
    }

    /** LeaderProcessACKLD with a quorum: the initial history is committed and broadcast begins. */
    private void leaderMaybeEstablish() {
        if (!syncStarted) {
            return;
        }
        // syncStarted: the leader's own history is durable, so it counts itself
        if (!config.isQuorum(leaderAnd(l -> l.ackedNewLeader))) {
            return;
        }
        establish();
        for (Learner l : learners.values()) {
            if (l.ackedNewLeader) {
                effects.send(l.id, new UpToDate(lastCommitted));
            }
        }
    }

    private void establish() {
        zabState = ZabState.BROADCAST;
        LOG.log(System.Logger.Level.INFO, "server {0}: leading epoch {1}, initial history up to {2}", self,
                currentEpoch, Txn.zxidString(initialHistoryZxid));
        advanceCommit(initialHistoryZxid);
        replica.startServing(true);
    }

    // ================================================================== leader: broadcast

    /** The highest zxid a quorum (the leader included) has logged; commits and delivers up to it. */
    private void leaderMaybeCommit() {
        if (zabState != ZabState.BROADCAST) {
            return;
        }
        List<Long> acks = new ArrayList<>();
        acks.add(selfAck());
        for (Learner l : learners.values()) {
            if (l.forwarding && l.ackedNewLeader) {
                acks.add(l.ackedZxid);
            }
        }
        long z = quorumReach(acks);
        if (z <= lastCommitted) {
            deliverCommitted();
            return;
        }
        boolean anyClassic = false;
        for (Txn t : history.range(lastCommitted, z)) {
            if (!fastProposals.containsKey(t.zxid())) {
                anyClassic = true;
            }
        }
        advanceCommit(z);
        if (config.variant().sendsCommit() || anyClassic) {
            for (Learner l : learners.values()) {
                if (l.forwarding) {
                    effects.send(l.id, new Commit(z));
                }
            }
        }
        fastProposals.headMap(z, true).clear();
    }

    /** How far this server's own ACK reaches: its durable log, extended over proposals made fast. */
    private long selfAck() {
        // Delivered transactions count too: a fast variant delivers from memory before the disk write.
        long z = Math.max(lastPersisted, replica.lastProcessedZxid());
        for (Txn t : history.range(z, history.lastZxid())) {
            if (!isFast(t.zxid())) {
                break;
            }
            z = t.zxid();
        }
        return z;
    }

    private boolean isFast(long zxid) {
        return fastProposals.containsKey(zxid) || receivedFast.containsKey(zxid);
    }

    /** Fast variants run only while their fault assumption can hold: every server follows this leader. */
    private boolean fastNow() {
        Variant v = config.variant();
        if (v == Variant.Zab || config.voters().size() == 1) {
            return false;
        }
        if (v == Variant.ZabAc && config.voters().size() != 3) {
            return false;
        }
        return leaderAnd(l -> l.forwarding && l.ackedNewLeader).size() == config.voters().size();
    }

    /** This leader and the learners that pass the test, by id. */
    private List<Long> leaderAnd(java.util.function.Predicate<Learner> test) {
        List<Long> ids = new ArrayList<>();
        ids.add(self);
        for (Learner l : learners.values()) {
            if (test.test(l)) {
                ids.add(l.id);
            }
        }
        return ids;
    }

    /** The highest zxid that a majority of these cumulative ACKs covers, or -1 when there are too few. */
    private long quorumReach(List<Long> acks) {
        acks.sort(java.util.Comparator.reverseOrder());
        int quorum = config.voters().size() / 2 + 1;
        return acks.size() < quorum ? -1 : acks.get(quorum - 1);
    }

    private void leaderProcessPing(Ping p) {
        replica.sessionsAlive(p.sessions());
    }

    private void leaderProcessForward(long from, Forward f) {
        if (!isServingLeader()) {
            return;
        }
        Txn txn;
        try {
            txn = replica.prepareForwarded(f, nextZxid());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "server {0}: dropping a malformed request relayed by {1}: {2}",
                    self, from, e.getMessage());
            return;
        }
        propose(txn);
    }

    /** A follower's client syncs: it must apply everything this leader proposed so far. */
    private void leaderProcessSync(long from, SyncRequest s) {
        if (isServingLeader()) {
            effects.send(from, new SyncReply(s.sessionId(), s.cxid(), history.lastZxid()));
        }
    }

    private void leaderTick() {
        long silenceLimit = (long) (zabState == ZabState.BROADCAST ? config.syncLimitTicks() : config.initLimitTicks())
                * tickTimeMs;
        if (zabState != ZabState.BROADCAST && nowMs - roleStartMs > (long) config.initLimitTicks() * tickTimeMs) {
            lookForLeader("no quorum established epoch " + Math.max(leaderEpoch, currentEpoch) + " within initLimit");
            return;
        }
        List<Long> dropped = new ArrayList<>();
        for (Learner l : learners.values()) {
            if (nowMs - l.lastHeardMs > silenceLimit) {
                dropped.add(l.id);
            }
        }
        for (long id : dropped) {
            LOG.log(System.Logger.Level.INFO, "server {0}: learner {1} silent for {2} ms; dropping it", self, id,
                    nowMs - learners.get(id).lastHeardMs);
            learners.remove(id);
            effects.resetLink(id);
        }
        if (!dropped.isEmpty() && !leaderCheckQuorum("learners " + dropped + " went silent")) {
            return;
        }
        if (zabState == ZabState.BROADCAST && nowMs >= nextPingMs) {
            nextPingMs = nowMs + Math.max(1, tickTimeMs / 2);
            for (Learner l : learners.values()) {
                if (l.forwarding) {
                    effects.send(l.id, new Ping(List.of()));
                }
            }
        }
    }

    /** In broadcast the leader needs a quorum of synced followers; returns false when it gave up. */
    private boolean leaderCheckQuorum(String why) {
        if (zabState != ZabState.BROADCAST) {
            return true;
        }
        List<Long> synced = leaderAnd(l -> l.forwarding);
        if (config.isQuorum(synced)) {
            return true;
        }
        lookForLeader("lost the quorum: " + why + "; synced only with " + synced);
        return false;
    }

    // ================================================================== follower

    private void sendFollowerInfo() {
        nextFollowerInfoMs = nowMs + FOLLOWERINFO_RESEND_MS;
        effects.send(leader, new FollowerInfo(acceptedEpoch, history.lastZxid()));
    }

    private void followerProcessLeaderInfo(LeaderInfo li) {
        if (gotLeaderInfo) {
            return;
        }
        gotLeaderInfo = true;
        long e = li.newEpoch();
        if (e < acceptedEpoch) {
            lookForLeader("leader " + leader + " proposed epoch " + e + " below our acceptedEpoch " + acceptedEpoch);
            return;
        }
        boolean fresh = e > acceptedEpoch;
        if (fresh) {
            acceptedEpoch = e;
            effects.storeEpochs(acceptedEpoch, currentEpoch); // durable before ACKEPOCH leaves
        }
        // An epoch we had already accepted is answered with -1: it must not count toward the quorum.
        effects.send(leader, new AckEpoch(fresh ? currentEpoch : -1, history.lastZxid()));
        zabState = ZabState.SYNCHRONIZATION;
    }

    private void followerProcessDiff(Diff d) {
        if (d.zxid() != history.lastZxid()) {
            lookForLeader("DIFF after " + Txn.zxidString(d.zxid()) + " but our history ends at "
                    + Txn.zxidString(history.lastZxid()));
        }
    }

    private void followerProcessTrunc(Trunc t) {
        long z = t.zxid();
        if (z < replica.lastProcessedZxid()) {
            throw new IllegalStateException("TRUNC to " + Txn.zxidString(z) + " below what this server applied ("
                    + Txn.zxidString(replica.lastProcessedZxid()) + "): committed state would be lost");
        }
        history.truncateAfter(z);
        effects.truncateLog(z);
        lastPersisted = Math.min(lastPersisted, z);
        lastCommitted = Math.min(lastCommitted, Math.max(z, replica.lastProcessedZxid()));
    }

    private void followerProcessSnap(Snap s) {
        Snapshot snapshot = new Snapshot(s.zxid(), s.snapshot());
        try {
            replica.install(snapshot);
        } catch (IOException e) {
            lookForLeader("the leader's SNAP at " + Txn.zxidString(s.zxid()) + " is unreadable: " + e.getMessage());
            return;
        }
        history.resetTo(s.zxid());
        effects.installSnapshot(snapshot);
        lastPersisted = s.zxid();
        lastCommitted = s.zxid();
    }

    /** Follower logs a PROPOSAL; it ACKs once durable (classic) or at once (fast variants). */
    private void followerProcessProposal(Proposal p) {
        Txn t = p.txn();
        if (t.zxid() <= history.lastZxid()) {
            lookForLeader("PROPOSAL " + Txn.zxidString(t.zxid()) + " does not extend our history at "
                    + Txn.zxidString(history.lastZxid()));
            return;
        }
        history.append(t);
        effects.log(t);
        if (!p.fast() || !ackedNewLeader) {
            return;
        }
        receivedFast.put(t.zxid(), Boolean.TRUE);
        Variant v = config.variant();
        if (!v.coinToss() || coin.nextDouble() < config.coinTossProbability()) {
            followerSendAck(selfAck());
        }
        followerFastCommits();
        deliverCommitted();
    }

    private void followerProcessNewLeader(NewLeader nl) {
        if (nl.zxid() != history.lastZxid()) {
            lookForLeader("NEWLEADER at " + Txn.zxidString(nl.zxid()) + " but our synced history ends at "
                    + Txn.zxidString(history.lastZxid()));
            return;
        }
        newLeaderZxid = nl.zxid();
        followerAfterPersist();
    }

    private void followerAfterPersist() {
        if (newLeaderZxid < 0) {
            return;
        }
        boolean ackingNewLeader = false;
        if (!ackedNewLeader) {
            if (lastPersisted < newLeaderZxid) {
                return; // the ACK of NEWLEADER waits until the synced history is on disk
            }
            // Only now the new currentEpoch: on disk it vouches for the history (ZOOKEEPER-4643).
            currentEpoch = acceptedEpoch;
            effects.storeEpochs(acceptedEpoch, currentEpoch);
            ackedNewLeader = true;
            ackingNewLeader = true;
        }
        long z = selfAck();
        if (ackingNewLeader || z > lastAckSent && !(config.variant().coinToss() && onlyFastIn(lastAckSent, z))) {
            followerSendAck(z); // classic: ACK what is now durable; coin toss leaves fast ones to the coin
        }
        followerFastCommits();
        deliverCommitted();
    }

    private boolean onlyFastIn(long from, long to) {
        if (to <= from) {
            return false;
        }
        for (Txn t : history.range(from, to)) {
            if (!receivedFast.containsKey(t.zxid())) {
                return false;
            }
        }
        return true;
    }

    private void followerSendAck(long z) {
        if (z <= lastAckSent) {
            return;
        }
        lastAckSent = z;
        Ack ack = new Ack(currentEpoch, z);
        effects.send(leader, ack);
        if (config.variant().acksToAll()) {
            for (long peer : config.voters()) {
                if (peer != self && peer != leader) {
                    effects.send(peer, ack);
                }
            }
        }
    }

    private void followerProcessUpToDate(UpToDate u) {
        if (!ackedNewLeader) {
            lookForLeader("UPTODATE before our ACK of NEWLEADER");
            return;
        }
        zabState = ZabState.BROADCAST;
        followerProcessCommit(u.zxid());
        replica.startServing(false);
    }

    private void followerProcessCommit(long zxid) {
        if (zxid > lastCommitted) {
            lastCommitted = Math.min(zxid, history.lastZxid());
        }
        followerFastCommits(); // a COMMIT of a classic proposal may unblock fast ones behind it
        deliverCommitted();
    }

    /** The fast variants' own commit rules, re-evaluated whenever what they depend on moves. */
    private void followerFastCommits() {
        if (!ackedNewLeader) {
            return;
        }
        if (config.variant() == Variant.ZabAc) {
            commitFastRun(history.lastZxid()); // its own ACK plus the leader's PROPOSAL make two of three
        } else if (config.variant().acksToAll()) {
            List<Long> acks = new ArrayList<>();
            acks.add(history.lastZxid()); // the leader proposed all of it
            acks.add(selfAck());
            for (Map.Entry<Long, Long> e : peerAcks.entrySet()) {
                if (e.getKey() != leader) {
                    acks.add(e.getValue());
                }
            }
            commitFastRun(quorumReach(acks));
        }
    }

    /** ZabAa/ZabCT: another follower's ACK; the leader's PROPOSAL counts as its ACK. */
    private void followerProcessPeerAck(long from, Ack a) {
        if (a.epoch() != currentEpoch) {
            return;
        }
        peerAcks.merge(from, a.zxid(), Math::max);
        followerFastCommits();
        deliverCommitted();
    }

    /** Commits up to z, but only across a run of fast proposals: a classic one waits for its COMMIT. */
    private void commitFastRun(long z) {
        for (Txn t : history.range(lastCommitted, z)) {
            if (!receivedFast.containsKey(t.zxid())) {
                break;
            }
            lastCommitted = t.zxid();
        }
    }

    private void followerTick() {
        long limit = (long) (zabState == ZabState.BROADCAST ? config.syncLimitTicks() : config.initLimitTicks())
                * tickTimeMs;
        if (nowMs - leaderLastHeardMs > limit) {
            lookForLeader("leader " + leader + " silent for " + (nowMs - leaderLastHeardMs) + " ms");
            return;
        }
        if (zabState == ZabState.DISCOVERY && !gotLeaderInfo && nowMs >= nextFollowerInfoMs) {
            sendFollowerInfo(); // the leader may still have been finalizing its election
        }
        if (zabState == ZabState.BROADCAST && config.variant().coinToss()) {
            followerSendAck(selfAck()); // the coin-toss fallback: a cumulative ACK when idle
        }
    }

    // ================================================================== delivery

    private void advanceCommit(long z) {
        lastCommitted = Math.max(lastCommitted, z);
        deliverCommitted();
    }

    /** Applies every committed transaction this server may apply: durable ones, or fast ones from memory. */
    private void deliverCommitted() {
        long processed = replica.lastProcessedZxid();
        if (processed >= lastCommitted) {
            return;
        }
        for (Txn t : history.range(processed, lastCommitted)) {
            boolean durable = t.zxid() <= lastPersisted;
            boolean fast = fastProposals.containsKey(t.zxid()) || receivedFast.containsKey(t.zxid());
            if (!durable && !fast) {
                break;
            }
            replica.deliver(t);
            receivedFast.remove(t.zxid());
        }
        history.trim(replica.lastProcessedZxid(), config.committedLogCount());
    }

    private void discardStale(long from, Message m) {
        LOG.log(System.Logger.Level.DEBUG, "server {0} ({1}/{2}): discarding {3} from {4}", self, state, zabState,
                m.getClass().getSimpleName(), from);
    }
}
