package io.zabkit.sim;

import io.zabkit.zab.Message.Notification;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;

/**
 * Election notifications on connections of their own, beside the quorum links, as ZooKeeper runs its
 * election (the election port, 3888, beside the quorum port, 2888; QuorumCnxManager and
 * FastLeaderElection.Messenger). zabkit's own runtime sends notifications on its one quorum link per
 * pair ({@code PeerLinks}); the core must hold under either transport, so a run may take this one
 * ({@code --election-channel}, {@link SimOptions#withElectionChannel}). What it adds, all of it ZooKeeper's
 * behaviour:
 * <ul>
 *   <li><b>A send worker per server.</b> Notifications leave through one FIFO per server (FLE's
 *       sendqueue), each made when the core sent it, so it carries the vote and state of that moment.
 *       A connect to a host that does not answer (cut off by a partition, or powered off) blocks that
 *       worker for the connect timeout (ZooKeeper 3.4's synchronous connectOne, cnxTimeout): what the
 *       server sends meanwhile waits, and goes out afterwards, however old. A connect to a crashed
 *       process on a live host is refused at once.</li>
 *   <li><b>One slot per peer</b> (queueSendMap, SEND_CAPACITY 1): a notification not yet written to the
 *       connection is replaced by the next one for that peer.</li>
 *   <li><b>The last notification sent to a peer is sent again</b> when a connection to it starts with
 *       nothing in the slot (SendWorker.run, lastMessageSent), by both ends.</li>
 *   <li><b>Connections of their own:</b> FIFO while up, their own delays, their own random breaks (what
 *       was in flight is lost; the ends are not told, the election re-sends), and stalls (TCP
 *       retransmission backoff after a lost segment: what is written is held until the stall ends, then
 *       delivered in order). A partition cuts them as it cuts the quorum links; a silent one holds them.</li>
 * </ul>
 * A crash loses the server's queue, slots and last-sent notifications (process memory) and its
 * connections with what is in flight on them.
 */
final class SimElectionChannel {

