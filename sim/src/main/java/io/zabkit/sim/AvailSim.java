package io.zabkit.sim;

import io.zabkit.core.CoreConfig;
import io.zabkit.zab.Variant;
import io.zabkit.zab.ZabConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One point of the availability sweep (issue 20 item 4): an ensemble of the real cores in the
 * simulator, one publisher changing topics round-robin, N subscribers each watching W topics (client
 * i at home on server i mod S, as bench/avail places them), and one fault at a fixed time. The
 * watch-unavailable window of a subscriber is bench/avail's: from the fault until it reads a value
 * written after the fault, counted for every subscriber that lost its connection. Deterministic per
 * seed; bounded in simulated time ({@link Setting#boundMs}) and in wall time.
 */
final class AvailSim {
    static final int FIRST_SERVER = 1;
    static final int FIRST_CLIENT = 1_000;
    static final int MS_PER_TICK = 1;

    enum Fault {
        LEADER_KILL("leader-kill"), FOLLOWER_KILL("follower-kill"), LEADER_PAUSE("leader-pause"),
        LEADER_PARTITION("leader-partition");

        final String label;

        Fault(String label) {
            this.label = label;
        }

        static Fault of(String label) {
            for (Fault f : values()) {
                if (f.label.equals(label)) {
                    return f;
                }
            }
            throw new IllegalArgumentException("unknown fault " + label + "; one of leader-kill, follower-kill,"
                    + " leader-pause, leader-partition");
        }
    }

    /** The settings of one point; timeouts in ZooKeeper's terms (initLimit, syncLimit in ticks). */
    record Setting(int servers, int clients, int watchesPerClient, int tickTimeMs, int initLimitTicks,
                   int syncLimitTicks, int sessionTimeoutMs, Fault fault, int writesPerSecond,
                   AvailServer.Cpu cpu, long seed, long boundMs) {
        Setting {
            if (servers < 3 || clients < 1 || watchesPerClient < 1 || writesPerSecond < 1 || writesPerSecond > 1000) {
                throw new IllegalArgumentException("need 3+ servers, a client, a watch, 1-1000 writes/s: " + this);
            }
        }
    }

    /** What one point measured; every time is ms after the fault. */
    record Outcome(Setting setting, long[] windowsMs, int disconnected, int unsettled, long newLeaderServingMs,
                   int expiries, long medianDisconnectMs, long medianReconnectMs, long medianRewatchMs, long wallMs,
                   long simMs, long traceHash) {}

    private final Setting s;
    private final SimClock clock = new SimClock(MS_PER_TICK);
    private final Trace trace = new Trace(clock, 40, Boolean.getBoolean("avail.trace") ? System.out : null);
    private final SimNetwork network;
    private final SimPeerNetwork peers;
    private final List<AvailServer> servers = new ArrayList<>();
    private final List<AvailClient> subscribers = new ArrayList<>();
    private final List<String> topics = new ArrayList<>();
    /** Made once the ensemble serves: at home on a follower that survives every fault, as bench/avail's is. */
    private AvailClient publisher;
    private final Prng draws;

    AvailSim(Setting s) {
        Simulator.requireAssertions();
        this.s = s;
        Prng root = new Prng(s.seed());
        // loopback between processes on one host: a millisecond a hop, sometimes a few
        SimNetwork.Options net = new SimNetwork.Options(0.3, 3, 0.0, 0.0, 0.0);
        this.network = new SimNetwork(clock, root.fork(), net, trace);
        this.peers = new SimPeerNetwork(clock, root.fork(), net, trace);
        this.draws = root.fork();
        SimOptions.Builder b = new SimOptions.Builder(s.seed(), 0, SimDisk.Mode.HONEST);
        b.msPerTick = MS_PER_TICK;
        b.snapRetainCount = 3;
        b.syncDelayTicksMean = 1.0; // an fsync of a few ms (forceSync=yes on the host's disk)
        b.syncDelayTicksMax = 10;
        b.serverCount = s.servers();
        SimOptions nodeOptions = b.build();
        List<Long> voters = new ArrayList<>();
        for (int i = 0; i < s.servers(); i++) {
            voters.add((long) (FIRST_SERVER + i));
        }
        ZabConfig zab = new ZabConfig(voters, s.initLimitTicks(), s.syncLimitTicks(), 200, Variant.Zab, 1.0, s.seed());
        long secret = root.nextLong();
        for (int i = 0; i < s.servers(); i++) {
            int id = FIRST_SERVER + i;
            // zoo.cfg's maxSessionTimeout raised to the session timeout asked for, so that it is what is swept
            CoreConfig defaults = CoreConfig.defaults(id, s.tickTimeMs(), secret);
            CoreConfig c = new CoreConfig(id, s.tickTimeMs(), defaults.minSessionTimeoutMs(),
                    Math.max(defaults.maxSessionTimeoutMs(), s.sessionTimeoutMs()), 0, defaults.maxBufferBytes(),
                    defaults.snapCount(), true, defaults.fourLetterWords(), secret, "avail-sim", zab);
            SimNode node = new SimNode(id, c, nodeOptions, root.fork(), clock, network, peers, trace, t -> { },
                    t -> { });
            AvailServer server = new AvailServer(node, clock, s.cpu());
            servers.add(server);
            network.attach(id, server);
        }
        for (int t = 0; t < s.watchesPerClient(); t++) {
            topics.add(String.format("/avail/t%06d", t));
        }
        for (int i = 0; i < s.clients(); i++) {
            AvailClient c = new AvailClient(FIRST_CLIENT + i, order(i), s.sessionTimeoutMs(), false, topics, clock,
                    network);
            subscribers.add(c);
            network.attach(FIRST_CLIENT + i, c);
        }
    }

    /** Client i: home on server i mod S, then the others in a random order of its own. */
    private int[] order(int i) {
        int home = FIRST_SERVER + i % s.servers();
        List<Integer> others = new ArrayList<>();
        for (int k = 0; k < s.servers(); k++) {
            if (FIRST_SERVER + k != home) {
                others.add(FIRST_SERVER + k);
            }
        }
        for (int k = others.size() - 1; k > 0; k--) {
            int j = draws.below(k + 1);
            Integer t = others.get(k);
            others.set(k, others.get(j));
            others.set(j, t);
        }
        int[] o = new int[s.servers()];
        o[0] = home;
        for (int k = 0; k < others.size(); k++) {
            o[k + 1] = others.get(k);
        }
        return o;
    }

    Outcome run(long wallBoundMs) {
        long wallStart = System.nanoTime();
        for (AvailServer server : servers) {
            server.node().start();
            peers.attach(server.node().address(), server); // the core attached itself; the pause goes between
        }
        runUntil(() -> servingServers() == s.servers(), 60_000, "the ensemble to serve");
        startPublisher();
        runUntil(publisher::topicsCreated, 60_000, "the publisher to create " + s.watchesPerClient() + " topics");
        subscribers.forEach(AvailClient::start);
        runUntil(() -> subscribers.stream().allMatch(AvailClient::watching), 120_000,
                s.clients() + " subscribers to set their watches");
        long periodMs = Math.max(1, 1000 / s.writesPerSecond());
        long writeFrom = clock.nowMs();
        // a second of changes before the fault, at a random phase of the write period
        long faultMs = writeFrom + 1000 + draws.below((int) periodMs);
        while (clock.nowMs() < faultMs) {
            step(writeFrom, periodMs);
        }
        publisher.fault(faultMs); // before the fault: a kill closes the sockets at once
        subscribers.forEach(c -> c.fault(faultMs));
        int target = inject();
        long servingMs = -1;
        while (!subscribers.stream().allMatch(AvailClient::settled) && clock.nowMs() - faultMs < s.boundMs()
                && (System.nanoTime() - wallStart) / 1_000_000 < wallBoundMs) {
            step(writeFrom, periodMs);
            if (servingMs < 0 && newLeaderServing(target)) {
                servingMs = clock.nowMs() - faultMs;
            }
        }
        List<Long> windows = new ArrayList<>();
        List<Long> disconnects = new ArrayList<>();
        List<Long> reconnects = new ArrayList<>();
        List<Long> rewatches = new ArrayList<>();
        int unsettled = 0;
        int expiries = 0;
        for (AvailClient c : subscribers) {
            expiries += c.expiries();
            if (!c.disconnectedByFault()) {
                continue;
            }
            disconnects.add(c.disconnectMs());
            if (c.reconnectMs() >= 0) {
                reconnects.add(c.reconnectMs());
            }
            if (c.rewatchMs() >= 0) {
                rewatches.add(c.rewatchMs());
            }
            if (c.settled()) {
                windows.add(c.windowMs());
            } else {
                unsettled++;
            }
        }
        long[] w = windows.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Outcome(s, w, disconnects.size(), unsettled, servingMs, expiries, median(disconnects),
                median(reconnects), median(rewatches), (System.nanoTime() - wallStart) / 1_000_000,
                clock.nowMs() - faultMs, trace.hash());
    }

    /**
     * bench/avail's writer: at home on the last follower (the follower kill takes the first), then the
     * servers in id order.
     */
    private void startPublisher() {
        List<Integer> followers = new ArrayList<>();
        for (AvailServer x : servers) {
            if (!x.node().core().zab().isServingLeader()) {
                followers.add(x.node().address());
            }
        }
        int home = followers.get(followers.size() - 1);
        int[] order = new int[s.servers()];
        order[0] = home;
        int k = 1;
        for (AvailServer x : servers) {
            if (x.node().address() != home) {
                order[k++] = x.node().address();
            }
        }
        publisher = new AvailClient(FIRST_CLIENT - 1, order, s.sessionTimeoutMs(), true, topics, clock, network);
        network.attach(FIRST_CLIENT - 1, publisher);
        publisher.start();
    }

    /** The fault; returns the server it hit. */
    private int inject() {
        AvailServer leader = servers.stream().filter(x -> x.node().isUp() && x.node().core().zab().isServingLeader())
                .findFirst().orElseThrow(() -> new IllegalStateException("no serving leader at the fault"));
        AvailServer target = leader;
        if (s.fault() == Fault.FOLLOWER_KILL) {
            target = servers.stream().filter(x -> x != leader).findFirst().orElseThrow();
        }
        int id = target.node().address();
        trace.event("avail.fault", s.fault().label + " of server " + id);
        switch (s.fault()) {
            case LEADER_KILL, FOLLOWER_KILL -> target.node().crash(); // kill -9: the sockets close (RST)
            case LEADER_PAUSE -> target.pause(); // SIGSTOP, held for the rest of the point
            case LEADER_PARTITION -> {
                // the leader cut off from the other servers, silently (packets dropped: only timeouts
                // notice); its clients still reach it, as in the campaigns' partition of the leader
                Set<Integer> all = new TreeSet<>();
                servers.forEach(x -> all.add(x.node().address()));
                peers.partition(Set.of(id), all, true);
            }
        }
        return id;
    }

    private boolean newLeaderServing(int target) {
        if (s.fault() == Fault.FOLLOWER_KILL) {
            return false; // the leader stays: no new one to wait for
        }
        for (AvailServer x : servers) {
            if (x.node().address() != target && !x.paused() && x.node().isUp()
                    && x.node().core().zab().isServingLeader()) {
                return true;
            }
        }
        return false;
    }

    private int servingServers() {
        int n = 0;
        for (AvailServer x : servers) {
            if (x.node().isUp() && x.node().core().zab().isServing()) {
                n++;
            }
        }
        return n;
    }

    private void runUntil(java.util.function.BooleanSupplier done, long boundMs, String what) {
        long until = clock.nowMs() + boundMs;
        while (!done.getAsBoolean()) {
            if (clock.nowMs() >= until) {
                throw new IllegalStateException("seed " + s.seed() + ": gave up waiting " + boundMs + " ms for " + what);
            }
            step(-1, 0);
        }
    }

    /** One tick, in the order the simulator's step has: servers, client network, peer network, clients. */
    private void step(long writeFrom, long periodMs) {
        clock.advance();
        for (AvailServer x : servers) {
            x.tick();
        }
        network.deliver();
        peers.deliver();
        if (publisher != null) {
            if (writeFrom >= 0 && (clock.nowMs() - writeFrom) % periodMs == 0) {
                publisher.publish();
            }
            publisher.step();
        }
        for (AvailClient c : subscribers) {
            c.step();
        }
    }

    private static long median(List<Long> xs) {
        if (xs.isEmpty()) {
            return -1;
        }
        long[] a = xs.stream().mapToLong(Long::longValue).sorted().toArray();
        return a[a.length / 2];
    }

    static long percentile(long[] sorted, double q) {
        return sorted.length == 0 ? -1 : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    }

    static String describe(long[] sorted) {
        return sorted.length == 0 ? "-" : sorted[0] + " / " + percentile(sorted, 0.5) + " / " + sorted[sorted.length - 1];
    }
}
