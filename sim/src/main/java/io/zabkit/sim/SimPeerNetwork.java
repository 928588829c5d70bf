package io.zabkit.sim;

import io.zabkit.runtime.PeerAdmission;
import io.zabkit.zab.Message;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The links between the servers of a simulated ensemble, with the transport contract of
 * {@link Message}: one link per pair, FIFO in each direction while it is up, each message delayed by a
 * draw from the seed (so messages on different links overtake each other). A link breaks on a crash,
 * a partition (PartitionStart) or at random; what was in flight is lost and both ends hear
 * {@code peerDisconnected} at once, before anything sent over the next link. While two servers are
 * cut off, a message between them breaks the (new) link again, except election notifications, which
 * are dropped silently as a connect that fails would drop them.
 *
 * <p>Or, with {@code --election-channel}: election notifications travel on connections of their own
 * ({@link SimElectionChannel}, ZooKeeper's election port), and these links carry everything else.
 */
final class SimPeerNetwork {

    /** Where the network hands messages and link breaks. */
    interface Peer {
        void peerMessage(long from, Message m);

        void peerDisconnected(long peer);
    }

    private record InFlight(long deliverTick, Message message) {}

    /** One direction of the link between two servers. Invariant: deliverTick non-decreasing (FIFO). */
    private static final class Pipe {
        final Deque<InFlight> queue = new ArrayDeque<>();
        long lastDeliverTick;
    }

    /**
     * A stray that a server accepted as member {@code as} (only under PEER_SOURCE_UNCHECKED): for as long
     * as its link lasts it answers that server's messages as a learner that acknowledges everything and
     * stores nothing (the danger of a quorum port without authentication: a non-member counted in quorums).
     */
    private static final class Impostor {
        final long claimedEpoch;
        final long claimedZxid;
        long epoch;

        Impostor(long claimedEpoch, long claimedZxid) {
            this.claimedEpoch = claimedEpoch;
            this.claimedZxid = claimedZxid;
            this.epoch = claimedEpoch;
        }

        /** Its answer to the server's message, or null. */
        Message answer(Message m) {
            if (m instanceof Message.LeaderInfo li) {
                epoch = li.newEpoch();
                return new Message.AckEpoch(claimedEpoch, claimedZxid);
            }
            if (m instanceof Message.NewLeader nl) {
                return new Message.Ack(epoch, nl.zxid());
            }
            if (m instanceof Message.Proposal p) {
                return new Message.Ack(epoch, p.txn().zxid());
            }
            return null;
        }
    }

    private final SimClock clock;
    private final Prng prng;
    private final SimNetwork.Options options;
    private final Trace trace;
    private final Map<Integer, Peer> peers = new TreeMap<>();
    /** Pipes by (from, to); present while the link is up. */
    private final Map<Long, Pipe> pipes = new TreeMap<>();
    /**
     * Link breaks not yet told, as (told, peer) keys: handed over before any later message between the
     * two, and never from inside the core that caused them.
     */
    private final TreeSet<Long> notices = new TreeSet<>();
    /** Impostors by (server, claimed id): the stray holds the link between the two, in both directions. */
    private final Map<Long, Impostor> impostors = new TreeMap<>();
    /** Pairs (smaller, larger) cut by a partition. */
    private final Set<Long> cut = new TreeSet<>();
    /**
     * A silent partition drops nothing and breaks nothing: like TCP across a dead route it holds what is
     * sent until the route heals, and only the cores' own timeouts (syncLimit) notice.
     */
    private boolean silent;
    private long messagesDelivered;
    /** Election notifications' own connections, or null: they share these links (zabkit's PeerLinks). */
    private SimElectionChannel election;
    /** A targeted scenario's rule: whether the link breaks right after this message is delivered (or null). */
    private CutAfter cutAfter;

    /** Decides, after a message from -> to is delivered, whether the link breaks there. */
    interface CutAfter {
        boolean cut(int from, int to, Message delivered);
    }

    void cutAfter(CutAfter rule) {
        this.cutAfter = rule;
    }

    SimPeerNetwork(SimClock clock, Prng prng, SimNetwork.Options options, Trace trace) {
        this.clock = clock;
        this.prng = prng;
        this.options = options;
        this.trace = trace;
    }

    /** Notifications from now on travel on connections of their own, with these draws, from this stream. */
    SimElectionChannel electionChannel(SimElectionChannel.Options electionOptions, Prng electionPrng) {
        election = new SimElectionChannel(clock, electionPrng, electionOptions, trace, new SimElectionChannel.Reach() {
            @Override
            public boolean up(int server) {
                return peers.containsKey(server);
            }

            @Override
            public boolean cut(int a, int b) {
                return cut.contains(pair(a, b));
            }
        }, peers);
        return election;
    }

    void attach(int server, Peer peer) {
        peers.put(server, peer);
    }

    /** NodeCrash: the server's links break; the others hear of it. */
    void down(int server) {
        assert peers.containsKey(server) : "down of a server that is not up: " + server;
        for (int other : new ArrayList<>(peers.keySet())) {
            if (other != server) {
                breakLink(server, other, "crash of " + server, true);
            }
        }
        if (election != null) {
            election.down(server);
        }
        peers.remove(server);
        notices.removeIf(k -> (int) (k >> 16) == server);
    }

    long messagesDelivered() {
        return messagesDelivered + (election == null ? 0 : election.delivered());
    }

    // ------------------------------------------------------------------ partitions

    /** PartitionStart: the two sides can no longer talk; links across break. */
    void partition(Set<Integer> side, Set<Integer> all, boolean silently) {
        silent = silently;
        for (int a : side) {
            for (int b : all) {
                if (!side.contains(b)) {
                    cut.add(pair(a, b));
                    if (!silently) {
                        breakLink(a, b, "partition", true);
                        if (election != null) {
                            election.partition(a, b);
                        }
                    }
                }
            }
        }
    }

    /** PartitionRecover: every pair can talk again. */
    void heal() {
        cut.clear();
    }

    boolean partitioned() {
        return !cut.isEmpty();
    }

    // ------------------------------------------------------------------ traffic

    void send(int from, int to, Message m) {
        if (election != null && m instanceof Message.Notification n) {
            election.send(from, to, n); // the election port: a stray on the quorum port never sees it
            return;
        }
        Impostor impostor = impostors.get(key(from, to));
        if (impostor != null) {
            Message answer = impostor.answer(m); // the stray holds from's link to `to`: the member never sees m
            if (answer != null) {
                enqueue(to, from, answer);
            }
            return;
        }
        if (impostors.containsKey(key(to, from))) {
            // the member's own link replaces the stray's (PeerLinks: a new link from a member ends the old one)
            impostors.remove(key(to, from));
            breakLink(from, to, "server " + from + "'s own link replaces the stray's", false);
        }
        if (!peers.containsKey(to) || (cut.contains(pair(from, to)) && !silent)) {
            if (!(m instanceof Message.Notification)) {
                breakLink(from, to, "send to an unreachable server", true);
            }
            return;
        }
        enqueue(from, to, m);
    }

    /** Puts m on the link from -> to, after a delay drawn from the seed, FIFO behind what is in flight. */
    private void enqueue(int from, int to, Message m) {
        Pipe pipe = pipes.computeIfAbsent(key(from, to), k -> new Pipe());
        pipes.computeIfAbsent(key(to, from), k -> new Pipe()); // a link is both directions
        long at = Math.max(pipe.lastDeliverTick, clock.tick() + prng.delay(options.delayTicksMean(),
                options.delayTicksMax()));
        pipe.lastDeliverTick = at;
        pipe.queue.addLast(new InFlight(at, m));
    }

    /**
     * A stray connection reaches server's quorum port claiming to be claimedId, from source: the runtime's
     * admission rule decides ({@link PeerAdmission}, the same code the server runs). A link it accepted
     * displaces the member's link (both ends hear of it first, as {@code PeerLinks} reports the old
     * link's end before the new one's frames) and an {@link Impostor} speaks for claimedId on it, opening
     * with FOLLOWERINFO (claimedEpoch, claimedZxid), until the link breaks or the member's own link
     * replaces it.
     */
    PeerAdmission.Verdict strayConnect(int server, long claimedId, java.net.InetAddress source,
            Map<Long, java.net.InetSocketAddress> members, boolean checkSource, long claimedEpoch, long claimedZxid) {
        assert peers.containsKey(server) : "a stray reaches a server that is up: " + server;
        PeerAdmission.Verdict v = PeerAdmission.decide(server, claimedId, source, members, checkSource);
        trace.event("peer.stray", "to " + server + " claiming " + claimedId + " from " + source.getHostAddress() + ": "
                + v.reason);
        if (v == PeerAdmission.Verdict.ACCEPT) {
            assert members.containsKey(claimedId) && claimedId < server : "only a member with a smaller id is accepted";
            int as = (int) claimedId;
            breakLink(as, server, "displaced by a stray from " + source.getHostAddress(), true);
            impostors.put(key(server, as), new Impostor(claimedEpoch, claimedZxid));
            enqueue(as, server, new Message.FollowerInfo(claimedEpoch, claimedZxid));
        }
        return v;
    }

    /** The core gave up on its link to a peer: close it, so the peer notices. */
    void reset(int from, int to) {
        breakLink(from, to, "reset by " + from, false);
    }

    /** Random breaks, as with client connections. */
    void maybeBreakLinks() {
        if (election != null) {
            election.maybeBreakOrStall();
        }
        if (options.connectionBreakProbability() <= 0) {
            return;
        }
        for (long k : new ArrayList<>(pipes.keySet())) {
            int from = (int) (k >> 16);
            int to = (int) (k & 0xffff);
            if (from < to && pipes.containsKey(k) && prng.chance(options.connectionBreakProbability())) {
                breakLink(from, to, "random break", true);
            }
        }
    }

    /** Delivers every message due by now, link by link in a fixed order, FIFO within a link. */
    void deliver() {
        flushNotices();
        for (long k : new ArrayList<>(pipes.keySet())) {
            int from = (int) (k >> 16);
            int to = (int) (k & 0xffff);
            Pipe pipe = pipes.get(k);
            if (cut.contains(pair(from, to))) {
                continue; // a silent partition holds the messages
            }
            while (pipe != null && !pipe.queue.isEmpty() && pipe.queue.peekFirst().deliverTick() <= clock.tick()) {
                InFlight f = pipe.queue.removeFirst();
                Peer p = peers.get(to);
                if (p == null) {
                    break;
                }
                if (notices.remove(key(to, from))) {
                    tell(to, from);
                    pipe = pipes.get(k);
                    continue;
                }
                messagesDelivered++;
                trace.event("peer.deliver", from + "->" + to + " " + describe(f.message()));
                p.peerMessage(from, f.message());
                if (cutAfter != null && pipes.containsKey(k) && cutAfter.cut(from, to, f.message())) {
                    breakLink(from, to, "targeted: cut after " + describe(f.message()), true);
                }
                pipe = pipes.get(k); // the handler may have broken this link
            }
        }
        flushNotices();
        if (election != null) {
            election.deliver();
            flushNotices();
        }
    }

    private void flushNotices() {
        while (!notices.isEmpty()) {
            long k = notices.pollFirst();
            tell((int) (k >> 16), (int) (k & 0xffff));
        }
    }

    private void tell(int told, int peer) {
        Peer p = peers.get(told);
        if (p != null) {
            p.peerDisconnected(peer);
        }
    }

    /** Breaks the link a-b: in-flight messages are lost; b is told, and a too when {@code tellA}. */
    private void breakLink(int a, int b, String why, boolean tellA) {
        impostors.remove(key(a, b)); // a stray's link ends with the link it holds
        impostors.remove(key(b, a));
        Pipe ab = pipes.remove(key(a, b));
        Pipe ba = pipes.remove(key(b, a));
        if (ab == null && ba == null) {
            // No link to break: only a failed connect, which the side that tried notices.
            if (tellA && peers.containsKey(a)) {
                trace.event("peer.break", a + "-" + b + " (no link; " + why + ")");
                notices.add(key(a, b));
            }
            return;
        }
        trace.event("peer.break", a + "-" + b + " (" + why + ")");
        if (tellA && peers.containsKey(a)) {
            notices.add(key(a, b));
        }
        if (peers.containsKey(b)) {
            notices.add(key(b, a));
        }
    }

    static String describe(Message m) {
        if (m instanceof Message.Proposal p) {
            return "PROPOSAL " + io.zabkit.txn.Txn.zxidString(p.txn().zxid()) + (p.fast() ? " fast" : "");
        }
        if (m instanceof Message.Snap s) {
            return "SNAP " + io.zabkit.txn.Txn.zxidString(s.zxid()) + " (" + s.snapshot().length + " bytes)";
        }
        if (m instanceof Message.Forward f) {
            return "Forward session 0x" + Long.toHexString(f.sessionId()) + " xid " + f.cxid() + " type " + f.type();
        }
        return m.toString();
    }

    private static long key(int from, int to) {
        return ((long) from << 16) | to;
    }

    private static long pair(int a, int b) {
        return key(Math.min(a, b), Math.max(a, b));
    }
}
