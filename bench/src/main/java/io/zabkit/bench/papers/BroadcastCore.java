package io.zabkit.bench.papers;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import io.zabkit.zab.Effects;
import io.zabkit.zab.Message;
import io.zabkit.zab.MessageCodec;
import io.zabkit.zab.Replica;
import io.zabkit.zab.Variant;
import io.zabkit.zab.Zab;
import io.zabkit.zab.ZabConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.txn.CreateTxn;

/**
 * The ZooKeeper paper's Fig 7 (seed 004, lines 329-331) for zabkit: the atomic broadcast alone, with
 * transactions generated at the leader and no clients. N of zabkit's deterministic Zab cores run in
 * this thread, wired by an in-memory network that encodes and decodes every message with the peer
 * links' codec (as the sockets would); a log append is durable at once (no disk). The leader keeps
 * `window` proposals uncommitted. So the figure is Zab's protocol work for the whole ensemble on one
 * core: no sockets, no fsync, no client, no data tree.
 */
final class BroadcastCore {
    private static final int MAX_FRAME = 4 << 20;
    private static final long STEP_MS = 50;
    private static final long ELECTION_BOUND_MS = 60_000;
    /** Held so that the level sticks: the cores' per-event INFO lines would drown the figures. */
    private static final java.util.logging.Logger QUIET = quiet();

    private static java.util.logging.Logger quiet() {
        java.util.logging.Logger l = java.util.logging.Logger.getLogger("zabkit");
        l.setLevel(java.util.logging.Level.WARNING);
        return l;
    }

    /** txns: committed at every server; seconds and cpuSeconds: this thread's wall and CPU time for them. */
    record Result(int servers, long txns, double seconds, double cpuSeconds, long messages) {
        double txnsPerSecond() {
            return txns / seconds;
        }

        double cpuMicrosPerTxn() {
            return cpuSeconds * 1e6 / txns;
        }
    }

    /** One server: its core, what it has applied, how far its log is written and reported durable. */
    private static final class Node implements Replica, Effects {
        final long id;
        final ArrayDeque<Envelope> outbox;
        Zab zab;
        long applied;
        long delivered;
        long logged;
        long reported;

        Node(long id, ArrayDeque<Envelope> outbox) {
            this.id = id;
            this.outbox = outbox;
        }

        // Replica: counts what it applies, in zxid order.
        @Override public long lastProcessedZxid() { return applied; }
        @Override public void deliver(Txn txn) {
            assert txn.zxid() > applied : "delivered out of order: " + txn.zxid() + " after " + applied;
            applied = txn.zxid();
            delivered++;
        }
        @Override public Snapshot snapshotOfAppliedState() {
            throw new IllegalStateException("a fresh in-memory ensemble never needs a SNAP");
        }
        @Override public void install(Snapshot snapshot) {
            throw new IllegalStateException("a fresh in-memory ensemble never needs a SNAP");
        }
        @Override public void startServing(boolean leading) {}
        @Override public void stopServing(String why) {}
        @Override public Txn prepareForwarded(Message.Forward forward, long zxid) {
            throw new IllegalStateException("no clients, so nothing is forwarded");
        }
        @Override public void syncReplied(long sessionId, int cxid, long zxid) {}
        @Override public void sessionsAlive(List<Message.SessionTouch> touches) {}
        @Override public List<Message.SessionTouch> drainTouchedSessions() { return List.of(); }

        // Effects: messages are encoded into the shared queue; the log is durable at once.
        @Override public void truncateLog(long zxid) { logged = Math.min(logged, zxid); reported = logged; }
        @Override public void installSnapshot(Snapshot snapshot) {
            throw new IllegalStateException("a fresh in-memory ensemble never needs a SNAP");
        }
        @Override public void storeEpochs(long acceptedEpoch, long currentEpoch) {}
        @Override public void markSyncTail(long afterZxid, long epoch) {} // never restarted: nothing recovers
        @Override public void log(Txn txn) { logged = Math.max(logged, txn.zxid()); }
        @Override public void send(long to, Message message) {
            outbox.add(new Envelope(id, to, MessageCodec.encode(message)));
        }
        @Override public void resetLink(long peer) {}

