package io.zabkit.sim;

import io.zabkit.wire.OpCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.zookeeper.proto.ConnectResponse;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.GetDataResponse;
import org.apache.zookeeper.proto.SetDataRequest;
import org.apache.zookeeper.proto.SetWatches;

/**
 * One session of the availability driver, with the reconnect policy of bench/avail's lean client
 * (`LeanSession`): servers in a fixed order, home first; after a lost connection the next server at
 * once, after a failed attempt the next one {@link #RETRY_PAUSE_MS} later, no random back-off; a
 * connect timeout of the session timeout shared among the servers (at least 500 ms) and a read
 * timeout of two thirds of the negotiated session timeout. A subscriber watches every topic: on a
 * notification it reads the znode with getData (which sets the watch again) and after a renewed or
 * new session re-registers all its watches with one SetWatches from the last zxid it saw. The
 * publisher creates the topics and then changes them round-robin, each value the millisecond it was
 * issued at, so a subscriber knows when a value it reads was written.
 */
final class AvailClient implements Endpoint {
    static final long RETRY_PAUSE_MS = 20;

    enum State { WAITING, CONNECTING, HANDSHAKE, CONNECTED }

    private final int address;
    private final int[] order;
    private final int sessionTimeoutMs;
    private final boolean publisher;
    private final List<String> topics;
    private final SimClock clock;
    private final SimNetwork network;
    private final ClientCodec codec = new ClientCodec(0xfffff);
    /** Request types by xid order: replies come back in the order requests went out. */
    private final Deque<Integer> outstanding = new ArrayDeque<>();

    private FrameReader frames;
    private State state = State.WAITING;
    private int cursor;
    private long connId = -1;
    private long stateSinceMs;
    private long retryAtMs = Long.MAX_VALUE;
    private long sessionId;
    private byte[] password;
    private long lastZxid;
    private int negotiatedTimeoutMs;
    private long lastSendMs;
    private long lastRecvMs;
    private int nextXid = 1;

    // subscriber
    private boolean watching;
    private long faultMs = Long.MAX_VALUE;
    private long disconnectedMs = -1;
    private long reconnectedMs = -1;
    private long rewatchedMs = -1;
    private long windowEndMs = -1;
    private int sessionsLost;
    private int expiries;
    private int attempts;

    // publisher
    private int created;
    private int nextTopic;
    private long writes;

    AvailClient(int address, int[] order, int sessionTimeoutMs, boolean publisher, List<String> topics,
            SimClock clock, SimNetwork network) {
        this.address = address;
        this.order = order.clone();
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.publisher = publisher;
        this.topics = topics;
        this.clock = clock;
        this.network = network;
    }

    /** Starts connecting now (the driver starts clients once the ensemble serves). */
    void start() {
        retryAtMs = clock.nowMs();
    }

    /** The fault's instant: windows are measured from it. */
    void fault(long ms) {
        faultMs = ms;
    }

    boolean watching() {
        return watching;
    }

    /** The parent /avail and every topic. */
    boolean topicsCreated() {
        return created == topics.size() + 1;
    }

    boolean connected() {
        return state == State.CONNECTED;
    }

    int home() {
        return order[0];
    }

    /** Whether this subscriber lost its session's connection after the fault. */
    boolean disconnectedByFault() {
        return disconnectedMs >= 0;
    }

    /** Whether its window is over (or it never had one): a post-fault value reached it after any loss. */
    boolean settled() {
        return windowEndMs >= 0;
    }

    long windowMs() {
        return windowEndMs - faultMs;
    }

    long disconnectMs() {
        return disconnectedMs - faultMs;
    }

    long reconnectMs() {
        return reconnectedMs < 0 ? -1 : reconnectedMs - faultMs;
    }

    long rewatchMs() {
        return rewatchedMs < 0 ? -1 : rewatchedMs - faultMs;
    }

    int expiries() {
        return expiries;
    }

    int attempts() {
        return attempts;
    }

    long writes() {
        return writes;
    }

    /** Timers, once a tick: reconnect when due, connect and read timeouts, pings. */
    void step() {
        long now = clock.nowMs();
        switch (state) {
            case WAITING -> {
                if (now >= retryAtMs) {
                    state = State.CONNECTING;
                    stateSinceMs = now;
                    frames = new FrameReader(0xfffff);
                    outstanding.clear();
                    attempts++;
                    connId = network.connect(address, order[cursor]);
                }
            }
            case CONNECTING, HANDSHAKE -> {
                if (now - stateSinceMs > Math.max(500L, sessionTimeoutMs / order.length)) {
                    fail(now);
                }
            }
            case CONNECTED -> {
                if (now - lastRecvMs > negotiatedTimeoutMs * 2L / 3) {
                    lose(now);
                } else if (now - lastSendMs > negotiatedTimeoutMs / 3) {
                    send(OpCode.PING, codec.ping());
                }
            }
        }
    }

    /** The publisher's next change, if it holds a session: skipped, not queued, while it has none. */
    void publish() {
        assert publisher : "only the publisher writes";
        if (state != State.CONNECTED || !topicsCreated()) {
            return;
        }
        String path = topics.get(nextTopic);
        nextTopic = (nextTopic + 1) % topics.size();
        byte[] value = Long.toString(clock.nowMs()).getBytes(StandardCharsets.US_ASCII);
        send(OpCode.SET_DATA, codec.request(nextXid(), OpCode.SET_DATA, new SetDataRequest(path, value, -1)));
        writes++;
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
        state = State.HANDSHAKE;
        network.send(connId, address, codec.connect(lastZxid, sessionTimeoutMs, sessionId, password));
        lastSendMs = clock.nowMs();
    }

