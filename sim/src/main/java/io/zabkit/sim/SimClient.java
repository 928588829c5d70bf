package io.zabkit.sim;

import io.zabkit.wire.Err;
import io.zabkit.wire.OpCode;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.jute.Record;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.proto.AddWatchRequest;
import org.apache.zookeeper.proto.CheckVersionRequest;
import org.apache.zookeeper.proto.ConnectResponse;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.CreateResponse;
import org.apache.zookeeper.proto.DeleteRequest;
import org.apache.zookeeper.proto.ExistsRequest;
import org.apache.zookeeper.proto.ExistsResponse;
import org.apache.zookeeper.proto.GetChildrenRequest;
import org.apache.zookeeper.proto.GetChildrenResponse;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.GetDataResponse;
import org.apache.zookeeper.proto.SetDataRequest;
import org.apache.zookeeper.proto.SetDataResponse;
import org.apache.zookeeper.proto.SetWatches;
import org.apache.zookeeper.proto.SyncRequest;

/**
 * A simulated ZooKeeper client session speaking the real wire protocol. It connects, pipelines up to
 * {@code pipelineDepth} requests, pings when idle, and after a connection break or a server restart
 * reconnects with its session id, password and lastZxidSeen. Requests outstanding on a broken
 * connection complete as :info (writes: they may have happened) or :fail (reads: they had no effect).
 * An expired or closed session is replaced by a new one, as an application makes a new handle.
 */
final class SimClient implements Endpoint {
    /** Client options drawn from the seed. */
    /** keepConnections: a ping's reply may overtake held requests (ZooKeeper's client keeps pings out of its queue). */
    record Options(boolean keepConnections, int pipelineDepth, int sessionTimeoutMs, int reconnectDelayTicksMax, double opProbability,
                   double pauseProbability, int pauseTicksMax) {}

    private enum Phase { IDLE, CONNECTING, HANDSHAKE, CONNECTED }

    /** A request sent and not answered: an op, or a ping (op == null). */
    private record Pending(int xid, int type, ClientOp op) {}

    private final int address;
    /** The ensemble's servers; the client tries them in turn, as ZooKeeper's client does. */
    private final int[] servers;
    private int serverIndex;
    private int server;
    private final Options options;
    private final Prng prng;
    private final SimClock clock;
    private final SimNetwork network;
    private final ClientCodec codec;
    private final Workload workload;
    private final ClientObserver observer;
    private final History history;
    private final Trace trace;

    private Phase phase = Phase.IDLE;
    private long connId = -1;
    private FrameReader frames;
    private long reconnectTick;
    private long pausedUntilTick;
    private long lastSendTick;
    private long sessionId;
    private byte[] password;
    private int timeoutMs;
    private long lastZxidSeen;
    private long maxReplyZxidOnConnection = -1;
    /** The zxid of the SetWatches reply on the current connection, or -1 if none was sent on it. */
    private long watchesRestoredAtZxid = -1;
    private int nextXid = 1;
    private boolean closing;
    private final Deque<Pending> outstanding = new ArrayDeque<>();
    /** Process number per pipeline slot (Jepsen's rule: one op outstanding per process); -1 when busy. */
    private final int[] slotProcess;
    private final boolean[] slotBusy;
    private final Map<String, Integer> knownVersions = new HashMap<>();
    /** Watches this session holds, as a ZooKeeper client's watch manager does; re-sent with SetWatches. */
    /** Watched path -> zxid of the read that set the watch (the state it saw). */
    private final TreeMap<String, Long> dataWatches = new TreeMap<>();
    private final TreeMap<String, Long> existWatches = new TreeMap<>();
    private final TreeMap<String, Long> childWatches = new TreeMap<>();
    private final List<String> ownSequential = new ArrayList<>();

