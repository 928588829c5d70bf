package io.zabkit.zab;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import io.zabkit.zab.Message.Ack;
import io.zabkit.zab.Message.AckEpoch;
import io.zabkit.zab.Message.Commit;
import io.zabkit.zab.Message.Diff;
import io.zabkit.zab.Message.FollowerInfo;
import io.zabkit.zab.Message.LeaderInfo;
import io.zabkit.zab.Message.NewLeader;
import io.zabkit.zab.Message.Ping;
import io.zabkit.zab.Message.Proposal;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Message.Snap;
import io.zabkit.zab.Message.SyncReply;
import io.zabkit.zab.Message.Trunc;
import io.zabkit.zab.Message.UpToDate;
import io.zabkit.zab.Zab.ZabState;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * FOLLOWING one leader: discovery (FOLLOWERINFO, LEADERINFO, ACKEPOCH), synchronization (DIFF/TRUNC/SNAP,
 * the proposals after it, NEWLEADER and its ACK once durable, UPTODATE) and broadcast (PROPOSAL, ACK,
 * COMMIT). Handlers are named after spec/Zab.tla's actions. An {@link Observing} server syncs exactly so,
 * and differs in broadcast only.
 */
sealed class Following extends Role permits Observing {
    private static final long FOLLOWERINFO_RESEND_MS = 200;

    final long leader;
    private final FastRules fastRules;
    private long leaderLastHeardMs;
    private long nextFollowerInfoMs;
    private boolean gotLeaderInfo;
    /** NEWLEADER arrived with this zxid; the ACK goes once the history is durable up to it. */
    private long newLeaderZxid = -1;
    private boolean ackedNewLeader;
    /** How the leader synced us (trace only: which spec action NEWLEADER completes). */
    private boolean syncedBySnap;
    private boolean syncedByTrunc;
    /** The highest zxid this follower ACKed; invariant: only grows. */
    private long lastAckSent = -1;
    /** The last ACK sent past NEWLEADER had zab = 1: the leader counts this follower as a Zab-mode acker. */
    private boolean lastAckZabMode;
    /** What lastCommitted and lastPersisted were when last seen to change, and since when (re-ack, D21). */
    private long watchedCommitted = -1;
    private long watchedPersisted = -1;
    private long unchangedSinceMs;
    /**
     * Fast variants: the broadcast proposals received and not yet durable, by zxid, with how they are
     * acknowledged once logged (log, then ACK: seed 003 2.4-2.6, Zab.tla's FollowerProcessPROPOSAL).
     */
    private final TreeMap<Long, Received> notYetLogged = new TreeMap<>();
    /** Whether the last proposal that became durable here came fast: this follower's mode (not Zab mode). */
    private boolean fastMode;
    /**
     * A SNAP behind this server's applied state (a just-recovered leader applied only its snapshot):
     * the leader's proposals up to here are ones this server already applied, and are skipped; -1 when
     * none are to be skipped. {@code skippedTo}: the last one skipped.
     */
    private long skipThrough = -1;
    private long skippedTo = -1;
    /**
     * The synced proposals (the ones after DIFF/SNAP/TRUNC and before NEWLEADER), held in memory until
     * NEWLEADER: only then they go to the log, and currentEpoch follows once they are durable. A crash
     * during synchronization so loses them, as in Zab.tla, where they become durable only with
     * currentEpoch at NEWLEADER (spec/README.md D17; ZooKeeper's Learner.syncWithLeader keeps them in
     * packetsNotLogged the same way). Invariant: empty once NEWLEADER arrived.
     */
    private final java.util.List<Txn> heldUntilNewLeader = new java.util.ArrayList<>();
    /** This role ended (a role object is never reused). */
    boolean hasLeft;
    /** The leader's messages that arrived while NEWLEADER waited for the disk, processed in order after it. */
    private final java.util.List<Message> deferredUntilNewLeader = new java.util.ArrayList<>();
    /**
     * NEWLEADER logged the held proposals after this zxid, and currentEpoch does not vouch for them yet
     * (Effects#markSyncTail; it is older than acceptedEpoch); -1 otherwise. Leaving the role now drops that tail, on disk too, as a restart
     * would: in Zab.tla a server leaving an unfinished synchronization keeps only what it had durable.
     */
    private long syncTailAfter = -1;
    /**
     * A SNAP of a new epoch, applied in memory and held off the disk until NEWLEADER, where it is installed
     * under the sync tail's mark: Zab.tla makes it durable with currentEpoch, and ZooKeeper takes that
     * snapshot at NEWLEADER. Null when none is held.
     */
    private Snapshot heldSnapshot;
    /** What memory held before such a SNAP, put back if this follower leaves before NEWLEADER is vouched for. */
    private BeforeSnap beforeSnap;