    @Override
    public void received(long connId, byte[] bytes) {
        if (connId != this.connId) {
            return;
        }
        lastRecvMs = clock.nowMs();
        try {
            for (byte[] packet : frames.feed(bytes)) {
                if (connId != this.connId) {
                    return;
                }
                if (state == State.HANDSHAKE) {
                    handshake(codec.decodeConnect(packet));
                } else {
                    reply(packet);
                }
            }
        } catch (IOException e) {
            throw new Violation("WireProtocol", "avail client " + address + ": " + e.getMessage());
        }
    }

    @Override
    public void closed(long connId) {
        if (connId != this.connId) {
            return;
        }
        this.connId = -1;
        if (state == State.CONNECTED) {
            lose(clock.nowMs());
        } else {
            fail(clock.nowMs());
        }
    }

    // ------------------------------------------------------------------

    private void lose(long now) {
        drop();
        sessionsLost++;
        if (now >= faultMs && !publisher) {
            disconnectedMs = disconnectedMs < 0 ? now : disconnectedMs;
            windowEndMs = -1; // a window closes only with a value read after the loss
            reconnectedMs = -1;
            rewatchedMs = -1;
        }
        retryAtMs = now;
    }

    private void fail(long now) {
        drop();
        retryAtMs = now + RETRY_PAUSE_MS;
    }

    private void drop() {
        if (connId >= 0) {
            network.close(connId, address);
        }
        connId = -1;
        cursor = (cursor + 1) % order.length;
        state = State.WAITING;
        stateSinceMs = clock.nowMs();
    }

    private void handshake(ConnectResponse r) {
        if (r.getTimeOut() <= 0) {
            expiries++;
            sessionId = 0; // the server closes; the next attempt starts a new session
            password = null;
            state = State.CONNECTED; // until the close arrives
            negotiatedTimeoutMs = sessionTimeoutMs;
            return;
        }
        sessionId = r.getSessionId();
        password = r.getPasswd();
        negotiatedTimeoutMs = r.getTimeOut();
        state = State.CONNECTED;
        attempts = 0;
        if (clock.nowMs() >= faultMs && reconnectedMs < 0) {
            reconnectedMs = clock.nowMs();
        }
        if (publisher) {
            if (created == 0) {
                send(OpCode.CREATE, codec.request(nextXid(), OpCode.CREATE,
                        new CreateRequest("/avail", new byte[0], ClientCodec.OPEN_ACL, 0)));
                for (String t : topics) {
                    send(OpCode.CREATE, codec.request(nextXid(), OpCode.CREATE,
                            new CreateRequest(t, "0".getBytes(StandardCharsets.US_ASCII), ClientCodec.OPEN_ACL, 0)));
                }
            }
            return;
        }
        if (!watching) {
            // First session: learn a zxid the topics exist at, then set every watch with one SetWatches.
            send(OpCode.GET_DATA, codec.request(nextXid(), OpCode.GET_DATA, new GetDataRequest(topics.get(0), true)));
        } else {
            setWatches();
        }
    }

    private void setWatches() {
        send(OpCode.SET_WATCHES, codec.request(ClientCodec.SET_WATCHES_XID, OpCode.SET_WATCHES,
                new SetWatches(lastZxid, topics, List.of(), List.of())));
    }

    private void reply(byte[] packet) throws IOException {
        Integer head = outstanding.peekFirst();
        ClientCodec.Reply r = codec.decodeReply(packet, head == null ? OpCode.PING : head);
        if (r.isNotification()) {
            String path = r.event().getPath();
            if (!publisher && r.event().getType() == 3) { // NodeDataChanged: read it, which watches again
                send(OpCode.GET_DATA, codec.request(nextXid(), OpCode.GET_DATA, new GetDataRequest(path, true)));
            }
            return;
        }
        assert head != null : "a reply with nothing outstanding on client " + address;
        outstanding.removeFirst();
        if (head != OpCode.PING && r.zxid() > lastZxid) {
            lastZxid = r.zxid();
        }
        if (publisher) {
            if (head == OpCode.CREATE) {
                created += r.err() == 0 || r.err() == -110 ? 1 : 0; // -110: NodeExists
            }
            return;
        }
        if (head == OpCode.SET_WATCHES) {
            watching = true;
            if (clock.nowMs() >= faultMs && rewatchedMs < 0) {
                rewatchedMs = clock.nowMs();
            }
        } else if (head == OpCode.GET_DATA && r.err() == 0) {
            if (!watching) {
                setWatches();
                return;
            }
            byte[] data = ((GetDataResponse) r.body()).getData();
            long issuedMs = Long.parseLong(new String(data, StandardCharsets.US_ASCII));
            if (issuedMs >= faultMs && windowEndMs < 0) {
                windowEndMs = clock.nowMs();
            }
        }
    }

    private void send(int type, byte[] frame) {
        outstanding.addLast(type);
        network.send(connId, address, frame);
        lastSendMs = clock.nowMs();
    }

    private int nextXid() {
        return nextXid++;
    }
}