    SimClient(int address, int[] servers, Options options, Prng prng, SimClock clock, SimNetwork network,
              ClientCodec codec, Workload workload, ClientObserver observer, History history, Trace trace) {
        this.address = address;
        this.servers = servers.clone();
        this.serverIndex = servers.length == 1 ? 0 : prng.between(0, servers.length - 1);
        this.server = servers[serverIndex];
        this.options = options;
        this.prng = prng;
        this.clock = clock;
        this.network = network;
        this.codec = codec;
        this.workload = workload;
        this.observer = observer;
        this.history = history;
        this.trace = trace;
        this.slotProcess = new int[options.pipelineDepth()];
        this.slotBusy = new boolean[options.pipelineDepth()];
        for (int i = 0; i < slotProcess.length; i++) {
            slotProcess[i] = history.newProcess();
        }
    }

    int address() {
        return address;
    }

    /** The server this client is (or was last) connected to. */
    int server() {
        return server;
    }

    /** A targeted fault: the connection resets and the client's next connect goes to {@code target}. */
    void moveTo(int target) {
        for (int i = 0; i < servers.length; i++) {
            if (servers[i] == target) {
                serverIndex = i;
            }
        }
        assert servers[serverIndex] == target : "no server " + target;
        if (connId >= 0) {
            network.reset(connId, "client " + address + " moved to server " + target);
        }
    }

    /**
     * A targeted fault: the client process dies (its socket closes, no closeSession) and a new one takes
     * its place with a new session. The old session is abandoned, not ended: only its expiry, on the
     * server, may remove it and its ephemerals (SessionExpiry). Returns the abandoned session (0: none).
     */
    long abandonSession() {
        long abandoned = sessionId;
        if (abandoned == 0 || closing) {
            return 0;
        }
        if (connId >= 0) {
            network.reset(connId, "client " + address + " dies, abandoning session 0x" + Long.toHexString(abandoned));
        }
        sessionId = 0;
        password = null;
        lastZxidSeen = 0; // a new client process: a new handle
        knownVersions.clear();
        ownSequential.clear();
        dataWatches.clear();
        existWatches.clear();
        childWatches.clear();
        trace.event("client.abandon", "client " + address + " abandons session 0x" + Long.toHexString(abandoned));
        return abandoned;
    }

    /**
     * A targeted request: issues {@code op} now if the client is connected with a free pipeline slot.
     * @return whether it went out
     */
    boolean invokeNow(ClientOp op) {
        if (phase != Phase.CONNECTED || closing || freeSlot() < 0 || clock.tick() < pausedUntilTick) {
            return false;
        }
        invoke(op);
        return true;
    }

    /** The ConnectRequest went out and no answer came yet. */
    boolean handshaking() {
        return phase == Phase.HANDSHAKE;
    }

    long lastZxidSeen() {
        return lastZxidSeen;
    }

    long sessionId() {
        return sessionId;
    }

    int outstandingOps() {
        int n = 0;
        for (Pending p : outstanding) {
            n += p.op() == null ? 0 : 1;
        }
        return n;
    }

    /** A SetWatches is in flight: the watches are not yet known to be back on the server. */
    boolean restoringWatches() {
        for (Pending p : outstanding) {
            if (p.type() == OpCode.SET_WATCHES) {
                return true;
            }
        }
        return false;
    }

    boolean isConnected() {
        return phase == Phase.CONNECTED && !closing;
    }

    /** The quiet phase: client faults stop. */
    void endPause() {
        pausedUntilTick = 0;
    }

    /** A watch the client holds: kind 'd' (data), 'e' (exists on a missing node) or 'c' (children). */
    record WatchHeld(char kind, String path, long setAtZxid) {}

    List<WatchHeld> watchesHeld() {
        List<WatchHeld> held = new ArrayList<>();
        dataWatches.forEach((p, z) -> held.add(new WatchHeld('d', p, z)));
        existWatches.forEach((p, z) -> held.add(new WatchHeld('e', p, z)));
        childWatches.forEach((p, z) -> held.add(new WatchHeld('c', p, z)));
        return held;
    }

    long watchesRestoredAtZxid() {
        return watchesRestoredAtZxid;
    }