    private record BeforeSnap(Snapshot applied, long floor, java.util.List<Txn> txns, long lastPersisted,
                              long lastCommitted, long snapZxid) {
        long lastZxid() {
            return lastOf(floor, txns);
        }
    }

    /**
     * A SNAP behind our applied state cuts the log back to that state (followerKeepAppliedState): in memory
     * at once, on disk only at NEWLEADER (under the sync-tail mark in a new epoch), as a SNAP is held. Leaving
     * before NEWLEADER puts memory back to the log the disk still holds (Zab.tla keeps a leaving follower's
     * durable log; cutting it at receipt left less than the spec, D25). Null when no cut waits.
     */
    private KeptCut keptCut;

    private record KeptCut(long applied, long floor, java.util.List<Txn> txns, long lastPersisted, long lastCommitted) {
        long lastZxid() {
            return lastOf(floor, txns);
        }
    }

    /** The last zxid of a history kept as its floor and the transactions after it. */
    private static long lastOf(long floor, java.util.List<Txn> txns) {
        return txns.isEmpty() ? floor : txns.get(txns.size() - 1).zxid();
    }

    /** Bug.ZK3911_DIFF_LOGGED_AT_UPTODATE: synced proposals held in memory until UPTODATE. */
    private final java.util.List<Txn> loggedAtUpToDate = new java.util.ArrayList<>();
    /** How a broadcast proposal is acknowledged: fast (zab = 0) or in Zab mode, and the coin's face. */
    private record Received(boolean fast, boolean head) {
        /** Whether its ACK leaves once it is logged (Zab mode always; fast on Head). */
        boolean acked() {
            return !fast || head;
        }
    }

    /** Fast variants: the highest zxid each other follower acknowledged to us (peer ACKs, FollowerProcessACK). */
    private final Map<Long, Long> peerAcks = new TreeMap<>();

    Following(Zab zab, long leader) {
        super(zab, ZabState.DISCOVERY);
        assert leader != zab.self && leader >= 0 : "following " + leader;
        this.leader = leader;
        this.fastRules = new FastRules(zab.config);
        this.leaderLastHeardMs = zab.nowMs;
    }

    @Override
    ServerState state() {
        return ServerState.FOLLOWING;
    }

    @Override
    long leaderId() {
        return leader;
    }

    void start() {
        sendFollowerInfo();
        zab.trace("FollowerJoin", leader, -1);
    }

    /** A leader streaming a large message to us is not silent (ZooKeeper's learner read timeout). */
    @Override
    void heardFrom(long peer) {
        if (peer == leader) {
            assert zab.nowMs >= leaderLastHeardMs : "the core's clock never runs back";
            leaderLastHeardMs = zab.nowMs;
        }
    }

    @Override
    void receive(long from, Message m) {
        if (from == leader) {
            if (!(m instanceof FollowerInfo || m instanceof AckEpoch)) {
                // Only a leader's messages prove it leads. Two servers that settled on each other (stale
                // votes) re-send FOLLOWERINFO to each other until LEADERINFO comes; counted, they kept each
                // other from timing out for good (simulator, 3 servers, seed 108299: no leader, 1,500 quiet
                // ticks). ZooKeeper's learner cannot even connect to a server that is not leading.
                leaderLastHeardMs = zab.nowMs;
            }
            receiveFromLeader(m);
        } else if (m instanceof Ack a && zab.config.variant() != Variant.Zab) {
            followerProcessPeerAck(from, a);
        } else {
            zab.discardStale(from, m);
        }
    }

