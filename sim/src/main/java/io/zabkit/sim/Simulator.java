package io.zabkit.sim;

import io.zabkit.core.CoreConfig;
import io.zabkit.core.ServerCore;
import io.zabkit.txn.Txn;
import io.zabkit.zab.ZabConfig;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.proto.WatcherEvent;

/**
 * The driver (TigerBeetle's VOPR): builds one server or an ensemble, and clients, on a simulated
 * network, disk and clock, all drawn from one seed, then runs a safety phase with faults (NodeCrash,
 * NodeStart, PartitionStart, PartitionRecover, connection breaks, client pauses) and a quiet phase
 * without them in which every outstanding request must complete. Every step checks every core's
 * invariants, the Zab invariants across the ensemble ({@link EnsembleChecker}) and the digest of every
 * tree; restarts and new leaders check durability; clients check FIFO order and watch ordering as
 * replies come.
 */
public final class Simulator {
    static final int SERVER = 1;
    static final int FIRST_CLIENT = 100;
    /** Per tick with faults on: a stray connection on some server's quorum port (a few per run). */
    static final double STRAY_PEER_PROBABILITY = 0.005;
    private static final int TRACE_LINES_KEPT = 40;
    /** A durability-window crash comes within this many ticks after a point of commitment. */
    private static final int WINDOW_AFTER_COMMIT_TICKS = 5;
    /** The core logs through System.Logger; a run reports through its trace instead. Held: JUL keeps loggers weakly. */
    private static final java.util.logging.Logger CORE_LOG = java.util.logging.Logger.getLogger("zabkit");

    static {
        CORE_LOG.setLevel(java.util.logging.Level.OFF);
    }

    private final SimOptions options;
    private final SimClock clock;
    private final Prng faults;
    /**
     * The draws of the targeted scenarios added with issue 13 (durability window, sync after a write,
     * move to a laggard): their own stream, forked last, so that a seed on which none of them acts
     * runs exactly as before they existed.
     */
    private final Prng scenarios;
    /** The stray peers' draws (issue 23 item 2), a stream of their own. */
    private final Prng strays;
    /**
     * The draws of the scenarios added after those: a stream of its own, derived from the seed, so
     * that adding them moved none of the draws above (seeds pinned by tests keep their runs).
     */
    private final Prng laterScenarios;
    /** The SNAP-window scenario's own stream, and the followers it cut (each once) and will restart. */
    private final Prng snapCuts;
    /** The rack power-loss scenario's own stream (the NEWLEADER window on the other half of the seeds). */
    private final Prng rackLosses;
    private final double rackLossProbability;
    private final java.util.Set<Integer> snapCutOnce = new java.util.TreeSet<>();
    private final java.util.Set<Integer> restartWhenServing = new java.util.TreeSet<>();
    private final Trace trace;
    private final History history;
    private final SimNetwork network;
    private final SimPeerNetwork peers;
    private final List<SimNode> nodes = new ArrayList<>();
    private final Map<Integer, Long> restartTicks = new HashMap<>();
    private final EnsembleChecker ensemble;
    private long partitionEndTick = -1;
    /** A client moves to the server a silent partition cut off, at this tick (-1: none planned). */
    private long clientMoveTick = -1;
    private int clientMoveTarget;
    /**
     * Targeted: the leader cut off (links broken) with proposals in flight, healed as soon as another
     * server leads; -1: none.
     */
    private int isolatedLeader = -1;
    /**
     * Targeted: the leader cut off with proposals in flight, kept out until the next leader committed in
     * its own epoch; the others then lose power and it rejoins them (-1: none in progress).
     */
    private int rejoiningLeader = -1;
    /** Servers to crash at a tick, after a TRUNC (targeted; address -> tick). */
    private final Map<Integer, Long> crashAfterTruncTicks = new java.util.TreeMap<>();
    /** The targeted cut-off follower (silently partitioned alone) a client is to be moved to, or -1. */
    private int cutOffFollower = -1;
    /** Whether a client of the cut-off follower synced since the cut. */
    private boolean cutOffSynced;
    private long partitions;
    private final List<SimClient> clients = new ArrayList<>();
    private final Map<Integer, Integer> eventProcess = new HashMap<>();
    /** Writes acknowledged in this step (client address -> zxid), for {@link #syncAfterAcknowledgedWrites}. */
    private final Map<Integer, Long> acknowledgedWrites = new java.util.TreeMap<>();
    /**
     * The last point of commitment: a client saw a write acknowledged, or a leader began to serve (its
     * history committed); the tick (-1: never) and the zxid it committed.
     */
    private long commitPointTick = -1;
    private long commitPointZxid = -1;
    /** The servers serving as leader at the end of the last step. */
    private final java.util.Set<Integer> servingLeaderAddresses = new java.util.TreeSet<>();

    private final TreeDigestChecker digests;
    private final DurabilityChecker durability = new DurabilityChecker();
    private final FifoClientOrderChecker fifo = new FifoClientOrderChecker();
    private final WatchOrderingChecker watches = new WatchOrderingChecker();
    private final EphemeralChecker ephemerals = new EphemeralChecker();
    private final ReadChecker reads;
    private final Coverage coverage = new Coverage();
    /** Per session: whether its client last held it on a follower (for SESSION_EXPIRED_VIA_FOLLOWER). */
    private final Map<Long, Boolean> sessionOnFollower = new HashMap<>();

    private final ProgressChecker progress = new ProgressChecker();
    private final ElectionChecker elections;
    private final SyncReadsChecker syncReads = new SyncReadsChecker();
    private final SessionExpiryChecker sessionExpiry = new SessionExpiryChecker();
    /** ZabInvariantOnDeliver, for classic Zab ensembles; null otherwise. */
    private final DeliveryChecker delivery;

    private long opsInvoked;
    private long opsOk;
    private long opsFail;
    private long opsInfo;

