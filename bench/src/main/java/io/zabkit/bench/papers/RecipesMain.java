package io.zabkit.bench.papers;

import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * `make papers-kalantari` and `make papers-zookeeper-table3`: the coordination recipes' experiments.
 * Usage: RecipesMain kalantari|zookeeper-table3|zookeeper-fig6 [--out DIR] [--parts a,b] [--systems zookeeper,zabkit] [--quick]
 * [--barrier-clients N] [--barriers B]: kalantari's Table 3 at one point only (e.g. 200 clients, b = 200)
 */
public final class RecipesMain {
    private RecipesMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            usage("no experiment given");
        }
        String what = args[0];
        Path out = null;
        String parts = null;
        String systemsArg = "zookeeper,zabkit";
        boolean quick = false;
        int barrierClients = 0; // 0: the settings' own; else Table 3 at this one client count
        int barriers = 0; // 0: the settings' own; else the paper recipe's b for Table 3 (one of 200/400/800/1600)
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--barrier-clients", "--barriers" -> {
                    if (i + 1 >= args.length) {
                        usage(args[i] + " needs a value");
                    }
                    int v = Integer.parseInt(args[++i]);
                    if (args[i - 1].equals("--barriers")) {
                        barriers = v;
                    } else {
                        barrierClients = v;
                    }
                }
                case "--out", "--parts", "--systems" -> {
                    if (i + 1 >= args.length) {
                        usage(args[i] + " needs a value");
                    }
                    String v = args[++i];
                    switch (args[i - 1]) {
                        case "--out" -> out = Path.of(v);
                        case "--parts" -> parts = v;
                        default -> systemsArg = v;
                    }
                }
                default -> usage("unknown option " + args[i]);
            }
        }
        List<SystemUnderTest> systems = Arrays.stream(systemsArg.split(",")).map(SystemUnderTest::parse).toList();
        Consumer<String> log = System.out::println;
        long t0 = System.nanoTime();
        switch (what) {
            case "kalantari" -> {
                Set<String> asked = parts == null ? Set.copyOf(KalantariPaper.ORDER) : Set.of(parts.split(","));
                for (String p : asked) {
                    if (!KalantariPaper.ORDER.contains(p)) {
                        usage("unknown part '" + p + "'; seed 002 has " + KalantariPaper.ORDER);
                    }
                }
                KalantariPaper.run(out == null ? Path.of("results/papers/kalantari") : out, systems, asked,
                        KalantariPaper.Settings.of(quick).barrierPoint(barrierClients, barriers), log);
            }
            case "zookeeper-table3" -> DoubleBarrierPaper.table3(out == null ? Path.of("results/papers/zookeeper") : out,
                    systems, quick ? List.of(10, 20) : List.of(50, 100, 200), quick ? List.of(2, 4) : List.of(10, 20, 40, 80),
                    quick ? 60 : 240, log);
            case "zookeeper-fig6" -> LeaderReadRatio.fig6(out == null ? Path.of("results/papers/zookeeper") : out, systems,
                    quick ? List.of(3) : List.of(3, 5, 7, 9, 13), quick ? List.of(0, 100) : List.of(0, 20, 40, 60, 80, 100),
                    quick ? 4 : 20, 100, quick ? 0.5 : 1, quick ? 1 : 3, log);
            default -> usage("unknown experiment '" + what + "'");
        }
        log.accept(String.format("done in %.0f s; load average %s", (System.nanoTime() - t0) / 1e9,
                Machine.loadAverage()));
        System.exit(0); // the clients' threads of closed sessions may linger
    }

    private static void usage(String why) {
        System.err.println("RecipesMain: " + why + "\nusage: RecipesMain kalantari|zookeeper-table3|zookeeper-fig6 [--out DIR] "
                + "[--parts table1,fig4,fig5,table2,table3] [--systems zookeeper,zabkit] [--quick] [--barrier-clients N]"
                + " [--barriers 200|400|800|1600]");
        System.exit(2);
    }
}
