package io.zabkit.core;

import io.zabkit.pipeline.Applier;
import io.zabkit.pipeline.Prep;
import io.zabkit.pipeline.Request;
import io.zabkit.pipeline.TxnResult;
import io.zabkit.session.Sessions;
import io.zabkit.storage.RecoveredState;
import io.zabkit.storage.Snapshot;
import io.zabkit.tree.DataTree;
import io.zabkit.tree.Watches;
import io.zabkit.txn.Txn;
import io.zabkit.wire.Err;
import io.zabkit.wire.Framer;
import io.zabkit.wire.Jute;
import io.zabkit.wire.OpCode;
import io.zabkit.wire.Requests;
import io.zabkit.zab.Bug;
import io.zabkit.zab.Effects;
import io.zabkit.zab.Message;
import io.zabkit.zab.Replica;
import io.zabkit.zab.Zab;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeMap;
import org.apache.jute.BinaryInputArchive;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.proto.AuthPacket;
import org.apache.zookeeper.proto.GetSASLRequest;
import org.apache.zookeeper.proto.RequestHeader;
import org.apache.zookeeper.proto.SetSASLResponse;
import org.apache.zookeeper.proto.SyncRequest;
import org.apache.zookeeper.proto.SyncResponse;

/**
 * The deterministic core of one server, standalone or in an ensemble: events in, effects out. It
 * does no I/O, reads no clock, starts no thread and draws no randomness: the runtime (production or
 * simulated) feeds it connection bytes, peer messages, clock ticks and disk completions, and carries
 * out the {@link Ready} batches it hands back.
 *
 * <p>Replication is {@link Zab}'s: on the leader a write becomes a transaction at once (zxid assigned,
 * proposed, logged); a follower relays it to the leader. Every server applies a transaction once Zab
 * says it is committed (standalone: once durable) and answers the client that sent it. Reads are
 * answered from the applied tree, in order behind the session's earlier requests. Clients are taken
 * only in Zab's broadcast phase.
 */
public final class ServerCore implements Replica, Effects {
    private static final System.Logger LOG = System.getLogger("zabkit.core");
    private static final long CONTAINER_CHECK_INTERVAL_MS = 60_000;

    private final CoreConfig config;
    // The replicated state; replaced as a whole when the leader sends a SNAP.
    private DataTree tree;
    private Sessions sessions;
    private Prep prep;
    private Applier applier;
    private Reads reads;
    private final Zab zab;
    private final ServerStats stats = new ServerStats();
    /** True while the constructor replays the log: no snapshot is due for transactions already on disk. */
    private boolean recovering;
    /** Told of every transaction applied, in order (the simulator's agreement and digest checks). */
    private java.util.function.Consumer<Txn> appliedListener = t -> { };
    /** zoo.cfg's authProvider and enforce.auth settings; ZooKeeper's defaults until the runtime says. */
    private ClientAuth clientAuth = ClientAuth.NONE;
    /** The SASL mechanism, or null: op 102 is then answered as ZooKeeper without JAAS answers it. */
    private SaslServers saslServers;
    /** readonlymode.enabled: off until the runtime says (ZooKeeper's default). */
    private ReadOnlyMode readOnly = ReadOnlyMode.off();
    /**
     * keepConnections (issue 20 item 7, impl/README.md): a server that loses its leader keeps its client
     * connections and holds their requests until it is synchronized again. Off unless the runtime says.
     */
    private boolean keepConnections;
    /** keepConnections: since when this server holds its kept connections (it lost its leader), or -1. */
    private long holdingSinceMs = -1;
    /** keepConnections: the epoch whose leader was lost; writes forwarded in it may still commit if it goes on. */
    private long heldInEpoch = -1;
    /** Follower: sessions seen alive since the last ping, with their timeouts, for the leader. */
    private final Map<Long, Integer> touchedSinceLastPing = new TreeMap<>();

    /** Open connections by id; sorted so that every iteration is deterministic. */
    private final Map<Long, Connection> connections = new TreeMap<>();
    private final Map<Long, Long> connectionBySession = new HashMap<>();
    /**
     * Connections whose head request is a sync waiting for a zxid, by that zxid: they are drained the
     * moment it applies, so the reply carries exactly that zxid and not a later write of the session.
     */
    private final TreeMap<Long, Set<Long>> syncWaiters = new TreeMap<>();
    private long nowMs;
    private boolean clockStarted;
    /** The clock at the first tick: mntr's zk_uptime counts from here. */
    private long startedMs;
    private long lastContainerCheckMs;
    private int txnsSinceSnapshot;

    private long readyTruncate = Ready.NO_TRUNCATE;
    private Snapshot readyInstall;
    private Ready.Epochs readyEpochs;
    private Ready.SyncTail readySyncTail;
    private List<Txn> readyEntries = new ArrayList<>();
    private List<Ready.Outbound> readySends = new ArrayList<>();
    private List<Long> readyCloses = new ArrayList<>();
    private List<Ready.PeerOut> readyPeerOut = new ArrayList<>();
    private Snapshot readySnapshot;

    /**
     * Recovers from what storage found. A standalone server applies its whole log and serves at once;
     * an ensemble member applies only its snapshot, since the rest of its log may not be committed,
     * and starts looking for a leader at its first tick.
     */
    public ServerCore(CoreConfig config, RecoveredState recovered) {
        this.config = config;
        if (recovered.snapshot() != null) {
            try {
                useState(recovered.snapshot());
            } catch (IOException e) {
                throw new IllegalStateException("snapshot 0x" + Long.toHexString(recovered.snapshot().zxid())
                        + " is unreadable: " + e.getMessage(), e);
            }
        } else {
            useState(new DataTree(), new Sessions(config.serverId(), config.sessionSecret()), 0);
        }
        this.zab = new Zab(config.serverId(), config.zab(), config.tickTimeMs(), this, this,
                recovered.acceptedEpoch(), recovered.currentEpoch(), recovered.txns());
        traceZabIfAsked();
        if (config.standalone()) {
            recovering = true;
            zab.startStandalone();
            recovering = false;
            tree.watches().drainFired();
            readySnapshot = null;
            assert recovered.lastZxid() == applier.lastProcessedZxid() : "replay did not reach the recovered log's end";
        }
    }

    /**
     * A production server's trace for spec/trace.py: -Dzabkit.zabTrace=FILE appends every Zab step to
     * FILE (one file per server; spec/README.md says how to validate an ensemble's run).
     */
    private void traceZabIfAsked() {
        String file = System.getProperty("zabkit.zabTrace");
        if (file == null || file.isEmpty()) {
            return;
        }
        try {
            java.io.PrintStream out = new java.io.PrintStream(new java.io.FileOutputStream(file, true), true, "UTF-8");
            out.println("{\"seed\":-1,\"servers\":" + config.zab().voters().size() + ",\"variant\":\""
                    + config.zab().variant() + "\",\"ticks\":0,\"server\":" + config.serverId() + "}");
            zab.tracer(new io.zabkit.zab.TraceWriter(out));
            zab.traceNodeStart();
        } catch (IOException e) {
            throw new IllegalStateException("zabkit.zabTrace=" + file + " cannot be written: " + e.getMessage(), e);
        }
    }

    private void useState(Snapshot snapshot) throws IOException {
        SnapshotCodec.Decoded d = SnapshotCodec.decode(snapshot, config.maxBufferBytes());
        Sessions restored = new Sessions(config.serverId(), config.sessionSecret());
        for (Map.Entry<Long, Integer> e : d.sessionTimeouts().entrySet()) {
            restored.applyCreate(e.getKey(), e.getValue(), nowMs);
        }
        for (Map.Entry<Long, io.zabkit.session.Sessions.LastApplied> e : d.lastApplied().entrySet()) {
            restored.recordApplied(e.getKey(), e.getValue());
        }
        useState(d.tree(), restored, d.zxid());
    }

    private void useState(DataTree newTree, Sessions newSessions, long zxid) {
        this.tree = newTree;
        this.sessions = newSessions;
        this.applier = new Applier(tree, sessions, zxid);
        this.prep = new Prep(tree, sessions, config.maxBufferBytes(), clientAuth.providerSchemes());
        this.reads = new Reads(tree);
    }