    /**
     * @param fullTrace where to print every event (a replay), or null
     * @param recordHistory whether to keep the EDN history (for {@link SimResult#history()})
     */
    Simulator(SimOptions options, PrintStream fullTrace, boolean recordHistory) {
        requireAssertions();
        this.options = options;
        Prng root = new Prng(options.seed());
        this.clock = new SimClock(options.msPerTick());
        this.trace = new Trace(clock, TRACE_LINES_KEPT, fullTrace);
        this.history = new History(recordHistory, clock);
        this.faults = root.fork();
        this.network = new SimNetwork(clock, root.fork(), options.network(), trace);
        CoreConfig defaults = CoreConfig.defaults(SERVER, SimOptions.TICK_TIME_MS, root.fork().nextLong());
        CoreConfig config = new CoreConfig(defaults.serverId(), defaults.tickTimeMs(), defaults.minSessionTimeoutMs(),
                defaults.maxSessionTimeoutMs(), defaults.maxClientCnxns(), defaults.maxBufferBytes(),
                options.snapCount(), true, defaults.fourLetterWords(), defaults.sessionSecret(), "simulated");
        if (!options.bugs().isEmpty()) {
            config = config.withZab(config.zab().withBugs(options.bugs()));
        }
        this.digests = new TreeDigestChecker(config.serverId(), options.ensemble());
        this.reads = new ReadChecker(Workload.readPaths(options.workload()));
        digests.listen(reads);
        this.ensemble = new EnsembleChecker(durability, ephemerals);
        this.elections = new ElectionChecker(Math.max(options.peerDelayTicksMax(), options.electionChannel() == null ? 0
                : options.electionChannel().writtenTicksMax()) + 1L);
        int[] servers = new int[options.memberCount()];
        if (options.ensemble()) {
            this.peers = new SimPeerNetwork(clock, root.fork(), options.peerNetwork(), trace);
            if (options.electionChannel() != null) {
                // a stream of its own: the other streams' draws stay as they were
                peers.electionChannel(options.electionChannel(), new Prng(options.seed() ^ 0x3888C4A7L))
                        .observer(this::electionDelivered);
            }
            List<Long> voters = new ArrayList<>();
            List<Long> observers = new ArrayList<>();
            for (int i = 0; i < servers.length; i++) {
                (i < options.serverCount() ? voters : observers).add((long) (SERVER + i)); // observers: the last ids
            }
            this.delivery = options.variant().acksFromMemory() ? null : new DeliveryChecker(voters);
            ZabConfig zab = new ZabConfig(voters, 20, 10, 50, options.variant(), 0.5, options.seed(),
                    options.committedLogCount()).withObservers(observers).withBugs(options.bugs());
            for (int i = 0; i < servers.length; i++) {
                servers[i] = SERVER + i;
                CoreConfig c = new CoreConfig(servers[i], config.tickTimeMs(), config.minSessionTimeoutMs(),
                        config.maxSessionTimeoutMs(), config.maxClientCnxns(), config.maxBufferBytes(),
                        config.snapCount(), true, config.fourLetterWords(), config.sessionSecret(), "simulated", zab);
                int id = servers[i];
                nodes.add(new SimNode(id, c, options, root.fork(), clock, network, peers, trace, t -> { },
                        t -> digests.applied(id, t)));
            }
        } else {
            this.peers = null;
            this.delivery = null;
            servers[0] = SERVER;
            nodes.add(new SimNode(SERVER, config, options, root.fork(), clock, network, trace, digests::proposed));
        }
        for (SimNode n : nodes) {
            network.attach(n.address(), n);
            n.observe(coverage);
        }
        Workload workload = new Workload(options.workload());
        ClientCodec codec = new ClientCodec(config.maxBufferBytes());
        Observer observer = new Observer();
        for (int i = 0; i < options.clientCount(); i++) {
            int address = FIRST_CLIENT + i;
            SimClient c = new SimClient(address, servers, options.client(), root.fork(), clock, network, codec,
                    workload, observer, history, trace);
            clients.add(c);
            network.attach(address, c);
            eventProcess.put(address, history.newProcess());
        }
        this.scenarios = root.fork();
        this.strays = root.fork(); // last: the other streams' draws stay as they were
        this.laterScenarios = new Prng(options.seed() ^ 0x1F2E3D4CL);
        this.snapCuts = new Prng(options.seed() ^ 0x3642C07EL);
        this.rackLosses = new Prng(options.seed() ^ 0x4643AC1DL);
        this.rackLossProbability = !options.rackPowerLoss() || options.windowCrashProbability() > 0 ? 0.0
                : rackLosses.pick(0.0, 0.0, 1.0);
        if (options.slowDisk()) {
            // Targeted: one server's disk lags the others', so that it applies behind the commit point:
            // a sync on it must still wait for what the leader names (ZOOKEEPER-1675's window, held open)
            SimNode slow = nodes.get(laterScenarios.between(0, nodes.size() - 1));
            double mean = Math.max(4.0, Math.min(options.syncDelayTicksMean() * 3, 30.0));
            slow.slowDisk(mean, Math.max(30, Math.min(options.syncDelayTicksMax() * 2, 120)));
            coverage.hit(Coverage.Branch.SLOW_DISK);
        }
        if (options.snapCutProbability() > 0) {
            peers.cutAfter((from, to, m) -> !snapCutOnce.contains(to) && cutAfterSnap(to, m));
        }
    }

    /**
     * Targeted (ZOOKEEPER-3642's window): a follower's link to its leader breaks right after a SNAP and
     * before NEWLEADER, as when the leader dies while it streams the snapshot. The follower leaves with
     * a SNAP no currentEpoch vouches for, which must not survive in what it votes with or logs after.
     */
    private boolean cutAfterSnap(int to, io.zabkit.zab.Message m) {
        if (!(m instanceof io.zabkit.zab.Message.Snap s) || !snapCuts.chance(options.snapCutProbability())) {
            return false;
        }
        io.zabkit.zab.Zab zab = nodes.get(to - nodes.get(0).address()).core().zab();
        if (zab.state() != io.zabkit.zab.Message.ServerState.FOLLOWING) {
            return false;
        }
        assert zab.lastLoggedZxid() >= s.zxid() : "the SNAP was taken in";
        trace.event("peer.cut", "SNAP window: follower " + to + " loses its leader right after SNAP "
                + Txn.zxidString(s.zxid()) + ", before NEWLEADER");
        coverage.hit(Coverage.Branch.SNAP_CUT_BEFORE_NEWLEADER);
        snapCutOnce.add(to); // once per follower, so that its next sync can finish
        restartWhenServing.add(to);
        return true;
    }

    /**
     * Targeted, after a SNAP cut: the follower restarts once it serves again, so what it logged since is
     * read back from its disk (a SNAP kept only in memory shows as a hole in the recovered log).
     */
    private void maybeRestartAfterSnapCut() {
        for (int address : new ArrayList<>(restartWhenServing)) {
            SimNode f = nodes.get(address - nodes.get(0).address());
            if (f.isUp() && f.core().zab().isServingFollower() && mayCrash(f)
                    && snapCuts.chance(0.2)) {
                restartWhenServing.remove(address);
                trace.event("NodeCrash", "SNAP window: follower " + address + " restarts after serving again");
                crashAndRestartAt(f, clock.tick() + snapCuts.between(1, 20));
            }
        }
    }

    /**
     * A notification arrived on the election channel, made at madeTick: counts the stale-vote branches,
     * and tells the election check how old a settled vote the receiver may have acted on.
     */
    private void electionDelivered(int from, int to, io.zabkit.zab.Message.Notification n, long madeTick,
            boolean resent) {
        if (resent) {
            coverage.hit(Coverage.Branch.NOTIFICATION_RESENT);
        }
        if (n.state() == io.zabkit.zab.Message.ServerState.LOOKING) {
            return;
        }
        elections.heardSettledVote(to, clock.tick() - madeTick);
        SimNode sender = nodes.get(from - nodes.get(0).address());
        if (!sender.isUp() || sender.core().zab().state() != n.state()) {
            coverage.hit(Coverage.Branch.STALE_SETTLED_VOTE);
        }
    }

    /** The VOPR refuses to run without assertions: they are half of the oracle. */
    static void requireAssertions() {
        boolean on = false;
        assert on = true;
        if (!on) {
            throw new IllegalStateException("the simulator needs assertions: run java with -ea");
        }
    }

