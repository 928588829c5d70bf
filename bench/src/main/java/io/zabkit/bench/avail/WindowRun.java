package io.zabkit.bench.avail;

import io.zabkit.bench.Ensemble;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * One round of the watch-unavailable window experiment: N subscribers spread evenly over the servers
 * and one publisher changing the topics at a fixed rate; a no-fault baseline (how long a change takes
 * to reach every subscriber at this load); then kill -9 of a follower or the leader, and per client
 * the time until a change issued after the kill reaches it; finally the victim is restarted and the
 * whole ensemble serves again, so rounds are independent.
 */
final class WindowRun {
    private static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final long POLL_MS = 20;

    /**
     * @param writesPerSecond the publisher's rate: a window is known to within one period of it
     * @param maxWindow how long a round waits for every client before it records the rest as unmeasured
     */
    record Settings(List<String> topics, int writesPerSecond, int sessionTimeoutMs, Duration warmup,
            Duration maxWindow, long seed) {}

    private WindowRun() {}

    static Round round(Ensemble e, Fault fault, String clientKind, int n, Settings s) throws Exception {
        int leader = e.awaitQuorum(QUORUM_TIMEOUT);
        List<Integer> followers = e.ids().stream().filter(id -> id != leader).toList();
        int victim = fault.hitsLeader() ? leader : followers.get(0);
        int writerHome = followers.get(followers.size() - 1); // a follower that survives either fault
        List<InetSocketAddress> servers = e.ids().stream().map(e::clientAddress).toList();
        List<InetSocketAddress> writerOrder = new java.util.ArrayList<>(servers);
        writerOrder.remove(e.clientAddress(writerHome));
        writerOrder.add(0, e.clientAddress(writerHome));
        try (Writer writer = new Writer(s.topics(), s.writesPerSecond(), writerOrder, s.sessionTimeoutMs());
                WatchFleet fleet = clientKind.equals("java")
                        ? new JavaFleet(servers, n, s.topics(), s.sessionTimeoutMs(), s.seed())
                        : new LeanFleet(servers, n, s.topics(), s.sessionTimeoutMs(), s.seed())) {
            fleet.awaitReady(READY_TIMEOUT);
            writer.start();
            Thread.sleep(s.warmup().toMillis());
            List<ClientWindow> baseline = baseline(fleet, s);

            long cpu0 = processCpuNs();
            fleet.arm(System.nanoTime()); // records losses from now on; the mark moves to the signal below
            long faultNs = fault.pauses() ? e.pauseTimed(victim) : e.killTimed(victim);
            long faultWall = System.currentTimeMillis() - (System.nanoTime() - faultNs) / 1_000_000;
            fleet.rebase(faultNs);
            writer.arm(faultNs);
            double servingMs = Double.NaN;
            int newLeader = leader;
            long deadline = faultNs + s.maxWindow().toNanos();
            while (System.nanoTime() < deadline && (fleet.closed() < n || writer.firstAckAfterArmNs() == 0
                    || (fault.hitsLeader() && Double.isNaN(servingMs)))) {
                if (fault.hitsLeader() && Double.isNaN(servingMs)) {
                    OptionalInt now = newLeader(e, leader);
                    if (now.isPresent()) {
                        servingMs = (System.nanoTime() - faultNs) / 1e6;
                        newLeader = now.getAsInt();
                    }
                }
                Thread.sleep(POLL_MS);
            }
            double seconds = (System.nanoTime() - faultNs) / 1e9;
            double cpuPerS = (processCpuNs() - cpu0) / 1e6 / seconds;
            long ack = writer.firstAckAfterArmNs();
            Round r = new Round(e.system(), fleet.kind(), fault, n, victim, leader, newLeader, servingMs,
                    ack == 0 ? Double.NaN : (ack - faultNs) / 1e6, fleet.windows(), baseline, cpuPerS, loadAverage(),
                    faultWall);
            writer.stop();
            fleet.close();
            if (fault.pauses()) {
                e.resume(victim);
            } else {
                e.restart(victim);
            }
            e.awaitQuorum(QUORUM_TIMEOUT);
            return r;
        }
    }

    /** Without a fault: how long until a change issued now reaches each client (the load's own delay). */
    private static List<ClientWindow> baseline(WatchFleet fleet, Settings s) throws Exception {
        long t0 = System.nanoTime();
        fleet.arm(t0);
        long deadline = t0 + Duration.ofSeconds(10).toNanos();
        while (fleet.closed() < fleet.size() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        if (fleet.closed() < fleet.size()) {
            throw new IllegalStateException("before any fault, only " + fleet.closed() + " of " + fleet.size()
                    + " clients received a change within 10 s: the load is too high for this machine");
        }
        return fleet.windows();
    }

    /**
     * A server other than the old leader leading a quorum, per srvr of the other servers only (a
     * paused old leader would hold every poll for the read timeout).
     */
    private static OptionalInt newLeader(Ensemble e, int oldLeader) {
        int leader = -1;
        int serving = 0;
        for (int id : e.ids()) {
            if (id == oldLeader || !e.isRunning(id)) {
                continue;
            }
            String mode = e.srvr(id).map(WindowRun::mode).orElse("-");
            if (mode.equals("leader")) {
                leader = id;
            }
            serving += mode.equals("leader") || mode.equals("follower") ? 1 : 0;
        }
        return leader > 0 && serving > e.size() / 2 ? OptionalInt.of(leader) : OptionalInt.empty();
    }

    private static String mode(String srvrReply) {
        return srvrReply.lines().filter(l -> l.startsWith("Mode: ")).map(l -> l.substring(6).strip()).findFirst()
                .orElse("-");
    }

    static long processCpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (Exception e) {
            return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        }
    }
}
