package io.zabkit.bench.papers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * `make papers-el-sanosi`: seed 003's Fig 2-5 on zabkit's variants with Apache ZooKeeper 3.9.4 in the same
 * run. Usage: ElSanosiMain [--out DIR] [--parts net3,net57,disk,headlines] [--variants Zab,ZabAc,...]
 * [--clients C] [--window-writes W] [--windows R] [--write-percents 25,50] [--no-zookeeper] [--quick]
 * Parts: net3 (Net-Only, N = 3), net57 (Net-Only, N = 5 and 7), disk (forceSync=yes, N = 3), headlines.
 */
public final class ElSanosiMain {
    static final List<String> VARIANTS = List.of("Zab", "ZabAc", "ZabAa", "ZabCt", "ZabCT", "ZabAA");
    /**
     * Each part's protocols unless --variants names them: the paper's Fig 2 has Zab, ZabAa and ZabCt for
     * N >= 5 (ZabCT and ZabAA are section 4.1's, N = 3 only); the disk part tests the N = 3 claims, which
     * never name ZabAa.
     */
    static final List<String> NET57_DEFAULT = List.of("Zab", "ZabAa", "ZabCt");
    static final List<String> DISK_DEFAULT = List.of("Zab", "ZabAc", "ZabCt", "ZabCT", "ZabAA");

    /** The command line, parsed; QUICK: N = 3, Zab and ZooKeeper, two write ratios, short windows. */
    record Options(Path out, List<String> parts, List<String> variants, boolean variantsGiven, boolean zookeeper,
            ElSanosiPaper.Settings settings) {
        static Options parse(String... args) {
            boolean quick = Arrays.asList(args).contains("--quick");
            Path out = Path.of("results/papers/el-sanosi");
            List<String> parts = quick ? List.of("net3", "disk", "headlines") : ElSanosiPaper.ORDER;
            List<String> variants = quick ? List.of("Zab", "ZabAc") : VARIANTS;
            boolean variantsGiven = quick;
            boolean zookeeper = true;
            int clients = quick ? 10 : 50;
            long windowWrites = quick ? 200 : 1_000;
            int windows = quick ? 2 : 5;
            List<Integer> writePercents = quick ? List.of(50, 100) : ElSanosiPaper.WRITE_PERCENTS;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--quick")) {
                    continue;
                }
                if (a.equals("--no-zookeeper")) {
                    zookeeper = false;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + (a.startsWith("--") ? " needs a value" : ": unknown argument"));
                }
                String v = args[++i];
                switch (a) {
                    case "--out" -> out = Path.of(v);
                    case "--parts" -> parts = known(v, ElSanosiPaper.ORDER, "part");
                    case "--variants" -> {
                        variants = known(v, VARIANTS, "variant");
                        variantsGiven = true;
                    }
                    case "--clients" -> clients = ints(v, 1, 1000).get(0);
                    case "--window-writes" -> windowWrites = ints(v, 1, 10_000_000).get(0);
                    case "--windows" -> windows = ints(v, 2, 100).get(0);
                    case "--write-percents" -> writePercents = ints(v, 1, 100);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            return new Options(out, parts, variants, variantsGiven, zookeeper, new ElSanosiPaper.Settings(clients,
                    windowWrites / 2, windowWrites, windows, writePercents));
        }

        /** ZooKeeper, then the part's variants: --variants if given, else the part's default. */
        List<ElSanosiPaper.Protocol> protocols(String part) {
            List<String> names = variantsGiven ? variants : switch (part) {
                case "net57" -> NET57_DEFAULT;
                case "disk" -> DISK_DEFAULT;
                default -> variants;
            };
            List<ElSanosiPaper.Protocol> p = new ArrayList<>();
            if (zookeeper) {
                p.add(ElSanosiPaper.ZOOKEEPER);
            }
            names.forEach(v -> p.add(ElSanosiPaper.zabkit(v)));
            return p;
        }
    }

    private ElSanosiMain() {}

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException x) {
            System.err.println("ElSanosiMain: " + x.getMessage() + "\nusage: ElSanosiMain [--out DIR] [--parts "
                    + "net3,net57,disk,headlines] [--variants " + String.join(",", VARIANTS) + "] "
                    + "[--clients C] [--window-writes W] [--windows R] [--write-percents 25,50] [--no-zookeeper] "
                    + "[--quick]");
            System.exit(2);
            return;
        }
        Consumer<String> log = System.out::println;
        long t0 = System.nanoTime();
        if (o.parts().contains("net3")) {
            ElSanosiPaper.part(o.out(), "net3", true, List.of(3), o.protocols("net3"), o.settings(), log);
        }
        if (o.parts().contains("net57")) {
            ElSanosiPaper.part(o.out(), "net57", true, List.of(5, 7), o.protocols("net57"), o.settings(), log);
        }
        if (o.parts().contains("disk")) {
            ElSanosiPaper.part(o.out(), "disk", false, List.of(3), o.protocols("disk"), o.settings(), log);
        }
        if (o.parts().contains("headlines")) {
            ElSanosiReport.headlines(o.out(), log);
        }
        log.accept(String.format("done in %.0f s; load average %s", (System.nanoTime() - t0) / 1e9,
                Machine.loadAverage()));
        System.exit(0); // the official client's threads of closed sessions may linger
    }

    private static List<String> known(String csv, List<String> known, String what) {
        List<String> out = Arrays.stream(csv.split(",")).map(String::strip).toList();
        for (String s : out) {
            if (!known.contains(s)) {
                throw new IllegalArgumentException("unknown " + what + " '" + s + "'; known: " + known);
            }
        }
        return out;
    }

    private static List<Integer> ints(String csv, int min, int max) {
        List<Integer> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            int v;
            try {
                v = Integer.parseInt(s.strip());
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException("'" + s + "' is not a number");
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException(v + " is outside " + min + ".." + max);
            }
            out.add(v);
        }
        return out;
    }
}