    /**
     * How clients authenticate (zoo.cfg) and the SASL mechanism (null for none). Called once, before the
     * first client connects.
     */
    public void useClientAuth(ClientAuth auth, SaslServers sasl) {
        if (!connections.isEmpty() || prep.hasPending()) {
            throw new IllegalStateException("client authentication is set before clients connect");
        }
        this.clientAuth = auth;
        this.saslServers = sasl;
        this.prep = new Prep(tree, sessions, config.maxBufferBytes(), auth.providerSchemes());
    }

    /**
     * ZooKeeper's readonlymode.enabled: while this ensemble member looks for a leader (after a grace period)
     * it serves read-only clients. A standalone server always has its quorum, so the mode never starts.
     * Called once, before the first client connects.
     */
    public void enableReadOnlyMode() {
        if (!connections.isEmpty()) {
            throw new IllegalStateException("read-only mode is set before clients connect");
        }
        readOnly = ReadOnlyMode.enabled(config.tickTimeMs());
    }

    /**
     * zoo.cfg's keepConnections: losing its leader, this server keeps its client connections, answers their
     * pings, holds every other request until it is synchronized with a new leader, then resolves the writes it
     * had forwarded exactly once and fires the watches the sync changed (impl/README.md). All servers of an
     * ensemble must agree: the table of last replies is replicated state. Called once, before clients connect.
     */
    public void enableKeepConnections() {
        if (!connections.isEmpty()) {
            throw new IllegalStateException("keepConnections is set before clients connect");
        }
        keepConnections = true;
    }

    /** keepConnections and no leader yet: requests wait, pings are answered. */
    public boolean isHolding() {
        return holdingSinceMs >= 0;
    }

    /** Serving read-only clients now (ZooKeeper's server state "read-only"). */
    public boolean isReadOnly() {
        return readOnly.isActive();
    }

    // ------------------------------------------------------------------ events

    /** The clock advanced. Drives Zab's timers; the leader expires sessions and empty containers. */
    public void tick(long wallClockMs) {
        nowMs = Math.max(nowMs, wallClockMs);
        if (!clockStarted) {
            clockStarted = true;
            startedMs = nowMs;
            sessions.touchAll(nowMs); // every recovered session gets a full timeout to come back
            lastContainerCheckMs = nowMs;
        }
        zab.tick(nowMs);
        followReadOnlyMode();
        closeHeldPastTimeout();
        if (!zab.isServingLeader()) {
            return;
        }
        for (long sessionId : sessions.expired(nowMs)) {
            if (config.zab().bug(Bug.LEADER_EXPIRES_OWN_SESSIONS_ONLY) && sessionId >>> 56 != config.serverId()) {
                continue;
            }
            LOG.log(System.Logger.Level.INFO, "expiring session 0x{0} (timeout {1} ms)",
                    Long.toHexString(sessionId), sessions.timeoutMs(sessionId));
            stats.sessionsExpired++;
            propose(prep.closeSession(sessionId, 0, nextZxid(), nowMs));
        }
        if (nowMs - lastContainerCheckMs >= CONTAINER_CHECK_INTERVAL_MS) {
            lastContainerCheckMs = nowMs;
            for (String path : tree.emptyContainers()) {
                if (prep.isDeletableContainer(path)) {
                    propose(prep.deleteContainer(path, nextZxid(), nowMs));
                }
            }
        }
    }

    public void connect(long connId, String remoteAddress) {
        if (connections.containsKey(connId)) {
            throw new IllegalArgumentException("connection " + connId + " is already open");
        }
        Connection conn = new Connection(connId, remoteAddress, config.maxBufferBytes(), nowMs);
        connections.put(connId, conn);
        if (config.maxClientCnxns() > 0 && connectionsFrom(Connection.hostOf(remoteAddress)) > config.maxClientCnxns()) {
            stats.connectionsRejected++;
            reject(conn, "too many connections from " + Connection.hostOf(remoteAddress) + " - max is "
                    + config.maxClientCnxns());
        }
    }

    /**
     * Starts or ends read-only mode as Zab's role says, after every event that may change it: the mode ends
     * the moment the election is over, before this server syncs with a leader, so no read-only connection
     * sees a SNAP or TRUNC replace the state it reads (ZooKeeper shuts its read-only server down there).
     */
    private void followReadOnlyMode() {
        boolean looking = !config.standalone() && zab.state() == io.zabkit.zab.Message.ServerState.LOOKING;
        switch (readOnly.update(looking, nowMs)) {
            case STARTED:
                LOG.log(System.Logger.Level.INFO, "read-only mode: no leader for the grace period; serving"
                        + " read-only clients at zxid {0}", Txn.zxidString(applier.lastProcessedZxid()));
                break;
            case ENDED:
                for (Connection c : new ArrayList<>(connections.values())) {
                    if (keepConnections && !c.readOnly) {
                        continue; // a kept connection, held until the sync
                    }
                    LOG.log(System.Logger.Level.INFO, "closing connection {0} from {1}: read-only mode ended ({2})",
                            c.id, c.remoteAddress, zab.state());
                    closeConnection(c);
                }
                break;
            default:
                break;
        }
        if (readOnly.isActive()) {
            for (long sessionId : readOnly.expire(nowMs)) {
                LOG.log(System.Logger.Level.INFO, "read-only session 0x{0} expired", Long.toHexString(sessionId));
                Long connId = connectionBySession.remove(sessionId);
                Connection conn = connId == null ? null : connections.get(connId);
                if (conn != null) {
                    closeConnection(conn);
                }
            }
        }
        assert !readOnly.isEnabled() || readOnly.isActive() || connections.values().stream().noneMatch(c -> c.readOnly)
                : "a read-only connection outside read-only mode";
    }

