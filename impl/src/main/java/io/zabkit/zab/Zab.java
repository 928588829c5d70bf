package io.zabkit.zab;

import io.zabkit.txn.Txn;
import io.zabkit.zab.Message.Forward;
import io.zabkit.zab.Message.Notification;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Message.SyncRequest;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One server's Zab: election, discovery, synchronization and broadcast, after the Zab paper, ZooKeeper
 * and spec/Zab.tla, whose names it uses (state, zabState, acceptedEpoch, currentEpoch, history,
 * lastCommitted; handlers named after the spec's actions). Deterministic: messages, disk completions
 * and clock ticks come in; {@link Effects} go out; the {@link Replica} applies what commits.
 *
 * <p>The shape is etcd raft's step per role: this class holds what a server persists (the epochs and
 * the history) and what it delivers (lastCommitted, lastPersisted), and hands every message and tick
 * to the object of its current role ({@link Looking}, {@link Leading}, {@link Following}), which is
 * dropped on a role change, so no role's state outlives it.
 *
 * <p>A standalone server (one voter) leads from the start, in the epoch of its last zxid, and commits a
 * transaction once it is durable: the same broadcast path with a quorum of one.
 */
public final class Zab {
    static final System.Logger LOG = System.getLogger("zabkit.zab");

    public enum ZabState { ELECTION, DISCOVERY, SYNCHRONIZATION, BROADCAST }

    final long self;
    final ZabConfig config;
    final int tickTimeMs;
    final Replica replica;
    final Effects effects;
    final Election election;
    /** The coin of the coin-toss variants, seeded per server. */
    final SplittableRandom coin;

    // ---- persistent state (spec: acceptedEpoch, currentEpoch, history); invariant currentEpoch <= acceptedEpoch ----
    long acceptedEpoch;
    long currentEpoch;
    final History history;