    /** The largest zxid in a reply (pings included) on the current connection; -1 before any. */
    long maxReplyZxidOnConnection() {
        return maxReplyZxidOnConnection;
    }

    /**
     * One tick of the client: reconnect when due, issue a new operation now and then, ping when idle.
     * @param issueOps false in the quiet phase at the end of a run
     */
    void step(boolean issueOps) {
        long now = clock.tick();
        if (now < pausedUntilTick) {
            return;
        }
        if (issueOps && prng.chance(options.pauseProbability())) {
            pausedUntilTick = now + prng.between(1, options.pauseTicksMax());
            trace.event("client.pause", "client " + address + " until tick " + pausedUntilTick);
            return;
        }
        if (phase == Phase.IDLE && now >= reconnectTick) {
            phase = Phase.CONNECTING;
            frames = new FrameReader(0xfffff);
            server = servers[serverIndex];
            serverIndex = (serverIndex + 1) % servers.length;
            connId = network.connect(address, server);
            return;
        }
        if (phase == Phase.HANDSHAKE && sessionId != 0 && issueOps && freeSlot() >= 0
                && prng.chance(options.opProbability() / 4)) {
            // As a real client does with requests queued while disconnected: sent right behind the
            // ConnectRequest of a resumed session, before its answer.
            invoke(workload.next(prng, address, p -> knownVersions.getOrDefault(p, 0), ownSequential));
            return;
        }
        if (phase != Phase.CONNECTED || closing) {
            return;
        }
        if (issueOps && freeSlot() >= 0 && prng.chance(options.opProbability())) {
            invoke(workload.next(prng, address, p -> knownVersions.getOrDefault(p, 0), ownSequential));
        }
        long pingIntervalTicks = Math.max(1, clock.ticksFor(timeoutMs / 3));
        if (now - lastSendTick >= pingIntervalTicks) {
            send(new Pending(ClientCodec.PING_XID, OpCode.PING, null), codec.ping());
        }
    }

    // ------------------------------------------------------------------ Endpoint

    @Override
    public void accepted(long connId, int peer) {
        throw new IllegalStateException("client " + address + " does not accept connections");
    }

    @Override
    public void connected(long connId) {
        if (connId != this.connId) {
            return;
        }
        phase = Phase.HANDSHAKE;
        maxReplyZxidOnConnection = -1;
        watchesRestoredAtZxid = -1;
        trace.event("client.connect", "client " + address + " conn " + connId + " session 0x"
                + Long.toHexString(sessionId) + " lastZxidSeen=0x" + Long.toHexString(lastZxidSeen));
        network.send(connId, address, codec.connect(lastZxidSeen, options.sessionTimeoutMs(), sessionId, password));
        lastSendTick = clock.tick();
        if (sessionId != 0 && !(dataWatches.isEmpty() && existWatches.isEmpty() && childWatches.isEmpty())) {
            restoreWatches();
        }
    }

    @Override
    public void received(long connId, byte[] bytes) {
        if (connId != this.connId) {
            return;
        }
        try {
            for (byte[] packet : frames.feed(bytes)) {
                if (connId != this.connId) {
                    return; // a reply in this batch ended the connection
                }
                if (phase == Phase.HANDSHAKE) {
                    handshake(codec.decodeConnect(packet));
                } else {
                    reply(packet);
                }
            }
        } catch (IOException e) {
            throw new Violation("WireProtocol", "client " + address + " cannot decode what the server sent on conn "
                    + connId + ": " + e.getMessage());
        }
    }

    @Override
    public void closed(long connId) {
        if (connId != this.connId) {
            return;
        }
        trace.event("client.closed", "client " + address + " conn " + connId + " with " + outstandingOps()
                + " ops outstanding");
        while (!outstanding.isEmpty()) {
            Pending p = outstanding.removeFirst();
            if (p.op() != null) {
                ClientOp op = p.op();
                // A write may have happened; a read had no effect (Jepsen's :info versus :fail).
                complete(op, op.kind.isWrite() ? ClientOp.Outcome.INFO : ClientOp.Outcome.FAIL, Err.CONNECTION_LOSS, -1);
            }
        }
        observer.disconnected(this, connId);
        this.connId = -1;
        phase = Phase.IDLE;
        if (closing) {
            endSession(false);
            closing = false;
        }
        reconnectTick = clock.tick() + prng.between(1, options.reconnectDelayTicksMax());
    }

