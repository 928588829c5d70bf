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
import org.apache.zookeeper.proto.RequestHeader;
import org.apache.zookeeper.proto.SyncRequest;
import org.apache.zookeeper.proto.SyncResponse;

/**
 * The deterministic core of one standalone server: events in, effects out. It does no I/O, reads no
 * clock, starts no thread and draws no randomness: the runtime (production or simulated) feeds it
 * connection bytes, clock ticks and disk completions, and carries out the {@link Ready} batches it
 * hands back.
 *
 * <p>A write becomes a transaction at once (zxid assigned, appended to {@code uncommitted} and to the
 * next batch's entries); it is applied and answered only after {@link #persisted(long)} says it is
 * durable. Reads are answered from the applied tree, in order behind the session's earlier requests.
 */
public final class ServerCore {
    private static final System.Logger LOG = System.getLogger("zabkit.core");
    private static final long CONTAINER_CHECK_INTERVAL_MS = 60_000;

    private final CoreConfig config;
    private final DataTree tree;
    private final Sessions sessions;
    private final Prep prep;
    private final Applier applier;
    private final Reads reads;
    private final ServerStats stats = new ServerStats();

    /** Open connections by id; sorted so that every iteration is deterministic. */
    private final Map<Long, Connection> connections = new TreeMap<>();
    private final Map<Long, Long> connectionBySession = new HashMap<>();
    /**
     * Connections whose head request is a sync waiting for a zxid, by that zxid: they are drained the
     * moment it applies, so the reply carries exactly that zxid and not a later write of the session.
     */
    private final TreeMap<Long, Set<Long>> syncWaiters = new TreeMap<>();
    /** Transactions handed to storage and not yet applied, in zxid order. */
    private final Deque<Txn> uncommitted = new ArrayDeque<>();
    /** zxid of the newest transaction created (lastLogged once the runtime has written it). */
    private long lastProposedZxid;
    private long lastPersistedZxid;
    private long nowMs;
    private boolean clockStarted;
    private long lastContainerCheckMs;
    private int txnsSinceSnapshot;

    private List<Txn> readyEntries = new ArrayList<>();
    private List<Ready.Outbound> readySends = new ArrayList<>();
    private List<Long> readyCloses = new ArrayList<>();
    private Snapshot readySnapshot;

    public ServerCore(CoreConfig config, RecoveredState recovered) {
        this.config = config;
        DataTree restoredTree = new DataTree();
        Sessions restoredSessions = new Sessions(config.serverId(), config.sessionSecret());
        long restoredZxid = 0;
        if (recovered.snapshot() != null) {
            try {
                SnapshotCodec.Decoded d = SnapshotCodec.decode(recovered.snapshot(), config.maxBufferBytes());
                restoredTree = d.tree();
                for (Map.Entry<Long, Integer> e : d.sessionTimeouts().entrySet()) {
                    restoredSessions.applyCreate(e.getKey(), e.getValue(), 0);
                }
                restoredZxid = d.zxid();
            } catch (IOException e) {
                throw new IllegalStateException("snapshot 0x" + Long.toHexString(recovered.snapshot().zxid())
                        + " is unreadable: " + e.getMessage(), e);
            }
        }
        this.tree = restoredTree;
        this.sessions = restoredSessions;
        this.applier = new Applier(tree, sessions, restoredZxid);
        this.prep = new Prep(tree, sessions, config.maxBufferBytes());
        this.reads = new Reads(tree);
        for (Txn txn : recovered.txns()) {
            applier.apply(txn, 0);
            tree.watches().drainFired();
        }
        this.lastProposedZxid = applier.lastProcessedZxid();
        this.lastPersistedZxid = lastProposedZxid;
        assert recovered.lastZxid() == lastProposedZxid : "replay did not reach the recovered log's end";
    }

    // ------------------------------------------------------------------ events

    /** The clock advanced. Expires sessions and empty containers. */
    public void tick(long wallClockMs) {
        nowMs = Math.max(nowMs, wallClockMs);
        if (!clockStarted) {
            clockStarted = true;
            sessions.touchAll(nowMs); // every recovered session gets a full timeout to come back
            lastContainerCheckMs = nowMs;
        }
        for (long sessionId : sessions.expired(nowMs)) {
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
            reject(conn, "too many connections from " + Connection.hostOf(remoteAddress) + " - max is "
                    + config.maxClientCnxns());
        }
    }

