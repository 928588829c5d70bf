package io.zabkit.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A simulated TCP network between numbered endpoints (servers and clients alike). Each connection is
 * two FIFO pipes; a pipe delivers every byte in order, after a delay drawn per segment, split and
 * coalesced at random so that receivers see any chunking. A break loses what is in flight and both
 * sides see the close; a graceful close arrives after the bytes sent before it.
 *
 * <p>Links are between addresses, not roles, so server-to-server links use the same connections; a
 * partition (PartitionStart / PartitionRecover, next issue) is a set of cut address pairs that
 * {@link #linkUp} consults.
 */
final class SimNetwork {

    /** Network options drawn from the seed. */
    record Options(double delayTicksMean, int delayTicksMax, double splitProbability, double coalesceProbability,
                   double connectionBreakProbability) {}

    private enum State { CONNECTING, OPEN, CLOSED }

    /** One segment in flight; {@code fin} marks a graceful close that follows the bytes before it. */
    private record Segment(long deliverTick, byte[] bytes, boolean fin) {}

    /** A side of a broken connection that has not noticed yet (no keepalive has failed so far). */
    private record LateClose(long noticeTick, int address, long connId) {}

    /** One direction of a connection. Invariant: deliverTick is non-decreasing along the queue (FIFO). */
    private static final class Pipe {
        final Deque<Segment> inFlight = new ArrayDeque<>();
        long lastDeliverTick;
        boolean finSent;
    }

    private static final class Connection {
        final long id;
        final int client;
        final int server;
        final Pipe toServer = new Pipe();
        final Pipe toClient = new Pipe();
        State state = State.CONNECTING;
        long openTick;

        Connection(long id, int client, int server) {
            this.id = id;
            this.client = client;
            this.server = server;
        }

        Pipe from(int address) {
            return address == client ? toServer : toClient;
        }

        int peerOf(int address) {
            return address == client ? server : client;
        }
    }

    private final SimClock clock;
    private final Prng prng;
    private final Options options;
    private final Trace trace;
    private final Map<Integer, Endpoint> endpoints = new TreeMap<>();
    private final Map<Integer, Boolean> up = new TreeMap<>();
    private final Map<Long, Connection> connections = new TreeMap<>();
    private final Deque<LateClose> lateCloses = new ArrayDeque<>();
    private long nextConnId = 1;
    private long bytesDelivered;

    SimNetwork(SimClock clock, Prng prng, Options options, Trace trace) {
        this.clock = clock;
        this.prng = prng;
        this.options = options;
        this.trace = trace;
    }

    void attach(int address, Endpoint endpoint) {
        assert !endpoints.containsKey(address) : "address " + address + " attached twice";
        endpoints.put(address, endpoint);
        up.put(address, true);
    }

    /** Opens a connection from {@code from} to {@code to}; the answer (connected or closed) comes later. */
    long connect(int from, int to) {
        Connection c = new Connection(nextConnId++, from, to);
        connections.put(c.id, c);
        c.openTick = clock.tick() + 1 + drawDelay();
        trace.event("net.connect", "conn " + c.id + " " + from + "->" + to);
        return c.id;
    }

    void send(long connId, int from, byte[] bytes) {
        Connection c = connections.get(connId);
        if (c == null || c.state == State.CLOSED) {
            return; // the peer already closed; a real socket would report it on the next read
        }
        assert c.state == State.OPEN : "send on connection " + connId + " before it is open";
        Pipe pipe = c.from(from);
        if (pipe.finSent) {
            return;
        }
        int offset = 0;
        while (offset < bytes.length) {
            int length = bytes.length - offset;
            if (length > 1 && prng.chance(options.splitProbability())) {
                length = prng.between(1, length - 1);
            }
            byte[] part = new byte[length];
            System.arraycopy(bytes, offset, part, 0, length);
            enqueue(pipe, part, false);
            offset += length;
        }
    }

    /** A graceful close by {@code from}: the peer sees it after every byte sent before it. */
    void close(long connId, int from) {
        Connection c = connections.get(connId);
        if (c == null || c.state == State.CLOSED || c.from(from).finSent) {
            return;
        }
        if (c.state == State.CONNECTING) {
            breakConnection(c, "closed while connecting");
            return;
        }
        enqueue(c.from(from), null, true);
        c.from(from).finSent = true;
    }

    /** The endpoint crashed (NodeCrash) or restarted: its connections break, and the peers notice. */
    void down(int address) {
        up.put(address, false);
        lateCloses.removeIf(late -> late.address() == address);
        for (Connection c : new ArrayList<>(connections.values())) {
            if (c.state != State.CLOSED && (c.client == address || c.server == address)) {
                breakConnection(c, "endpoint " + address + " down");
            }
        }
    }

    void upAgain(int address) {
        up.put(address, true);
    }

    /** Resets one connection (a targeted fault), as a random break would. */
    void reset(long connId, String why) {
        Connection c = connections.get(connId);
        if (c != null) {
            breakConnection(c, why);
        }
    }

    /** Draws a random connection break (a reset) for each open connection. */
    void maybeBreakConnections() {
        if (options.connectionBreakProbability() <= 0) {
            return;
        }
        for (Connection c : new ArrayList<>(connections.values())) {
            if (c.state == State.OPEN && prng.chance(options.connectionBreakProbability())) {
                breakConnection(c, "random break");
            }
        }
    }

    /** Delivers everything due by now, connection by connection in id order. */
    void deliver() {
        long now = clock.tick();
        for (int i = lateCloses.size(); i > 0; i--) {
            LateClose late = lateCloses.removeFirst();
            if (late.noticeTick() > now) {
                lateCloses.addLast(late);
            } else if (up.getOrDefault(late.address(), false)) {
                trace.event("net.noticed", "conn " + late.connId() + " break noticed by " + late.address());
                endpoints.get(late.address()).closed(late.connId());
            }
        }
        for (Connection c : new ArrayList<>(connections.values())) {
            if (c.state == State.CONNECTING && c.openTick <= now) {
                open(c);
            }
            if (c.state == State.OPEN) {
                deliverPipe(c, c.toServer, c.server, now);
            }
            if (c.state == State.OPEN) {
                deliverPipe(c, c.toClient, c.client, now);
            }
            if (c.state == State.CLOSED) {
                connections.remove(c.id);
            }
        }
    }

    long bytesDelivered() {
        return bytesDelivered;
    }

    int openConnections() {
        return connections.size();
    }

    // ------------------------------------------------------------------

    /** Whether two addresses can talk; the hook for partitions. */
    private boolean linkUp(int a, int b) {
        return up.getOrDefault(a, false) && up.getOrDefault(b, false);
    }

    private void open(Connection c) {
        if (!linkUp(c.client, c.server)) {
            trace.event("net.refused", "conn " + c.id + " " + c.client + "->" + c.server);
            c.state = State.CLOSED;
            endpoints.get(c.client).closed(c.id);
            return;
        }
        c.state = State.OPEN;
        c.toServer.lastDeliverTick = clock.tick();
        c.toClient.lastDeliverTick = clock.tick();
        endpoints.get(c.server).accepted(c.id, c.client);
        if (c.state == State.OPEN) {
            endpoints.get(c.client).connected(c.id);
        }
    }

    private void deliverPipe(Connection c, Pipe pipe, int to, long now) {
        List<Segment> due = new ArrayList<>();
        while (!pipe.inFlight.isEmpty() && pipe.inFlight.peekFirst().deliverTick() <= now) {
            due.add(pipe.inFlight.removeFirst());
        }
        int i = 0;
        while (i < due.size() && c.state == State.OPEN) {
            Segment s = due.get(i);
            if (s.fin()) {
                trace.event("net.fin", "conn " + c.id + " -> " + to);
                c.state = State.CLOSED;
                endpoints.get(to).closed(c.id);
                return;
            }
            byte[] bytes = s.bytes();
            i++;
            while (i < due.size() && !due.get(i).fin() && prng.chance(options.coalesceProbability())) {
                bytes = concat(bytes, due.get(i).bytes());
                i++;
            }
            bytesDelivered += bytes.length;
            endpoints.get(to).received(c.id, bytes);
        }
    }

    private void breakConnection(Connection c, String why) {
        if (c.state == State.CLOSED) {
            return;
        }
        boolean wasOpen = c.state == State.OPEN;
        c.state = State.CLOSED;
        c.toServer.inFlight.clear();
        c.toClient.inFlight.clear();
        trace.event("net.break", "conn " + c.id + " " + c.client + "<->" + c.server + " (" + why + ")");
        if (up.getOrDefault(c.client, false)) {
            endpoints.get(c.client).closed(c.id);
        }
        if (wasOpen && up.getOrDefault(c.server, false)) {
            // A reset reaches the client at once, but the server may only notice much later: meanwhile
            // the client reconnects and the session moves to a new connection.
            int lateTicks = why.equals("random break") ? prng.delay(options.delayTicksMean() * 4 + 2, 200) : 0;
            if (lateTicks == 0) {
                endpoints.get(c.server).closed(c.id);
            } else {
                lateCloses.addLast(new LateClose(clock.tick() + lateTicks, c.server, c.id));
            }
        }
    }

    private void enqueue(Pipe pipe, byte[] bytes, boolean fin) {
        long tick = Math.max(pipe.lastDeliverTick, clock.tick() + 1 + drawDelay());
        pipe.lastDeliverTick = tick;
        pipe.inFlight.addLast(new Segment(tick, bytes, fin));
    }

    private int drawDelay() {
        return prng.delay(options.delayTicksMean(), options.delayTicksMax());
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