    /** Reports every Zab step of every server to t (trace validation). */
    Simulator zabTracer(io.zabkit.zab.Tracer t) {
        for (SimNode n : nodes) {
            n.zabTracer(t);
        }
        return this;
    }

    SimResult run() {
        Violation violation = null;
        try {
            for (SimNode n : nodes) {
                n.start();
                digests.afterStep(n.core());
            }
            for (int t = 0; t < options.ticksMax(); t++) {
                step(true);
            }
            quiet();
        } catch (Violation v) {
            violation = v;
        } catch (AssertionError | RuntimeException e) {
            violation = new Violation(e instanceof AssertionError ? "Assertion" : "Exception", describe(e));
        }
        if (violation != null) {
            trace.event("VIOLATION", violation.getMessage());
        }
        history.ended(digests.committedChain());
        return new SimResult(options, violation, trace.hash(), trace.events(), clock.tick(), stats(),
                trace.lastLines(), history, coverage);
    }

    // ------------------------------------------------------------------

    private void step(boolean faultsOn) {
        clock.advance();
        if (faultsOn) {
            maybeCrashOrRestart();
            maybeCrashLeaderInDiscovery();
            maybeCrashInDurabilityWindow();
            maybeCrashAfterTrunc();
            maybeRejoinRecoveredEnsemble();
            maybeCrashInNewLeaderWindow();
            maybeRestartAfterSnapCut();
            maybePartition();
            maybeMoveClient();
            maybeMoveClientToLaggard();
            maybeCutOffFollower();
            maybeAbandonSession();
            maybeStrayPeer();
            network.maybeBreakConnections();
            if (peers != null) {
                peers.maybeBreakLinks();
            }
        } else {
            for (SimNode n : nodes) {
                if (!n.isUp()) {
                    restart(n);
                }
            }
            if (peers != null && peers.partitioned()) {
                recoverPartition();
            }
        }
        for (SimNode n : nodes) {
            n.tick();
        }
        for (SimNode n : nodes) {
            n.traceCrash();
        }
        network.deliver();
        if (peers != null) {
            peers.deliver();
        }
        if (faultsOn) {
            syncAfterAcknowledgedWrites();
        }
        for (SimClient c : clients) {
            c.step(faultsOn);
        }
        for (SimNode n : nodes) {
            if (n.isUp()) {
                ServerCore core = n.core();
                core.checkInvariants();
                digests.afterStep(core);
                progress.afterStep(n.address(), n.crashes(), core.lastProcessedZxid(), core.zab().isServing());
                syncReads.applied(core.lastProcessedZxid());
                io.zabkit.zab.Zab zab = core.zab();
                if (zab.isServingLeader() != servingLeaderAddresses.contains(n.address())) {
                    if (zab.isServingLeader()) {
                        servingLeaderAddresses.add(n.address());
                        commitPoint(zab.lastLoggedZxid());
                    } else {
                        servingLeaderAddresses.remove(n.address());
                    }
                }
                elections.observe(n.address(), zab.state(), zab.leader(), zab.currentEpoch(), zab.lastLoggedZxid(),
                        zab.voteLeader(), zab.voteEpoch(), zab.voteZxid());
                checkObserverRole(n.address(), zab);
            } else {
                servingLeaderAddresses.remove(n.address());
                elections.down(n.address());
            }
        }
        elections.endStep();
        sessionExpiry.afterStep(servingLeader(), clock.tick());
        if (options.ensemble()) {
            ensemble.afterStep(nodes);
        }
        if (delivery != null) {
            delivery.afterStep(nodes);
        }
    }

    private void maybeCrashOrRestart() {
        if (options.ensemble() && faults.chance(options.powerLossProbability())) {
            // Power loss of the whole ensemble (the campaigns' "kill all"): classic Zab must lose nothing.
            trace.event("NodeCrash", "power loss: every server at once");
            coverage.hit(Coverage.Branch.POWER_LOSS);
            for (SimNode n : nodes) {
                if (n.isUp() && mayCrash(n)) {
                    countCrash(n);
                    history.nemesis("NodeCrash", ":node" + n.address());
                    n.crash();
                    restartTicks.put(n.address(), clock.tick() + faults.between(1, options.restartDelayTicksMax()));
                }
            }
        }
        for (SimNode n : nodes) {
            if (n.isUp() && faults.chance(options.crashProbability()) && mayCrash(n)) {
                countCrash(n);
                history.nemesis("NodeCrash", ":node" + n.address());
                n.crash();
                restartTicks.put(n.address(), clock.tick() + faults.between(1, options.restartDelayTicksMax()));
            } else if (!n.isUp() && clock.tick() >= restartTicks.getOrDefault(n.address(), 0L)) {
                restart(n);
            }
        }
    }

    /**
     * Targeted: a leader crashes after its LEADERINFO went out and before a quorum promised (in-flight
     * LEADERINFOs are lost, so some followers accepted the epoch and others not: the next leader may
     * propose the same epoch, answered with ACKEPOCH -1).
     */
    private void maybeCrashLeaderInDiscovery() {
        if (options.discoveryCrashProbability() <= 0) {
            return;
        }
        for (SimNode n : nodes) {
            if (n.isUp() && leaderInfoSent(n.core().zab()) && faults.chance(options.discoveryCrashProbability())
                    && mayCrash(n)) {
                countCrash(n);
                history.nemesis("NodeCrash", ":node" + n.address());
                n.crash();
                restartTicks.put(n.address(), clock.tick() + faults.between(1, options.restartDelayTicksMax()));
            }
        }
    }

    /** A client saw a write acknowledged at zxid, or a leader began to serve a history ending there. */
    private void commitPoint(long zxid) {
        commitPointTick = clock.tick();
        commitPointZxid = zxid;
    }

    /**
     * Targeted: a crash in the durability window, a rack's power loss while writes are in flight. Right
     * after a point of commitment at zxid z (a client saw a write acknowledged; a leader began to serve,
     * its history committed by a quorum's ACKs of NEWLEADER), the followers that do not hold z on disk
     * yet (its fsync in flight: any ACK they gave for it rests on memory) lose power with the leader, and
     * the leader comes back last: the others elect among themselves and must still hold z (it rests on
     * a quorum's disks, so some follower that stayed up holds it); the leader's log may then be ahead
     * of theirs, so it is sent a TRUNC. Every server must be up (the episode is the only fault in
     * flight) and allowed to crash.
     */
    private void maybeCrashInDurabilityWindow() {
        if (options.windowCrashProbability() <= 0 || commitPointTick < 0
                || clock.tick() - commitPointTick > WINDOW_AFTER_COMMIT_TICKS) {
            return;
        }
        SimNode leader = null;
        List<SimNode> behind = new ArrayList<>();
        for (SimNode n : nodes) {
            if (!n.isUp() || !mayCrash(n)) {
                return;
            }
            if (n.core().zab().state() == io.zabkit.zab.Message.ServerState.LEADING) {
                leader = n;
            } else if (n.lacksDurably(commitPointZxid)) {
                behind.add(n);
            }
        }
        if (leader == null || behind.isEmpty() || !scenarios.chance(options.windowCrashProbability())) {
            return;
        }
        List<Integer> who = new ArrayList<>();
        behind.forEach(n -> who.add(n.address()));
        trace.event("NodeCrash", "durability window: servers " + who + " without " + Txn.zxidString(commitPointZxid)
                + " on disk and leader " + leader.address() + " lose power; the leader comes back last");
        coverage.hit(Coverage.Branch.CRASH_DURABILITY_WINDOW);
        long othersBackBy = 0;
        for (SimNode n : behind) {
            long back = clock.tick() + scenarios.between(1, 20);
            crashAndRestartAt(n, back);
            othersBackBy = Math.max(othersBackBy, back);
        }
        crashAndRestartAt(leader, othersBackBy + scenarios.between(50, 300));
        assert restartTicks.get(leader.address()) > othersBackBy : "the leader must come back last";

    }

