package io.zabkit.sim;

import io.zabkit.zab.Variant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes many seeds' histories at once, each with its ground truth:
 * {@code HistoryDump --first N --count K --out DIR [--servers S] [--variant V] [--ticks T] [--scenarios on|off]} writes
 * {@code DIR/sim-sS-V-seedN.edn} and {@code .truth.edn} for every seed whose run held every
 * property (a failing seed is reported with its replay command and no file). One JVM for all seeds,
 * so dumping a few hundred histories costs seconds, not a JVM start each.
 */
public final class HistoryDump {
    private HistoryDump() {}

    public static void main(String[] args) throws IOException {
        Simulator.requireAssertions();
        long first = 1;
        long count = 1;
        int servers = 1;
        int ticks = SimMain.TICKS_DEFAULT;
        Variant variant = Variant.Zab;
        Path out = null;
        boolean scenarios = true;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                usage(args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--first" -> first = Long.parseLong(v);
                case "--count" -> count = Long.parseLong(v);
                case "--servers" -> servers = Integer.parseInt(v);
                case "--ticks" -> ticks = Integer.parseInt(v);
                case "--variant" -> variant = Variant.parse(v);
                case "--out" -> out = Path.of(v);
                case "--scenarios" -> scenarios = switch (v) {
                    case "on" -> true;
                    case "off" -> false;
                    default -> throw new IllegalArgumentException("--scenarios takes on or off, got " + v);
                };
                default -> usage("unknown option " + args[i]);
            }
        }
        if (out == null || count < 1 || servers < 1 || servers > 9 || ticks < 1) {
            usage("--out is required; --count, --ticks positive; --servers 1..9");
        }
        Files.createDirectories(out);
        int written = 0;
        int failed = 0;
        for (long seed = first; seed < first + count; seed++) {
            SimOptions o = servers == 1 ? SimOptions.fromSeed(seed, ticks, SimDisk.Mode.HONEST)
                    : SimOptions.fromSeed(seed, ticks, SimDisk.Mode.HONEST, servers, variant);
            o = scenarios ? o : o.withoutTargetedScenarios(); // SimMain's --without-scenarios
            SimResult r = new Simulator(o, null, true).run();
            if (!r.ok()) {
                failed++;
                System.out.println("seed " + seed + " failed in the simulator (" + r.violation().property()
                        + "), no history written: " + r.replayCommand());
                continue;
            }
            Path file = out.resolve("sim-s" + servers + "-" + variant + "-seed" + seed + ".edn");
            r.history().write(file);
            r.history().writeTruth(file, r.replayCommand());
            written++;
        }
        System.out.println("history-dump: " + written + " histories with ground truth in " + out + " (seeds " + first
                + ".." + (first + count - 1) + ", " + servers + " server(s)), " + failed + " seeds failed");
        System.exit(failed == 0 ? 0 : 1);
    }

    private static void usage(String problem) {
        System.err.println("history-dump: " + problem);
        System.err.println("usage: HistoryDump --first N --count K --out DIR [--servers S] [--variant V] [--ticks T] [--scenarios on|off]");
        System.exit(2);
    }
}