    // ------------------------------------------------------------------ protocol

    private void handshake(ConnectResponse r) {
        if (r.getTimeOut() <= 0) {
            trace.event("client.expired", "client " + address + " session 0x" + Long.toHexString(sessionId));
            endSession(true);
            phase = Phase.CONNECTED; // the server closes after this answer; nothing more is sent
            closing = true;
            return;
        }
        boolean resumed = sessionId != 0;
        if (resumed && r.getSessionId() != sessionId) {
            throw new Violation("SessionResume", "client " + address + " asked to resume session 0x"
                    + Long.toHexString(sessionId) + " and got 0x" + Long.toHexString(r.getSessionId()));
        }
        sessionId = r.getSessionId();
        password = r.getPasswd();
        timeoutMs = r.getTimeOut();
        phase = Phase.CONNECTED;
        closing = false;
        trace.event("client.session", "client " + address + " " + (resumed ? "resumed" : "new") + " session 0x"
                + Long.toHexString(sessionId) + " timeout " + timeoutMs + "ms");
        observer.sessionStarted(this, sessionId, resumed);
    }

    private void reply(byte[] packet) throws IOException {
        Pending head = outstanding.peekFirst();
        if (options.keepConnections() && head != null && head.type() != OpCode.PING
                && codec.isPingReply(packet)) {
            pingAnsweredOutOfOrder();
            return;
        }
        ClientCodec.Reply r = codec.decodeReply(packet, head == null ? OpCode.PING : head.type());
        if (r.isNotification()) {
            trace.event("client.event", "client " + address + " " + r.event().getPath() + " type "
                    + r.event().getType() + " zxid=0x" + Long.toHexString(r.zxid()));
            observer.notification(this, connId, r.event(), r.zxid());
            watchFired(r.event().getType(), r.event().getPath());
            return;
        }
        observer.reply(this, connId, head == null ? Integer.MIN_VALUE : head.xid(), r.xid(), r.zxid());
        assert head != null && head.xid() == r.xid() : "the FifoClientOrder checker must have stopped the run";
        outstanding.removeFirst();
        maxReplyZxidOnConnection = Math.max(maxReplyZxidOnConnection, r.zxid());
        // Every reply but a ping's raises the zxid reported on reconnect, SetWatches' included, as in
        // ZooKeeper's client (a SetWatches packet goes through its pending queue like any request).
        if (head.type() != OpCode.PING && r.zxid() > lastZxidSeen) {
            lastZxidSeen = r.zxid();
        }
        if (head.op() == null) {
            if (head.type() == OpCode.SET_WATCHES) {
                watchesRestoredAtZxid = r.zxid();
            }
            return; // a ping or SetWatches
        }
        ClientOp op = head.op();
        readResult(op, r);
        // exists on a missing node is a successful read that returns no stat, as the ZooKeeper API has it.
        boolean ok = op.kind == ClientOp.Kind.MULTI ? multiOk(r)
                : r.err() == Err.OK || (op.kind == ClientOp.Kind.EXISTS && r.err() == Err.NO_NODE);
        complete(op, ok ? ClientOp.Outcome.OK : ClientOp.Outcome.FAIL, r.err(), r.zxid());
        watchSet(op);
        if (op.kind == ClientOp.Kind.CLOSE_SESSION && ok) {
            closing = true; // the server closes the connection after this reply
        }
    }

    /**
     * keepConnections: a server without a leader answers pings at once and holds everything else, so a ping's
     * reply overtakes the requests before it; ZooKeeper's client never queues pings with its requests, and
     * neither does this one then. The oldest ping outstanding is the one answered.
     */
    private void pingAnsweredOutOfOrder() {
        for (java.util.Iterator<Pending> it = outstanding.iterator(); it.hasNext(); ) {
            if (it.next().type() == OpCode.PING) {
                it.remove();
                return;
            }
        }
        throw new Violation("FifoClientOrder", "client " + address + " got a ping reply with no ping outstanding");
    }