    /**
     * Targeted, on the durability-window seeds (whose leader comes back last with a log ahead, and is
     * sent a TRUNC): a server that was just told to TRUNC crashes a little later, once it synced: what
     * it recovers must be the truncated log, not the entries the leader cut.
     */
    private void maybeCrashAfterTrunc() {
        if (options.windowCrashProbability() <= 0) {
            return;
        }
        maybeIsolateProposingLeader();
        for (SimNode n : nodes) {
            if (n.isUp() && n.truncTick() == clock.tick() - 1 && !crashAfterTruncTicks.containsKey(n.address())
                    && scenarios.chance(0.8)) {
                crashAfterTruncTicks.put(n.address(), clock.tick() + scenarios.between(5, 60));
            }
        }
        for (java.util.Iterator<Map.Entry<Integer, Long>> it = crashAfterTruncTicks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, Long> e = it.next();
            SimNode n = nodes.get(e.getKey() - nodes.get(0).address());
            if (clock.tick() < e.getValue()) {
                continue;
            }
            it.remove();
            if (n.isUp() && mayCrash(n)) {
                trace.event("NodeCrash", "server " + n.address() + " crashes after the TRUNC it was sent");
                coverage.hit(Coverage.Branch.CRASH_AFTER_TRUNC);
                crashAndRestartAt(n, clock.tick() + scenarios.between(1, 50));
            }
        }
    }

    /**
     * Targeted, on the durability-window seeds: the leader is cut off (its links break, losing what is
     * in flight) while proposals it logged have not all reached a follower; the others elect a new
     * leader, and the partition heals as that leader begins discovery, before it proposes: the old
     * leader's log is ahead of the new leader's, so it is sent a TRUNC (ZooKeeper's truncation path).
     */
    private void maybeIsolateProposingLeader() {
        if (isolatedLeader >= 0) {
            if (!peers.partitioned()) {
                isolatedLeader = -1;
                return;
            }
            for (SimNode n : nodes) {
                if (n.address() != isolatedLeader && n.isUp()
                        && n.core().zab().state() == io.zabkit.zab.Message.ServerState.LEADING
                        && n.core().zab().zabState() != io.zabkit.zab.Zab.ZabState.BROADCAST) {
                    trace.event("PartitionRecover", "server " + n.address() + " begins to lead: the cut-off leader "
                            + isolatedLeader + " may rejoin");
                    recoverPartition();
                    isolatedLeader = -1;
                    return;
                }
            }
            return;
        }
        if (peers == null || peers.partitioned()) {
            return;
        }
        for (SimNode n : nodes) {
            io.zabkit.zab.Zab zab = n.isUp() ? n.core().zab() : null;
            if (zab != null && zab.isServingLeader() && zab.lastLoggedZxid() > zab.lastCommitted()
                    && scenarios.chance(options.windowCrashProbability() / 10)) {
                java.util.Set<Integer> all = new java.util.TreeSet<>();
                nodes.forEach(x -> all.add(x.address()));
                history.nemesis("PartitionStart", "[:node" + n.address() + "]");
                trace.event("PartitionStart", "cut leader " + n.address() + " with proposals up to "
                        + Txn.zxidString(zab.lastLoggedZxid()) + " in flight (links break); healed as another leads");
                peers.partition(java.util.Set.of(n.address()), all, false);
                partitions++;
                partitionEndTick = clock.tick() + 400; // a bound: normally healed as the next leader starts
                isolatedLeader = n.address();
                coverage.hit(Coverage.Branch.LEADER_CUT_WITH_PROPOSALS);
                return;
            }
        }
    }

    /**
     * Targeted (the SNAP-behind-applied path, issue 13 item 6): the leader is cut off (links break) while
     * proposals it logged are outstanding, so its log ends in an entry the others may lack; it stays out
     * until the next leader has committed in its own epoch; then every other server loses power and the
     * partition heals. The servers that come back applied only their snapshots, and whichever leads has
     * the longer history, so the old leader, whose last entry it lacks, is sent a SNAP: the leader's
     * recovered snapshot, possibly behind what the old leader applied. It must keep its applied state.
     */
    private void maybeRejoinRecoveredEnsemble() {
        if (rejoiningLeader >= 0) {
            if (!peers.partitioned()) {
                rejoiningLeader = -1; // healed by the partition's bound
                return;
            }
            SimNode next = null;
            for (SimNode n : nodes) {
                io.zabkit.zab.Zab zab = n.isUp() ? n.core().zab() : null;
                if (n.address() != rejoiningLeader && zab != null && zab.isServingLeader()
                        && zab.lastCommitted() >>> 32 == zab.currentEpoch() && (zab.lastCommitted() & 0xffffffffL) > 0) {
                    next = n;
                }
            }
            if (next == null) {
                return;
            }
            List<SimNode> others = new ArrayList<>();
            for (SimNode n : nodes) {
                if (n.address() != rejoiningLeader) {
                    if (!n.isUp() || !mayCrash(n)) {
                        return; // the power loss waits until it can take every other server
                    }
                    others.add(n);
                }
            }
            trace.event("NodeCrash", "rejoin: every server but the cut-off leader " + rejoiningLeader
                    + " loses power once leader " + next.address() + " committed "
                    + Txn.zxidString(next.core().zab().lastCommitted()) + "; the old leader rejoins");
            coverage.hit(Coverage.Branch.REJOIN_RECOVERED_ENSEMBLE);
            for (SimNode n : others) {
                crashAndRestartAt(n, clock.tick() + laterScenarios.between(1, 20));
            }
            recoverPartition();
            rejoiningLeader = -1;
            return;
        }
        if (options.snapRejoinProbability() <= 0 || peers.partitioned() || isolatedLeader >= 0
                || cutOffFollower >= 0) {
            return;
        }
        for (SimNode n : nodes) {
            if (!n.isUp()) {
                return;
            }
        }
        for (SimNode n : nodes) {
            io.zabkit.zab.Zab zab = n.core().zab();
            if (zab.isServingLeader() && zab.lastLoggedZxid() > zab.lastCommitted()
                    && laterScenarios.chance(options.snapRejoinProbability())) {
                java.util.Set<Integer> all = new java.util.TreeSet<>();
                nodes.forEach(x -> all.add(x.address()));
                history.nemesis("PartitionStart", "[:node" + n.address() + "]");
                trace.event("PartitionStart", "cut leader " + n.address() + " with proposals up to "
                        + Txn.zxidString(zab.lastLoggedZxid()) + " in flight (links break); it rejoins after the"
                        + " others' power loss");
                peers.partition(java.util.Set.of(n.address()), all, false);
                partitions++;
                partitionEndTick = clock.tick() + 600; // a bound: normally healed at the power loss
                rejoiningLeader = n.address();
                return;
            }
        }
    }

