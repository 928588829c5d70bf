package io.zabkit.bench.papers;

import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * `make papers-*`: the papers' performance experiments, Apache ZooKeeper 3.9.4 and zabkit in one run.
 * Usage: PapersMain PAPER [--out DIR] [--parts a,b] [--systems zookeeper,zabkit] [--quick]
 * PAPER: zookeeper (seed 004), fig8 (seed 004's Fig 8, an availability figure), system-s (seed 001), thesis
 * (seed 000); index writes results/README.md.
 */
public final class PapersMain {
    private PapersMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            usage("no paper given");
        }
        String paper = args[0];
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> opts.put("quick", "1");
                case "--out", "--parts", "--systems" -> {
                    if (i + 1 >= args.length) {
                        usage(args[i] + " needs a value");
                    }
                    opts.put(args[i].substring(2), args[++i]);
                }
                default -> usage("unknown option " + args[i]);
            }
        }
        boolean quick = opts.containsKey("quick");
        List<SystemUnderTest> systems = Arrays.stream(opts.getOrDefault("systems", "zookeeper,zabkit").split(","))
                .map(SystemUnderTest::parse).toList();
        Consumer<String> log = s -> System.out.println(s);
        long t0 = System.nanoTime();
        switch (paper) {
            case "zookeeper" -> {
                Path out = Path.of(opts.getOrDefault("out", "results/papers/zookeeper"));
                Set<String> parts = parts(opts, ZooKeeperPaper.ORDER);
                if (parts.contains("table2")) {
                    ZooKeeperPaper.table2(out, systems, quick ? List.of(3) : List.of(3, 9),
                            quick ? List.of(1, 4) : List.of(1, 10, 20), quick ? 200 : 2_000, quick ? 3 : 10, log);
                }
                if (parts.contains("fig5")) {
                    ZooKeeperPaper.fig5(out, systems, quick ? List.of(3) : List.of(3, 5, 7, 9, 13),
                            quick ? List.of(0, 100) : List.of(0, 20, 40, 60, 80, 100), quick ? 4 : 20, 100,
                            quick ? 0.5 : 1, quick ? 1 : 3, log);
                }
                if (parts.contains("fig7")) {
                    ZooKeeperPaper.fig7(out, quick ? List.of(3, 5) : List.of(3, 5, 7, 9, 13), quick ? 20_000 : 100_000,
                            1000, log);
                }
            }
            case "fig8" -> ZooKeeperPaper.fig8(Path.of(opts.getOrDefault("out", "results/availability/fig8")), systems,
                    quick ? 5 : 20, 100, quick ? 2 : 8, quick ? 2 : 10, log);
            case "system-s" -> {
                Path out = Path.of(opts.getOrDefault("out", "results/papers/system-s"));
                Set<String> parts = parts(opts, SystemSPaper.ORDER);
                if (parts.contains("fig2")) {
                    SystemSPaper.fig2(out, systems, quick, log);
                }
                if (parts.contains("fig6")) {
                    SystemSPaper.fig6(out, systems, quick, log);
                }
            }
            case "system-s-replot" -> SystemSPaper.replotFig2(Path.of(opts.getOrDefault("out",
                    "results/papers/system-s")), log);
            case "thesis" -> {
                Path out = Path.of(opts.getOrDefault("out", "results/papers/thesis"));
                Set<String> parts = parts(opts, ThesisPaper.ORDER);
                if (parts.contains("creates")) {
                    ThesisPaper.creates(out, systems, quick, log);
                }
                if (parts.contains("snapshot")) {
                    ThesisPaper.snapshot(out, quick, log);
                }
            }
            case "index" -> Index.write(Path.of(opts.getOrDefault("out", "results")));
            default -> usage("unknown paper '" + paper + "'");
        }
        log.accept(String.format("done in %.0f s; load average %s", (System.nanoTime() - t0) / 1e9,
                Machine.loadAverage()));
        System.exit(0); // the official client's threads of closed sessions may linger
    }

    private static Set<String> parts(Map<String, String> opts, List<String> known) {
        if (!opts.containsKey("parts")) {
            return Set.copyOf(known);
        }
        Set<String> asked = Set.of(opts.get("parts").split(","));
        for (String p : asked) {
            if (!known.contains(p)) {
                usage("unknown part '" + p + "'; this paper has " + known);
            }
        }
        return asked;
    }

    private static void usage(String why) {
        System.err.println("PapersMain: " + why + "\nusage: PapersMain zookeeper|fig8|system-s|system-s-replot|thesis|index [--out DIR] "
                + "[--parts a,b] [--systems zookeeper,zabkit] [--quick]");
        System.exit(2);
    }
}