        /** Reports the log durable after each event, outside the core's own call (no re-entry). */
        void flush() {
            if (logged > reported) {
                reported = logged;
                zab.persisted(logged);
            }
        }
    }

    private record Envelope(long from, long to, byte[] frame) {}

    private BroadcastCore() {}

    static Result run(int servers, long txns, int window, int dataBytes) {
        if (servers < 1 || txns < 1 || window < 1) {
            throw new IllegalArgumentException("servers, txns and window must be positive");
        }
        ArrayDeque<Envelope> network = new ArrayDeque<>();
        List<Long> voters = LongStream.rangeClosed(1, servers).boxed().toList();
        ZabConfig config = new ZabConfig(voters, 10, 5, 0, Variant.Zab, 0.5, 1);
        List<Node> nodes = new ArrayList<>();
        for (long id : voters) {
            Node n = new Node(id, network);
            n.zab = new Zab(id, config, 1000, n, n, 0, 0, List.of());
            nodes.add(n);
        }
        long[] messages = {0};
        Node leader = elect(nodes, network, messages);
        byte[] data = new byte[dataBytes];
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long cpu0 = cpu.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        long base = leader.delivered;
        long proposed = 0;
        long messages0 = messages[0];
        while (minDelivered(nodes) - base < txns) {
            while (proposed < txns && proposed - (leader.delivered - base) < window) {
                long zxid = leader.zab.nextZxid();
                CreateTxn body = new CreateTxn("/n" + proposed, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, false, 0);
                leader.zab.propose(new Txn(zxid, 0, 0, 0, ZooDefs.OpCode.create, body));
                leader.flush();
                proposed++;
            }
            if (!deliverAll(nodes, network, messages) && proposed >= txns && minDelivered(nodes) - base < txns) {
                throw new IllegalStateException("broadcast stalled: delivered " + (minDelivered(nodes) - base) + " of "
                        + txns);
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpuSeconds = (cpu.getCurrentThreadCpuTime() - cpu0) / 1e9;
        for (Node n : nodes) {
            n.zab.checkInvariants();
        }
        return new Result(servers, txns, seconds, cpuSeconds, messages[0] - messages0);
    }

    private static long minDelivered(List<Node> nodes) {
        return nodes.stream().mapToLong(n -> n.delivered).min().orElseThrow();
    }

    /** Ticks every core on a virtual clock until one leads in broadcast with every follower synced. */
    private static Node elect(List<Node> nodes, ArrayDeque<Envelope> network, long[] messages) {
        for (long now = 0; now < ELECTION_BOUND_MS; now += STEP_MS) {
            for (Node n : nodes) {
                n.zab.tick(now);
                n.flush();
            }
            deliverAll(nodes, network, messages);
            for (Node n : nodes) {
                if (n.zab.isServingLeader() && n.zab.syncedFollowerCount() == nodes.size() - 1
                        && nodes.stream().allMatch(m -> m.zab.isServing())) {
                    return n;
                }
            }
        }
        throw new IllegalStateException("no leader with every follower synced within " + ELECTION_BOUND_MS
                + " virtual ms");
    }

    /** Delivers every queued message, and what those produce, in FIFO order; false if there was none. */
    private static boolean deliverAll(List<Node> nodes, ArrayDeque<Envelope> network, long[] messages) {
        boolean any = false;
        for (Envelope e = network.poll(); e != null; e = network.poll()) {
            any = true;
            messages[0]++;
            Node to = nodes.get((int) e.to() - 1);
            try {
                to.zab.receive(e.from(), MessageCodec.decode(e.frame(), MAX_FRAME));
            } catch (IOException x) {
                throw new UncheckedIOException("a frame the codec wrote does not decode", x);
            }
            to.flush();
        }
        return any;
    }
}