    /**
     * Targeted, on the durability-window seeds (ZOOKEEPER-4643's window): a follower that has just been
     * sent NEWLEADER, with the synced history not yet on its disk, loses power together with its leader;
     * the follower comes back soon, the leader last. What the follower stored as its currentEpoch must
     * not claim a history its disk lost, or it wins the next election over a server with the longer,
     * committed history. With {@code --rack-power-loss}, a third of the seeds that do not draw the
     * durability window have the same power loss at every such window (the two servers share a rack
     * or a power feed; {@code rackLosses}, a stream of its own): ZOOKEEPER-4643's thin row.
     */
    private void maybeCrashInNewLeaderWindow() {
        double p = options.windowCrashProbability() > 0 ? options.windowCrashProbability() / 4 : rackLossProbability;
        Prng draws = options.windowCrashProbability() > 0 ? scenarios : rackLosses;
        if (p <= 0) {
            return;
        }
        for (SimNode f : nodes) {
            if (!f.isUp() || f.newLeaderTick() != clock.tick() - 1) {
                continue;
            }
            io.zabkit.zab.Zab zab = f.core().zab();
            if (zab.state() != io.zabkit.zab.Message.ServerState.FOLLOWING
                    || zab.zabState() != io.zabkit.zab.Zab.ZabState.SYNCHRONIZATION
                    || zab.lastPersisted() >= zab.lastLoggedZxid() || zab.leader() < 0) {
                continue;
            }
            SimNode leader = nodes.get((int) zab.leader() - nodes.get(0).address());
            if (!leader.isUp() || !mayCrash(f) || !mayCrash(leader)
                    || !draws.chance(p)) {
                continue;
            }
            trace.event("NodeCrash", "NEWLEADER window: follower " + f.address() + " without its synced history on"
                    + " disk and leader " + leader.address() + " lose power; the leader comes back last");
            coverage.hit(Coverage.Branch.CRASH_NEWLEADER_WINDOW);
            long back = clock.tick() + draws.between(1, 20);
            crashAndRestartAt(f, back);
            crashAndRestartAt(leader, back + draws.between(50, 300));
            return;
        }
    }

    private void crashAndRestartAt(SimNode n, long tick) {
        countCrash(n);
        history.nemesis("NodeCrash", ":node" + n.address());
        n.crash();
        restartTicks.put(n.address(), tick);
    }

    /**
     * Targeted (sync's purpose): right after a write is acknowledged, clients on other servers sync,
     * racing the COMMIT to their server (ZOOKEEPER-1675's window: a follower behind the write must
     * not answer the sync before it caught up with the leader).
     */
    private void syncAfterAcknowledgedWrites() {
        if (acknowledgedWrites.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, Long> w : acknowledgedWrites.entrySet()) {
            int writer = w.getKey();
            int writerServer = -1;
            for (SimClient c : clients) {
                if (c.address() == writer) {
                    writerServer = c.server();
                }
            }
            for (SimClient c : clients) {
                ServerCore core = coreOf(c.server());
                // only a server behind the write races its COMMIT; one already past it tests nothing
                boolean behind = core != null && core.lastProcessedZxid() < w.getValue();
                if (c.address() == writer || c.server() == writerServer || !behind
                        || !scenarios.chance(options.syncAfterWriteProbability())) {
                    continue;
                }
                if (c.invokeNow(ClientOp.of(ClientOp.Kind.SYNC, "/"))) {
                    trace.event("client.sync-after-write", "client " + c.address() + " syncs on server " + c.server()
                            + " after client " + writer + "'s write at " + Txn.zxidString(w.getValue()));
                    coverage.hit(Coverage.Branch.SYNC_ON_SERVER_BEHIND_WRITE);
                }
            }
        }
        acknowledgedWrites.clear();
    }

    /**
     * Targeted: a client fails over to the server furthest behind (a serving follower whose applied
     * state is behind the client's lastZxidSeen): the server must refuse it rather than show it an
     * older state.
     */
    private void maybeMoveClientToLaggard() {
        if (options.laggardMoveProbability() <= 0 || !scenarios.chance(options.laggardMoveProbability())) {
            return;
        }
        SimClient client = clients.get(scenarios.between(0, clients.size() - 1));
        SimNode laggard = null;
        for (SimNode n : nodes) {
            if (n.isUp() && n.address() != client.server() && n.core().zab().isServing()
                    && n.core().lastProcessedZxid() < client.lastZxidSeen()
                    && (laggard == null || n.core().lastProcessedZxid() < laggard.core().lastProcessedZxid())) {
                laggard = n;
            }
        }
        if (laggard != null) {
            trace.event("client.move", "client " + client.address() + " (lastZxidSeen "
                    + Txn.zxidString(client.lastZxidSeen()) + ") forced onto server " + laggard.address() + " at "
                    + Txn.zxidString(laggard.core().lastProcessedZxid()));
            client.moveTo(laggard.address());
        }
    }

    /**
     * Targeted (the "silent partition of one follower followed by a forced client move"): a
     * serving follower is cut off silently (its links hold; it keeps serving until its timeouts notice),
     * the others go on committing, and once a client on another server has seen a zxid the follower
     * lacks, that client is moved onto it: the follower must refuse it (lastZxidSeen) rather than show
     * it an older state. Drawn on the seeds that move clients to laggards.
     */
    private void maybeCutOffFollower() {
        if (cutOffFollower >= 0) {
            moveClientAheadOf(cutOffFollower);
            return;
        }
        if (peers == null || peers.partitioned() || options.laggardMoveProbability() <= 0
                || !scenarios.chance(options.laggardMoveProbability() / 5)) {
            return;
        }
        List<SimNode> serving = new ArrayList<>();
        for (SimNode n : nodes) {
            if (n.isUp() && n.core().zab().isServingFollower()) {
                serving.add(n);
            }
        }
        if (serving.isEmpty()) {
            return;
        }
        SimNode f = serving.get(scenarios.between(0, serving.size() - 1));
        java.util.Set<Integer> all = new java.util.TreeSet<>();
        nodes.forEach(n -> all.add(n.address()));
        history.nemesis("PartitionStart", "[:node" + f.address() + "]");
        trace.event("PartitionStart", "cut follower " + f.address() + " from the rest of " + all
                + " (silently: links hold, timeouts must notice); a client that saw more is to move onto it");
        peers.partition(java.util.Set.of(f.address()), all, true);
        partitions++;
        coverage.hit(Coverage.Branch.PARTITION_SILENT);
        partitionEndTick = clock.tick() + scenarios.between(30, 90);
        cutOffFollower = f.address();
        cutOffSynced = false;
    }

