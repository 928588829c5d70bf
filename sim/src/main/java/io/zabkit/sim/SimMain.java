package io.zabkit.sim;

import io.zabkit.zab.Bug;
import io.zabkit.zab.Variant;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Command line: {@code --seed N} runs one seed (with {@code --trace}, every event; with
 * {@code --history FILE}, the EDN history); {@code --seeds COUNT} runs COUNT seeds from N on, with
 * progress every {@code --progress-every} seeds and a summary ({@code --hashes}: also each seed's trace
 * hash, to compare two builds seed by seed); {@code --shard i/N} runs only the i-th of N disjoint blocks
 * of those seeds, and {@code --result FILE} writes the sweep's machine-readable result (see
 * {@link ShardReport}; bin/sim-merge merges shards). Exit status 1 when a seed fails.
 */
public final class SimMain {
    static final int TICKS_DEFAULT = 600;

    public static void main(String[] args) throws IOException {
        try {
            Simulator.requireAssertions();
        } catch (IllegalStateException e) {
            System.err.println("sim: " + e.getMessage());
            System.exit(2);
        }
        long seed = System.nanoTime();
        long seeds = 1;
        int ticks = TICKS_DEFAULT;
        SimDisk.Mode disk = SimDisk.Mode.HONEST;
        boolean fullTrace = false;
        Path historyFile = null;
        long progressEvery = 1000;
        int servers = 1;
        int observers = 0;
        Variant variant = Variant.Zab;
        boolean breakAssumption = false;
        String shard = null;
        Path resultFile = null;
        boolean printHashes = false;
        java.util.Set<Bug> bugs = java.util.EnumSet.noneOf(Bug.class);
        Path traceOut = null;
        boolean faultFree = false;
        boolean withoutScenarios = false;
        boolean electionChannel = false;
        boolean rackPowerLoss = false;
        boolean keepConnections = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--seed" -> seed = Long.parseLong(value(args, ++i, a));
                case "--seeds" -> seeds = Long.parseLong(value(args, ++i, a));
                case "--ticks" -> ticks = Integer.parseInt(value(args, ++i, a));
                case "--disk" -> disk = SimDisk.Mode.valueOf(value(args, ++i, a).toUpperCase(Locale.ROOT).replace('-', '_'));
                case "--trace" -> fullTrace = true;
                case "--history" -> historyFile = Path.of(value(args, ++i, a));
                case "--progress-every" -> progressEvery = Long.parseLong(value(args, ++i, a));
                case "--servers" -> servers = Integer.parseInt(value(args, ++i, a));
                case "--observers" -> observers = Integer.parseInt(value(args, ++i, a));
                case "--variant" -> variant = Variant.parse(value(args, ++i, a));
                case "--break-fault-assumption" -> breakAssumption = true;
                case "--shard" -> shard = value(args, ++i, a);
                case "--result" -> resultFile = Path.of(value(args, ++i, a));
                case "--hashes" -> printHashes = true;
                case "--bug" -> {
                    try {
                        bugs.addAll(Bug.parseList(value(args, ++i, a)));
                    } catch (IllegalArgumentException e) {
                        usage(e.getMessage());
                    }
                }
                case "--trace-out" -> traceOut = Path.of(value(args, ++i, a));
                case "--fault-free" -> faultFree = true;
                case "--without-scenarios" -> withoutScenarios = true;
                case "--election-channel" -> electionChannel = true;
                case "--rack-power-loss" -> rackPowerLoss = true;
                case "--keep-connections" -> keepConnections = true;
                default -> usage("unknown option " + a);
            }
        }
        if (seeds < 1 || ticks < 1 || progressEvery < 1 || servers < 1 || servers > 9) {
            usage("--seeds, --ticks and --progress-every must be positive, --servers between 1 and 9");
        }
        if (observers < 0 || observers > 0 && (servers < 2 || variant != Variant.Zab || servers + observers > 9)) {
            usage("--observers go beside an ensemble of at least 2 voters with --variant Zab, 9 servers in all");
        }
        if (observers > 0 && traceOut != null) {
            usage("--trace-out validates against spec/Zab.tla, which has no observers");
        }
        if (variant == Variant.ZabAc && servers != 3) {
            usage("ZabAc is defined for 3 servers only");
        }
        if ((shard != null || resultFile != null) && (fullTrace || historyFile != null)) {
            usage("--shard and --result describe a sweep; --trace and --history replay one seed");
        }
        if (traceOut != null && seeds > 1 && (shard != null || resultFile != null || !traceOut.toString().contains("{seed}"))) {
            usage("--trace-out with --seeds needs {seed} in the path (one trace per seed), and no --shard or --result");
        }
        Shape shape = new Shape(ticks, disk, servers, observers, variant, breakAssumption, printHashes, faultFree,
                withoutScenarios, electionChannel, rackPowerLoss, java.util.Set.copyOf(bugs), keepConnections);
        SeedPlan plan;
        try {
            plan = shard == null ? SeedPlan.unsharded(seed, seeds) : SeedPlan.parse(seed, seeds, shard);
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
            return;
        }
        if (traceOut != null && seeds > 1) {
            System.exit(traceMany(seed, seeds, shape, traceOut.toString()));
        }
        boolean sweep = seeds > 1 || shard != null || resultFile != null;
        int status = sweep ? runMany(plan, shape, progressEvery, resultFile) : runOne(seed, shape, fullTrace, historyFile, traceOut);
        System.exit(status);
    }

    /** What every seed of a run shares. */
    record Shape(int ticks, SimDisk.Mode disk, int servers, int observers, Variant variant, boolean breakAssumption,
                 boolean printHashes, boolean faultFree, boolean withoutScenarios, boolean electionChannel,
                 boolean rackPowerLoss, java.util.Set<Bug> bugs, boolean keepConnections) {
        SimOptions options(long seed) {
            SimOptions o = servers == 1 ? SimOptions.fromSeed(seed, ticks, disk)
                    : SimOptions.fromSeed(seed, ticks, disk, servers, variant);
            o = withoutScenarios ? o.withoutTargetedScenarios() : o;
            o = electionChannel && servers > 1 ? o.withElectionChannel() : o;
            o = rackPowerLoss && servers > 1 && !withoutScenarios ? o.withRackPowerLoss() : o;
            o = faultFree ? o.withoutServerFaults() : o;
            o = breakAssumption ? o.breakingTheFaultAssumption() : o;
            o = observers == 0 ? o : o.withObservers(observers);
            o = keepConnections && servers > 1 ? o.withKeepConnections() : o;
            return bugs.isEmpty() ? o : o.withBugs(bugs);
        }
    }

    private static int runOne(long seed, Shape shape, boolean fullTrace, Path historyFile, Path traceOut)
            throws IOException {
        SimOptions options = shape.options(seed);
        System.out.println(options.describe());
        Simulator sim = new Simulator(options, fullTrace ? System.out : null, historyFile != null);
        java.io.PrintStream zabTrace = null;
        if (traceOut != null) {
            zabTrace = new java.io.PrintStream(java.nio.file.Files.newOutputStream(traceOut), false, "UTF-8");
            zabTrace.println("{\"seed\":" + seed + ",\"servers\":" + shape.servers() + ",\"variant\":\""
                    + shape.variant() + "\",\"ticks\":" + shape.ticks() + ",\"faultFree\":" + shape.faultFree()
                    + ",\"bugs\":\"" + shape.bugs().stream().map(Enum::name).sorted()
                            .collect(java.util.stream.Collectors.joining(",")) + "\"}");
            sim.zabTracer(new io.zabkit.zab.TraceWriter(zabTrace));
        }
        SimResult r = sim.run();
        if (zabTrace != null) {
            zabTrace.close();
            System.out.println("zab trace: " + traceOut);
        }
        if (historyFile != null) {
            r.history().write(historyFile);
            r.history().writeTruth(historyFile, r.replayCommand());
            System.out.println("history: " + r.history().size() + " ops in " + historyFile + ", ground truth in "
                    + History.truthFile(historyFile));
        }
        System.out.println(r.summary());
        if (!r.ok()) {
            System.out.print(r.report());
            return 1;
        }
        return 0;
    }

    /** Trace validation (spec/trace.py): the Zab trace of each seed to its own file, in one JVM; the worst exit status. */
    private static int traceMany(long first, long seeds, Shape shape, String pattern) throws IOException {
        int status = 0;
        for (long s = first; s < first + seeds; s++) {
            status = Math.max(status, runOne(s, shape, false, null, Path.of(pattern.replace("{seed}", Long.toString(s)))));
        }
        return status;
    }

    private static int runMany(SeedPlan plan, Shape shape, long progressEvery, Path resultFile) throws IOException {
        PrintStream out = System.out;
        long first = plan.from();
        long count = plan.size();
        out.printf("simulating seeds %d..%d%s, %d ticks each, disk %s, %d server(s)%s%s%n", first, first + count - 1,
                plan.shards() > 1 ? " (shard " + plan.shard() + "/" + plan.shards() + " of seeds " + plan.first() + ".."
                        + (plan.first() + plan.count() - 1) + ")" : "",
                shape.ticks(), shape.disk(), shape.servers(),
                shape.observers() > 0 ? " + " + shape.observers() + " observer(s)" : "",
                shape.servers() > 1 ? ", broadcast " + shape.variant() : "");
        ShardReport report = new ShardReport(plan);
        long start = System.nanoTime();
        List<SimResult> failures = new ArrayList<>();
        Coverage.Tally coverage = new Coverage.Tally();
        long ops = 0;
        long crashes = 0;
        long restarts = 0;
        long reads = 0;
        long events = 0;
        for (long i = 0; i < count; i++) {
            SimResult r = new Simulator(shape.options(first + i), null, false).run();
            report.add(r);
            ops += r.stats().opsInvoked();
            crashes += r.stats().crashes();
            restarts += r.stats().restartsCompared();
            reads += r.stats().readsChecked();
            events += r.stats().eventsChecked();
            coverage.add(r);
            if (shape.printHashes()) {
                // One line per seed: diffing two runs' lines proves a refactoring kept every trace.
                out.printf("hash %d %016x %d%n", first + i, r.traceHash(), r.traceEvents());
            }
            if (!r.ok()) {
                failures.add(r);
                if (failures.size() <= 3) {
                    out.print(r.report());
                } else {
                    out.println("FAILED " + r.summary() + "  replay: " + r.replayCommand());
                }
            }
            if ((i + 1) % progressEvery == 0 || i + 1 == count) {
                double seconds = (System.nanoTime() - start) / 1e9;
                out.printf(Locale.ROOT, "  %d/%d seeds, %.1f seeds/s, %d failures%n", i + 1, count, (i + 1) / seconds,
                        failures.size());
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "summary: %d seeds in %.1f s (%.1f seeds/s), %d client ops, %d NodeCrash, "
                + "%d recoveries compared, %d reads and %d watch events checked, %d failures%n", count, seconds,
                count / seconds, ops, crashes, restarts, reads, events, failures.size());
        out.print(coverage.table());
        for (SimResult r : failures) {
            out.println("  failed seed " + r.options().seed() + " (" + r.violation().property() + "): "
                    + r.replayCommand());
        }
        if (resultFile != null) {
            report.write(resultFile, seconds);
            out.println("result: " + resultFile);
        }
        return failures.isEmpty() ? 0 : 1;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            usage(option + " needs a value");
        }
        return args[i];
    }

    private static void usage(String problem) {
        System.err.println("sim: " + problem);
        System.err.println("usage: SimMain [--seed N] [--seeds COUNT] [--ticks T] [--disk honest|lying-sync] "
                + "[--trace] [--history FILE.edn] [--progress-every K] [--servers N] [--observers M] [--variant Zab|ZabAc|ZabAa|ZabCt|ZabCT] "
                + "[--break-fault-assumption] [--bug NAME[,NAME]] [--hashes] [--shard i/N] [--result FILE.json] "
                + "[--trace-out FILE.jsonl (with --seeds: a path with {seed})] [--fault-free] [--without-scenarios] [--election-channel] [--rack-power-loss] [--keep-connections]");
        System.exit(2);
    }
}
