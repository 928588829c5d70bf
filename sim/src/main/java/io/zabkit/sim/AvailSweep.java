package io.zabkit.sim;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The simulator's availability sweep (issue 20 item 4; `make avail-sim`): {@link AvailSim} points
 * grouped in series, each varying one setting from a base while the fault kind varies too, plus the
 * calibration points bench/avail measured on real processes. Writes points.tsv (one row per point),
 * windows.tsv (every disconnected subscriber's window) and summary.md into --out, printing a line per
 * point as it goes. Every point is bounded in simulated time (--bound-s) and in wall time (--wall-s); a
 * subscriber whose window had not closed by then is counted as unsettled, never as a window.
 */
public final class AvailSweep {
    private static final List<AvailSim.Fault> ALL_FAULTS = List.of(AvailSim.Fault.values());

    /** A series: one axis varied over values, every other setting from its base, for each fault. */
    private record Series(String name, String axis, List<Integer> values, List<AvailSim.Fault> faults,
                          AvailSim.Setting base) {}

    private AvailSweep() {}

    public static void main(String[] args) throws IOException {
        Path out = Path.of("results/availability/sim");
        boolean quick = false;
        boolean large = false;
        boolean full = false;
        long seed = 1;
        int seeds = 1;
        long wallBoundMs = 60_000;
        long boundMs = 180_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[++i]);
                case "--quick" -> quick = true;
                case "--large" -> large = true;
                case "--full" -> full = true;
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--seeds" -> seeds = Integer.parseInt(args[++i]);
                case "--wall-s" -> wallBoundMs = Long.parseLong(args[++i]) * 1000;
                case "--bound-s" -> boundMs = Long.parseLong(args[++i]) * 1000;
                default -> {
                    System.err.println("usage: AvailSweep [--out DIR] [--quick] [--full] [--large] [--seed N] [--seeds K]"
                            + " [--wall-s S] [--bound-s S]");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(out);
        List<Series> plan = plan(quick, full, large, boundMs);
        int total = 0;
        for (Series s : plan) {
            total += s.values().size() * s.faults().size() * seeds;
        }
        System.out.printf(Locale.ROOT, "avail-sim: %d points in %d series, seeds %d..%d, bound %d s simulated and %d s"
                + " wall per point, into %s%n", total, plan.size(), seed, seed + seeds - 1, boundMs / 1000,
                wallBoundMs / 1000, out);
        long start = System.nanoTime();
        int done = 0;
        List<String> summary = new ArrayList<>();
        String lastSeries = "";
        try (PrintWriter points = new PrintWriter(Files.newBufferedWriter(out.resolve("points.tsv")));
             PrintWriter windows = new PrintWriter(Files.newBufferedWriter(out.resolve("windows.tsv")))) {
            points.println("series\taxis\tvalue\tfault\tservers\tclients\twatches_per_client\ttick_time_ms\tinit_limit"
                    + "\tsync_limit\tsession_timeout_ms\twrites_per_s\tcpu_us_per_request\tcpu_us_per_watch\tseed"
                    + "\tdisconnected\tunsettled\twindow_min_ms\twindow_median_ms\twindow_p90_ms\twindow_max_ms"
                    + "\tnew_leader_serving_ms\tdisconnect_median_ms\treconnect_median_ms\trewatch_median_ms"
                    + "\texpiries\tsim_ms\twall_ms\ttrace_hash");
            windows.println("series\tvalue\tfault\tseed\twindow_ms");
            for (Series s : plan) {
                for (int v : s.values()) {
                    for (AvailSim.Fault f : s.faults()) {
                        for (long k = seed; k < seed + seeds; k++) {
                            AvailSim.Setting setting = with(s.base(), s.axis(), v, f, k);
                            AvailSim.Outcome o = new AvailSim(setting).run(wallBoundMs);
                            done++;
                            row(points, s, v, o);
                            if (!s.name().equals(lastSeries)) {
                                lastSeries = s.name();
                                summary.add("");
                                summary.add("### " + s.name() + ": " + s.axis() + " varied (" + describe(s.base(), s.axis())
                                        + ")");
                                summary.add("");
                                summary.add("| " + s.axis() + " | fault | disconnected | window min / median / p90 / max ms"
                                        + " | new leader serving ms | reconnect / rewatch median ms | expiries | unsettled |");
                                summary.add("|---|---|---|---|---|---|---|---|");
                            }
                            long[] w = o.windowsMs();
                            String window = w.length == 0 ? "-" : w[0] + " / " + AvailSim.percentile(w, 0.5) + " / "
                                    + AvailSim.percentile(w, 0.9) + " / " + w[w.length - 1];
                            summary.add(String.format(Locale.ROOT, "| %d | %s | %d | %s | %s | %d / %d | %d | %d |",
                                    v, f.label, o.disconnected(), window, o.newLeaderServingMs() < 0 ? "-"
                                    : Long.toString(o.newLeaderServingMs()), o.medianReconnectMs(),
                                    o.medianRewatchMs(), o.expiries(), o.unsettled()));
                            for (long x : o.windowsMs()) {
                                windows.printf(Locale.ROOT, "%s\t%d\t%s\t%d\t%d%n", s.name(), v, f.label, k, x);
                            }
                            points.flush();
                            windows.flush();
                            System.out.printf(Locale.ROOT, "[%d/%d %4.0fs] %-10s %s=%-6d %-16s N=%-5d W=%-5d window"
                                    + " min/median/max %s ms, %d disconnected, %d unsettled, new leader serving %d ms,"
                                    + " %d expiries (%.1f s wall)%n", done, total, (System.nanoTime() - start) / 1e9,
                                    s.name(), s.axis(), v, f.label, setting.clients(), setting.watchesPerClient(),
                                    AvailSim.describe(o.windowsMs()), o.disconnected(), o.unsettled(),
                                    o.newLeaderServingMs(), o.expiries(), o.wallMs() / 1e3);
                        }
                    }
                }
            }
        }
        double wallS = (System.nanoTime() - start) / 1e9;
        List<String> md = new ArrayList<>();
        md.add("# Simulated watch-unavailable windows (generated by AvailSweep; README.md says what they show)");
        md.add("");
        md.add(String.format(Locale.ROOT, "%d points, seeds %d..%d, %.0f s wall. Window = ms from the fault until a"
                + " value written after it reaches the subscriber, over every subscriber that lost its connection.",
                done, seed, seed + seeds - 1, wallS));
        md.addAll(summary);
        Files.write(out.resolve("summary.md"), md);
        System.out.printf(Locale.ROOT, "avail-sim: %d points in %.0f s wall%n", done, wallS);
    }

    /**
     * The default plan. Base: bench/avail's ensemble (5 servers, tickTime 1000 ms, initLimit 10,
     * syncLimit 2, session 10 s) with 200 subscribers of 1,000 watches and 20 changes a second; the
     * calibration series is bench/avail's own points (100 changes a second, N up to 100). --full adds
     * 2,000 clients to the client-count series (the committed run), --large 5,000 and 10,000 watches.
     */
    private static List<Series> plan(boolean quick, boolean full, boolean large, long boundMs) {
        AvailServer.Cpu free = AvailServer.Cpu.FREE;
        AvailSim.Setting real = new AvailSim.Setting(5, 5, 1000, 1000, 10, 2, 10_000, AvailSim.Fault.LEADER_KILL, 100,
                free, 1, boundMs);
        AvailSim.Setting base = new AvailSim.Setting(5, 200, 1000, 1000, 10, 2, 10_000, AvailSim.Fault.LEADER_KILL, 20,
                free, 1, boundMs);
        List<AvailSim.Fault> realFaults = List.of(AvailSim.Fault.FOLLOWER_KILL, AvailSim.Fault.LEADER_KILL,
                AvailSim.Fault.LEADER_PAUSE);
        List<Series> plan = new ArrayList<>();
        if (quick) {
            plan.add(new Series("calibrate", "clients", List.of(5, 25), realFaults, real));
            plan.add(new Series("clients", "clients", List.of(1000), ALL_FAULTS, base));
            plan.add(new Series("cpu", "cpu_us_per_watch", List.of(0, 10), List.of(AvailSim.Fault.LEADER_KILL),
                    base));
            return plan;
        }
        plan.add(new Series("calibrate", "clients", List.of(5, 25, 50, 100), realFaults, real));
        plan.add(new Series("clients", "clients", large ? List.of(100, 1000, 2000, 5000)
                : full ? List.of(100, 1000, 2000) : List.of(100, 1000),
                ALL_FAULTS, base));
        plan.add(new Series("watches", "watches_per_client", large ? List.of(1, 100, 1000, 10_000)
                : List.of(1, 100, 1000, 4000), List.of(AvailSim.Fault.LEADER_KILL, AvailSim.Fault.LEADER_PAUSE), base));
        plan.add(new Series("tickTime", "tick_time_ms", List.of(200, 500, 1000, 2000, 4000), ALL_FAULTS, base));
        plan.add(new Series("syncLimit", "sync_limit", List.of(1, 2, 5, 10), ALL_FAULTS, base));
        plan.add(new Series("initLimit", "init_limit", List.of(2, 5, 10, 20), ALL_FAULTS, base));
        plan.add(new Series("session", "session_timeout_ms", List.of(4_000, 10_000, 30_000, 60_000), ALL_FAULTS, base));
        // What the simulator leaves out, put back as a cost: the server's CPU per watch re-registered
        plan.add(new Series("cpu", "cpu_us_per_watch", List.of(0, 2, 10, 50), ALL_FAULTS, base));
        plan.add(new Series("cpuClients", "clients", large ? List.of(100, 500, 1000, 2000, 5000)
                : full ? List.of(100, 500, 1000, 2000) : List.of(100, 500, 1000),
                List.of(AvailSim.Fault.LEADER_KILL, AvailSim.Fault.FOLLOWER_KILL), withCpu(base, 10)));
        // ZooKeeper's sample zoo.cfg (tickTime 2000, initLimit 10, syncLimit 5) with a 30 s session and the
        // CPU cost above: the settings where the windows reach into System S's 3-100 s
        AvailSim.Setting production = new AvailSim.Setting(5, 200, 1000, 2000, 10, 5, 30_000,
                AvailSim.Fault.LEADER_KILL, 20, new AvailServer.Cpu(0, 10), 1, boundMs);
        plan.add(new Series("production", "clients", large ? List.of(200, 1000, 2000, 5000)
                : full ? List.of(200, 1000, 2000) : List.of(200, 1000), ALL_FAULTS, production));
        return plan;
    }

    private static String describe(AvailSim.Setting b, String varied) {
        StringBuilder d = new StringBuilder(b.servers() + " servers");
        String[][] fields = {
            {"clients", "N " + b.clients()}, {"watches_per_client", "W " + b.watchesPerClient()},
            {"tick_time_ms", "tickTime " + b.tickTimeMs() + " ms"}, {"init_limit", "initLimit " + b.initLimitTicks()},
            {"sync_limit", "syncLimit " + b.syncLimitTicks()}, {"session_timeout_ms", "session " + b.sessionTimeoutMs()
                + " ms"}, {"writes", b.writesPerSecond() + " writes/s"},
            {"cpu_us_per_watch", "CPU " + b.cpu().perWatchUs() + " us/watch"}};
        for (String[] f : fields) {
            if (!f[0].equals(varied)) {
                d.append(", ").append(f[1]);
            }
        }
        return d.toString();
    }

    private static AvailSim.Setting withCpu(AvailSim.Setting b, double perWatchUs) {
        return new AvailSim.Setting(b.servers(), b.clients(), b.watchesPerClient(), b.tickTimeMs(), b.initLimitTicks(),
                b.syncLimitTicks(), b.sessionTimeoutMs(), b.fault(), b.writesPerSecond(),
                new AvailServer.Cpu(b.cpu().perRequestUs(), perWatchUs), b.seed(), b.boundMs());
    }

    /** The base with one axis set to v, this fault and this seed. */
    private static AvailSim.Setting with(AvailSim.Setting b, String axis, int v, AvailSim.Fault f, long seed) {
        int clients = axis.equals("clients") ? v : b.clients();
        int watches = axis.equals("watches_per_client") ? v : b.watchesPerClient();
        int tick = axis.equals("tick_time_ms") ? v : b.tickTimeMs();
        int init = axis.equals("init_limit") ? v : b.initLimitTicks();
        int sync = axis.equals("sync_limit") ? v : b.syncLimitTicks();
        int session = axis.equals("session_timeout_ms") ? v : b.sessionTimeoutMs();
        AvailServer.Cpu cpu = axis.equals("cpu_us_per_watch") ? new AvailServer.Cpu(b.cpu().perRequestUs(), v) : b.cpu();
        return new AvailSim.Setting(b.servers(), clients, watches, tick, init, sync, session, f, b.writesPerSecond(),
                cpu, seed, b.boundMs());
    }

    private static void row(PrintWriter points, Series s, int v, AvailSim.Outcome o) {
        AvailSim.Setting x = o.setting();
        long[] w = o.windowsMs();
        points.printf(Locale.ROOT, "%s\t%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%d\t%d\t%d\t%d\t%d\t%d\t%d"
                        + "\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%016x%n",
                s.name(), s.axis(), v, x.fault().label, x.servers(), x.clients(), x.watchesPerClient(), x.tickTimeMs(),
                x.initLimitTicks(), x.syncLimitTicks(), x.sessionTimeoutMs(), x.writesPerSecond(),
                x.cpu().perRequestUs(), x.cpu().perWatchUs(), x.seed(), o.disconnected(), o.unsettled(),
                w.length == 0 ? -1 : w[0], AvailSim.percentile(w, 0.5), AvailSim.percentile(w, 0.9),
                w.length == 0 ? -1 : w[w.length - 1], o.newLeaderServingMs(), o.medianDisconnectMs(),
                o.medianReconnectMs(), o.medianRewatchMs(), o.expiries(), o.simMs(), o.wallMs(), o.traceHash());
    }
}
