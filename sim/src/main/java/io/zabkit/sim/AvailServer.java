package io.zabkit.sim;

import io.zabkit.zab.Message;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Stands between the simulated networks and one {@link SimNode} of the availability driver
 * ({@link AvailSim}), for the two things a server of the real runs has and the core alone does not:
 * a process that can be stopped (SIGSTOP: the kernel still accepts connections and buffers bytes,
 * nothing is processed) and, optionally, a CPU that takes time per request and per watch, so that
 * many clients re-registering their watches at once queue behind each other. With no cost and no
 * pause every event passes straight through, in the order the networks deliver it.
 */
final class AvailServer implements Endpoint, SimPeerNetwork.Peer {
    /** What a request costs the server's one request thread, microseconds. */
    record Cpu(double perRequestUs, double perWatchUs) {
        static final Cpu FREE = new Cpu(0, 0);

        boolean free() {
            return perRequestUs <= 0 && perWatchUs <= 0;
        }
    }

    private static final int SET_WATCHES = 101;

    private final SimNode node;
    private final SimClock clock;
    private final Cpu cpu;
    /** Client-side events waiting for the CPU (or for the process to continue), FIFO. */
    private final Deque<Deferred> queue = new ArrayDeque<>();
    /** Peer events that arrived while the process was stopped. */
    private final Deque<Runnable> peerHeld = new ArrayDeque<>();
    private final java.util.Map<Long, byte[]> partial = new java.util.HashMap<>();
    private final java.util.Set<Long> handshaken = new java.util.HashSet<>();
    private double busyUntilUs;
    private boolean paused;
    private long watchesRegistered;

    private record Deferred(double readyUs, Runnable event) {}

    AvailServer(SimNode node, SimClock clock, Cpu cpu) {
        this.node = node;
        this.clock = clock;
        this.cpu = cpu;
    }

    SimNode node() {
        return node;
    }

    /** SIGSTOP: from now on nothing reaches the core and the core does not tick. */
    void pause() {
        paused = true;
    }

    boolean paused() {
        return paused;
    }

    long watchesRegistered() {
        return watchesRegistered;
    }

    /** One tick: the core's clock, then whatever the CPU has finished by now. */
    void tick() {
        if (paused) {
            return;
        }
        node.tick();
        double nowUs = clock.nowMs() * 1000.0;
        while (!queue.isEmpty() && queue.peekFirst().readyUs() <= nowUs) {
            queue.removeFirst().event().run();
        }
    }

    // ------------------------------------------------------------------ Endpoint

    @Override
    public void accepted(long connId, int peer) {
        handshaken.remove(connId);
        partial.remove(connId);
        defer(0, () -> {
            if (node.isUp()) {
                node.accepted(connId, peer);
            }
        });
    }

    @Override
    public void connected(long connId) {
        node.connected(connId);
    }

    @Override
    public void received(long connId, byte[] bytes) {
        if (cpu.free()) {
            defer(0, () -> deliver(connId, bytes));
            return;
        }
        // Frame by frame, each charged when it is complete, so a big SetWatches costs what its watches do.
        byte[] buffer = concat(partial.remove(connId), bytes);
        int pos = 0;
        while (buffer.length - pos >= 4) {
            int len = ((buffer[pos] & 0xff) << 24) | ((buffer[pos + 1] & 0xff) << 16)
                    | ((buffer[pos + 2] & 0xff) << 8) | (buffer[pos + 3] & 0xff);
            if (buffer.length - pos - 4 < len) {
                break;
            }
            byte[] frame = java.util.Arrays.copyOfRange(buffer, pos, pos + 4 + len);
            defer(costUs(connId, frame), () -> deliver(connId, frame));
            pos += 4 + len;
        }
        if (pos < buffer.length) {
            partial.put(connId, java.util.Arrays.copyOfRange(buffer, pos, buffer.length));
        }
    }

    @Override
    public void closed(long connId) {
        partial.remove(connId);
        handshaken.remove(connId);
        defer(0, () -> {
            if (node.isUp()) {
                node.closed(connId);
            }
        });
    }

    // ------------------------------------------------------------------ SimPeerNetwork.Peer

    @Override
    public void peerMessage(long from, Message m) {
        if (paused) {
            peerHeld.addLast(() -> node.peerMessage(from, m));
            return;
        }
        node.peerMessage(from, m);
    }

    @Override
    public void peerDisconnected(long peer) {
        if (paused) {
            peerHeld.addLast(() -> node.peerDisconnected(peer));
            return;
        }
        node.peerDisconnected(peer);
    }

    // ------------------------------------------------------------------

    private void deliver(long connId, byte[] bytes) {
        if (node.isUp()) {
            node.received(connId, bytes);
        }
    }

    /** Runs the event now if nothing is ahead of it and it is free, else queues it behind the CPU. */
    private void defer(double costUs, Runnable event) {
        double nowUs = clock.nowMs() * 1000.0;
        if (!paused && queue.isEmpty() && costUs <= 0 && busyUntilUs <= nowUs) {
            event.run();
            return;
        }
        busyUntilUs = Math.max(busyUntilUs, nowUs) + costUs;
        queue.addLast(new Deferred(busyUntilUs, event));
    }

    /** The first frame of a connection is its ConnectRequest; after it, a request header (xid, type). */
    private double costUs(long connId, byte[] frame) {
        if (handshaken.add(connId) || frame.length < 12) {
            return cpu.perRequestUs();
        }
        int type = readInt(frame, 8);
        if (type != SET_WATCHES || frame.length < 24) {
            return cpu.perRequestUs();
        }
        int dataWatches = Math.max(0, readInt(frame, 20)); // after the length, xid, type and relativeZxid
        watchesRegistered += dataWatches;
        return cpu.perRequestUs() + cpu.perWatchUs() * dataWatches;
    }

    private static int readInt(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        if (a == null) {
            return b;
        }
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