    private void receiveFromLeader(Message m) {
        if (newLeaderZxid >= 0 && !ackedNewLeader && !(m instanceof Ping)) {
            // NEWLEADER is one step (Zab.tla; ZooKeeper reads nothing more until it has logged, stored
            // currentEpoch and ACKed): what the leader sent behind it waits for that step to complete.
            deferredUntilNewLeader.add(m);
            return;
        }
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
            followerProcessCommit(c.zxid(), "FollowerProcessCOMMIT");
        } else if (m instanceof Ping) {
            zab.effects.send(leader, new Ping(zab.replica.drainTouchedSessions()));
        } else if (m instanceof SyncReply r) {
            zab.replica.syncReplied(r.sessionId(), r.cxid(), r.zxid());
        } else {
            receiveOtherFromLeader(m);
        }
    }

    /** A message of the leader's no follower expects (an observer takes INFORM here). */
    void receiveOtherFromLeader(Message m) {
        zab.discardStale(leader, m);
    }

    /**
     * Whether this learner acknowledges what it logs past NEWLEADER: a follower does; an observer
     * acknowledges NEWLEADER only, which the leader needs to end its synchronization and never counts.
     */
    boolean acksProposals() {
        return true;
    }

    @Override
    void peerDisconnected(long peer) {
        if (peer == leader) {
            zab.lookForLeader("the link to leader " + peer + " broke");
            return;
        }
        peerAcks.remove(peer);
    }

    @Override
    void persisted() {
        followerAfterPersist();
    }

    @Override
    void resetLinks() {
        zab.effects.resetLink(leader);
    }

    // ================================================================== discovery

    private void sendFollowerInfo() {
        nextFollowerInfoMs = zab.nowMs + FOLLOWERINFO_RESEND_MS;
        zab.effects.send(leader, new FollowerInfo(zab.acceptedEpoch, zab.history.lastZxid()));
    }

    private void followerProcessLeaderInfo(LeaderInfo li) {
        if (gotLeaderInfo) {
            return;
        }
        gotLeaderInfo = true;
        long e = li.newEpoch();
        if (e < zab.acceptedEpoch && !zab.config.bug(Bug.STALE_LEADERINFO_ACCEPTED)) {
            zab.lookForLeader("leader " + leader + " proposed epoch " + e + " below our acceptedEpoch "
                    + zab.acceptedEpoch);
            return;
        }
        boolean fresh = e > zab.acceptedEpoch || zab.config.bug(Bug.STALE_LEADERINFO_ACCEPTED) && e < zab.acceptedEpoch;
        if (fresh) {
            zab.acceptedEpoch = Math.max(zab.acceptedEpoch, e); // Bug.STALE_LEADERINFO_ACCEPTED: never lowered
            zab.effects.storeEpochs(zab.acceptedEpoch, zab.currentEpoch); // durable before ACKEPOCH leaves
        }
        // An epoch we had already accepted is answered with -1: it must not count toward the quorum.
        zab.effects.send(leader, new AckEpoch(fresh ? zab.currentEpoch : -1, zab.history.lastZxid()));
        zabState = ZabState.SYNCHRONIZATION;
        zab.trace("FollowerProcessLEADERINFO", leader, -1);
    }

    // ================================================================== synchronization

    private void followerProcessDiff(Diff d) {
        if (d.zxid() != zab.history.lastZxid()) {
            zab.lookForLeader("DIFF after " + Txn.zxidString(d.zxid()) + " but our history ends at "
                    + Txn.zxidString(zab.history.lastZxid()));
        }
    }

    private void followerProcessTrunc(Trunc t) {
        long z = t.zxid();
        long processed = zab.replica.lastProcessedZxid();
        if (z < processed) {
            throw new IllegalStateException("TRUNC to " + Txn.zxidString(z) + " below what this server applied ("
                    + Txn.zxidString(processed) + "): committed state would be lost");
        }
        zab.history.truncateAfter(z);
        if (!zab.config.bug(Bug.TRUNC_NOT_APPLIED_ON_DISK)) {
            zab.effects.truncateLog(z);
        }
        zab.lastPersisted = Math.min(zab.lastPersisted, z);
        zab.lastCommitted = Math.min(zab.lastCommitted, Math.max(z, processed));
        syncedByTrunc = true;
        zab.trace("FollowerProcessTRUNC", leader, z);
    }

    private void followerProcessSnap(Snap s) {
        long applied = zab.replica.lastProcessedZxid();
        if (s.zxid() < applied && !zab.config.bug(Bug.SNAP_BEHIND_APPLIED_INSTALLED)) {
            followerKeepAppliedState(s.zxid(), applied);
            return;
        }
        Snapshot snapshot = new Snapshot(s.zxid(), s.snapshot());
        // A SNAP waits for NEWLEADER to reach the disk (held), as ZooKeeper takes its snapshot only at NEWLEADER:
        // leaving before it puts back the log the disk still holds, whatever the SNAP's zxid (Zab.tla takes the sync
        // at NEWLEADER's line and keeps a leaving follower's durable log: installed at receipt, a SNAP cut it, D25).
        boolean hold = !zab.config.bug(Bug.ZK2354_SYNC_LOGGED_BEFORE_NEWLEADER);
        BeforeSnap before = hold ? new BeforeSnap(zab.replica.snapshotOfAppliedState(), zab.history.floor(),
                zab.history.txns(), zab.lastPersisted, zab.lastCommitted, s.zxid()) : null;
        try {
            zab.replica.install(snapshot);
        } catch (IOException e) {
            zab.lookForLeader("the leader's SNAP at " + Txn.zxidString(s.zxid()) + " is unreadable: " + e.getMessage());
            return;
        }
        zab.history.resetTo(s.zxid());
        if (hold) {
            beforeSnap = before;
            heldSnapshot = snapshot;
        } else {
            zab.effects.installSnapshot(snapshot);
        }
        // Held, it is not durable yet, but nothing reads this before NEWLEADER installs it (the ACK waits).
        zab.lastPersisted = s.zxid();
        zab.lastCommitted = s.zxid();
        syncedBySnap = true;
    }

    /**
     * A SNAP older than what this server applied: a leader applies only what it committed, so one just
     * recovered from its snapshot sends that snapshot and its whole log after it. Installing it would
     * drop committed transactions this server applied (and its own newer snapshot holds); instead keep
     * the applied state, drop the log after it (TRUNC to lastProcessed; committed entries not yet applied
     * go too, and come again in the leader's history, which holds every committed transaction) and
     * skip the leader's proposals up to it. Sound because every committed transaction is in the new
     * leader's history, with the same prefix: the leader's proposals must pass exactly through
     * {@code applied}, which {@link #followerProcessProposal} checks.
     */
    private void followerKeepAppliedState(long snapZxid, long applied) {
        assert snapZxid < applied && skipThrough < 0 : "SNAP at " + Txn.zxidString(snapZxid);
        Zab.LOG.log(System.Logger.Level.INFO, "server {0}: SNAP at {1} is behind our applied {2}: keeping ours",
                zab.self, Txn.zxidString(snapZxid), Txn.zxidString(applied));
        if (!zab.config.bug(Bug.ZK2354_SYNC_LOGGED_BEFORE_NEWLEADER)) {
            keptCut = new KeptCut(applied, zab.history.floor(), zab.history.txns(), zab.lastPersisted, zab.lastCommitted);
        } else {
            zab.effects.truncateLog(applied); // ZK2354: the synced log goes to disk as it arrives
        }
        zab.history.truncateAfter(applied);
        zab.lastPersisted = Math.min(zab.lastPersisted, applied);
        // committed entries past the applied state went with the log: the leader's proposals bring them again
        zab.lastCommitted = Math.min(zab.lastCommitted, applied);
        skipThrough = applied;
        skippedTo = snapZxid;
        syncedBySnap = true; // Zab.tla's SNAP: the leader's history, durable where it agrees with the log kept
    }

    private void followerProcessNewLeader(NewLeader nl) {
        if (skipThrough >= 0 && skippedTo != skipThrough) {
            zab.lookForLeader("NEWLEADER at " + Txn.zxidString(nl.zxid()) + " but the leader's history after its SNAP"
                    + " ended at " + Txn.zxidString(skippedTo) + ", before our applied " + Txn.zxidString(skipThrough));
            return;
        }
        skipThrough = -1;
        if (nl.zxid() != zab.history.lastZxid()) {
            zab.lookForLeader("NEWLEADER at " + Txn.zxidString(nl.zxid()) + " but our synced history ends at "
                    + Txn.zxidString(zab.history.lastZxid()));
            return;
        }
        newLeaderZxid = nl.zxid();
        logHeldProposals();
        if (zab.config.bug(Bug.ZK4643_EPOCH_BEFORE_HISTORY)) {
            zab.currentEpoch = zab.acceptedEpoch; // the new epoch on disk before the history it vouches for
            zab.effects.storeEpochs(zab.acceptedEpoch, zab.currentEpoch);
        }
        // The spec's sync packet carries the transactions that came as PROPOSALs before NEWLEADER.
        if (!syncedByTrunc) {
            zab.trace(syncedBySnap ? "FollowerProcessSNAP" : "FollowerProcessDIFF", leader, newLeaderZxid);
        }
        followerAfterPersist();
    }

    /**
     * Leaving an unfinished synchronization drops the synced proposals from the in-memory history, and
     * from the log when NEWLEADER already wrote them: they must not count in this server's next vote
     * (Zab.tla keeps only what such a server had durable; ZOOKEEPER-3642), and a write of them still in
     * flight must not complete after the role (ZOOKEEPER-4712's shape, D17b in spec/README.md).
     */
    @Override
    void leave() {
        hasLeft = true;
        if (!heldUntilNewLeader.isEmpty()) {
            long first = heldUntilNewLeader.get(0).zxid();
            assert zab.history.lastZxid() == heldUntilNewLeader.get(heldUntilNewLeader.size() - 1).zxid()
                    : "the held proposals are the history's tail";
            zab.history.truncateAfter(first - 1);
            heldUntilNewLeader.clear();
            assert zab.history.lastZxid() < first : "no held proposal survives the role";
        }
        if (keptCut != null) {
            assert newLeaderZxid < 0 : "the kept cut is durable from NEWLEADER on";
            zab.history.restore(keptCut.floor(), keptCut.txns()); // the disk was never cut
            zab.lastPersisted = keptCut.lastPersisted();
            zab.lastCommitted = keptCut.lastCommitted();
            keptCut = null;
            assert zab.replica.lastProcessedZxid() <= zab.lastCommitted : "restored a commit point behind the applied state";
        }
        if (beforeSnap != null && newLeaderZxid < 0 && zab.config.bug(Bug.ZK3642_SNAP_KEPT_ON_LEAVE)) {
            heldSnapshot = null; // memory keeps the SNAP, the disk never gets it
            beforeSnap = null;
        } else if (beforeSnap != null && newLeaderZxid >= 0 && beforeSnap.snapZxid() <= beforeSnap.lastZxid()) {
            // Since NEWLEADER the disk holds this SNAP, behind our old log, which it cut: keep its state; the
            // sync tail after the old log goes below (Zab.tla keeps the prefix both histories share).
            assert !ackedNewLeader && syncTailAfter == beforeSnap.lastZxid() : "a SNAP behind the log under its mark";
            beforeSnap = null;
        } else if (beforeSnap != null) {
            assert !ackedNewLeader : "a SNAP vouched for by currentEpoch is not undone";
            restoreBeforeSnap(); // the disk holds the state from before it (a SNAP past it goes with the mark)
        }
        if (syncTailAfter >= 0) {
            assert !ackedNewLeader : "a sync tail vouched for by currentEpoch is not dropped";
            assert zab.replica.lastProcessedZxid() <= syncTailAfter : "the sync tail was applied";
            zab.history.truncateAfter(syncTailAfter);
            long kept = zab.history.lastZxid(); // syncTailAfter bounds the tail; it need not be a zxid of ours
            zab.effects.truncateLog(kept);
            zab.lastPersisted = Math.min(zab.lastPersisted, kept);
            zab.lastCommitted = Math.max(zab.replica.lastProcessedZxid(), Math.min(zab.lastCommitted, kept));
            syncTailAfter = -1;
        }
    }

    @Override
    boolean holdsSyncInMemory() {
        return newLeaderZxid < 0 && (keptCut != null || heldSnapshot != null);
    }

    /** Memory back to what it was before a held SNAP, which is what the disk still holds (or will again). */
    private void restoreBeforeSnap() {
        try {
            zab.replica.install(beforeSnap.applied());
        } catch (IOException e) {
            throw new IllegalStateException("this server's own applied state does not read back: " + e, e);
        }
        zab.history.restore(beforeSnap.floor(), beforeSnap.txns());
        zab.lastPersisted = beforeSnap.lastPersisted();
        zab.lastCommitted = beforeSnap.lastCommitted();
        heldSnapshot = null;
        beforeSnap = null;
        assert zab.replica.lastProcessedZxid() <= zab.lastCommitted : "restored an applied state beyond its commits";
    }

    /** NEWLEADER: the synced proposals go to the log now; its ACK and currentEpoch wait until they are durable. */
    private void logHeldProposals() {
        assert newLeaderZxid >= 0 : "synced proposals logged before NEWLEADER";
        // A follower rejoining a leader of its own epoch has currentEpoch vouching already (Zab.tla's Synced):
        // its synced log is kept when it leaves, like any log it wrote.
        boolean vouched = zab.currentEpoch == zab.acceptedEpoch; // our own epoch's leader: no mark needed
        if (keptCut != null) {
            assert heldSnapshot == null : "a SNAP is either kept behind the applied state or held";
            zab.effects.truncateLog(keptCut.applied()); // the cut, durable only now (before the mark: Ready's order)
            if (!vouched) {
                syncTailAfter = keptCut.lastZxid(); // what the disk held before the cut is vouched for already
                zab.effects.markSyncTail(syncTailAfter, zab.acceptedEpoch);
            }
            keptCut = null;
        } else if (heldSnapshot != null) {
            if (vouched) {
                beforeSnap = null; // currentEpoch vouches for it: leaving keeps it, like any log this server wrote
            } else {
                syncTailAfter = beforeSnap.lastZxid(); // the snapshot and everything after it wait for currentEpoch
                zab.effects.markSyncTail(syncTailAfter, zab.acceptedEpoch);
            }
            zab.effects.installSnapshot(heldSnapshot);
            heldSnapshot = null;
        } else if (!heldUntilNewLeader.isEmpty() && zab.currentEpoch < zab.acceptedEpoch) {
            syncTailAfter = heldUntilNewLeader.get(0).zxid() - 1;
            zab.effects.markSyncTail(syncTailAfter, zab.acceptedEpoch); // durable before the tail's first byte
        }
        for (Txn t : heldUntilNewLeader) {
            zab.effects.log(t);
        }
        heldUntilNewLeader.clear();
        assert zab.lastPersisted <= newLeaderZxid : "synced history durable before NEWLEADER";
    }

    /** The history became durable further: the ACK of NEWLEADER, then ACKs of proposals, and delivery. */
    private void followerAfterPersist() {
        if (newLeaderZxid < 0) {
            return;
        }
        boolean ackingNewLeader = false;
        if (!ackedNewLeader) {
            if (zab.lastPersisted < newLeaderZxid && !ackNewLeaderBeforeDurable()) {
                return; // the ACK of NEWLEADER waits until the synced history is on disk
            }
            // Only now the new currentEpoch: on disk it vouches for the history (ZOOKEEPER-4643).
            zab.currentEpoch = zab.acceptedEpoch;
            zab.effects.storeEpochs(zab.acceptedEpoch, zab.currentEpoch);
            syncTailAfter = -1; // currentEpoch vouches for the synced log from here on
            beforeSnap = null;
            ackedNewLeader = true;
            ackingNewLeader = true;
            zab.trace("FollowerProcessNEWLEADER", leader, newLeaderZxid);
        }
        long z = ackingNewLeader && ackNewLeaderBeforeDurable() ? Math.max(zab.selfAck(), newLeaderZxid) : zab.selfAck();
        if (ackingNewLeader || zab.config.variant() == Variant.Zab) {
            followerSendAck(z, true); // classic: ACK what is now durable
            notYetLogged.headMap(z, true).clear(); // proposals behind NEWLEADER: its ACK covered them
            if (ackingNewLeader) {
                ackSyncedHistoryToPeers();
            }
        } else {
            followerAckLogged(z);
        }
        zab.deliverCommitted();
        if (ackingNewLeader && !deferredUntilNewLeader.isEmpty()) {
            java.util.List<Message> deferred = java.util.List.copyOf(deferredUntilNewLeader);
            deferredUntilNewLeader.clear();
            for (Message m : deferred) {
                if (hasLeft) {
                    return; // one of them ended this role
                }
                receiveFromLeader(m);
            }
        }
    }

    /**
     * Where followers count each other's acks, the synced history, now on disk, is acknowledged to the
     * other followers too, as a logged PROPOSAL is (Zab.tla's FollowerProcessNEWLEADER, spec/README.md D21):
     * a follower that acked m fast while this one was cut off gets no COMMIT of m (CommitTo) and, with no
     * later proposal, would otherwise wait for this follower's ack of m for ever (ZabCT seeds 650, 400791).
     */
    private void ackSyncedHistoryToPeers() {
        if (zab.config.variant() == Variant.Zab || !fastRules.acksToFollowers() || ackNewLeaderBeforeDurable()) {
            return;
        }
        assert ackedNewLeader && zab.lastPersisted >= newLeaderZxid : "a peer ACK of a synced history not on disk";
        Ack ack = new Ack(zab.currentEpoch, newLeaderZxid, true);
        for (long peer : zab.config.voters()) {
            if (peer != zab.self && peer != leader) {
                zab.effects.send(peer, ack);
            }
        }
    }

    /**
     * Fast variants, the proposals now logged up to z: each is acknowledged in the mode it came in (a
     * classic one in Zab mode, a fast one only on the coin's Head), cumulatively, through the last one
     * whose ACK leaves; a fast last one lets the follower commit to itself (FollowerCommitIndex).
     */
    private void followerAckLogged(long z) {
        java.util.NavigableMap<Long, Received> logged = notYetLogged.headMap(z, true);
        if (logged.isEmpty()) {
            return;
        }
        long target = -1;
        boolean zabBit = true;
        for (Map.Entry<Long, Received> e : logged.entrySet()) {
            if (e.getValue().acked()) {
                target = e.getKey();
                zabBit = !e.getValue().fast();
            }
        }
        fastMode = logged.lastEntry().getValue().fast();
        logged.clear();
        assert notYetLogged.isEmpty() || notYetLogged.firstKey() > z : "a logged proposal left unacknowledged";
        if (target > lastAckSent) {
            followerSendAck(target, zabBit);
        }
        followerCommitsToItself();
    }

    /** ZOOKEEPER-3911 and -4646: the ACK of NEWLEADER leaves before the synced history is durable. */
    private boolean ackNewLeaderBeforeDurable() {
        return zab.config.bug(Bug.ZK3911_DIFF_LOGGED_AT_UPTODATE) || zab.config.bug(Bug.ZK4646_NEWLEADER_ACK_BEFORE_FSYNC);
    }

    private void followerProcessUpToDate(UpToDate u) {
        if (!ackedNewLeader) {
            zab.lookForLeader("UPTODATE before our ACK of NEWLEADER");
            return;
        }
        zabState = ZabState.BROADCAST;
        for (Txn t : loggedAtUpToDate) {
            zab.effects.log(t); // Bug.ZK3911_DIFF_LOGGED_AT_UPTODATE: only now the synced proposals go to disk
        }
        loggedAtUpToDate.clear();
        followerProcessCommit(u.zxid(), "FollowerProcessUPTODATE");
        zab.replica.startServing(false);
    }

    // ================================================================== broadcast

    /** Follower logs a PROPOSAL; it ACKs once durable (classic) or at once (fast variants). */
    void followerProcessProposal(Proposal p) {
        Txn t = p.txn();
        if (skipThrough >= 0 && !followerSkipApplied(t.zxid())) {
            return;
        }
        if (t.zxid() <= zab.history.lastZxid()) {
            zab.lookForLeader("PROPOSAL " + Txn.zxidString(t.zxid()) + " does not extend our history at "
                    + Txn.zxidString(zab.history.lastZxid()));
            return;
        }
        zab.history.append(t);
        if (zabState == ZabState.SYNCHRONIZATION && zab.config.bug(Bug.ZK3911_DIFF_LOGGED_AT_UPTODATE)) {
            loggedAtUpToDate.add(t);
        } else if (newLeaderZxid < 0 && !zab.config.bug(Bug.ZK2354_SYNC_LOGGED_BEFORE_NEWLEADER)) {
            assert zabState == ZabState.SYNCHRONIZATION : "a proposal before NEWLEADER outside synchronization";
            heldUntilNewLeader.add(t); // logged at NEWLEADER, with currentEpoch after it (D17)
        } else {
            zab.effects.log(t);
        }
        if (ackedNewLeader && zab.config.bug(Bug.ACK_BEFORE_FSYNC)) {
            followerSendAck(t.zxid(), !p.fast()); // planted: an ACK (classic or fast) before the log write
        }
        if (zabState == ZabState.BROADCAST && zab.config.bug(Bug.APPLY_BEFORE_COMMIT)) {
            zab.lastCommitted = Math.max(zab.lastCommitted, t.zxid()); // applied once durable, no COMMIT awaited
        }
        if (zab.config.variant() == Variant.Zab || newLeaderZxid < 0) {
            return; // classic, and synced proposals: acknowledged by followerAfterPersist as they become durable
        }
        // Zab mode before UPTODATE whatever the leader says (Zab.tla: zab = 1 outside BROADCAST)
        boolean fast = p.fast() && zabState == ZabState.BROADCAST;
        notYetLogged.put(t.zxid(), new Received(fast, fast && fastRules.coinShowsHead(zab.coin)));
    }

    /**
     * After a SNAP behind our applied state: true when the proposal is to be logged, false when it is
     * one we applied (skipped) or shows the leader's history does not pass through our applied state.
     */
    private boolean followerSkipApplied(long zxid) {
        assert zabState == ZabState.SYNCHRONIZATION : "skipping applied proposals after the sync";
        if (zxid <= skipThrough) {
            skippedTo = zxid;
            return false;
        }
        if (skippedTo != skipThrough) {
            zab.lookForLeader("the leader's history after its SNAP skips from " + Txn.zxidString(skippedTo) + " to "
                    + Txn.zxidString(zxid) + ", past our applied " + Txn.zxidString(skipThrough));
            return false;
        }
        skipThrough = -1;
        return true;
    }

    private void followerSendAck(long z, boolean zabBit) {
        if (!acksProposals()) {
            if (lastAckSent >= newLeaderZxid || newLeaderZxid < 0) {
                return; // an observer's one ACK, of NEWLEADER, has left
            }
            z = Math.min(z, newLeaderZxid);
        }
        if (z <= lastAckSent) {
            return;
        }
        assert z <= zab.lastPersisted || zab.config.bug(Bug.ACK_BEFORE_FSYNC) || ackNewLeaderBeforeDurable()
                : "ACK of " + Txn.zxidString(z) + " before it is logged";
        lastAckSent = z;
        lastAckZabMode = zabBit && z > newLeaderZxid;
        if (z > newLeaderZxid) {
            // the spec's log-then-ack step, through z; the zab bit only where it can be 0
            zab.trace("FollowerProcessPROPOSAL", leader, z, zab.config.variant() == Variant.Zab ? -1 : zabBit ? 1 : 0);
        }
        Ack ack = new Ack(zab.currentEpoch, z, zabBit);
        zab.effects.send(leader, ack);
        if (!zabBit && fastRules.acksToFollowers()) {
            for (long peer : zab.config.voters()) {
                if (peer != zab.self && peer != leader) {
                    zab.effects.send(peer, ack);
                }
            }
        }
    }

    void followerProcessCommit(long zxid, String action) {
        if (zxid > zab.lastCommitted) {
            zab.lastCommitted = Math.min(zxid, zab.history.lastZxid());
        }
        zab.deliverCommitted();
        zab.trace(action, leader, zxid);
    }

    /**
     * Zab.tla's FollowerCommitIndex: not in Zab mode (the last proposal logged came fast) and
     * broadcasting, the follower commits to itself what enough followers' acks cover, its own durable
     * ack included. Evaluated where the spec does: when it logs (and acks) and when a peer's ACK comes.
     */
    private void followerCommitsToItself() {
        if (!fastMode || zabState != ZabState.BROADCAST) {
            return;
        }
        long reach = Math.min(fastRules.followerCommitReach(zab.lastPersisted, peerAcks, leader), zab.history.lastZxid());
        if (reach > zab.lastCommitted) {
            // ZabAc counts no peer: its own ack is the only one (2.5 F3); ack-to-all variants may count peers'
            assert zab.config.variant() != Variant.ZabAc || reach <= zab.lastPersisted : "ZabAc commits only what it logged";
            zab.lastCommitted = reach;
        }
    }

    /** FollowerProcessACK: another follower's ACK (fast variants), counted as its log reaching that zxid. */
    private void followerProcessPeerAck(long from, Ack a) {
        if (a.epoch() != zab.currentEpoch || zabState == ZabState.DISCOVERY) {
            zab.discardStale(from, a);
            return;
        }
        // counted whole, also past what this follower holds (Zab.tla's FollowerProcessACK, as refined by trace
        // validation): its commit reach never passes its own log, and a ZabCT peer may send no later ACK
        peerAcks.merge(from, a.zxid(), Math::max);
        followerCommitsToItself();
        zab.deliverCommitted();
        zab.trace("FollowerProcessACK", from, a.zxid());
    }

    @Override
    void tick() {
        ZabConfig config = zab.config;
        long limit = (long) (zabState == ZabState.BROADCAST ? config.syncLimitTicks() : config.initLimitTicks())
                * zab.tickTimeMs;
        if (zab.nowMs - leaderLastHeardMs > limit) {
            zab.lookForLeader("leader " + leader + " silent for " + (zab.nowMs - leaderLastHeardMs) + " ms");
            return;
        }
        if (zabState == ZabState.DISCOVERY && !gotLeaderInfo && zab.nowMs >= nextFollowerInfoMs) {
            sendFollowerInfo(); // the leader may still have been finalizing its election
        }
        if (zabState == ZabState.BROADCAST && config.variant().coinToss() && zab.lastPersisted > lastAckSent
                && zab.lastPersisted > newLeaderZxid) {
            // Liveness: the last proposal, left by the coin, is acknowledged when the follower is idle, as a
            // Head of its coin would have (Zab.tla's FollowerProcessPROPOSAL of it, taken now; the mode it
            // came in is the mode the follower is in).
            followerSendAck(zab.lastPersisted, !fastMode);
        }
        if (zabState == ZabState.BROADCAST && config.variant() != Variant.Zab) {
            followerReackIfStuck();
        }
    }

    /**
     * Zab.tla's FollowerReackZab (spec/README.md D21; seed 003 2.7's switch on this follower's own
     * timeout): logged entries not delivered for a whole tick, and the leader does not count this follower
     * as a Zab-mode acker, so no COMMIT of them is owed to it and the peers' acks it waits for may never
     * come (a peer that got them by synchronization, acked them in Zab mode, or whose ACK a broken link
     * lost). It acknowledges its log again with zab = 1; the leader answers with COMMIT.
     */
    private void followerReackIfStuck() {
        long persisted = zab.lastPersisted;
        if (zab.lastCommitted != watchedCommitted || persisted != watchedPersisted) {
            watchedCommitted = zab.lastCommitted;
            watchedPersisted = persisted;
            unchangedSinceMs = zab.nowMs;
            return;
        }
        if (zab.lastCommitted >= persisted || lastAckZabMode || zab.nowMs - unchangedSinceMs < zab.tickTimeMs) {
            return;
        }
        assert persisted <= zab.history.lastZxid() && ackedNewLeader : "a re-ack of what is not logged in this epoch";
        lastAckZabMode = true;
        zab.trace("FollowerReackZab", leader, persisted, 1);
        zab.effects.send(leader, new Ack(zab.currentEpoch, persisted, true));
    }
}