    // ---- volatile state ----
    /** Durable prefix of the history on this server; invariant: lastProcessed <= lastPersisted <= last zxid (classic Zab). */
    long lastPersisted;
    /** Highest zxid known committed; invariant: lastProcessed <= lastCommitted. */
    long lastCommitted;
    long nowMs;
    private boolean started;
    /** The current role; replaced (never reset) on every role change. */
    private Role role;
    /** Trace validation: every protocol step, named after its spec/Zab.tla action (off by default). */
    private Tracer tracer = Tracer.OFF;

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
        this.role = new Looking(this);
    }

    // ================================================================== events

    /**
     * A standalone server leads at once and applies its whole log; an ensemble member starts looking
     * at its first tick, when it knows the time.
     */
    public void startStandalone() {
        assert config.standaloneFor(self) && !started : "startStandalone on an ensemble member or twice";
        started = true;
        // A standalone server keeps the epoch of its last zxid, as ZooKeeper's standalone server does.
        currentEpoch = Math.max(currentEpoch, Txn.epochOf(history.lastZxid()));
        acceptedEpoch = Math.max(acceptedEpoch, currentEpoch);
        Leading leading = new Leading(this);
        role = leading;
        leading.establishStandalone();
    }

    /** Time passes (the core's only clock). */
    public void tick(long wallClockMs) {
        long stalledMs = wallClockMs - nowMs;
        nowMs = Math.max(nowMs, wallClockMs);
        if (!started) {
            started = true;
            lookForLeader("start-up");
            return;
        }
        if (stalledMs > tickTimeMs) {
            role.afterOwnStall(stalledMs); // more than a tick without being ticked: this server was not running
        }
        role.tick();
    }

    /** A message from another server. */
    public void receive(long from, Message m) {
        if (!started || from == self || !config.isMember(from)) {
            return;
        }
        election.heardFrom(from);
        if (m instanceof Notification n) {
            receiveNotification(from, n);
            return;
        }
        role.receive(from, m);
    }

    /**
     * Part of a message from another server arrived, not yet a whole one: the sender is alive. Only
     * silence timers may use this; nothing of the message is known yet.
     */
    public void heardFrom(long from) {
        if (!started || from == self || !config.isMember(from)) {
            return;
        }
        election.heardFrom(from);
        role.heardFrom(from);
    }

    /** The link to a server broke: whatever was in flight on it may be lost. */
    public void peerDisconnected(long peer) {
        election.peerDisconnected(peer);
        role.peerDisconnected(peer);
    }

    /** The log is durable up to zxid (a disk completion). */
    public void persisted(long zxid) {
        if (role.holdsSyncInMemory()) {
            // A write of the old log completing under a held SNAP or cut: the held sync's own writes, at
            // NEWLEADER, report its durability (counting this one could vouch for proposals still held).
            return;
        }
        long z = Math.min(zxid, history.lastZxid());
        if (z <= lastPersisted) {
            return;
        }
        lastPersisted = z;
        role.persisted();
    }

    /** Reports every protocol step to tracer from now on (spec/TraceZab.tla). */
    public void tracer(Tracer t) {
        tracer = t == null ? Tracer.OFF : t;
    }

    /**
     * Trace validation: this server has just been built from its disk (NodeStart), before its first step.
     * The trace line shows what survived: the epochs and the recovered log.
     */
    public void traceNodeStart() {
        assert !started || config.standaloneFor(self) : "NodeStart traced after the server's first step";
        trace("NodeStart", -1, -1);
    }

    /**
     * Trace validation (simulator): this server is about to lose its memory (NodeCrash). What survives
     * on its disk is shown by the NodeStart line that follows.
     */
    public void traceNodeCrash() {
        trace("NodeCrash", -1, -1);
    }

    /** One protocol step, named after the spec action it implements, with this server's state after it. */
    void trace(String action, long peer, long mark) {
        tracer.step(action, peer, mark, this);
    }

    /** The zab bit of the ACK the step being traced sent or counted (1 Zab mode, 0 fast), -1 when none. */
    int traceZabBit = -1;

    /** A step that sends or counts an ACK with its zab bit (fast variants; -1 leaves it out of the trace). */
    void trace(String action, long peer, long mark, int zabBit) {
        assert zabBit >= -1 && zabBit <= 1 : "zab bit " + zabBit;
        traceZabBit = zabBit;
        try {
            tracer.step(action, peer, mark, this);
        } finally {
            traceZabBit = -1;
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
        ((Leading) role).leaderPropose(txn);
    }

    /** Follower or observer in broadcast: relay a client's write to the leader. */
    public void forward(Forward f) {
        assert isServingLearner() : "forward outside broadcast on a learner";
        effects.send(role.leaderId(), f);
    }

    /** Follower or observer in broadcast: ask the leader how far a client's sync must catch up. */
    public void forwardSync(long sessionId, int cxid) {
        assert isServingLearner() : "sync outside broadcast on a learner";
        effects.send(role.leaderId(), new SyncRequest(sessionId, cxid));
    }

    // ================================================================== queries

    public ServerState state() {
        return role.state();
    }

    public ZabState zabState() {
        return role.zabState;
    }

    public long acceptedEpoch() {
        return acceptedEpoch;
    }

    public long currentEpoch() {
        return currentEpoch;
    }

    /** A synchronization is held in memory, not yet on disk (Following, until NEWLEADER). */
    public boolean holdsSyncInMemory() {
        return role.holdsSyncInMemory();
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
        return role.leaderId();
    }

    /** Learners connected to this server while it leads, else 0 (mntr's zk_learners). */
    public int followerCount() {
        return role instanceof Leading leading ? leading.followerCount() : 0;
    }

    /** Voting learners synced with this server while it leads, else 0 (mntr's zk_synced_followers). */
    public int syncedFollowerCount() {
        return role instanceof Leading leading ? leading.syncedFollowerCount() : 0;
    }

    /** Observers synced with this server while it leads, else 0 (mntr's zk_synced_observers). */
    public int syncedObserverCount() {
        return role instanceof Leading leading ? leading.syncedObserverCount() : 0;
    }

    /**
     * The vote this server's election last held: whom it names, and the peerEpoch and zxid it carries
     * (after it settles: the vote it settled on). For the simulator's LeaderElectionOrder; -1 before any
     * election.
     */
    public long voteLeader() {
        Election.Vote v = election.proposal();
        return v == null ? -1 : v.leader();
    }

    public long voteEpoch() {
        Election.Vote v = election.proposal();
        return v == null ? -1 : v.peerEpoch();
    }

    public long voteZxid() {
        Election.Vote v = election.proposal();
        return v == null ? -1 : v.zxid();
    }

    public boolean isServingLeader() {
        return role.state() == ServerState.LEADING && role.zabState == ZabState.BROADCAST;
    }

    public boolean isServingFollower() {
        return role.state() == ServerState.FOLLOWING && role.zabState == ZabState.BROADCAST;
    }

    public boolean isServingObserver() {
        return role.state() == ServerState.OBSERVING && role.zabState == ZabState.BROADCAST;
    }

    /** A follower or an observer in broadcast: it relays writes and syncs to the leader. */
    public boolean isServingLearner() {
        return isServingFollower() || isServingObserver();
    }

    /** This server only learns: configured as an observer, it never votes, acknowledges or leads. */
    public boolean isObserver() {
        return config.quorum().isObserver(self);
    }

    public boolean isServing() {
        return role.zabState == ZabState.BROADCAST;
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
        // every variant: nothing applied that is not on this server's disk (log, then ACK and deliver)
        check(processed <= lastPersisted, "applied " + Txn.zxidString(processed)
                + " which is not durable here (lastPersisted " + Txn.zxidString(lastPersisted) + ")");
        if (isServingLeader()) {
            check(Txn.epochOf(history.lastZxid()) <= currentEpoch, "history holds a zxid of a later epoch");
        }
        ServerState s = role.state();
        check(isObserver() ? s == ServerState.LOOKING || s == ServerState.OBSERVING : s != ServerState.OBSERVING,
                "server " + self + (isObserver() ? ", an observer, is " : ", a voter, is ") + s);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("Zab invariant: " + what);
        }
    }

    // ================================================================== role changes

    /** Leaves the current role (closing its links, stopping service) and starts an election. */
    void lookForLeader(String why) {
        boolean wasServing = role.zabState == ZabState.BROADCAST;
        if (config.bug(Bug.ZK4712_WRITE_OUTLIVES_ROLE)) {
            lastPersisted = history.lastZxid(); // the old role's writes in flight are taken as done by the next
        }
        Role left = role;
        role.leave();
        role.resetLinks();
        LOG.log(System.Logger.Level.INFO, "server {0}: LOOKING ({1})", self, why);
        if (wasServing) {
            replica.stopServing(why);
        }
        role = new Looking(this);
        // The code leaves a role by closing its links: the spec's link break (a follower) or step-down.
        if (left instanceof Following) {
            trace("PartitionStart", left.leaderId(), -1);
        } else if (left instanceof Leading) {
            trace("LeaderLoseQuorum", -1, -1);
        }
        election.start(nowMs, history.lastZxid(), currentEpoch);
    }

    private void receiveNotification(long from, Notification n) {
        if (role instanceof Looking) {
            long decided = election.receive(from, n, nowMs);
            if (decided >= 0) {
                settle(decided);
            }
        } else if (n.state() == ServerState.LOOKING && election.proposal() != null && !isObserver()) {
            // (an observer's settled vote would count for nothing with the voter that asks)
            // A looking server learns whom we follow (or that we lead): the vote we settled on.
            effects.send(from, election.settledNotification(role.state(), election.proposal()));
        }
    }

    /** The election decided: lead, taking the FOLLOWERINFOs that arrived early, or follow. */
    void settle(long decidedLeader) {
        Looking looking = (Looking) role;
        assert config.quorum().isVoter(decidedLeader) : "the election settled on " + decidedLeader + ", not a voter";
        if (decidedLeader == self) {
            LOG.log(System.Logger.Level.INFO, "server {0}: LEADING (round {1}, last zxid {2})", self,
                    election.logicalClock(), Txn.zxidString(history.lastZxid()));
            Leading leading = new Leading(this);
            role = leading;
            trace("ElectLeader", -1, -1);
            leading.start(looking.takeEarlyFollowerInfo());
        } else if (isObserver()) {
            LOG.log(System.Logger.Level.INFO, "server {0}: OBSERVING {1} (round {2})", self, decidedLeader,
                    election.logicalClock());
            Observing observing = new Observing(this, decidedLeader);
            role = observing;
            observing.start();
        } else {
            LOG.log(System.Logger.Level.INFO, "server {0}: FOLLOWING {1} (round {2})", self, decidedLeader,
                    election.logicalClock());
            Following following = new Following(this, decidedLeader);
            role = following;
            following.start();
        }
    }

    // ================================================================== delivery

    /** Raises lastCommitted to z and delivers what may be delivered. */
    void advanceCommit(long z) {
        lastCommitted = Math.max(lastCommitted, z);
        deliverCommitted();
    }

    /** Applies every committed transaction this server may apply: durable ones, or fast ones from memory. */
    void deliverCommitted() {
        long processed = replica.lastProcessedZxid();
        if (processed >= lastCommitted) {
            return;
        }
        for (Txn t : history.range(processed, lastCommitted)) {
            if (t.zxid() > lastPersisted) {
                break; // every variant logs, then acknowledges and delivers (seed 003 2.4)
            }
            replica.deliver(t);
        }
        history.trim(replica.lastProcessedZxid(), config.committedLogCount());
    }

    /** How far this server's own ACK reaches: its durable log (log, then ACK, in every variant). */
    long selfAck() {
        long z = Math.max(lastPersisted, replica.lastProcessedZxid());
        assert z <= history.lastZxid() || z == replica.lastProcessedZxid() : "own ACK beyond the history";
        return z;
    }

    void discardStale(long from, Message m) {
        LOG.log(System.Logger.Level.DEBUG, "server {0} ({1}/{2}): discarding {3} from {4}", self, role.state(),
                role.zabState, m.getClass().getSimpleName(), from);
    }
}
