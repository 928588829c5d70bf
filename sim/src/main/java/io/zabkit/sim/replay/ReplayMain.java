package io.zabkit.sim.replay;

import io.zabkit.zab.Bug;
import io.zabkit.zab.Variant;
import io.zabkit.zab.ZabConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Model-based replay (issue 11 item 4): replays TLC-simulated behaviours of spec/ReplayZab.tla in the
 * Java Zab cores and reports every behaviour whose code state leaves the spec's.
 *
 * <pre>
 * java -ea -cp ... io.zabkit.sim.replay.ReplayMain DIR-OR-FILE... [--bug NAME[,NAME]] [--strict] [--verbose] | [--teeth NAME[,NAME]]
 * </pre>
 * With --teeth, each bug-zoo switch in turn is planted and must make some behaviour mismatch (the
 * first one is reported); exit 0 when every switch is caught, 1 when one is not.
 *
 * <p>Exit 0: no mismatch (a behaviour that reaches the open divergence D17 stops there and is counted
 * apart; --strict makes it a mismatch); 1: some mismatch; 2: could not run (bad input).
 */
public final class ReplayMain {
    private ReplayMain() {
    }

    public static void main(String[] args) {
        boolean assertionsOn = false;
        assert assertionsOn = true;
        if (!assertionsOn) {
            System.err.println("ReplayMain: run with java -ea: the core's assertions are part of the check");
            System.exit(2);
        }
        // The cores log every role change at INFO; a replay of many behaviours reports only mismatches (a leader warns of a learner ahead of it, which the spec covers).
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.SEVERE);
        for (java.util.logging.Handler h : java.util.logging.Logger.getLogger("").getHandlers()) {
            h.setLevel(java.util.logging.Level.SEVERE);
        }
        List<Path> inputs = new ArrayList<>();
        Set<Bug> bugs = Set.of();
        boolean verbose = false;
        boolean strict = false;
        List<Bug> teeth = List.of();
        for (int k = 0; k < args.length; k++) {
            switch (args[k]) {
                case "--bug" -> bugs = Bug.parseList(value(args, ++k));
                case "--verbose" -> verbose = true;
                case "--strict" -> strict = true;
                case "--teeth" -> teeth = List.copyOf(Bug.parseList(value(args, ++k)));
                default -> inputs.add(Path.of(args[k]));
            }
        }
        if (inputs.isEmpty()) {
            System.err.println("usage: ReplayMain DIR-OR-FILE... [--bug NAME[,NAME]] [--strict] [--verbose] | [--teeth NAME[,NAME]]");
            System.exit(2);
        }
        try {
            List<Path> files = behaviourFiles(inputs);
            System.exit(teeth.isEmpty() ? run(files, bugs, verbose, strict) : teeth(files, teeth));
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("ReplayMain: " + e.getMessage());
            System.exit(2);
        }
    }

    private static String value(String[] args, int k) {
        if (k >= args.length) {
            throw new IllegalArgumentException(args[k - 1] + " needs a value");
        }
        return args[k];
    }

    /** The files given, and the behaviour files (TLC's PREFIX_w_n) in the directories given, in name order. */
    static List<Path> behaviourFiles(List<Path> inputs) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path p : inputs) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.list(p)) {
                    s.filter(f -> f.getFileName().toString().matches(".*_\\d+_\\d+")).sorted().forEach(files::add);
                }
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else {
                throw new IOException(p + ": no such file or directory");
            }
        }
        if (files.isEmpty()) {
            throw new IOException("no behaviour files (TLC -simulate file=PREFIX writes PREFIX_w_n) in " + inputs);
        }
        return files;
    }

    /** Each switch planted alone: the replay must report a mismatch (not the open D17) on some behaviour. */
    static int teeth(List<Path> files, List<Bug> switches) throws IOException {
        long started = System.nanoTime();
        List<Behaviour> behaviours = new ArrayList<>();
        for (Path f : files) {
            behaviours.add(Behaviour.read(f));
        }
        int missed = 0;
        for (Bug bug : switches) {
            String caught = null;
            int replayed = 0;
            for (Behaviour b : behaviours) {
                replayed++;
                Replayer.Outcome o = new Replayer(config(b, Set.of(bug))).replay(b);
                if (o.mismatch() != null && o.mismatch().knownDivergence() == null) {
                    String what = o.mismatch().what();
                    caught = b.file().getFileName() + " step " + o.mismatch().step() + " " + o.mismatch().action() + ": "
                            + (what.length() > 160 ? what.substring(0, 160) + "..." : what);
                    break;
                }
            }
            if (caught == null) {
                missed++;
                System.out.println("teeth: " + bug + " NOT caught by " + behaviours.size() + " behaviours");
            } else {
                System.out.println("teeth: " + bug + " caught at behaviour " + replayed + " of " + behaviours.size() + ", "
                        + caught);
            }
        }
        System.out.printf("teeth: %d of %d planted bugs caught, %.1f s wall%n", switches.size() - missed, switches.size(),
                (System.nanoTime() - started) / 1e9);
        return missed == 0 ? 0 : 1;
    }

    private static ZabConfig config(Behaviour b, Set<Bug> bugs) {
        SpecState init = new SpecState(b.states().get(0));
        return new ZabConfig(init.servers(), 10, 5, 200, Variant.Zab, 1.0, 0).withBugs(bugs);
    }

    static int run(List<Path> files, Set<Bug> bugs, boolean verbose, boolean strict) throws IOException {
        long started = System.nanoTime();
        int steps = 0;
        int mismatches = 0;
        int behaviours = 0;
        int known = 0;
        java.util.Map<String, Integer> coverage = new java.util.TreeMap<>();
        for (Path f : files) {
            Behaviour b = Behaviour.read(f);
            Replayer.Outcome o = new Replayer(config(b, bugs)).replay(b);
            behaviours++;
            o.coverage().forEach((k, v) -> coverage.merge(k, v, Integer::sum));
            steps += o.steps();
            if (o.mismatch() != null && o.mismatch().knownDivergence() != null && !strict) {
                known++;
                System.out.println("KNOWN " + o.mismatch().knownDivergence() + " (open, spec/README.md) " + f + "\n"
                        + o.mismatch());
            } else if (o.mismatch() != null) {
                mismatches++;
                System.out.println("MISMATCH " + f + "\n" + o.mismatch() + "\n  replay it: java -ea -cp sim/target/classes:"
                        + "$(cat sim/target/classpath.txt) io.zabkit.sim.replay.ReplayMain " + f
                        + (bugs.isEmpty() ? "" : " --bug " + bugs.stream().map(Enum::name)
                                .collect(java.util.stream.Collectors.joining(","))));
            } else if (verbose) {
                System.out.println("ok " + f + " (" + o.steps() + " steps)");
            }
        }
        StringBuilder c = new StringBuilder("steps by action:");
        coverage.forEach((k, v) -> c.append(k.startsWith("branch") ? "\n  " : " ").append(k).append('=').append(v));
        System.out.println(c);
        double wall = (System.nanoTime() - started) / 1e9;
        System.out.printf("replay: %d behaviours, %d steps replayed, %d mismatches, %d stopped at the open divergence"
                + " D17, %.1f s wall%s%n", behaviours, steps, mismatches, known, wall,
                bugs.isEmpty() ? "" : " (bug-zoo switches " + bugs + ")");
        return mismatches == 0 ? 0 : 1;
    }
}
