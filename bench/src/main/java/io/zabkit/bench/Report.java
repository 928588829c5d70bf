package io.zabkit.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** The side-by-side table, bench.tsv (one figure per line), bench.png and a README that says how the figures were made. */
final class Report {
    private static final String COL = "%-34s";

    private final BenchOptions options;
    private final List<PointResult> points;
    private final List<CrashRound> crashes;
    private final Map<SystemUnderTest, String> failures;
    private final Instant started;
    private final String loadAtStart;

    Report(BenchOptions options, List<PointResult> points, List<CrashRound> crashes,
            Map<SystemUnderTest, String> failures, Instant started, String loadAtStart) {
        this.options = options;
        this.points = points;
        this.crashes = crashes;
        this.failures = failures;
        this.started = started;
        this.loadAtStart = loadAtStart;
    }

    String table() {
        StringBuilder b = new StringBuilder();
        LoadSettings l = options.load();
        b.append(String.format(Locale.ROOT, "Throughput and latency: %d servers, forceSync=%s, %d clients x %d outstanding, "
                + "%d-byte values, %d keys, %d s per point after %d s warm-up (the first after a %d s JIT warm-up)%n",
                options.servers(), options.forceSync() ? "yes" : "no", l.clients(), l.outstanding(), l.valueBytes(),
                l.keys(), l.measure().toSeconds(), l.warmup().toSeconds(), options.jitWarmupS()));
        b.append(String.format("%-10s", "reads"));
        options.systems().forEach(s -> b.append(String.format("| %-58s", s.label())));
        b.append('\n').append(String.format("%-10s", ""));
        options.systems().forEach(s -> b.append(String.format("| %9s %8s %8s %9s %9s %9s ", "ops/s", "p50 ms", "p99 ms",
                "cpu us/op", "client us", "errors")));
        b.append('\n');
        for (int reads : options.readPercents()) {
            b.append(String.format("%-10s", reads + "%"));
            for (SystemUnderTest s : options.systems()) {
                Optional<PointResult> p = points.stream().filter(x -> x.system() == s && x.readPercent() == reads)
                        .findFirst();
                b.append(p.map(x -> String.format(Locale.ROOT, "| %,9.0f %8.2f %8.2f %9.1f %9.1f %9d ", x.opsPerSecond(),
                        x.p50Ms(), x.p99Ms(), x.serverCpuUsPerOp(), x.clientCpuUsPerOp(), x.errors()))
                        .orElse(String.format("| %-58s", missing(s))));
            }
            b.append('\n');
        }
        b.append('\n').append(String.format("Leader crash: kill -9 of the leader, %d rounds; ms from the kill, "
                + "min / median / max%n", options.crashRounds()));
        b.append(String.format(COL, ""));
        options.systems().forEach(s -> b.append(String.format("| %-22s", s.label())));
        b.append('\n');
        crashRow(b, "new leader serving (srvr poll)", CrashRound::leaderServingMs);
        crashRow(b, "first write, survivor's client", CrashRound::survivorWriteMs);
        crashRow(b, "first write, old leader's client", CrashRound::oldLeaderClientWriteMs);
        failures.forEach((s, why) -> b.append("\n").append(s.label()).append(" did not finish: ")
                .append(why.lines().findFirst().orElse("")));
        return b.toString();
    }

    private void crashRow(StringBuilder b, String name, ToDoubleFunction<CrashRound> ms) {
        b.append(String.format(COL, name));
        for (SystemUnderTest s : options.systems()) {
            double[] v = crashes.stream().filter(c -> c.system() == s).mapToDouble(ms).sorted().toArray();
            b.append(v.length == 0 ? String.format("| %-22s", missing(s))
                    : String.format(Locale.ROOT, "| %5.0f / %5.0f / %5.0f  ", v[0], median(v), v[v.length - 1]));
        }
        b.append('\n');
    }