    /**
     * Re-registers the session's watches on the new connection right behind the ConnectRequest and
     * before any other request, as ZooKeeper's client does: changes missed since lastZxidSeen fire at
     * once, before any reply that could reflect them.
     */
    private void restoreWatches() {
        List<String> data = new ArrayList<>(dataWatches.keySet());
        List<String> exist = new ArrayList<>(existWatches.keySet());
        List<String> child = new ArrayList<>(childWatches.keySet());
        trace.event("client.setWatches", "client " + address + " relativeZxid=0x" + Long.toHexString(lastZxidSeen)
                + " data " + data + " exist " + exist + " child " + child);
        observer.watchesRestored(this, connId, data, exist, child);
        send(new Pending(ClientCodec.SET_WATCHES_XID, OpCode.SET_WATCHES, null),
                codec.request(ClientCodec.SET_WATCHES_XID, OpCode.SET_WATCHES,
                        new SetWatches(lastZxidSeen, data, exist, child)));
    }

    /** A watch event consumes the client's watches it fires, as in ZooKeeper's client. */
    private void watchFired(int type, String path) {
        switch (type) {
            case 1, 3 -> {
                dataWatches.remove(path);
                existWatches.remove(path);
            }
            case 4 -> childWatches.remove(path);
            case 2 -> {
                dataWatches.remove(path);
                existWatches.remove(path);
                childWatches.remove(path);
            }
            default -> { }
        }
    }

    private void watchSet(ClientOp op) {
        if (!op.watch || !op.isOk()) {
            return;
        }
        switch (op.kind) {
            case GET_DATA -> dataWatches.putIfAbsent(op.path, op.zxid);
            case EXISTS -> (op.stat == null ? existWatches : dataWatches).putIfAbsent(op.path, op.zxid);
            case GET_CHILDREN -> childWatches.putIfAbsent(op.path, op.zxid);
            default -> { }
        }
    }

    private static boolean multiOk(ClientCodec.Reply r) {
        if (r.err() != Err.OK) {
            return false;
        }
        for (ClientCodec.MultiResult m : r.multi()) {
            if (m.err() != Err.OK) {
                return false;
            }
        }
        return true;
    }

    private void readResult(ClientOp op, ClientCodec.Reply r) {
        if (op.kind == ClientOp.Kind.MULTI) {
            op.results = r.multi();
            for (int i = 0; i < op.results.size() && i < op.ops.size(); i++) {
                learnVersion(op.ops.get(i).path, op.ops.get(i).kind, op.results.get(i).stat(), op.results.get(i).err());
            }
            return;
        }
        Record body = r.body();
        if (body instanceof CreateResponse c) {
            op.createdPath = c.getPath();
        } else if (body instanceof SetDataResponse s) {
            op.stat = s.getStat();
        } else if (body instanceof GetDataResponse g) {
            op.readData = g.getData();
            op.stat = g.getStat();
        } else if (body instanceof ExistsResponse e) {
            op.stat = e.getStat();
        } else if (body instanceof GetChildrenResponse g) {
            List<String> children = new ArrayList<>(g.getChildren());
            children.sort(null);
            op.children = children;
        }
        learnVersion(op.path, op.kind, op.stat, r.err());
        if (op.createdPath != null && op.mode != null && op.mode.sequential()) {
            ownSequential.add(op.createdPath);
        }
    }

    private void learnVersion(String path, ClientOp.Kind kind, Stat stat, int err) {
        if (path == null) {
            return;
        }
        if (stat != null) {
            knownVersions.put(path, stat.getVersion());
        } else if (err == Err.OK && kind == ClientOp.Kind.CREATE) {
            knownVersions.put(path, 0);
        }
    }

