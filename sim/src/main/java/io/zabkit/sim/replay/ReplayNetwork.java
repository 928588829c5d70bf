package io.zabkit.sim.replay;

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
 * The links between the replayed servers, with the transport contract of {@link Message} (as sim's
 * SimPeerNetwork has it): one FIFO channel per direction, a break loses what is in flight and both ends
 * hear {@code peerDisconnected}. Nothing moves on its own: a message is delivered only when the behaviour
 * receives it. Election notifications are dropped, since Zab.tla's election is an oracle.
 */
final class ReplayNetwork {
    /** Where the network hands messages and link breaks. */
    interface Peer {
        boolean isUp();

        void peerDisconnected(long peer);
    }

    private final Map<Long, Deque<Message>> channels = new TreeMap<>();
    private final Set<Long> cut = new TreeSet<>();
    /** Link breaks not yet told, as (told, peer) keys. */
    private final TreeSet<Long> notices = new TreeSet<>();
    private final Map<Long, Peer> peers = new TreeMap<>();
    private long notificationsDropped;

    void attach(long server, Peer peer) {
        peers.put(server, peer);
    }

    Deque<Message> channel(long from, long to) {
        return channels.computeIfAbsent(key(from, to), k -> new ArrayDeque<>());
    }

    void send(long from, long to, Message m) {
        if (m instanceof Message.Notification) {
            notificationsDropped++;
            return;
        }
        if (!peers.get(to).isUp() || cut.contains(pair(from, to))) {
            breakLink(from, to, true); // as a connect to an unreachable server fails
            return;
        }
        channel(from, to).addLast(m);
    }

    /** A core closed its link to peer: the peer notices. */
    void reset(long from, long to) {
        breakLink(from, to, false);
    }

    /** Breaks the link a-b: what is in flight is lost; b is told, and a too when tellA. */
    void breakLink(long a, long b, boolean tellA) {
        channel(a, b).clear();
        channel(b, a).clear();
        if (peers.get(b).isUp()) {
            notices.add(key(b, a));
        }
        if (tellA && peers.get(a).isUp()) {
            notices.add(key(a, b));
        }
    }

    /** Every link of server breaks (a crash, or a leader that steps down closes them all). */
    void breakAll(long server, boolean tellServer) {
        for (long other : new ArrayList<>(peers.keySet())) {
            if (other != server) {
                breakLink(server, other, tellServer);
            }
        }
    }

    /** NodeCrash: links break, the others hear of it; nothing is told to the crashed server. */
    void down(long server) {
        breakAll(server, false);
        notices.removeIf(k -> (k >> 16) == server);
    }

    void partition(long a, long b) {
        cut.add(pair(a, b));
        breakLink(a, b, true);
    }

    void heal(long a, long b) {
        cut.remove(pair(a, b));
    }

    /** Tells every pending link break; a core may break more links while it hears of one. */
    void flushNotices() {
        for (int round = 0; !notices.isEmpty(); round++) {
            assert round < 10_000 : "link breaks keep causing link breaks";
            long k = notices.pollFirst();
            Peer p = peers.get(k >> 16);
            if (p.isUp()) {
                p.peerDisconnected(k & 0xffff);
            }
        }
    }

    long notificationsDropped() {
        return notificationsDropped;
    }

    private static long key(long from, long to) {
        assert from < 0x10000 && to < 0x10000 : "server ids below 65536";
        return (from << 16) | to;
    }

    private static long pair(long a, long b) {
        return key(Math.min(a, b), Math.max(a, b));
    }
}
