package io.zabkit.sim;

import io.zabkit.core.CoreConfig;
import io.zabkit.core.Ready;
import io.zabkit.core.ServerCore;
import io.zabkit.storage.RecoveredState;
import io.zabkit.storage.Storage;
import io.zabkit.txn.Txn;
import io.zabkit.zab.Message;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * One simulated server: the production {@link ServerCore} and {@link Storage} over {@link SimDisk}s,
 * driven the way the real runtime drives them (etcd raft's Ready loop): append the batch, start the
 * fsync, send, close; and call {@code persisted} only when the simulated fsync completes, after a
 * delay drawn from the seed. A crash (NodeCrash) drops the core and tears the disks; a start
 * (NodeStart) recovers from what the disks kept.
 */
final class SimNode implements Endpoint, SimPeerNetwork.Peer {
    /** An fsync in progress: when it completes, the log is durable up to {@code zxid}. */
    private record SyncInFlight(long doneTick, long zxid) {}

    private static final int READY_ROUNDS_MAX = 10_000;

    private final int address;
    private final CoreConfig config;
    private final Storage.Options storageOptions;
    private final SimOptions options;
    private final Prng prng;
    private final SimClock clock;
    private final SimNetwork network;
    private final Trace trace;
    private final Consumer<List<Txn>> proposed;
    private final SimPeerNetwork peers;
    private final Consumer<Txn> applied;
    private Coverage coverage;
    /** When this server last received a TRUNC (-1: never); reset by nothing, read by the scenarios. */
    private long truncTick = -1;
    /** When this server last received a NEWLEADER (-1: never), read by the scenarios. */
    private long newLeaderTick = -1;
    private final SimDisk logDisk;
    private final SimDisk snapshotDisk;
    private final Deque<SyncInFlight> syncs = new ArrayDeque<>();

    private Storage storage;
    private ServerCore core;
    private long lastSyncDoneTick;
    /** The zxid of the last fsync completed since this server started (-1: none yet). */
    private long lastSyncedZxid = -1;
    /**
     * The first zxid appended to the log since the disk last made the whole file durable (an fsync
     * completing, an atomic rewrite by a truncation or snapshot, recovery): every logged entry below it
     * is on disk, whatever the core believes; Long.MAX_VALUE when nothing is pending.
     */
    private long unsyncedFrom = Long.MAX_VALUE;
    private long crashes;
    private long starts;

    /** @param proposed told of every batch of transactions the core hands to storage (the canonical chain) */
    /** Targeted (a slow disk): this server's fsync latency, mean and cap in ticks; -1: the seed's, as every server's. */
    private double slowSyncMeanTicks = -1;
    private int slowSyncMaxTicks = -1;

    /** Gives this server a slower disk than the others (the slow-disk scenario). */
    void slowDisk(double meanTicks, int maxTicks) {
        assert meanTicks > 0 && maxTicks >= meanTicks : "a slow disk takes time: " + meanTicks + ", " + maxTicks;
        slowSyncMeanTicks = meanTicks;
        slowSyncMaxTicks = maxTicks;
        trace.event("node.slow-disk", "node " + address + " fsyncs take " + meanTicks + " ticks on average, at most "
                + maxTicks);
    }

    SimNode(int address, CoreConfig config, SimOptions options, Prng prng, SimClock clock, SimNetwork network,
            Trace trace, Consumer<List<Txn>> proposed) {
        this(address, config, options, prng, clock, network, null, trace, proposed, t -> { });
    }

    /**
     * @param peers   the links to the other servers of an ensemble (null standalone)
     * @param applied told of every transaction the core applies, in order
     */
    SimNode(int address, CoreConfig config, SimOptions options, Prng prng, SimClock clock, SimNetwork network,
            SimPeerNetwork peers, Trace trace, Consumer<List<Txn>> proposed, Consumer<Txn> applied) {
        this.peers = peers;
        this.applied = applied;
        this.address = address;
        this.config = config;
        this.options = options;
        this.storageOptions = new Storage.Options(true, options.snapRetainCount(), config.maxBufferBytes());
        this.prng = prng;
        this.clock = clock;
        this.network = network;
        this.trace = trace;
        this.proposed = proposed;
        this.logDisk = new SimDisk("node" + address + "/log", options.diskMode());
        this.snapshotDisk = new SimDisk("node" + address + "/snapshot", options.diskMode());
    }

    boolean isUp() {
        return core != null;
    }

    ServerCore core() {
        return core;
    }

    long crashes() {
        return crashes;
    }

    /**
     * Whether a crash now would leave this server without {@code zxid} on disk: it never logged it, the
     * core does not take it as durable yet, or the fsync that covers it is still in flight (seen from
     * the disk, whatever the core believes). Any ACK or promise it gave for it rested on memory only.
     */
    boolean lacksDurably(long zxid) {
        assert isUp() : "server " + address + " is down";
        io.zabkit.zab.Zab zab = core.zab();
        if (zab.lastLoggedZxid() < zxid) {
            return true;
        }
        // An fsync syncs the whole file: entries past the one it was issued for may be on disk already.
        boolean notSyncedYet = zab.lastPersisted() < zxid || lastSyncedZxid < zxid;
        return notSyncedYet && logDisk.unsyncedBytes() > 0;
    }

    int address() {
        return address;
    }

    /** See {@link #unsyncedFrom}: the log's entries below this zxid are on the simulated disk. */
    long unsyncedFrom() {
        return unsyncedFrom;
    }

    /** NodeStart: recover from the disks and build a fresh core on what they kept. */
    /** Trace validation: every Zab step of this node goes to t (spec/TraceZab.tla). */
    void zabTracer(io.zabkit.zab.Tracer t) {
        zabTracer = t;
        if (core != null) {
            core.zab().tracer(t);
        }
    }

    private io.zabkit.zab.Tracer zabTracer = io.zabkit.zab.Tracer.OFF;
    /** The core of a crash at the start of this step whose NodeCrash line is not written yet. */
    private io.zabkit.zab.Zab crashedZab;

    /**
     * Trace validation: writes the NodeCrash line of a crash at the start of this step once every
     * server has ticked. Their ticks cannot depend on the crash (no message is delivered before the
     * step's network phase), and they may finish what they received before it (an fsync and its ACK, a
     * buffered FOLLOWERINFO), which the spec must see before the crash empties the channels.
     */
    void traceCrash() {
        if (crashedZab != null) {
            assert core == null : "NodeCrash line of a server that is up again";
            crashedZab.traceNodeCrash();
            crashedZab = null;
        }
    }

    void start() {
        assert core == null : "start of a running node";
        storage = new Storage(logDisk, snapshotDisk, storageOptions, w -> trace.event("node.warn", w));
        RecoveredState recovered;
        try {
            recovered = storage.recover();
        } catch (IOException | RuntimeException e) {
            throw new Violation("Recovery", "node " + address + " cannot recover after a crash: " + e);
        }
        // Zab.tla's EpochNotBehindLog: currentEpoch on disk vouches for the log beside it. ZooKeeper's
        // loadDataBase refuses to start otherwise (ZOOKEEPER-2354).
        if (Txn.epochOf(recovered.lastZxid()) > recovered.currentEpoch()) {
            throw new Violation("EpochNotBehindLog", "node " + address + " recovered a log through "
                    + Txn.zxidString(recovered.lastZxid()) + ", of an epoch above its currentEpoch "
                    + recovered.currentEpoch());
        }
        core = new ServerCore(config, recovered);
        if (options.keepConnections()) {
            core.enableKeepConnections();
        }
        core.zab().tracer(zabTracer);
        core.zab().traceNodeStart();
        core.onApplied(applied);
        lastRole = "";
        starts++;
        lastSyncDoneTick = clock.tick();
        trace.event("NodeStart", "node " + address + " recovered lastProcessed=0x"
                + Long.toHexString(core.lastProcessedZxid()) + " snapshot="
                + (recovered.snapshot() == null ? "none" : Txn.zxidString(recovered.snapshot().zxid()))
                + " txns=" + recovered.txns().size());
        network.upAgain(address);
        if (peers != null) {
            peers.attach(address, this);
        }
        core.tick(clock.nowMs());
        processReady();
    }

    /** NodeCrash: power loss. Connections break, fsyncs in flight never complete, unsynced appends tear. */
    void crash() {
        assert core != null : "crash of a stopped node";
        crashedZab = core.zab();
        network.down(address);
        if (peers != null) {
            peers.down(address);
        }
        core = null;
        wasHolding = false;
        storage = null;
        syncs.clear();
        lastSyncedZxid = -1;
        unsyncedFrom = Long.MAX_VALUE; // the disk holds what recovery will read
        crashes++;
        String log = logDisk.crash(prng, options.tornWriteProbability());
        String snap = snapshotDisk.crash(prng, options.tornWriteProbability());
        trace.event("NodeCrash", "node " + address + " log:" + log + " snapshot:" + snap);
    }

    /** One tick: the clock, then every fsync that completes now. */
    void tick() {
        if (core == null) {
            return;
        }
        core.tick(clock.nowMs());
        processReady();
        while (!syncs.isEmpty() && syncs.peekFirst().doneTick() <= clock.tick()) {
            SyncInFlight s = syncs.removeFirst();
            try {
                storage.sync();
            } catch (IOException e) {
                throw new Violation("Storage", "sync failed on a simulated disk: " + e);
            }
            trace.event("node.persisted", "node " + address + " zxid=" + Txn.zxidString(s.zxid()));
            lastSyncedZxid = s.zxid();
            unsyncedFrom = Long.MAX_VALUE; // an fsync syncs the whole file, later appends included
            core.persisted(s.zxid());
            processReady();
        }
    }

    // ------------------------------------------------------------------ Endpoint

    @Override
    public void accepted(long connId, int peer) {
        core.connect(connId, "/10.0." + (peer >> 8) + "." + (peer & 0xff) + ":" + (40_000 + connId % 20_000));
        processReady();
    }

    @Override
    public void connected(long connId) {
        throw new IllegalStateException("server " + address + " does not open connections yet");
    }

    @Override
    public void received(long connId, byte[] bytes) {
        core.receive(connId, bytes, 0, bytes.length);
        processReady();
    }

    @Override
    public void closed(long connId) {
        core.disconnect(connId);
        processReady();
    }

    // ------------------------------------------------------------------ SimPeerNetwork.Peer

    /** Counts the protocol branches the messages this server receives reach. */
    long truncTick() {
        return truncTick;
    }

    long newLeaderTick() {
        return newLeaderTick;
    }

    void observe(Coverage coverage) {
        this.coverage = coverage;
    }

    @Override
    public void peerMessage(long from, Message m) {
        if (core == null) {
            return;
        }
        if (coverage != null) {
            countBranch(m);
            countObserverBranch(from, m);
        }
        if (m instanceof Message.Trunc) {
            truncTick = clock.tick();
        } else if (m instanceof Message.NewLeader) {
            newLeaderTick = clock.tick();
        }
        core.peerMessage(from, m);
        processReady();
    }

    @Override
    public void peerDisconnected(long peer) {
        if (core == null) {
            return;
        }
        core.peerDisconnected(peer);
        processReady();
    }

    /** Which branch the message about to be received takes, judged by this server's state. */
    private void countBranch(Message m) {
        io.zabkit.zab.Zab z = core.zab();
        io.zabkit.zab.Message.ServerState state = z.state();
        if (core.isHolding() && core.connectionCount() > 0
                && (m instanceof Message.Diff || m instanceof Message.Trunc || m instanceof Message.Snap)) {
            coverage.hit(m instanceof Message.Snap ? Coverage.Branch.KEEP_SNAP_WHILE_HOLDING
                    : Coverage.Branch.KEEP_SYNC_WHILE_HOLDING);
        }
        if (m instanceof Message.AckEpoch ae && state == io.zabkit.zab.Message.ServerState.LEADING) {
            if (ae.currentEpoch() < 0 && z.zabState() == io.zabkit.zab.Zab.ZabState.DISCOVERY) {
                coverage.hit(Coverage.Branch.ACKEPOCH_MINUS_ONE);
            } else if (ae.currentEpoch() > z.currentEpoch()
                    || ae.currentEpoch() == z.currentEpoch() && ae.lastZxid() > z.lastLoggedZxid()) {
                coverage.hit(Coverage.Branch.FOLLOWER_AHEAD_OF_LEADER);
            }
        } else if (m instanceof Message.LeaderInfo li && state == io.zabkit.zab.Message.ServerState.FOLLOWING
                && li.newEpoch() < z.acceptedEpoch()) {
            coverage.hit(Coverage.Branch.LEADERINFO_BELOW_ACCEPTED);
        } else if (m instanceof Message.FollowerInfo && state == io.zabkit.zab.Message.ServerState.LOOKING) {
            coverage.hit(Coverage.Branch.FOLLOWERINFO_FINALIZE_WAIT);
        } else if (m instanceof Message.Diff) {
            coverage.hit(Coverage.Branch.DIFF);
        } else if (m instanceof Message.Trunc) {
            coverage.hit(Coverage.Branch.TRUNC);
        } else if (m instanceof Message.Snap s) {
            coverage.hit(Coverage.Branch.SNAP);
            if (s.zxid() < core.lastProcessedZxid()) {
                coverage.hit(Coverage.Branch.SNAP_BEHIND_APPLIED);
            }
        } else if (m instanceof Message.SyncReply r && r.zxid() > core.lastProcessedZxid()) {
            coverage.hit(Coverage.Branch.SYNC_REPLY_AHEAD_OF_FOLLOWER);
        } else if (m instanceof Message.Proposal p && z.isServingFollower() && options.variant().acksFromMemory()) {
            coverage.hit(p.fast() ? Coverage.Branch.FAST_PROPOSAL : Coverage.Branch.FAST_FALLBACK);
        }
    }

    /** Which observer branch the message takes: to an observer, or from one to the leader. */
    private void countObserverBranch(long from, Message m) {
        io.zabkit.zab.Zab z = core.zab();
        if (z.isObserver()) {
            if (m instanceof Message.Diff || m instanceof Message.Trunc || m instanceof Message.Snap) {
                coverage.hit(Coverage.Branch.OBSERVER_SYNC);
            } else if (m instanceof Message.Inform && z.isServingObserver()) {
                coverage.hit(Coverage.Branch.OBSERVER_INFORM);
            }
        } else if (z.isServingLeader() && z.config().quorum().isObserver(from)) {
            if (m instanceof Message.Forward) {
                coverage.hit(Coverage.Branch.OBSERVER_FORWARD);
            } else if (m instanceof Message.SyncRequest) {
                coverage.hit(Coverage.Branch.OBSERVER_SYNC_REQUEST);
            }
        }
    }

    // ------------------------------------------------------------------ the Ready loop

    private String lastRole = "";

    /** Traces every change of role, phase or epoch: a failing seed's trace then reads like the spec's. */
    private void traceRole() {
        io.zabkit.zab.Zab z = core.zab();
        String role = z.state() + "/" + z.zabState() + " acceptedEpoch=" + z.acceptedEpoch() + " currentEpoch="
                + z.currentEpoch() + (z.leader() >= 0 ? " leader=" + z.leader() : "");
        if (!role.equals(lastRole)) {
            lastRole = role;
            trace.event("zab.state", "node " + address + " " + role + " lastLogged=" + Txn.zxidString(z.lastLoggedZxid())
                    + " lastPersisted=" + Txn.zxidString(z.lastPersisted()) + " lastCommitted="
                    + Txn.zxidString(z.lastCommitted()) + " lastProcessed=" + Txn.zxidString(core.lastProcessedZxid()));
        }
    }

    /**
     * keepConnections' K1, from the outside: a server that is neither serving nor in read-only mode sends a kept
     * client nothing but ping replies (xid -2) and watch events (xid -1). A connect is refused without a reply
     * there, so any other frame is the reply to a held request.
     */
    private void checkHeldUntilSynced(Ready ready) {
        if (core.zab().isServing() || core.isReadOnly()) {
            return;
        }
        for (Ready.Outbound out : ready.sends()) {
            byte[] b = out.bytes();
            int xid = b.length >= 8 ? java.nio.ByteBuffer.wrap(b, 4, 4).getInt() : 0;
            if (b.length >= 8 && xid != ClientCodec.PING_XID && xid != ClientCodec.NOTIFICATION_XID) {
                throw new Violation("HeldUntilSynced", "node " + address + " answered xid " + xid + " on connection "
                        + out.connId() + " while " + core.zab().state() + "/" + core.zab().zabState()
                        + ", before it is synchronized with a leader");
            }
        }
    }

    /** keepConnections: whether the core held kept connections when this node last looked (coverage only). */
    private boolean wasHolding;

    private void processReady() {
        traceRole();
        boolean resumed = wasHolding && !core.isHolding() && core.connectionCount() > 0;
        wasHolding = core.isHolding();
        if (resumed) {
            coverage.hit(Coverage.Branch.KEEP_RESUMED);
        }
        for (int round = 0; core.hasReady(); round++) {
            assert round < READY_ROUNDS_MAX : "core keeps producing Ready batches";
            Ready ready = core.ready();
            if (resumed && ready.peerOut().stream().anyMatch(o -> o.message() instanceof Message.Forward)) {
                coverage.hit(Coverage.Branch.KEEP_WRITE_REFORWARDED);
                resumed = false;
            }
            try {
                persist(ready);
            } catch (IOException e) {
                throw new Violation("Storage", "storage failed on a simulated disk: " + e);
            }
            if (options.keepConnections()) {
                checkHeldUntilSynced(ready);
            }
            for (Ready.Outbound out : ready.sends()) {
                network.send(out.connId(), address, out.bytes());
            }
            // The simulated network takes any amount at once: a connection whose replies the core held
            // (ServerCore.REPLY_BYTES_BEFORE_HOLD) has drained already, as a fast reader's would.
            for (long connId : List.copyOf(core.heldConnections())) {
                core.outputDrained(connId);
            }
            for (long connId : ready.closes()) {
                network.close(connId, address);
            }
            for (Ready.PeerOut out : ready.peerOut()) {
                if (out.isReset()) {
                    peers.reset(address, (int) out.peer());
                } else {
                    peers.send(address, (int) out.peer(), out.message());
                }
            }
        }
    }

    /**
     * As the runtime's event loop does after a truncate or an install: an fsync in flight for entries the
     * log no longer holds reports at most the new end, so the core never hears that a zxid it cut (or
     * one appended after the cut, not yet synced) is durable.
     */
    private void lowerSyncsInFlight(long end) {
        unsyncedFrom = Long.MAX_VALUE; // truncate and snapshot install rewrite the log atomically: durable
        List<SyncInFlight> lowered = new ArrayList<>();
        for (SyncInFlight s : syncs) {
            lowered.add(new SyncInFlight(s.doneTick(), Math.min(s.zxid(), end)));
        }
        syncs.clear();
        syncs.addAll(lowered);
        assert syncs.stream().allMatch(s -> s.zxid() <= end) : "a sync in flight above the new end of the log";
    }

    private void persist(Ready ready) throws IOException {
        if (ready.truncateAfter() != Ready.NO_TRUNCATE) {
            storage.truncate(ready.truncateAfter());
            trace.event("node.truncate", "node " + address + " log after " + Txn.zxidString(ready.truncateAfter()));
        }
        if (ready.syncTail() != null) {
            storage.markSyncTail(ready.syncTail().afterZxid(), ready.syncTail().epoch());
        }
        if (ready.installSnapshot() != null) {
            storage.installSnapshot(ready.installSnapshot());
            trace.event("node.installSnapshot", "node " + address + " at "
                    + Txn.zxidString(ready.installSnapshot().zxid()));
        }
        long end = ready.installSnapshot() != null ? ready.installSnapshot().zxid() : ready.truncateAfter();
        if (end != Ready.NO_TRUNCATE) {
            lowerSyncsInFlight(end);
        }
        if (ready.epochs() != null) {
            storage.writeEpochs(ready.epochs().acceptedEpoch(), ready.epochs().currentEpoch());
        }
        if (!ready.entries().isEmpty()) {
            assert ready.mustSync() : "the simulator runs with forceSync: every batch of entries must sync";
            storage.append(ready.entries());
            unsyncedFrom = Math.min(unsyncedFrom, ready.entries().get(0).zxid());
            proposed.accept(ready.entries());
            double mean = slowSyncMeanTicks > 0 ? slowSyncMeanTicks : options.syncDelayTicksMean();
            int max = slowSyncMeanTicks > 0 ? slowSyncMaxTicks : options.syncDelayTicksMax();
            long done = Math.max(lastSyncDoneTick, clock.tick() + prng.delay(mean, max));
            lastSyncDoneTick = done;
            syncs.addLast(new SyncInFlight(done, ready.lastEntryZxid()));
        }
        if (ready.snapshot() != null) {
            storage.writeSnapshot(ready.snapshot());
            core.snapshotWritten(ready.snapshot().zxid());
            trace.event("node.snapshot", "node " + address + " zxid=" + Txn.zxidString(ready.snapshot().zxid()));
        }
    }
}