    /** While the cut-off follower is cut off: moves the first client that saw more than it applied. */
    private void moveClientAheadOf(int follower) {
        SimNode f = nodes.get(follower - nodes.get(0).address());
        assert f.address() == follower : "nodes are numbered from the first address";
        if (!peers.partitioned() || !f.isUp()) {
            cutOffFollower = -1;
            return;
        }
        long applied = f.core().lastProcessedZxid();
        for (SimClient c : clients) {
            // a client of the cut-off follower syncs once a write it lacks was acknowledged elsewhere: the
            // follower must not answer before it caught up with the leader (ZOOKEEPER-1675's window)
            if (!cutOffSynced && c.server() == follower && durability.maxAckedZxid() > applied
                    && c.invokeNow(ClientOp.of(ClientOp.Kind.SYNC, "/"))) {
                cutOffSynced = true;
                trace.event("client.sync-after-write", "client " + c.address() + " syncs on cut-off follower "
                        + follower + " at " + Txn.zxidString(applied) + " after a write at "
                        + Txn.zxidString(durability.maxAckedZxid()));
                coverage.hit(Coverage.Branch.SYNC_ON_SERVER_BEHIND_WRITE);
            }
        }
        for (SimClient c : clients) {
            if (c.server() != follower && c.lastZxidSeen() > applied) {
                trace.event("client.move", "client " + c.address() + " (lastZxidSeen "
                        + Txn.zxidString(c.lastZxidSeen()) + ") forced onto cut-off follower " + follower + " at "
                        + Txn.zxidString(applied));
                c.moveTo(follower);
                cutOffFollower = -1;
                return;
            }
        }
    }

    /**
     * Targeted: a client process dies without closing its session (kill -9: the socket closes, no
     * closeSession) and a new process starts a new session. The abandoned session, wherever it was
     * created, must expire on the leader with its ephemerals (SessionExpiry at the end of the run).
     */
    /**
     * A stray connection on a server's quorum port (issue 23 item 2): it claims a server id (one past the
     * last is no member) from an address no server line names, and would join as that id, claiming the
     * target's own epoch and last zxid, and acknowledge whatever it is sent. The runtime's admission rule
     * refuses it, so no core hears of it; under PEER_SOURCE_UNCHECKED a claimed smaller id is accepted,
     * displaces the member's link and is counted in the target's quorums.
     */
    private void maybeStrayPeer() {
        if (peers == null) {
            return;
        }
        SimNode leader = nodes.stream().filter(n -> n.isUp() && n.core().zab().isServingLeader()).findFirst()
                .orElse(null);
        boolean proposing = leader != null && leader.core().zab().lastLoggedZxid() > leader.core().zab().lastCommitted();
        // untargeted at random, and targeted where a forged ACK would count: a leader with proposals in flight
        SimNode target;
        if (proposing && strays.chance(STRAY_PEER_PROBABILITY * 4)) {
            target = leader;
        } else if (strays.chance(STRAY_PEER_PROBABILITY)) {
            List<SimNode> up = nodes.stream().filter(SimNode::isUp).toList();
            if (up.isEmpty()) {
                return;
            }
            target = up.get(strays.between(0, up.size() - 1));
        } else {
            return;
        }
        long claimed = SERVER + strays.between(0, nodes.size());
        java.net.InetAddress source = quorumAddress(10, strays.between(1, 254));
        io.zabkit.zab.Zab zab = target.core().zab();
        io.zabkit.runtime.PeerAdmission.Verdict v = peers.strayConnect(target.address(), claimed, source,
                memberQuorumAddresses(), !zab.config().bug(io.zabkit.zab.Bug.PEER_SOURCE_UNCHECKED),
                zab.currentEpoch(), zab.lastLoggedZxid());
        coverage.hit(v == io.zabkit.runtime.PeerAdmission.Verdict.ACCEPT ? Coverage.Branch.STRAY_PEER_ACCEPTED
                : Coverage.Branch.STRAY_PEER_REFUSED);
    }

    /** The servers' quorum addresses as their server.N lines would give them: 127.0.0.N:2888. */
    private java.util.Map<Long, java.net.InetSocketAddress> memberQuorumAddresses() {
        java.util.Map<Long, java.net.InetSocketAddress> m = new java.util.TreeMap<>();
        for (SimNode n : nodes) {
            m.put((long) n.address(), new java.net.InetSocketAddress(quorumAddress(127, n.address()), 2888));
        }
        return m;
    }

    private static java.net.InetAddress quorumAddress(int first, int last) {
        try {
            return java.net.InetAddress.getByAddress(new byte[] {(byte) first, 0, 0, (byte) last}); // no lookup
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError("four bytes are an IPv4 address", e);
        }
    }

    private void maybeAbandonSession() {
        if (options.abandonProbability() <= 0 || !scenarios.chance(options.abandonProbability())) {
            return;
        }
        SimClient client = clients.get(scenarios.between(0, clients.size() - 1));
        ServerCore core = coreOf(client.server());
        boolean onFollower = core != null && core.zab().isServingFollower();
        long abandoned = client.abandonSession();
        if (abandoned != 0) {
            sessionExpiry.held(abandoned, clock.tick()); // held until now, never again
            coverage.hit(Coverage.Branch.SESSION_ABANDONED);
            if (onFollower) {
                coverage.hit(Coverage.Branch.SESSION_ABANDONED_ON_FOLLOWER);
            }
        }
    }

    /**
     * ObserverNeverVotes: an observer only ever looks or observes (never leads or follows), and whom it
     * observes is a voter; a voter never observes.
     */
    private static void checkObserverRole(int address, io.zabkit.zab.Zab zab) {
        io.zabkit.zab.Message.ServerState state = zab.state();
        boolean observer = zab.config().quorum().isObserver(address);
        boolean allowed = observer
                ? state == io.zabkit.zab.Message.ServerState.LOOKING || state == io.zabkit.zab.Message.ServerState.OBSERVING
                : state != io.zabkit.zab.Message.ServerState.OBSERVING;
        if (!allowed) {
            throw new Violation("ObserverNeverVotes", (observer ? "observer " : "voter ") + address + " is " + state);
        }
        if (state == io.zabkit.zab.Message.ServerState.OBSERVING && !zab.config().quorum().isVoter(zab.leader())) {
            throw new Violation("ObserverNeverVotes", "observer " + address + " observes " + zab.leader()
                    + ", which is not a voter");
        }
    }

    private static boolean leaderInfoSent(io.zabkit.zab.Zab zab) {
        return zab.state() == io.zabkit.zab.Message.ServerState.LEADING
                && zab.zabState() == io.zabkit.zab.Zab.ZabState.DISCOVERY && zab.acceptedEpoch() > zab.currentEpoch();
    }

    /**
     * Targeted: while a silent partition holds one server cut off (still serving until its timeouts
     * notice), a client that has seen the majority's newer zxids is forced onto it: the server must
     * refuse it (lastZxidSeen) rather than serve it an older state.
     */
    private void maybeMoveClient() {
        if (clientMoveTick < 0 || clock.tick() < clientMoveTick) {
            return;
        }
        clientMoveTick = -1;
        if (peers == null || !peers.partitioned()) {
            return;
        }
        for (SimClient c : clients) {
            if (c.server() != clientMoveTarget) {
                trace.event("client.move", "client " + c.address() + " forced onto cut-off server " + clientMoveTarget);
                c.moveTo(clientMoveTarget);
                return;
            }
        }
    }