    private void invoke(ClientOp op) {
        int slot = freeSlot();
        assert slot >= 0 : "invoke without a free pipeline slot";
        slotBusy[slot] = true;
        op.slot = slot;
        op.process = slotProcess[slot];
        op.session = sessionId;
        op.connId = connId;
        op.xid = nextXid++;
        op.invokeTick = clock.tick();
        observer.invoked(this, op);
        trace.event("client.invoke", "client " + address + " p" + op.process + " xid " + op.xid + " " + op.describe());
        send(new Pending(op.xid, requestType(op), op), encode(op));
    }

    private void complete(ClientOp op, ClientOp.Outcome outcome, int err, long zxid) {
        op.outcome = outcome;
        op.err = err;
        op.zxid = zxid;
        op.completeTick = clock.tick();
        slotBusy[op.slot] = false;
        if (outcome == ClientOp.Outcome.INFO) {
            slotProcess[op.slot] = history.newProcess(); // Jepsen's rule: an :info retires the process
        }
        trace.event("client.complete", "client " + address + " p" + op.process + " xid " + op.xid + " "
                + op.kind.edn + " " + op.describeOutcome());
        observer.completed(this, op);
    }

    private void endSession(boolean expired) {
        if (sessionId != 0) {
            observer.sessionEnded(this, sessionId, expired);
        }
        sessionId = 0;
        password = null;
        lastZxidSeen = 0; // a new session is a new handle
        knownVersions.clear();
        ownSequential.clear();
        dataWatches.clear();
        existWatches.clear();
        childWatches.clear();
    }

    private void send(Pending p, byte[] bytes) {
        outstanding.addLast(p);
        network.send(connId, address, bytes);
        lastSendTick = clock.tick();
    }

    private int freeSlot() {
        for (int i = 0; i < slotBusy.length; i++) {
            if (!slotBusy[i]) {
                return i;
            }
        }
        return -1;
    }

    private static int requestType(ClientOp op) {
        switch (op.kind) {
            case CREATE: return OpCode.CREATE;
            case DELETE: return OpCode.DELETE;
            case SET_DATA: return OpCode.SET_DATA;
            case CHECK: return OpCode.CHECK;
            case GET_DATA: return OpCode.GET_DATA;
            case EXISTS: return OpCode.EXISTS;
            case GET_CHILDREN: return OpCode.GET_CHILDREN;
            case SYNC: return OpCode.SYNC;
            case MULTI: return OpCode.MULTI;
            case CLOSE_SESSION: return OpCode.CLOSE_SESSION;
            case ADD_WATCH: return OpCode.ADD_WATCH;
            default: throw new IllegalArgumentException("no request type for " + op.kind);
        }
    }

    private byte[] encode(ClientOp op) {
        if (op.kind == ClientOp.Kind.MULTI) {
            List<Integer> types = new ArrayList<>();
            List<Record> bodies = new ArrayList<>();
            for (ClientOp sub : op.ops) {
                types.add(requestType(sub));
                bodies.add(body(sub));
            }
            return codec.multi(op.xid, types, bodies);
        }
        return codec.request(op.xid, requestType(op), body(op));
    }

    private static Record body(ClientOp op) {
        switch (op.kind) {
            case CREATE: return new CreateRequest(op.path, op.data, ClientCodec.OPEN_ACL, op.mode.flags);
            case DELETE: return new DeleteRequest(op.path, op.version);
            case SET_DATA: return new SetDataRequest(op.path, op.data, op.version);
            case CHECK: return new CheckVersionRequest(op.path, op.version);
            case GET_DATA: return new GetDataRequest(op.path, op.watch);
            case EXISTS: return new ExistsRequest(op.path, op.watch);
            case GET_CHILDREN: return new GetChildrenRequest(op.path, op.watch);
            case SYNC: return new SyncRequest(op.path);
            case CLOSE_SESSION: return null;
            case ADD_WATCH: return new AddWatchRequest(op.path, op.recursive ? 1 : 0);
            default: throw new IllegalArgumentException("no request body for " + op.kind);
        }
    }
}