    /** Raw bytes from a client connection, in any chunking. */
    public void receive(long connId, byte[] bytes, int offset, int length) {
        Connection conn = connections.get(connId);
        if (conn == null || conn.phase == Connection.Phase.CLOSED) {
            return; // bytes that raced with a close
        }
        stats.bytesReceived += length;
        try {
            conn.framer.feed(bytes, offset, length, new Framer.Sink() {
                @Override
                public void packet(byte[] packet) {
                    if (conn.phase != Connection.Phase.CLOSED) {
                        handlePacket(conn, packet);
                    }
                }

                @Override
                public void fourLetterWord(String word) {
                    answerFourLetterWord(conn, word);
                }
            });
        } catch (IOException | RuntimeException e) {
            // Garbage from one client must not stop the server: jute throws runtime exceptions too.
            reject(conn, e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    public void receive(long connId, byte[] bytes) {
        receive(connId, bytes, 0, bytes.length);
    }

    /** The client closed or the connection broke. The session lives on until it expires. */
    /**
     * Replies the core makes for one connection before it waits for the runtime to say they were
     * sent: its answers to queued requests (reads behind a session's pending createSession or write,
     * a SetWatches) are built in one go otherwise, and a client pipelining reads of a large znode
     * without reading the replies (issue 23 finding 2; make soak's slow-client) made a follower build
     * a thousand 512 KiB replies at once: OutOfMemoryError. The runtime's own high-water mark.
     */
    public static final int REPLY_BYTES_BEFORE_HOLD = 1 << 20;
    /** Connections held by drain (see {@link #heldConnections}); invariant: each is a live connection. */
    private final Set<Long> heldForOutput = new java.util.LinkedHashSet<>();

    /**
     * Connections whose queued replies the core holds until {@link #outputDrained}, in the order held. A hold
     * may come from a drain that made no reply (the bound was reached by earlier ones), so the runtime reads
     * this set rather than looking only at connections that got replies.
     */
    public Set<Long> heldConnections() {
        return java.util.Collections.unmodifiableSet(heldForOutput);
    }

    /** The runtime sent (or dropped) connId's replies down to its low-water mark: answer what waits. */
    public void outputDrained(long connId) {
        Connection conn = connections.get(connId);
        heldForOutput.remove(connId);
        if (conn == null) {
            return;
        }
        conn.replyBytesSinceDrained = 0;
        drain(conn);
        assert !heldForOutput.contains(connId) || conn.replyBytesSinceDrained >= REPLY_BYTES_BEFORE_HOLD
                : "held only over the bound";
    }

    public void disconnect(long connId) {
        Connection conn = connections.get(connId);
        if (conn != null) {
            forget(conn);
        }
    }

    /** The log is durable up to zxid: Zab may now ACK, commit and deliver those transactions. */
    public void persisted(long zxid) {
        if (zxid > zab.lastLoggedZxid() && Txn.epochOf(zxid) == zab.currentEpoch() && !zab.holdsSyncInMemory()) {
            throw new IllegalArgumentException("persisted(" + Txn.zxidString(zxid) + ") beyond the last logged "
                    + Txn.zxidString(zab.lastLoggedZxid()));
        }
        zab.persisted(zxid);
        followReadOnlyMode();
    }

    /** A message from another server of the ensemble. */
    public void peerMessage(long from, Message message) {
        zab.receive(from, message);
        followReadOnlyMode();
    }

    /** The link to another server broke; anything in flight on it may be lost. */
    public void peerDisconnected(long peer) {
        zab.peerDisconnected(peer);
        followReadOnlyMode();
    }

    /** Part of a message from another server arrived (runtime.PeerEvents#peerBytes). */
    public void peerBytes(long from) {
        zab.heardFrom(from);
    }

    public void snapshotWritten(long zxid) {
        stats.lastSnapshotZxid = zxid;
    }

    // ------------------------------------------------------------------ effects

    public boolean hasReady() {
        return readyTruncate != Ready.NO_TRUNCATE || readyInstall != null || readyEpochs != null
                || readySyncTail != null || !readyEntries.isEmpty() || !readySends.isEmpty() || !readyCloses.isEmpty()
                || readySnapshot != null || !readyPeerOut.isEmpty();
    }

    public Ready ready() {
        if (!hasReady()) {
            return Ready.EMPTY;
        }
        Ready r = new Ready(readyTruncate, readyInstall, readyEpochs, readySyncTail, readyEntries,
                config.forceSync() && !readyEntries.isEmpty(), readySnapshot, readySends, readyCloses, readyPeerOut);
        readyTruncate = Ready.NO_TRUNCATE;
        readyInstall = null;
        readyEpochs = null;
        readySyncTail = null;
        readyEntries = new ArrayList<>();
        readySends = new ArrayList<>();
        readyCloses = new ArrayList<>();
        readyPeerOut = new ArrayList<>();
        readySnapshot = null;
        return r;
    }

    // ------------------------------------------------------------------ Effects (Zab's output)

    @Override
    public void truncateLog(long zxid) {
        // A follower leaving before its NEWLEADER's log is vouched for cuts that tail, which this very
        // batch may still hold: it never reaches the disk, and neither does its mark.
        readyEntries.removeIf(t -> t.zxid() > zxid);
        if (readySyncTail != null && readySyncTail.afterZxid() >= zxid) {
            readySyncTail = null;
        }
        if (readyInstall != null && readyInstall.zxid() > zxid) {
            readyInstall = null; // the SNAP that NEWLEADER was installing, in this same batch
        }
        // Entries of this batch are newer than anything a TRUNC cuts: the truncation goes first.
        assert readyEntries.isEmpty() : "TRUNC after entries it keeps, in the same batch";
        readyTruncate = readyTruncate == Ready.NO_TRUNCATE ? zxid : Math.min(readyTruncate, zxid);
    }

    @Override
    public void installSnapshot(Snapshot snapshot) {
        assert readyEntries.isEmpty() : "SNAP after entries in the same batch";
        readyInstall = snapshot;
        readySnapshot = null;
    }

    @Override
    public void storeEpochs(long acceptedEpoch, long currentEpoch) {
        readyEpochs = new Ready.Epochs(acceptedEpoch, currentEpoch);
    }

    @Override
    public void markSyncTail(long afterZxid, long epoch) {
        assert readyEntries.isEmpty() : "the sync tail's mark precedes its entries";
        readySyncTail = new Ready.SyncTail(afterZxid, epoch);
    }

    @Override
    public void log(Txn txn) {
        readyEntries.add(txn);
    }

    @Override
    public void send(long to, Message message) {
        readyPeerOut.add(new Ready.PeerOut(to, message));
    }

    @Override
    public void resetLink(long peer) {
        readyPeerOut.add(new Ready.PeerOut(peer, null));
    }

    // ------------------------------------------------------------------ state for runtimes, 4lw, tests

    public long lastProcessedZxid() {
        return applier.lastProcessedZxid();
    }

    public long lastProposedZxid() {
        return zab.lastLoggedZxid();
    }

    /** This server's Zab: role, epochs, history; for the simulator's invariants, 4lw and tests. */
    public Zab zab() {
        return zab;
    }

    public DataTree tree() {
        return tree;
    }

    public Sessions sessions() {
        return sessions;
    }

    public CoreConfig config() {
        return config;
    }

    public int connectionCount() {
        return connections.size();
    }

    public int outstandingRequests() {
        int n = 0;
        for (Connection c : connections.values()) {
            n += c.queue.size();
        }
        return n;
    }

    ServerStats stats() {
        return stats;
    }

    Collection<Connection> connectionsView() {
        return connections.values();
    }

    long now() {
        return nowMs;
    }

    /** Milliseconds since the first tick (0 before it). */
    long uptimeMs() {
        assert !clockStarted || nowMs >= startedMs : "the clock went back";
        return clockStarted ? nowMs - startedMs : 0;
    }

    /** Invariants of the whole core; the simulator calls this after every step. */
    public void checkInvariants() {
        tree.checkInvariants();
        zab.checkInvariants();
        for (Connection c : connections.values()) {
            check(!c.readOnly || readOnly.isActive(), "read-only session 0x" + Long.toHexString(c.sessionId)
                    + " is connected outside read-only mode");
            if (!zab.isServing() && !isHolding()) {
                check(c.phase != Connection.Phase.CONNECTED || c.readOnly, "session 0x" + Long.toHexString(c.sessionId)
                        + " is connected while this server is " + zab.state() + " in " + zab.zabState());
            }
        }
        check(!isHolding() || (keepConnections && !zab.isServing()), "holding connections while serving");
        for (long sessionId : tree.sessionsWithEphemerals()) {
            check(sessions.exists(sessionId), "ephemerals of session 0x" + Long.toHexString(sessionId)
                    + " outlive it");
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("ServerCore invariant: " + what);
        }
    }

    // ------------------------------------------------------------------ pipeline

    private long nextZxid() {
        return zab.nextZxid();
    }

    private void propose(Txn txn) {
        zab.propose(txn);
    }

    // ------------------------------------------------------------------ Replica (what Zab asks of us)

    /** Observes every transaction this server applies, in order; for simulation and tests. */
    public void onApplied(java.util.function.Consumer<Txn> listener) {
        this.appliedListener = listener;
    }

    @Override
    public void deliver(Txn txn) {
        TxnResult result = applier.apply(txn, nowMs);
        if (keepConnections && txn.sessionId() != 0 && sessions.exists(txn.sessionId())
                && txn.type() != OpCode.CREATE_SESSION) {
            sessions.recordApplied(txn.sessionId(), new io.zabkit.session.Sessions.LastApplied(txn.cxid(), txn.zxid(),
                    Replies.writeReply(txn.cxid(), txn.zxid(), result.type(), result)));
        }
        appliedListener.accept(txn);
        prep.applied(txn.zxid());
        deliverWatches(tree.watches().drainFired());
        stats.txnsApplied++;
        Long connId = txn.sessionId() == 0 ? null : connectionBySession.get(txn.sessionId());
        Connection conn = connId == null ? null : connections.get(connId);
        if (conn != null) {
            Connection.Pending p = conn.findWrite(txn.zxid(), txn.cxid(), txn.type());
            if (p != null) {
                p.result = result;
                p.zxid = txn.zxid();
            } else if (txn.type() == OpCode.CLOSE_SESSION) {
                closeConnection(conn); // expired while connected: the client learns on reconnect
                conn = null;
            }
        }
        if (txn.type() == OpCode.CLOSE_SESSION) {
            connectionBySession.remove(txn.sessionId());
        }
        if (conn != null) {
            drain(conn);
        }
        wakeSyncWaiters(txn.zxid());
        maybeSnapshot();
    }


    @Override
    public Snapshot snapshotOfAppliedState() {
        return SnapshotCodec.encode(tree, sessions, applier.lastProcessedZxid());
    }

    @Override
    public void install(Snapshot snapshot) throws IOException {
        assert isHolding() || connections.values().stream().noneMatch(c -> c.phase == Connection.Phase.CONNECTED)
                : "SNAP while serving clients";
        DataTree before = tree;
        useState(snapshot);
        txnsSinceSnapshot = 0;
        if (isHolding()) {
            carryWatches(before);
        }
    }

    /**
     * keepConnections, K3 after a SNAP: the kept connections' watches move from the state before the SNAP to the
     * state it installs. A watch whose znode changed (data watch: node gone or mzxid grew; exists watch: node now
     * exists; child watch: node gone or pzxid grew) closes its connection (K5's fallback): a SNAP has lost the
     * order and kind of the changes, so the server could only send SetWatches' coalesced events, which a client
     * may accept after a reconnect it saw, never on a connection that stayed up (simulator, 3 servers, seed 191:
     * the session's own delete of /e0 at 0x5000000fa came back as NodeDataChanged at 0x600000002, /e0 having
     * been created again). The client reconnects and sends SetWatches, as with the switch off. A DIFF fires
     * every event exactly, in zxid order, and keeps the connection.
     */
    private void carryWatches(DataTree before) {
        long lastZxid = applier.lastProcessedZxid();
        List<Watches.Fired> fired = new ArrayList<>();
        Set<String> deleted = new java.util.HashSet<>();
        for (Watches.Registration r : before.watches().registrations()) {
            io.zabkit.tree.Znode was = before.get(r.path());
            io.zabkit.tree.Znode now = tree.get(r.path());
            Watches.Fired f = null;
            if (r.mode() != Watches.Mode.STANDARD || config.zab().bug(Bug.KEEP_SNAP_WATCHES_NOT_FIRED)) {
                f = null; // persistent watches are re-registered without events, as by SetWatches
            } else if (r.child()) {
                f = now == null ? new Watches.Fired(r.watcher(), io.zabkit.tree.WatchKind.NODE_DELETED, r.path(), lastZxid)
                        : was != null && now.pzxid() > was.pzxid()
                        ? new Watches.Fired(r.watcher(), io.zabkit.tree.WatchKind.NODE_CHILDREN_CHANGED, r.path(), now.pzxid())
                        : null;
            } else if (was == null) {
                f = now == null ? null
                        : new Watches.Fired(r.watcher(), io.zabkit.tree.WatchKind.NODE_CREATED, r.path(), now.stat().getCzxid());
            } else {
                f = now == null ? new Watches.Fired(r.watcher(), io.zabkit.tree.WatchKind.NODE_DELETED, r.path(), lastZxid)
                        : now.mzxid() > was.mzxid()
                        ? new Watches.Fired(r.watcher(), io.zabkit.tree.WatchKind.NODE_DATA_CHANGED, r.path(), now.mzxid())
                        : null;
            }
            if (f == null) {
                tree.watches().add(r);
            } else if (f.type() != io.zabkit.tree.WatchKind.NODE_DELETED || deleted.add(f.watcher() + " " + f.path())) {
                fired.add(f); // one NodeDeleted per watcher and path, as a delete's suppression gives (seed 13: twice)
            }
        }
        stats.keptWatchesFiredAtSnap += fired.size();
        Set<Long> closing = new java.util.TreeSet<>();
        for (Watches.Fired f : fired) {
            closing.add(f.watcher());
        }
        for (long id : closing) {
            Connection c = connections.get(id);
            if (c != null) {
                LOG.log(System.Logger.Level.INFO, "closing kept connection {0}: a SNAP changed a znode it watches", c.id);
                stats.keptConnectionsClosed++;
                closeConnection(c);
            }
        }
        assert fired.stream().noneMatch(f -> connections.containsKey(f.watcher())) : "K3: a SNAP-changed watch kept";
    }

    @Override
    public void startServing(boolean leading) {
        prep = new Prep(tree, sessions, config.maxBufferBytes(), clientAuth.providerSchemes()); // no pending changes of an older leader
        sessions.forgetPipeline(); // nor its sessions in creation or closing
        if (leading) {
            sessions.touchAll(nowMs); // a new leader gives every session a full timeout to reconnect
            lastContainerCheckMs = nowMs;
        }
        if (isHolding()) {
            resumeHeld(leading);
        }
    }

    @Override
    public void stopServing(String why) {
        if (keepConnections) {
            holdConnections(why);
            return;
        }
        for (Connection c : new ArrayList<>(connections.values())) {
            LOG.log(System.Logger.Level.INFO, "closing connection {0} from {1}: {2}", c.id, c.remoteAddress, why);
            closeConnection(c);
        }
        syncWaiters.clear();
        touchedSinceLastPing.clear();
    }

    /**
     * keepConnections, K1: the leader is lost but the connections stay. Writes forwarded (or, on a leader
     * stepping down, proposed) and not yet answered are marked old-epoch, to be resolved after the sync (K2);
     * syncs not yet answerable are issued again then. A connection still in its handshake has no session to
     * keep: it is closed as today.
     */
    private void holdConnections(String why) {
        holdingSinceMs = nowMs;
        heldInEpoch = zab.currentEpoch();
        long lastProcessed = applier.lastProcessedZxid();
        int kept = 0;
        for (Connection c : new ArrayList<>(connections.values())) {
            if (c.phase != Connection.Phase.CONNECTED || c.readOnly) {
                LOG.log(System.Logger.Level.INFO, "closing connection {0} from {1}: {2}", c.id, c.remoteAddress, why);
                closeConnection(c);
                continue;
            }
            kept++;
            for (Connection.Pending p : c.queue) {
                p.resolutions = 0; // once per sync: a write issued again may meet the next leader change too
                if (p.ready != null || p.held) {
                    continue;
                }
                if (p.request.isWrite() && p.result == null) {
                    p.oldEpoch = true;
                } else if (p.request.type() == OpCode.SYNC && (p.zxid == Connection.AWAITING_LEADER || p.zxid > lastProcessed)) {
                    p.held = true; // the old leader's answer, or the zxid it named, may never come
                }
            }
        }
        LOG.log(System.Logger.Level.INFO, "keeping {0} client connections until synchronized with a new leader: {1}",
                kept, why);
        syncWaiters.clear();
        touchedSinceLastPing.clear();
    }

    /** keepConnections, K5: a connection held longer than its session timeout is closed as today. */
    private void closeHeldPastTimeout() {
        if (!isHolding()) {
            return;
        }
        for (Connection c : new ArrayList<>(connections.values())) {
            if (!c.readOnly && nowMs - holdingSinceMs >= c.timeoutMs) {
                LOG.log(System.Logger.Level.INFO, "closing kept connection {0} of session 0x{1}: no leader within its"
                        + " session timeout ({2} ms)", c.id, Long.toHexString(c.sessionId), c.timeoutMs);
                stats.keptConnectionsClosed++;
                closeConnection(c);
            }
        }
    }

    /**
     * keepConnections, K2: synchronized with a new leader (its whole initial history applied), each held
     * connection's requests are resolved in FIFO order: an old-epoch write in the new history is answered with
     * its result (applied in a DIFF: already matched; behind a SNAP: the session's last reply), one not in it
     * can no longer commit and is forwarded again, once; held requests go out now. Then the replies flow.
     */
    private void resumeHeld(boolean leading) {
        stats.keptConnectionsResumed += connections.size();
        LOG.log(System.Logger.Level.INFO, "synchronized after {0} ms: resuming {1} kept connections",
                nowMs - holdingSinceMs, connections.size());
        holdingSinceMs = -1;
        for (Connection c : new ArrayList<>(connections.values())) {
            if (c.phase == Connection.Phase.CONNECTED && !c.readOnly) {
                resolveHeld(c, leading);
            }
            if (c.phase == Connection.Phase.CONNECTED && !c.readOnly && readPrecedesAppliedWrite(c)) {
                // The read was issued before the write, but the state the sync brought already holds the write:
                // answering the read now shows the session its own later write (simulator, 3 servers, seed 10:
                // reads at 0x50000000a, then the write's reply at 0x500000008). As today: close (K5's fallback).
                LOG.log(System.Logger.Level.INFO, "closing kept connection {0}: a held read precedes a write the sync"
                        + " applied", c.id);
                stats.keptConnectionsClosed++;
                closeConnection(c);
            }
        }
        for (Connection c : new ArrayList<>(connections.values())) {
            drain(c);
        }
    }

    /** A read or sync still unanswered in the queue ahead of a write whose transaction is applied already. */
    private static boolean readPrecedesAppliedWrite(Connection conn) {
        boolean unansweredRead = false;
        for (Connection.Pending p : conn.queue) {
            boolean write = p.request.isWrite() && p.request.type() != OpCode.CREATE_SESSION;
            if (!write && p.ready == null && p.request.type() != OpCode.PING) {
                unansweredRead = true;
            } else if (write && (p.result != null || p.ready != null) && unansweredRead) {
                return true;
            }
        }
        return false;
    }

    private void resolveHeld(Connection conn, boolean leading) {
        io.zabkit.session.Sessions.LastApplied last = sessions.lastApplied(conn.sessionId);
        // K2 says an old-epoch write missing from the new history can no longer commit; that holds only when the
        // new leader's epoch is newer. Rejoining the same epoch (the link to a leader that kept its quorum broke),
        // a write forwarded before may still be in its pipeline or lost with the link: nobody can tell which.
        boolean sameEpoch = zab.currentEpoch() == heldInEpoch;
        for (Connection.Pending p : conn.queue) {
            if (p.oldEpoch && p.result == null && sameEpoch && !appliedHere(p, last)
                    && !config.zab().bug(Bug.KEEP_REFORWARD_WITHOUT_CHECK)) {
                LOG.log(System.Logger.Level.INFO, "closing kept connection {0}: synchronized again in epoch {1}, its"
                        + " forwarded write 0x{2} may still commit", conn.id, heldInEpoch,
                        Integer.toHexString(p.request.xid()));
                stats.keptConnectionsClosed++;
                closeConnection(conn); // as today: the client sees ConnectionLoss, the write stays indeterminate
                return;
            }
            if (p.oldEpoch && p.result == null) {
                p.oldEpoch = false;
                if (p.request.type() == OpCode.CREATE_SESSION || p.request.type() == OpCode.CLOSE_SESSION) {
                    // Session ids are unique: whether the session exists says whether its create or close is applied.
                    boolean applied = sessions.exists(conn.sessionId) == (p.request.type() == OpCode.CREATE_SESSION);
                    if (applied) {
                        answerResolved(p, TxnResult.ok(p.request.type(), null, null));
                    } else {
                        reissue(conn, p, leading);
                    }
                } else if (last != null && p.request.xid() == last.cxid()
                        && !config.zab().bug(Bug.KEEP_REFORWARD_WITHOUT_CHECK)) {
                    assert p.resolutions++ == 0 : "an old-epoch write resolved twice";
                    p.ready = last.reply(); // in the new history, behind a SNAP: its stored reply
                    p.zxid = last.zxid();
                } else if (last != null && p.request.xid() < last.cxid()
                        && !config.zab().bug(Bug.KEEP_REFORWARD_WITHOUT_CHECK)) {
                    // Applied behind a SNAP, but only the session's last reply is kept: K5's fallback.
                    LOG.log(System.Logger.Level.INFO, "closing kept connection {0}: its write 0x{1} was applied behind"
                            + " a SNAP and its reply is not kept", conn.id, Integer.toHexString(p.request.xid()));
                    stats.keptConnectionsClosed++;
                    closeConnection(conn);
                    return;
                } else {
                    reissue(conn, p, leading);
                }
            } else if (p.oldEpoch && config.zab().bug(Bug.KEEP_REFORWARD_WITHOUT_CHECK) && p.request.isWrite()
                    && p.request.type() != OpCode.CREATE_SESSION && p.request.type() != OpCode.CLOSE_SESSION) {
                p.result = null; // the bug: answered in the DIFF, forwarded again all the same
                p.oldEpoch = false;
                reissue(conn, p, leading);
            } else if (p.held) {
                reissue(conn, p, leading);
            } else {
                p.oldEpoch = false;
            }
        }
    }

    /** Whether an unanswered old-epoch write or session change is in the state this server synchronized to. */
    private boolean appliedHere(Connection.Pending p, io.zabkit.session.Sessions.LastApplied last) {
        if (p.request.type() == OpCode.CREATE_SESSION || p.request.type() == OpCode.CLOSE_SESSION) {
            return sessions.exists(p.request.sessionId()) == (p.request.type() == OpCode.CREATE_SESSION);
        }
        return last != null && p.request.xid() <= last.cxid();
    }

    private void answerResolved(Connection.Pending p, TxnResult result) {
        assert p.resolutions++ == 0 : "an old-epoch write resolved twice";
        p.result = result;
    }

    /** Sends a held (or old-epoch, not applied) request to the new leader, or proposes it when this is that leader. */
    private void reissue(Connection conn, Connection.Pending p, boolean leading) {
        assert p.resolutions++ == 0 : "a held request issued twice";
        assert !isHolding() && zab.isServing() : "issued while held";
        p.held = false;
        Request r = p.request;
        if (r.type() == OpCode.CREATE_SESSION) {
            p.zxid = 0;
            if (leading) {
                Txn txn = prep.createSession(conn.sessionId, conn.timeoutMs, nextZxid(), nowMs);
                propose(txn);
                p.zxid = txn.zxid();
            } else {
                zab.forward(new Message.Forward(conn.sessionId, 0, OpCode.CREATE_SESSION, conn.timeoutMs, new byte[0],
                        List.of()));
            }
            stats.keptWritesReissued++;
        } else if (r.isWrite()) {
            p.zxid = 0;
            if (leading) {
                Txn txn = prep.prepare(r, nextZxid(), nowMs);
                propose(txn);
                p.zxid = txn.zxid();
            } else {
                zab.forward(new Message.Forward(conn.sessionId, r.xid(), r.type(), conn.timeoutMs, p.packet,
                        List.copyOf(r.authIds())));
            }
            stats.keptWritesReissued++;
        } else if (r.type() == OpCode.SYNC && leading) {
            p.zxid = zab.lastLoggedZxid();
        } else if (r.type() == OpCode.SYNC) {
            p.zxid = Connection.AWAITING_LEADER;
            zab.forwardSync(conn.sessionId, r.xid());
        }
    }

    @Override
    public Txn prepareForwarded(Message.Forward f, long zxid) throws IOException {
        sessions.touch(f.sessionId(), nowMs);
        if (f.type() == OpCode.CREATE_SESSION) {
            sessions.beginCreate(f.sessionId());
            return prep.createSession(f.sessionId(), f.timeoutMs(), zxid, nowMs);
        }
        BinaryInputArchive in = Jute.reader(f.packet(), config.maxBufferBytes());
        RequestHeader h = new RequestHeader();
        h.deserialize(in, "header");
        Object body = Requests.decode(h.getType(), in);
        Request r = new Request(-1, f.sessionId(), h.getXid(), h.getType(), body, f.authIds(), nowMs);
        if (!r.isWrite()) {
            throw new IOException("a relayed request must be a write, got " + OpCode.name(r.type()));
        }
        return prep.prepare(r, zxid, nowMs);
    }

    @Override
    public void syncReplied(long sessionId, int cxid, long zxid) {
        Long connId = connectionBySession.get(sessionId);
        Connection conn = connId == null ? null : connections.get(connId);
        if (conn == null) {
            return; // the client left; nobody waits for this sync
        }
        for (Connection.Pending p : conn.queue) {
            if (p.request.type() == OpCode.SYNC && p.request.xid() == cxid && p.zxid == Connection.AWAITING_LEADER) {
                p.zxid = config.zab().bug(Bug.SYNC_REPLY_NOT_AWAITED) ? 0 : zxid; // the bug: the reply ends the wait
                break;
            }
        }
        drain(conn);
    }

    @Override
    public void sessionsAlive(List<Message.SessionTouch> touches) {
        for (Message.SessionTouch t : touches) {
            sessions.touch(t.sessionId(), nowMs);
        }
    }

    @Override
    public List<Message.SessionTouch> drainTouchedSessions() {
        List<Message.SessionTouch> out = new ArrayList<>();
        for (Map.Entry<Long, Integer> e : touchedSinceLastPing.entrySet()) {
            out.add(new Message.SessionTouch(e.getKey(), e.getValue()));
        }
        touchedSinceLastPing.clear();
        return out;
    }

    private void touch(long sessionId) {
        readOnly.touch(sessionId, nowMs);
        sessions.touch(sessionId, nowMs);
        if (zab.isServingLearner() && sessionId != 0) {
            touchedSinceLastPing.put(sessionId, sessions.timeoutMs(sessionId));
        }
    }

    private void maybeSnapshot() {
        if (recovering) {
            return;
        }
        if (++txnsSinceSnapshot >= config.snapCount()) {
            txnsSinceSnapshot = 0;
            // encoded by whoever writes it (the server's disk thread), not on the thread that pings
            readySnapshot = SnapshotCodec.encodeLater(tree, sessions, applier.lastProcessedZxid());
            stats.snapshotsTaken++;
        }
    }

    private void deliverWatches(List<Watches.Fired> fired) {
        for (Watches.Fired f : fired) {
            Connection c = connections.get(f.watcher());
            if (c != null && c.phase != Connection.Phase.CLOSED
                    && (f.acl() == null || io.zabkit.tree.Acls.permits(f.acl(), io.zabkit.tree.Acls.READ, c.authIds))) {
                send(c, Replies.notification(f.type(), f.path(), f.zxid()));
                stats.notificationsSent++;
            }
        }
    }

    private void handlePacket(Connection conn, byte[] packet) {
        stats.packetsReceived++;
        conn.packetsReceived++;
        try {
            if (conn.phase == Connection.Phase.AWAITING_CONNECT) {
                handleConnect(conn, packet);
            } else {
                handleRequest(conn, packet);
            }
        } catch (IOException e) {
            reject(conn, "malformed " + (conn.phase == Connection.Phase.AWAITING_CONNECT ? "connect request" : "request")
                    + ": " + e.getMessage());
        }
    }

    private void handleConnect(Connection conn, byte[] packet) throws IOException {
        ConnectRequestView c = ConnectRequestView.decode(packet, config.maxBufferBytes());
        stats.connectRequests++;
        if (!zab.isServing() && readOnly.isActive()) {
            connectReadOnly(conn, c);
            return;
        }
        if (!zab.isServing()) {
            stats.connectsWhileNotServing++;
            reject(conn, "this server is not serving: it is " + zab.state() + " in " + zab.zabState()
                    + "; the client must try another server");
            return;
        }
        long lastProcessed = applier.lastProcessedZxid();
        if (c.lastZxidSeen() > lastProcessed && !config.zab().bug(Bug.RECONNECT_BEHIND_LAST_ZXID_SEEN)) {
            reject(conn, "refusing session request: client has seen zxid " + Txn.zxidString(c.lastZxidSeen())
                    + ", our last zxid is " + Txn.zxidString(lastProcessed) + "; client must try another server");
            return;
        }
        int timeoutMs = Math.max(config.minSessionTimeoutMs(), Math.min(config.maxSessionTimeoutMs(), c.timeoutMs()));
        conn.phase = Connection.Phase.CONNECTED;
        Request marker = new Request(conn.id, c.sessionId(), 0, OpCode.CREATE_SESSION, null, List.of(), nowMs);
        if (c.sessionId() == 0) {
            long sessionId = sessions.newSessionId(nowMs);
            sessions.beginCreate(sessionId);
            bind(conn, sessionId, timeoutMs);
            long zxid = 0;
            if (zab.isServingLeader()) {
                Txn txn = prep.createSession(sessionId, timeoutMs, nextZxid(), nowMs);
                propose(txn);
                zxid = txn.zxid();
            } else {
                zab.forward(new Message.Forward(sessionId, 0, OpCode.CREATE_SESSION, timeoutMs, new byte[0], List.of()));
            }
            conn.queue.addLast(new Connection.Pending(
                    new Request(conn.id, sessionId, 0, OpCode.CREATE_SESSION, null, List.of(), nowMs), zxid));
            stats.sessionsCreated++;
            return;
        }
        long sessionId = c.sessionId();
        if (!sessions.isActive(sessionId) || !sessions.passwordMatches(sessionId, c.password())) {
            LOG.log(System.Logger.Level.INFO, "session 0x{0} from {1} is expired or has a wrong password",
                    Long.toHexString(sessionId), conn.remoteAddress);
            Connection.Pending p = new Connection.Pending(marker, 0);
            p.ready = Replies.sessionExpiredResponse();
            p.closeAfter = true;
            conn.queue.addLast(p);
            drain(conn);
            return;
        }
        Long previous = connectionBySession.get(sessionId);
        if (previous != null && previous != conn.id && connections.containsKey(previous)) {
            LOG.log(System.Logger.Level.INFO, "session 0x{0} moved to a new connection; closing the stale one",
                    Long.toHexString(sessionId));
            closeConnection(connections.get(previous));
        }
        int sessionTimeout = sessions.timeoutMs(sessionId) > 0 ? sessions.timeoutMs(sessionId) : timeoutMs;
        bind(conn, sessionId, sessionTimeout);
        touch(sessionId);
        Connection.Pending p = new Connection.Pending(marker, 0);
        p.ready = Replies.connectResponse(sessionTimeout, sessionId, sessions.password(sessionId));
        conn.queue.addLast(p);
        drain(conn);
    }

    /**
     * A read-only connect that resumes a session this server cannot resume (a local session it does not
     * hold, or a wrong password): answered session expired, then the connection is closed.
     */
    private void expireReadOnlyConnect(Connection conn, long sessionId) {
        assert readOnly.isActive() : "a read-only connect outside read-only mode";
        assert sessionId != 0 : "a new session is never expired";
        Connection.Pending p = new Connection.Pending(
                new Request(conn.id, sessionId, 0, OpCode.CREATE_SESSION, null, List.of(), nowMs), 0);
        p.ready = Replies.sessionExpiredResponse();
        p.closeAfter = true;
        conn.phase = Connection.Phase.CONNECTED;
        conn.readOnly = true;
        conn.queue.addLast(p);
        drain(conn);
    }

    /**
     * A connect request in read-only mode, as ZooKeeper 3.9's ReadOnlyZooKeeperServer answers it: a client
     * that did not say canBeReadOnly is refused (connection closed), and so is one resuming a session of the
     * ensemble; a new session is local to this server and its ConnectResponse says readOnly.
     */
    private void connectReadOnly(Connection conn, ConnectRequestView c) {
        long lastProcessed = applier.lastProcessedZxid();
        if (!c.readOnly()) {
            stats.connectsWhileNotServing++;
            reject(conn, "refusing session request for not-read-only client: this server is in read-only mode");
            return;
        }
        if (c.lastZxidSeen() > lastProcessed) {
            reject(conn, "refusing session request: client has seen zxid " + Txn.zxidString(c.lastZxidSeen())
                    + ", our last zxid is " + Txn.zxidString(lastProcessed) + "; client must try another server");
            return;
        }
        if (c.sessionId() != 0 && !readOnly.hasSession(c.sessionId())) {
            if (sessions.exists(c.sessionId())) {
                reject(conn, "refusing global session reconnection in read-only mode: session 0x"
                        + Long.toHexString(c.sessionId()));
                return;
            }
            expireReadOnlyConnect(conn, c.sessionId());
            return;
        }
        long sessionId = c.sessionId();
        int timeoutMs;
        if (sessionId == 0) {
            sessionId = sessions.newSessionId(nowMs);
            timeoutMs = Math.max(config.minSessionTimeoutMs(), Math.min(config.maxSessionTimeoutMs(), c.timeoutMs()));
            readOnly.addSession(sessionId, timeoutMs, nowMs);
            stats.sessionsCreated++;
        } else if (!sessions.passwordMatches(sessionId, c.password())) {
            expireReadOnlyConnect(conn, sessionId);
            return;
        } else {
            timeoutMs = readOnly.timeoutMs(sessionId);
            Long previous = connectionBySession.get(sessionId);
            if (previous != null && previous != conn.id && connections.containsKey(previous)) {
                closeConnection(connections.get(previous));
            }
        }
        conn.phase = Connection.Phase.CONNECTED;
        conn.readOnly = true;
        bind(conn, sessionId, timeoutMs);
        touch(sessionId);
        Connection.Pending p = new Connection.Pending(
                new Request(conn.id, sessionId, 0, OpCode.CREATE_SESSION, null, List.of(), nowMs), 0);
        p.ready = Replies.connectResponse(timeoutMs, sessionId, sessions.password(sessionId), true);
        conn.queue.addLast(p);
        drain(conn);
    }

    /**
     * A request on a read-only session: ZooKeeper's ReadOnlyRequestProcessor answers every state change (and
     * sync) with NotReadOnly at the last applied zxid and keeps the connection; closeSession ends the
     * session here. True if answered.
     */
    private boolean answeredReadOnly(Connection conn, RequestHeader h) {
        Connection.Pending p = new Connection.Pending(
                new Request(conn.id, conn.sessionId, h.getXid(), h.getType(), null, List.of(), nowMs), 0);
        if (h.getType() == OpCode.CLOSE_SESSION) {
            readOnly.removeSession(conn.sessionId);
            p.ready = Replies.reply(h.getXid(), applier.lastProcessedZxid(), Err.OK, null);
            p.closeAfter = true;
        } else if (ReadOnlyMode.refuses(h.getType())) {
            p.ready = Replies.reply(h.getXid(), applier.lastProcessedZxid(), Err.NOT_READ_ONLY, null);
        } else {
            return false;
        }
        conn.queue.addLast(p);
        drain(conn);
        return true;
    }

    private void bind(Connection conn, long sessionId, int timeoutMs) {
        conn.sessionId = sessionId;
        conn.timeoutMs = timeoutMs;
        connectionBySession.put(sessionId, conn.id);
    }

    private void handleRequest(Connection conn, byte[] packet) throws IOException {
        BinaryInputArchive in = Jute.reader(packet, config.maxBufferBytes());
        RequestHeader h = new RequestHeader();
        h.deserialize(in, "header");
        touch(conn.sessionId);
        conn.lastOp = OpCode.name(h.getType());
        if (h.getType() == OpCode.AUTH) {
            handleAuth(conn, h, in);
            return;
        }
        if (h.getType() == OpCode.SASL && saslServers == null) {
            answerSaslWithoutSasl(conn, h, in);
            return;
        }
        if (h.getType() == OpCode.SASL) {
            handleSasl(conn, h, in);
            return;
        }
        if (!isAuthenticatedAsEnforced(conn)) {
            refuseUnauthenticated(conn, h);
            return;
        }
        if (!Requests.isKnown(h.getType())) {
            answerUnimplemented(conn, h);
            return;
        }
        if (conn.readOnly && answeredReadOnly(conn, h)) {
            return;
        }
        Object body = Requests.decode(h.getType(), in);
        Request r = new Request(conn.id, conn.sessionId, h.getXid(), h.getType(), body, List.copyOf(conn.authIds), nowMs);
        if (isHolding() && !conn.readOnly) {
            hold(conn, r, packet);
            return;
        }
        long waitFor = 0;
        if (r.isWrite() && zab.isServingLeader()) {
            Txn txn = prep.prepare(r, nextZxid(), nowMs);
            propose(txn);
            waitFor = txn.zxid();
        } else if (r.isWrite()) {
            // The leader orders writes: relay it; the COMMIT brings its zxid back.
            zab.forward(new Message.Forward(conn.sessionId, h.getXid(), h.getType(), conn.timeoutMs, packet,
                    List.copyOf(conn.authIds)));
        } else if (r.type() == OpCode.SYNC && zab.isServingLeader()) {
            waitFor = zab.lastLoggedZxid(); // the reply waits until everything issued before it is applied
        } else if (r.type() == OpCode.SYNC && config.zab().bug(Bug.ZK1675_FOLLOWER_SYNC_AT_ONCE)) {
            waitFor = 0; // answered with what this follower has, without asking the leader
        } else if (r.type() == OpCode.SYNC) {
            waitFor = Connection.AWAITING_LEADER; // the leader says how far this follower must catch up
            zab.forwardSync(conn.sessionId, h.getXid());
        }
        Connection.Pending pending = new Connection.Pending(r, waitFor);
        pending.packet = keepConnections && r.isWrite() ? packet : null;
        conn.queue.addLast(pending);
        drain(conn);
    }

    /**
     * keepConnections, K1: without a leader a ping is answered at once (liveness, no data; clients match it to
     * no request), every other request waits in the session's FIFO queue until the sync.
     */
    private void hold(Connection conn, Request r, byte[] packet) {
        if (r.type() == OpCode.PING) {
            send(conn, Replies.reply(Replies.PING_XID, applier.lastProcessedZxid(), Err.OK, null));
            return;
        }
        Connection.Pending p = new Connection.Pending(r, r.type() == OpCode.SYNC ? Connection.AWAITING_LEADER : 0);
        p.held = r.isWrite() || r.type() == OpCode.SYNC;
        p.packet = r.isWrite() ? packet : null;
        conn.queue.addLast(p);
        stats.requestsHeld++;
    }

    /** addauth: digest proves an identity at once; anything else fails and closes, as in ZooKeeper. */
    private void handleAuth(Connection conn, RequestHeader h, BinaryInputArchive in) throws IOException {
        AuthPacket auth = new AuthPacket();
        auth.deserialize(in, "auth");
        Connection.Pending p = new Connection.Pending(
                new Request(conn.id, conn.sessionId, h.getXid(), OpCode.AUTH, auth, List.of(), nowMs), 0);
        try {
            if (!"digest".equals(auth.getScheme())) {
                throw new io.zabkit.wire.ZkException(Err.AUTH_FAILED, "unknown scheme " + auth.getScheme());
            }
            Id id = io.zabkit.tree.Acls.digestIdentity(auth.getAuth() == null ? new byte[0] : auth.getAuth());
            if (!conn.authIds.contains(id)) {
                conn.authIds.add(id);
            }
            p.ready = Replies.reply(h.getXid(), 0, Err.OK, null);
        } catch (io.zabkit.wire.ZkException e) {
            LOG.log(System.Logger.Level.WARNING, "authentication failed for {0}: {1}", conn.remoteAddress, e.getMessage());
            stats.authFailures++;
            p.ready = Replies.reply(h.getXid(), 0, Err.AUTH_FAILED, null);
            p.closeAfter = true;
        }
        conn.queue.addLast(p);
        drain(conn);
    }

    /**
     * One step of a SASL exchange (op 102), as ZooKeeper's processSasl: the client's token in, the
     * server's out (OK), and once the exchange completes the identity sasl:authorizedId joins the
     * connection's. A client that fails (wrong password, unknown user) gets AuthFailed, or -124 when SASL
     * is enforced, with no token, and its connection is closed.
     */
    private void handleSasl(Connection conn, RequestHeader h, BinaryInputArchive in) throws IOException {
        GetSASLRequest token = new GetSASLRequest();
        token.deserialize(in, "token");
        Connection.Pending p = new Connection.Pending(
                new Request(conn.id, conn.sessionId, h.getXid(), OpCode.SASL, token, List.of(), nowMs), 0);
        if (conn.sasl == null) {
            conn.sasl = saslServers.start();
        }
        try {
            byte[] response = conn.sasl.evaluate(token.getToken() == null ? new byte[0] : token.getToken());
            String authorized = conn.sasl.authorizedId();
            Id id = authorized == null ? null : new Id("sasl", authorized);
            if (id != null && !conn.authIds.contains(id)) {
                LOG.log(System.Logger.Level.INFO, "session 0x{0} from {1} authenticated by SASL as {2}",
                        Long.toHexString(conn.sessionId), conn.remoteAddress, authorized);
                conn.authIds.add(id);
            }
            p.ready = Replies.reply(h.getXid(), 0, Err.OK, new SetSASLResponse(response));
        } catch (javax.security.sasl.SaslException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "client {0} (session 0x{1}) failed to SASL authenticate: {2};"
                    + " closing its connection", conn.remoteAddress, Long.toHexString(conn.sessionId), e.toString());
            stats.authFailures++;
            int err = clientAuth.saslRequired() ? Err.SESSION_CLOSED_REQUIRE_SASL_AUTH : Err.AUTH_FAILED;
            p.ready = Replies.replyWithBody(h.getXid(), 0, err, new SetSASLResponse(null));
            p.closeAfter = true;
        }
        conn.queue.addLast(p);
        drain(conn);
    }

    /**
     * An identity the runtime established for a connection before its requests: a TLS client's certificate
     * subject (x509), as ZooKeeper's X509AuthenticationProvider adds it once the handshake is done.
     */
    public void addIdentity(long connId, Id id) {
        Connection conn = connections.get(connId);
        if (conn == null || conn.phase == Connection.Phase.CLOSED) {
            return; // gone already
        }
        assert clientAuth.providerSchemes().contains(id.getScheme()) : "identity of a scheme without provider: " + id;
        if (!conn.authIds.contains(id)) {
            conn.authIds.add(id);
        }
    }

    /** With enforce.auth, whether the connection holds an identity of an enforced scheme. */
    private boolean isAuthenticatedAsEnforced(Connection conn) {
        if (clientAuth.enforcedSchemes().isEmpty()) {
            return true;
        }
        for (Id id : conn.authIds) {
            if (clientAuth.enforcedSchemes().contains(id.getScheme())) {
                return true;
            }
        }
        return false;
    }

    /**
     * enforce.auth and a request before the session authenticated: ZooKeeper's AuthenticationHelper
     * answers SessionClosedRequireAuth (-124) and closes the connection (the session expires in time).
     */
    private void refuseUnauthenticated(Connection conn, RequestHeader h) {
        LOG.log(System.Logger.Level.WARNING, "session 0x{0} from {1} sent {2} without an identity of {3}"
                + " (enforce.auth); closing its connection", Long.toHexString(conn.sessionId), conn.remoteAddress,
                OpCode.name(h.getType()), clientAuth.enforcedSchemes());
        Connection.Pending p = new Connection.Pending(
                new Request(conn.id, conn.sessionId, h.getXid(), h.getType(), null, List.of(), nowMs), 0);
        p.ready = Replies.reply(h.getXid(), 0, Err.SESSION_CLOSED_REQUIRE_SASL_AUTH, null);
        p.closeAfter = true;
        conn.queue.addLast(p);
        drain(conn);
    }

    /**
     * A SASL token on a server without SASL: ZooKeeper 3.9 finds no SASL server on the connection, logs
     * it and answers OK with a null token, keeping the connection; so does this server.
     */
    private void answerSaslWithoutSasl(Connection conn, RequestHeader h, BinaryInputArchive in) throws IOException {
        GetSASLRequest token = new GetSASLRequest();
        token.deserialize(in, "token");
        LOG.log(System.Logger.Level.WARNING, "SASL packet from {0} (session 0x{1}) but no SASL is configured;"
                + " answering with no token, as ZooKeeper does", conn.remoteAddress, Long.toHexString(conn.sessionId));
        Connection.Pending p = new Connection.Pending(
                new Request(conn.id, conn.sessionId, h.getXid(), OpCode.SASL, token, List.of(), nowMs), 0);
        p.ready = Replies.reply(h.getXid(), 0, Err.OK, new SetSASLResponse(null));
        conn.queue.addLast(p);
        drain(conn);
    }

    /**
     * An op code no server knows: ZooKeeper's UnimplementedRequestProcessor answers Unimplemented with
     * zxid -1 and then closes the connection (not the session, which a reconnect resumes).
     */
    private void answerUnimplemented(Connection conn, RequestHeader h) {
        LOG.log(System.Logger.Level.WARNING, "closing connection {0} from {1} after answering unknown op code {2}"
                + " with Unimplemented; session 0x{3} stays", conn.id, conn.remoteAddress, h.getType(),
                Long.toHexString(conn.sessionId));
        Connection.Pending p = new Connection.Pending(
                new Request(conn.id, conn.sessionId, h.getXid(), h.getType(), null, List.of(), nowMs), 0);
        p.ready = Replies.reply(h.getXid(), -1, Err.UNIMPLEMENTED, null);
        p.closeAfter = true;
        conn.queue.addLast(p);
        drain(conn);
    }

    /** Sends every reply at the head of the queue that can be sent now, in request order. */
    private void drain(Connection conn) {
        if (isHolding() && !conn.readOnly && !config.zab().bug(Bug.KEEP_READS_BEFORE_SYNC)) {
            return; // K1: nothing but pings is answered until the sync
        }
        while (!conn.queue.isEmpty() && conn.phase != Connection.Phase.CLOSED) {
            if (conn.replyBytesSinceDrained >= REPLY_BYTES_BEFORE_HOLD) {
                heldForOutput.add(conn.id); // the rest waits until outputDrained: never build what nobody reads
                return;
            }
            Connection.Pending p = conn.queue.peekFirst();
            Request r = p.request;
            byte[] reply;
            long lastProcessed = applier.lastProcessedZxid();
            if (p.ready != null) {
                reply = p.ready;
            } else if (r.type() == OpCode.CREATE_SESSION) {
                if (p.result == null) {
                    return;
                }
                reply = Replies.connectResponse(conn.timeoutMs, conn.sessionId, sessions.password(conn.sessionId));
            } else if (r.isWrite()) {
                if (p.result == null) {
                    return;
                }
                reply = Replies.writeReply(r.xid(), p.zxid, r.type(), p.result);
                conn.lastZxid = p.zxid;
            } else if (r.type() == OpCode.SYNC) {
                if (p.zxid == Connection.AWAITING_LEADER) {
                    return;
                }
                if (lastProcessed < p.zxid) {
                    syncWaiters.computeIfAbsent(p.zxid, z -> new LinkedHashSet<>()).add(conn.id);
                    return;
                }
                reply = Replies.reply(r.xid(), lastProcessed, Err.OK,
                        new SyncResponse(((SyncRequest) r.body()).getPath()));
            } else if (r.type() == OpCode.PING) {
                reply = Replies.reply(Replies.PING_XID, lastProcessed, Err.OK, null);
            } else {
                reply = reads.answer(r, lastProcessed, r.authIds());
                deliverWatches(drainMissed());
            }
            conn.queue.removeFirst();
            conn.lastZxid = Math.max(conn.lastZxid, lastProcessed);
            stats.recordLatency(nowMs - r.receivedMs());
            if (r.isWrite()) {
                stats.recordWriteLatency(nowMs - r.receivedMs());
            }
            conn.lastLatencyMs = nowMs - r.receivedMs();
            send(conn, reply);
            if (p.closeAfter || (r.type() == OpCode.CLOSE_SESSION && r.isWrite())) {
                closeConnection(conn);
                return;
            }
        }
    }

    /** Drains the connections whose sync waited for a zxid up to the one just applied. */
    private void wakeSyncWaiters(long appliedZxid) {
        while (!syncWaiters.isEmpty() && syncWaiters.firstKey() <= appliedZxid) {
            for (long connId : syncWaiters.pollFirstEntry().getValue()) {
                Connection waiting = connections.get(connId);
                if (waiting != null) {
                    drain(waiting);
                }
            }
        }
    }

    private List<Watches.Fired> drainMissed() {
        if (reads.pendingMissed.isEmpty()) {
            return List.of();
        }
        List<Watches.Fired> missed = new ArrayList<>(reads.pendingMissed);
        reads.pendingMissed.clear();
        return missed;
    }

    private void send(Connection conn, byte[] bytes) {
        conn.replyBytesSinceDrained += bytes.length;
        readySends.add(new Ready.Outbound(conn.id, bytes));
        stats.packetsSent++;
        conn.packetsSent++;
    }

    /** mntr's lines, for the runtime's metrics endpoint (which has its own switch, not the 4lw whitelist). */
    public String monitorReport() {
        return FourLetterWords.answer("mntr", this);
    }

    private void answerFourLetterWord(Connection conn, String word) {
        String text = config.allowsFourLetterWord(word)
                ? FourLetterWords.answer(word, this)
                : word + " is not executed because it is not in the whitelist.\n";
        readySends.add(new Ready.Outbound(conn.id, text.getBytes(StandardCharsets.UTF_8)));
        closeConnection(conn);
    }

    /** A protocol violation: log it, close this connection, keep everything else going. */
    private void reject(Connection conn, String reason) {
        LOG.log(System.Logger.Level.WARNING, "closing connection {0} from {1}: {2}", conn.id, conn.remoteAddress,
                reason);
        stats.connectionsClosedForBadInput++;
        closeConnection(conn);
    }

    private void closeConnection(Connection conn) {
        if (conn.phase == Connection.Phase.CLOSED) {
            return;
        }
        readyCloses.add(conn.id);
        forget(conn);
    }

    private void forget(Connection conn) {
        conn.phase = Connection.Phase.CLOSED;
        connections.remove(conn.id);
        heldForOutput.remove(conn.id);
        tree.watches().removeWatcher(conn.id);
        Long bound = connectionBySession.get(conn.sessionId);
        if (bound != null && bound == conn.id) {
            connectionBySession.remove(conn.sessionId);
        }
    }

    private int connectionsFrom(String host) {
        int n = 0;
        for (Connection c : connections.values()) {
            if (Connection.hostOf(c.remoteAddress).equals(host)) {
                n++;
            }
        }
        return n;
    }
}