    /** Which window of the protocol a crash hits. */
    private void countCrash(SimNode n) {
        io.zabkit.zab.Zab zab = n.core().zab();
        if (zab.lastPersisted() < zab.lastLoggedZxid()) {
            coverage.hit(Coverage.Branch.CRASH_UNSYNCED_LOG);
        }
        if (leaderInfoSent(zab)) {
            coverage.hit(Coverage.Branch.LEADER_CRASH_IN_DISCOVERY); // LEADERINFO went out, no ACKEPOCH quorum yet
        }
    }

    /**
     * The fast variants assume a server quorum never crashes; at the simulator's grain, as in
     * spec/Zab.tla's QuorumNeverCrashes: a server crashes only when all it acknowledged is on disk.
     * Classic Zab assumes nothing, so any server may crash at any time.
     */
    private boolean mayCrash(SimNode n) {
        if (!options.variant().acksFromMemory() || !options.honourFaultAssumption()) {
            return true;
        }
        io.zabkit.zab.Zab zab = n.core().zab();
        return zab.lastPersisted() >= zab.lastLoggedZxid();
    }

    /** PartitionStart: one server alone, or a random split; PartitionRecover after a while. */
    private void maybePartition() {
        if (peers == null) {
            return;
        }
        if (peers.partitioned()) {
            if (clock.tick() >= partitionEndTick) {
                recoverPartition();
            }
            return;
        }
        if (!faults.chance(options.partitionProbability())) {
            return;
        }
        java.util.Set<Integer> all = new java.util.TreeSet<>();
        for (SimNode n : nodes) {
            all.add(n.address());
        }
        java.util.Set<Integer> side = new java.util.TreeSet<>();
        if (faults.chance(0.5)) {
            side.add(nodes.get(faults.between(0, nodes.size() - 1)).address()); // isolate one server
        } else {
            for (int a : all) {
                if (faults.chance(0.5)) {
                    side.add(a);
                }
            }
        }
        if (side.isEmpty() || side.size() == all.size()) {
            return;
        }
        boolean silently = faults.chance(0.5);
        StringBuilder cutOff = new StringBuilder("[");
        for (int a : side) {
            cutOff.append(cutOff.length() > 1 ? " " : "").append(":node").append(a);
        }
        history.nemesis("PartitionStart", cutOff.append(']').toString());
        trace.event("PartitionStart", "cut " + side + " from the rest of " + all
                + (silently ? " (silently: links hold, timeouts must notice)" : " (links break)"));
        peers.partition(side, all, silently);
        partitions++;
        if (silently) {
            coverage.hit(Coverage.Branch.PARTITION_SILENT);
            if (side.size() == 1 && options.clientMoveProbability() > 0 && faults.chance(options.clientMoveProbability())) {
                clientMoveTick = clock.tick() + faults.between(5, 50);
                clientMoveTarget = side.iterator().next();
            }
        }
        partitionEndTick = clock.tick() + faults.between(1, options.partitionTicksMax());
    }

    private void recoverPartition() {
        history.nemesis("PartitionRecover", ":all");
        trace.event("PartitionRecover", "every server can reach every other");
        peers.heal();
        sessionExpiry.linksReleased(clock.tick());
    }

    private void restart(SimNode node) {
        history.nemesis("NodeStart", ":node" + node.address());
        node.start();
        ServerCore core = node.core();
        core.checkInvariants();
        digests.afterRestart(core);
        if (!options.ensemble()) {
            // An ensemble member recovers only its snapshot: its log waits for the leader's word.
            durability.check(core, "after NodeStart");
            ephemerals.afterRestart(core);
        }
    }

    /** The server a client is connected to, if it is up; null otherwise. */
    private ServerCore coreOf(int server) {
        for (SimNode n : nodes) {
            if (n.address() == server && n.isUp()) {
                return n.core();
            }
        }
        return null;
    }

    /** The serving leader (the standalone server), or null in the middle of an election. */
    private ServerCore servingLeader() {
        for (SimNode n : nodes) {
            if (n.isUp() && n.core().zab().isServingLeader()) {
                return n.core();
            }
        }
        return null;
    }

    /** The liveness phase: no faults, no new operations; every request still outstanding must complete. */
    private void quiet() {
        trace.event("quiet", "faults stop; outstanding requests must complete");
        for (SimClient c : clients) {
            c.endPause();
        }
        // Time for an expiry to be noticed and a new session made: a session timeout, two reconnects, round trips.
        long settleTicks = clock.ticksFor(options.sessionTimeoutMs()) * 2 + 2L * options.reconnectDelayTicksMax()
                + 4L * options.delayTicksMax();
        long quietTicks = Math.max(options.quietTicksMax(), settleTicks);
        long end = clock.tick() + quietTicks;
        // Settled for long enough that nothing sent before is still in flight.
        long stableTicksNeeded = options.delayTicksMax() + 2L;
        long stableTicks = 0;
        while (clock.tick() < end && stableTicks < stableTicksNeeded) {
            step(false);
            stableTicks = settled() ? stableTicks + 1 : 0;
        }
        for (SimClient c : clients) {
            if (c.outstandingOps() > 0) {
                throw new Violation("Liveness", "client " + c.address() + " still has " + c.outstandingOps()
                        + " requests outstanding after " + quietTicks + " quiet ticks");
            }
            if (networkFitsSessions() && !c.isConnected()) {
                throw new Violation("Liveness", "client " + c.address() + " is not connected after " + quietTicks
                        + " quiet ticks with the server up");
            }
        }
        ServerCore leader = servingLeader();
        if (leader == null) {
            throw new Violation("Liveness", "no leader serves after " + quietTicks + " quiet ticks with every server up"
                    + " and no partition");
        }
        for (SimNode n : nodes) {
            if (n.core().zab().isServing() && n.core().lastProcessedZxid() == leader.lastProcessedZxid()) {
                durability.check(n.core(), "at the end of the run on server " + n.address());
            }
        }
        ephemerals.atEnd(leader);
        List<Long> held = new ArrayList<>();
        for (SimClient c : clients) {
            held.add(c.sessionId());
        }
        // beyond the timeout: the client's last request still on its way (to its server, then forwarded to the
        // leader, which touches the session on arrival: a client delay and a peer delay), the leader's expiry
        // check (a tick), the closeSession's commit round trip (two peer delays), slack. Without the forward's
        // delay, 3-server seed 108085 failed by one tick: a forward arriving 47 ticks after its client died.
        long bound = 3L * options.peerDelayTicksMax() + 2L * options.delayTicksMax()
                + clock.ticksFor(SimOptions.TICK_TIME_MS) * 2 + 10;
        sessionExpiry.atEnd(leader, clock.tick(), held, options.msPerTick(), bound,
                id -> sessionOnFollower.getOrDefault(id, false));
        for (SimClient c : clients) {
            trace.event("end", "client " + c.address() + (c.isConnected() ? " connected" : " not connected")
                    + " session 0x" + Long.toHexString(c.sessionId()) + " watches " + c.watchesHeld()
                    + " maxReplyZxid=0x" + Long.toHexString(c.maxReplyZxidOnConnection()));
            if (c.isConnected() && !c.restoringWatches()) {
                checkWatchDelivery(c);
            }
        }
    }