    /** Raw bytes from a client connection, in any chunking. */
    public void receive(long connId, byte[] bytes, int offset, int length) {
        Connection conn = connections.get(connId);
        if (conn == null || conn.phase == Connection.Phase.CLOSED) {
            return; // bytes that raced with a close
        }
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
    public void disconnect(long connId) {
        Connection conn = connections.get(connId);
        if (conn != null) {
            forget(conn);
        }
    }

    /** The log is durable up to zxid: those transactions commit, apply and get their replies. */
    public void persisted(long zxid) {
        if (zxid > lastProposedZxid) {
            throw new IllegalArgumentException("persisted(" + Txn.zxidString(zxid) + ") beyond the last proposed "
                    + Txn.zxidString(lastProposedZxid));
        }
        lastPersistedZxid = Math.max(lastPersistedZxid, zxid);
        while (!uncommitted.isEmpty() && uncommitted.peekFirst().zxid() <= zxid) {
            commit(uncommitted.removeFirst());
        }
    }

    public void snapshotWritten(long zxid) {
        stats.lastSnapshotZxid = zxid;
    }

    // ------------------------------------------------------------------ effects

    public boolean hasReady() {
        return !readyEntries.isEmpty() || !readySends.isEmpty() || !readyCloses.isEmpty() || readySnapshot != null;
    }

    public Ready ready() {
        if (!hasReady()) {
            return Ready.EMPTY;
        }
        Ready r = new Ready(readyEntries, config.forceSync() && !readyEntries.isEmpty(), readySnapshot,
                readySends, readyCloses);
        readyEntries = new ArrayList<>();
        readySends = new ArrayList<>();
        readyCloses = new ArrayList<>();
        readySnapshot = null;
        return r;
    }

    // ------------------------------------------------------------------ state for runtimes, 4lw, tests

    public long lastProcessedZxid() {
        return applier.lastProcessedZxid();
    }

    public long lastProposedZxid() {
        return lastProposedZxid;
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

    /** Invariants of the whole core; the simulator calls this after every step. */
    public void checkInvariants() {
        tree.checkInvariants();
        check(applier.lastProcessedZxid() <= lastPersistedZxid, "applied a transaction that is not durable");
        check(lastPersistedZxid <= lastProposedZxid, "durable beyond what was proposed");
        long previous = applier.lastProcessedZxid();
        for (Txn t : uncommitted) {
            check(t.zxid() > previous, "uncommitted transactions out of zxid order at " + t);
            previous = t.zxid();
        }
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
        long epoch = Txn.epochOf(lastProposedZxid);
        long counter = Txn.counterOf(lastProposedZxid) + 1;
        if (counter > 0xffffffffL) {
            throw new IllegalStateException("zxid counter exhausted in epoch " + epoch
                    + "; a standalone server cannot start a new epoch without an election");
        }
        lastProposedZxid = Txn.zxid(epoch, counter);
        return lastProposedZxid;
    }

    private void propose(Txn txn) {
        assert txn.zxid() == lastProposedZxid : "proposals must be made in zxid order: " + txn;
        uncommitted.addLast(txn);
        readyEntries.add(txn);
    }

    private void commit(Txn txn) {
        TxnResult result = applier.apply(txn, nowMs);
        prep.applied(txn.zxid());
        deliverWatches(tree.watches().drainFired());
        stats.txnsApplied++;
        Long connId = txn.sessionId() == 0 ? null : connectionBySession.get(txn.sessionId());
        Connection conn = connId == null ? null : connections.get(connId);
        if (conn != null) {
            Connection.Pending p = conn.findWrite(txn.zxid());
            if (p != null) {
                p.result = result;
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

    private void maybeSnapshot() {
        if (++txnsSinceSnapshot >= config.snapCount()) {
            txnsSinceSnapshot = 0;
            readySnapshot = SnapshotCodec.encode(tree, sessions, applier.lastProcessedZxid());
        }
    }

    private void deliverWatches(List<Watches.Fired> fired) {
        for (Watches.Fired f : fired) {
            Connection c = connections.get(f.watcher());
            if (c != null && c.phase != Connection.Phase.CLOSED) {
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
        long lastProcessed = applier.lastProcessedZxid();
        if (c.lastZxidSeen() > lastProcessed) {
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
            Txn txn = prep.createSession(sessionId, timeoutMs, nextZxid(), nowMs);
            propose(txn);
            conn.queue.addLast(new Connection.Pending(
                    new Request(conn.id, sessionId, 0, OpCode.CREATE_SESSION, null, List.of(), nowMs), txn.zxid()));
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
        sessions.touch(sessionId, nowMs);
        Connection.Pending p = new Connection.Pending(marker, 0);
        p.ready = Replies.connectResponse(sessionTimeout, sessionId, sessions.password(sessionId));
        conn.queue.addLast(p);
        drain(conn);
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
        sessions.touch(conn.sessionId, nowMs);
        conn.lastOp = OpCode.name(h.getType());
        if (h.getType() == OpCode.AUTH) {
            handleAuth(conn, h, in);
            return;
        }
        if (h.getType() == OpCode.SASL) {
            throw new IOException("SASL authentication is not supported by this server");
        }
        Object body = Requests.decode(h.getType(), in);
        Request r = new Request(conn.id, conn.sessionId, h.getXid(), h.getType(), body, List.copyOf(conn.authIds), nowMs);
        long waitFor = 0;
        if (r.isWrite()) {
            Txn txn = prep.prepare(r, nextZxid(), nowMs);
            propose(txn);
            waitFor = txn.zxid();
        } else if (r.type() == OpCode.SYNC) {
            waitFor = lastProposedZxid; // the reply waits until everything issued before it is applied
        }
        conn.queue.addLast(new Connection.Pending(r, waitFor));
        drain(conn);
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
            p.ready = Replies.reply(h.getXid(), 0, Err.AUTH_FAILED, null);
            p.closeAfter = true;
        }
        conn.queue.addLast(p);
        drain(conn);
    }

    /** Sends every reply at the head of the queue that can be sent now, in request order. */
    private void drain(Connection conn) {
        while (!conn.queue.isEmpty() && conn.phase != Connection.Phase.CLOSED) {
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
        readySends.add(new Ready.Outbound(conn.id, bytes));
        stats.packetsSent++;
        conn.packetsSent++;
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
        stats.connectionsRejected++;
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