    private String missing(SystemUnderTest s) {
        return failures.containsKey(s) ? "failed (see below)" : "-";
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    void write(String table) throws IOException {
        Files.createDirectories(options.out());
        Files.writeString(options.out().resolve("bench.tsv"), tsv());
        Plots.write(options.out().resolve("bench.png"), points, crashes, String.format("%d servers, forceSync=%s, "
                + "%d clients x %d outstanding, %d-byte values, %d cores", options.servers(),
                options.forceSync() ? "yes" : "no", options.load().clients(), options.load().outstanding(),
                options.load().valueBytes(), Runtime.getRuntime().availableProcessors()));
        Files.writeString(options.out().resolve("README.md"), readme(table));
    }

    private String tsv() {
        StringBuilder b = new StringBuilder("system\texperiment\tparam\tmetric\tvalue\n");
        for (PointResult p : points) {
            String key = p.system().label() + "\tthroughput\treads_pct=" + p.readPercent() + "\t";
            b.append(String.format(Locale.ROOT, "%sops_per_s\t%.1f%n", key, p.opsPerSecond()));
            b.append(String.format(Locale.ROOT, "%sp50_ms\t%.3f%n", key, p.p50Ms()));
            b.append(String.format(Locale.ROOT, "%sp99_ms\t%.3f%n", key, p.p99Ms()));
            b.append(String.format(Locale.ROOT, "%sserver_cpu_ms\t%.1f%n", key, p.serverCpuMs()));
            b.append(String.format(Locale.ROOT, "%sserver_cpu_us_per_op\t%.2f%n", key, p.serverCpuUsPerOp()));
            b.append(String.format(Locale.ROOT, "%sclient_cpu_us_per_op\t%.2f%n", key, p.clientCpuUsPerOp()));
            b.append(String.format(Locale.ROOT, "%sops\t%d%n%serrors\t%d%n%sseconds\t%.3f%n", key, p.ops(), key,
                    p.errors(), key, p.seconds()));
        }
        for (CrashRound c : crashes) {
            String key = c.system().label() + "\tleader_crash\tround=" + c.round() + "\t";
            b.append(String.format(Locale.ROOT, "%sold_leader\t%d%n%snew_leader\t%d%n", key, c.oldLeader(), key,
                    c.newLeader()));
            b.append(String.format(Locale.ROOT, "%sleader_serving_ms\t%.1f%n", key, c.leaderServingMs()));
            b.append(String.format(Locale.ROOT, "%ssurvivor_write_ms\t%.1f%n", key, c.survivorWriteMs()));
            b.append(String.format(Locale.ROOT, "%sold_leader_client_write_ms\t%.1f%n", key, c.oldLeaderClientWriteMs()));
        }
        return b.toString();
    }

    private String readme(String table) {
        String systems = String.join(",", options.systems().stream().map(SystemUnderTest::label).toList());
        return String.join("\n",
                "# make bench: zabkit and Apache ZooKeeper 3.9.4 ensembles, same machine, same zoo.cfg",
                "",
                "Written by `io.zabkit.bench.BenchMain` (bench/) at the end of its run; regenerate rather than edit.",
                "",
                "- Run: " + started.truncatedTo(ChronoUnit.SECONDS) + " to " + Instant.now().truncatedTo(ChronoUnit.SECONDS)
                        + " (UTC), systems " + systems + (options.quick() ? " (QUICK smoke run)" : ""),
                notRun(),
                "- Machine: " + machine() + "; load average at start " + loadAtStart + ", at end " + loadAverage(),
                "- The machine is shared and noisy (2 cores, other jobs running): the figures move by tens of",
                "  percent between runs; compare systems within one run, not across runs.",
                "- Each system runs alone on a fresh " + options.servers() + "-server ensemble of separate JVMs on "
                        + "127.0.0.1..N (tickTime 1000 ms, initLimit 10, syncLimit 2, forceSync="
                        + (options.forceSync() ? "yes" : "no") + ", -Xmx512m -XX:+UseSerialGC, zabkit without -ea);",
                "  the throughput clients (" + options.client().label() + ") run in the benchmark's own JVM, spread",
                "  round-robin over the servers, reads are getData and writes setData of random keys. Every key is",
                "  created with and set to the same value; 'errors' counts failed replies and reads of other bytes.",
                "- 'cpu us/op': CPU time (user + system) of all the servers' JVMs in the measuring window, per",
                "  successful operation; the other jobs on the machine disturb it far less than throughput.",
                "  'client us' is the load client's (the benchmark's JVM) per operation: on 2 cores the client and",
                "  the servers share the CPU, so a system whose servers need less than the client is client-bound.",
                "- Leader crash: SIGKILL of the leader's PID, timed from the signal; 'srvr poll' is the first time a new leader and a quorum",
                "  of followers answer srvr (20 ms polling); the write figures include the official client's reconnect",
                "  back-off (up to 1 s random sleep, 1 s spin delay), which is the same for both systems.",
                "",
                "## Reproduce",
                "",
                "    make bench                          # both systems, 10 s points, 20 crash rounds",
                "    make bench SYSTEMS=zookeeper        # one system",
                "    make bench QUICK=1                  # 2 s points, 2 rounds; writes bench/target/bench-quick/",
                "    make bench-writes                   # only the 0%-reads point and the crash rounds (bench/target/bench-writes/)",
                "    make bench BENCH_ARGS='--clients 16 --force-sync no'   # any BenchMain option",
                "",
                "## Figures",
                "",
                "```",
                table,
                "```",
                "",
                "bench.tsv holds every figure (one per line); bench.png plots them; bench-output.txt is the run's",
                "output, progress included. What limits each system, with the profiles behind it, is in",
                "[ANALYSIS.md](ANALYSIS.md), written by hand for one run: check its date against this run's.",
                "",
                "![throughput, latency and leader-crash windows](bench.png)",
                "");
    }

    /** Which systems this invocation left out, so a one-system README does not read as a comparison. */
    private String notRun() {
        List<String> absent = Arrays.stream(SystemUnderTest.values()).filter(s -> !options.systems().contains(s))
                .map(SystemUnderTest::label).toList();
        return absent.isEmpty() ? "- Both systems ran, one after the other, in this invocation."
                : "- Not run in this invocation: " + String.join(", ", absent) + " (make bench runs both).";
    }

    static String machine() {
        String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name").orElse("unknown CPU");
        String mem = firstValue(Path.of("/proc/meminfo"), "MemTotal").map(m -> {
            long kb = Long.parseLong(m.replaceAll("[^0-9]", ""));
            return (kb / 1024 / 1024) + " GiB RAM";
        }).orElse("unknown RAM");
        return String.format("%d cores (%s), %s, %s %s, Java %s", Runtime.getRuntime().availableProcessors(), cpu, mem,
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("java.version"));
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
            return String.join(" ", Arrays.asList(f).subList(0, 3));
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static Optional<String> firstValue(Path file, String key) {
        try {
            return Files.readAllLines(file).stream().filter(l -> l.startsWith(key)).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