    /**
     * WatchDelivery: a watch whose path changed at zxid c must have fired before the client saw any
     * reply at c or later on the connection that holds it (pings carry lastProcessed, so a connected
     * client always gets there). The one exception is ZooKeeper's documented one, see below.
     */
    private void checkWatchDelivery(SimClient c) {
        long seen = c.maxReplyZxidOnConnection();
        long restoredAt = c.watchesRestoredAtZxid();
        for (SimClient.WatchHeld w : c.watchesHeld()) {
            long from = w.setAtZxid();
            if (w.kind() == 'e' && restoredAt >= 0 && from < restoredAt) {
                // ZooKeeper's documented gap: SetWatches only sees the state at restoredAt, so a node
                // created and deleted again while the client was away fires nothing.
                if (reads.existsAt(w.path(), restoredAt)) {
                    throw new Violation("WatchDelivery", "client " + c.address() + " re-set an exists watch on "
                            + w.path() + " with SetWatches at " + Txn.zxidString(restoredAt)
                            + " while the node existed, and got no NodeCreated");
                }
                from = restoredAt;
            }
            long change = reads.firstChangeAfter(w.kind(), w.path(), from);
            if (change >= 0 && change <= seen) {
                throw new Violation("WatchDelivery", "client " + c.address() + " session 0x"
                        + Long.toHexString(c.sessionId()) + " holds a " + w.kind() + " watch on " + w.path()
                        + " set at " + Txn.zxidString(w.setAtZxid()) + "; the change at "
                        + Txn.zxidString(change) + " never fired it although a reply at "
                        + Txn.zxidString(seen) + " already arrived");
            }
        }
    }

    /**
     * Whether a session can be kept alive at all: a round trip at the worst network delay must fit in
     * half the session timeout. Seeds with slower networks still run (sessions expire a lot) but are
     * not required to end connected.
     */
    private boolean networkFitsSessions() {
        return 4L * options.delayTicksMax() * options.msPerTick() <= options.sessionTimeoutMs();
    }

    /** Nothing left to wait for: no request outstanding, every ended session gone from the server. */
    private boolean settled() {
        for (SimClient c : clients) {
            if (c.outstandingOps() > 0 || c.restoringWatches() || (networkFitsSessions() && !c.isConnected())) {
                return false;
            }
        }
        ServerCore leader = servingLeader();
        if (leader == null || !ephemerals.allEndedSessionsGone(leader)) {
            return false;
        }
        for (SimNode n : nodes) {
            if (!n.core().zab().isServing() || n.core().lastProcessedZxid() != leader.lastProcessedZxid()) {
                return false; // every server caught up with the leader
            }
        }
        return true;
    }

    private SimResult.Stats stats() {
        long crashes = 0;
        for (SimNode n : nodes) {
            crashes += n.crashes();
        }
        return new SimResult.Stats(opsInvoked, opsOk, opsFail, opsInfo, crashes, digests.restartsCompared(),
                durability.pathsChecked(), fifo.repliesChecked(), watches.eventsChecked(), ephemerals.sessionsChecked(),
                reads.readsChecked(), durability.maxAckedZxid(), ensemble.leadersChecked(), partitions,
                peers == null ? 0 : peers.messagesDelivered());
    }

    private static String describe(Throwable e) {
        StringBuilder s = new StringBuilder(e.toString());
        StackTraceElement[] st = e.getStackTrace();
        for (int i = 0; i < Math.min(8, st.length); i++) {
            s.append("\n      at ").append(st[i]);
        }
        return s.toString();
    }

    /** Fans client reports out to the history and the checkers. */
    private final class Observer implements ClientObserver {
        @Override
        public void invoked(SimClient client, ClientOp op) {
            opsInvoked++;
            history.invoke(op);
            durability.invoked(op);
            syncReads.invoked(op);
        }

        @Override
        public void completed(SimClient client, ClientOp op) {
            switch (op.outcome) {
                case OK -> opsOk++;
                case FAIL -> opsFail++;
                case INFO -> opsInfo++;
            }
            history.complete(op);
            if (op.outcome == ClientOp.Outcome.OK && op.kind.isWrite()) {
                commitPoint(op.zxid);
                if (options.syncAfterWriteProbability() > 0) {
                    acknowledgedWrites.merge(client.address(), op.zxid, Math::max);
                }
            }
            durability.completed(op);
            watches.completed(op);
            ephemerals.completed(op);
            reads.completed(op);
            syncReads.completed(op);
        }

        @Override
        public void reply(SimClient client, long connId, int expectedXid, int xid, long zxid) {
            fifo.reply(client.address(), client.sessionId(), connId, expectedXid, xid, zxid);
            watches.reply(connId, zxid);
            durability.seen(zxid);
        }

        @Override
        public void notification(SimClient client, long connId, WatcherEvent event, long zxid) {
            watches.event(client.address(), connId, event, zxid);
            durability.seen(zxid);
            history.watchEvent(eventProcess.get(client.address()), client.sessionId(), eventName(event.getType()),
                    event.getPath(), zxid);
        }

        @Override
        public void watchesRestored(SimClient client, long connId, List<String> data, List<String> exist,
                                    List<String> child) {
            watches.restored(connId, data, exist, child);
        }

        @Override
        public void sessionStarted(SimClient client, long sessionId, boolean resumed) {
            // a resumed session's :connect tells the history checker its watches were re-set by SetWatches
            history.session(eventProcess.get(client.address()), "connect", sessionId);
            sessionExpiry.held(sessionId, clock.tick());
            ServerCore core = coreOf(client.server());
            sessionOnFollower.put(sessionId, core != null && core.zab().isServingFollower());
        }

        @Override
        public void sessionEnded(SimClient client, long sessionId, boolean expired) {
            if (expired) {
                coverage.hit(Coverage.Branch.SESSION_EXPIRED);
                if (sessionOnFollower.getOrDefault(sessionId, false)) {
                    coverage.hit(Coverage.Branch.SESSION_EXPIRED_VIA_FOLLOWER);
                }
                history.sessionExpired(eventProcess.get(client.address()), sessionId, digests.closeSessionZxid(sessionId));
            }
            ephemerals.sessionEnded(sessionId, expired, coreOf(client.server()));
            sessionExpiry.held(sessionId, clock.tick());
        }

        @Override
        public void disconnected(SimClient client, long connId) {
            watches.disconnected(connId);
            ServerCore core = coreOf(client.server());
            if (client.handshaking() && core != null && core.zab().isServing()
                    && client.lastZxidSeen() > core.lastProcessedZxid()) {
                coverage.hit(Coverage.Branch.CLIENT_REFUSED_LAST_ZXID); // ServerCore refuses such a session
            }
        }

        private String eventName(int type) {
            return switch (type) {
                case 1 -> "node-created";
                case 2 -> "node-deleted";
                case 3 -> "node-data-changed";
                case 4 -> "node-children-changed";
                default -> "unknown-" + type;
            };
        }
    }
}