    /**
     * The channel's draws; {@code crashedHostSilent}: a crashed server's host does not answer a connect
     * (it lost power) rather than refusing it at once (its process died). Ticks are the simulator's (10 ms; its tickTime is 100 ms, so ZooKeeper's
     * cnxTimeout of 5 s at a tickTime of 2 s, 2.5 tickTimes, is 25 ticks here).
     */
    record Options(double delayTicksMean, int delayTicksMax, double stallProbability, int stallTicksMax,
            double breakProbability, int connectTimeoutTicks, boolean crashedHostSilent) {
        /** The channel's draws for a seed, from a stream of their own. */
        static Options fromSeed(long seed) {
            Prng p = new Prng(seed ^ 0x3888E1EC7L);
            return new Options(p.pick(0.5, 2.0, 5.0), p.pick(new Integer[] {5, 15, 40}),
                    p.pick(0.0, 0.002, 0.01), p.pick(new Integer[] {20, 60, 200}),
                    p.pick(0.0, 0.001, 0.005), p.pick(new Integer[] {10, 25, 50}), p.chance(0.5));
        }

        /** The longest a notification can take once written, stall included: for the election check. */
        long writtenTicksMax() {
            return (long) delayTicksMax + stallTicksMax;
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "electionDelayTicksMean=%.1f electionDelayTicksMax=%d "
                            + "electionStallProbability=%.3f electionStallTicksMax=%d electionBreakProbability=%.3f "
                            + "electionConnectTimeoutTicks=%d crashedHostSilent=%b", delayTicksMean, delayTicksMax,
                    stallProbability, stallTicksMax, breakProbability, connectTimeoutTicks, crashedHostSilent);
        }
    }

    /** What the channel needs of the quorum network: who is up, who is cut off, whether silently. */
    interface Reach {
        boolean up(int server);

        /** The pair is cut by a partition (a silent one leaves the connections up, holding what they carry). */
        boolean cut(int a, int b);

    }

    /** Told of every notification delivered: the coverage counters' view. */
    interface Observer {
        void delivered(int from, int to, Notification n, long madeTick, boolean resent);
    }

    private record Queued(int to, Notification n, long madeTick) {}

    private record InFlight(long deliverTick, Notification n, long madeTick, boolean resent) {}

    /** The connection between two servers, one pipe per direction. */
    private static final class Connection {
        final Deque<InFlight> ab = new ArrayDeque<>();
        final Deque<InFlight> ba = new ArrayDeque<>();
        long lastDeliverTickAb;
        long lastDeliverTickBa;
        long stalledUntilTick;
    }

    /** One server's sending side. */
    private static final class Sender {
        final Deque<Queued> queue = new ArrayDeque<>();
        long blockedUntilTick;
        /** By peer: the notification waiting to be written (capacity one), and the last one written. */
        final Map<Integer, Queued> slot = new TreeMap<>();
        final Map<Integer, Queued> lastSent = new TreeMap<>();
    }

    private final SimClock clock;
    private final Prng prng;
    private final Options options;
    private final Trace trace;
    private final Reach reach;
    private final Map<Integer, SimPeerNetwork.Peer> peers;
    private final Map<Integer, Sender> senders = new TreeMap<>();
    /** Connections by pair (smaller, larger). */
    private final Map<Long, Connection> connections = new TreeMap<>();
    private Observer observer = (from, to, n, made, resent) -> { };
    private long delivered;

    SimElectionChannel(SimClock clock, Prng prng, Options options, Trace trace, Reach reach,
            Map<Integer, SimPeerNetwork.Peer> peers) {
        this.clock = clock;
        this.prng = prng;
        this.options = options;
        this.trace = trace;
        this.reach = reach;
        this.peers = peers;
    }

    void observer(Observer o) {
        this.observer = o;
    }

    long delivered() {
        return delivered;
    }

    /** The core sent n: it joins its server's send queue, and goes as far as the worker can take it now. */
    void send(int from, int to, Notification n) {
        Sender s = senders.computeIfAbsent(from, k -> new Sender());
        s.queue.addLast(new Queued(to, n, clock.tick()));
        pump(from, s);
    }

    /** NodeCrash (or power loss) of server: its memory and its connections go. */
    void down(int server) {
        senders.remove(server);
        for (int other : new ArrayList<>(peers.keySet())) {
            if (other != server) {
                breakConnection(server, other, "crash of " + server);
            }
        }
    }

    /** PartitionStart (not silent): connections across break. */
    void partition(int a, int b) {
        breakConnection(a, b, "partition");
    }

    /** Random breaks and stalls, per connection and tick. */
    void maybeBreakOrStall() {
        for (Map.Entry<Long, Connection> e : new ArrayList<>(connections.entrySet())) {
            int a = (int) (e.getKey() >> 16);
            int b = (int) (e.getKey() & 0xffff);
            if (options.breakProbability() > 0 && prng.chance(options.breakProbability())) {
                breakConnection(a, b, "random break");
            } else if (options.stallProbability() > 0 && prng.chance(options.stallProbability())) {
                Connection c = e.getValue();
                c.stalledUntilTick = Math.max(c.stalledUntilTick, clock.tick() + prng.between(1, options.stallTicksMax()));
                hold(c.ab, c.stalledUntilTick);
                hold(c.ba, c.stalledUntilTick);
                c.lastDeliverTickAb = Math.max(c.lastDeliverTickAb, c.stalledUntilTick);
                c.lastDeliverTickBa = Math.max(c.lastDeliverTickBa, c.stalledUntilTick);
                trace.event("election.stall", a + "-" + b + " until tick " + c.stalledUntilTick);
            }
        }
    }

    /** What is in flight on a stalled connection arrives after the stall, in order. */
    private static void hold(Deque<InFlight> pipe, long untilTick) {
        int n = pipe.size();
        for (int i = 0; i < n; i++) {
            InFlight f = pipe.removeFirst();
            pipe.addLast(new InFlight(Math.max(f.deliverTick(), untilTick), f.n(), f.madeTick(), f.resent()));
        }
    }

    /** Unblocks workers whose connect timed out, then delivers what is due, connection by connection. */
    void deliver() {
        for (Map.Entry<Integer, Sender> e : new ArrayList<>(senders.entrySet())) {
            pump(e.getKey(), e.getValue());
        }
        for (long k : new ArrayList<>(connections.keySet())) {
            int a = (int) (k >> 16);
            int b = (int) (k & 0xffff);
            deliverPipe(k, a, b, true);
            deliverPipe(k, b, a, false);
        }
    }

    private void deliverPipe(long k, int from, int to, boolean ab) {
        if (reach.cut(from, to)) {
            return; // a silent partition holds them
        }
        Connection c = connections.get(k);
        while (c != null && connections.get(k) == c) {
            Deque<InFlight> pipe = ab ? c.ab : c.ba;
            InFlight f = pipe.peekFirst();
            if (f == null || f.deliverTick() > clock.tick()) {
                return;
            }
            pipe.removeFirst();
            SimPeerNetwork.Peer p = peers.get(to);
            if (p == null) {
                return;
            }
            delivered++;
            trace.event("election.deliver", from + "->" + to + " " + f.n() + (f.resent() ? " (re-sent)" : "")
                    + " made at tick " + f.madeTick());
            observer.delivered(from, to, f.n(), f.madeTick(), f.resent());
            p.peerMessage(from, f.n());
        }
    }

    /** The send worker of server `from` takes what it can from its queue. */
    private void pump(int from, Sender s) {
        while (!s.queue.isEmpty() && clock.tick() >= s.blockedUntilTick && senders.get(from) == s) {
            Queued q = s.queue.removeFirst();
            s.slot.put(q.to(), q); // capacity one: replaces an older notification not yet written
            if (connections.containsKey(pair(from, q.to()))) {
                write(from, q.to(), s);
                continue;
            }
            if (reach.up(q.to()) && !reach.cut(from, q.to())) {
                open(from, q.to());
            } else if (reach.cut(from, q.to()) || (options.crashedHostSilent() && !reach.up(q.to()))) {
                // nothing answers the SYN: the worker waits out the connect timeout (the slot keeps q)
                s.blockedUntilTick = clock.tick() + options.connectTimeoutTicks();
                trace.event("election.connect", from + "->" + q.to() + " times out at tick " + s.blockedUntilTick);
            }
            // else refused at once: q waits in the slot for the next connect
        }
    }

    /** A connection starts: each end's worker writes its slot, or else re-sends the last it wrote. */
    private void open(int from, int to) {
        connections.put(pair(from, to), new Connection());
        trace.event("election.connect", from + "->" + to + " open");
        Sender mine = senders.get(from);
        write(from, to, mine);
        Sender theirs = senders.get(to);
        if (theirs != null) {
            write(to, from, theirs);
        }
    }

    /** Writes the slot for `to`, or re-sends the last notification written to it if the slot is empty. */
    private void write(int from, int to, Sender s) {
        Queued q = s.slot.remove(to);
        boolean resent = q == null;
        if (resent) {
            q = s.lastSent.get(to);
            if (q == null) {
                return;
            }
        }
        s.lastSent.put(to, q);
        Connection c = connections.get(pair(from, to));
        boolean ab = from < to;
        long at = Math.max(ab ? c.lastDeliverTickAb : c.lastDeliverTickBa, Math.max(c.stalledUntilTick,
                clock.tick() + prng.delay(options.delayTicksMean(), options.delayTicksMax())));
        if (ab) {
            c.lastDeliverTickAb = at;
            c.ab.addLast(new InFlight(at, q.n(), q.madeTick(), resent));
        } else {
            c.lastDeliverTickBa = at;
            c.ba.addLast(new InFlight(at, q.n(), q.madeTick(), resent));
        }
    }

    private void breakConnection(int a, int b, String why) {
        if (connections.remove(pair(a, b)) != null) {
            trace.event("election.break", Math.min(a, b) + "-" + Math.max(a, b) + " (" + why + ")");
        }
    }

    private static long pair(int a, int b) {
        return ((long) Math.min(a, b) << 16) | Math.max(a, b);
    }
}
