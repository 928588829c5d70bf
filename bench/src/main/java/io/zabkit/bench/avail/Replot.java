package io.zabkit.bench.avail;

import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Redraws the figures of a finished run from its rounds.tsv, windows.tsv and server-milestones.tsv
 * (`make avail-plots AVAIL_OUT=DIR`), so a change to a figure needs no new measurement.
 */
public final class Replot {
    private Replot() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: Replot DIR (a directory written by AvailMain)");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        List<String[]> rounds = rows(dir.resolve("rounds.tsv"));
        List<String[]> windows = rows(dir.resolve("windows.tsv"));
        List<String[]> phases = rows(dir.resolve("server-milestones.tsv"));
        if (rounds.size() != phases.size()) {
            throw new IllegalStateException(dir + ": " + rounds.size() + " rounds but " + phases.size()
                    + " milestone rows");
        }
        Map<String, List<ClientWindow>> byRound = new LinkedHashMap<>();
        for (String[] w : windows) {
            byRound.computeIfAbsent(w[0] + "/" + w[1] + "/" + w[2] + "/" + w[3], k -> new ArrayList<>())
                    .add(new ClientWindow(Integer.parseInt(w[4]), Integer.parseInt(w[5]) - 1, Boolean.parseBoolean(w[6]),
                            d(w[7]), d(w[8]), d(w[9]), d(w[10]), Integer.parseInt(w[11]), Boolean.parseBoolean(w[12])));
        }
        List<Round> rs = new ArrayList<>();
        List<ServerMilestones> ms = new ArrayList<>();
        List<Fault> faults = new ArrayList<>();
        for (int i = 0; i < rounds.size(); i++) {
            String[] r = rounds.get(i);
            String[] p = phases.get(i);
            SystemUnderTest system = SystemUnderTest.parse(r[0]);
            Fault fault = Fault.parse(r[2]);
            int n = Integer.parseInt(r[3]);
            List<ClientWindow> w = byRound.getOrDefault(r[0] + "/" + r[1] + "/" + r[2] + "/" + r[3], List.of());
            rs.add(new Round(system, r[1], fault, n, Integer.parseInt(r[4]), Integer.parseInt(r[5]),
                    Integer.parseInt(r[6]), d(r[7]), d(r[8]), w, List.of(), d(r[17]), d(r[18]), 0));
            ms.add(new ServerMilestones(system, fault, p[1], n, d(p[4]), d(p[5]), d(p[6])));
            if (!faults.contains(fault)) {
                faults.add(fault);
            }
        }
        AvailOptions o = AvailOptions.parse(new String[] {"--out", dir.toString(), "--faults",
            String.join(",", faults.stream().map(Fault::label).toList()), "--rate", rate(dir)});
        AvailPlots.write(o, rs, ms);
        System.out.println("replot: " + rs.size() + " rounds redrawn into " + dir);
    }

    private static List<String[]> rows(Path tsv) throws Exception {
        List<String> lines = Files.readAllLines(tsv);
        return lines.subList(1, lines.size()).stream().filter(l -> !l.isBlank()).map(l -> l.split("\t", -1)).toList();
    }

    private static double d(String s) {
        return s.equals("-") ? Double.NaN : Double.parseDouble(s);
    }

    /** The publisher's rate, from the summary's first paragraph (figures print it). */
    private static String rate(Path dir) throws Exception {
        var m = java.util.regex.Pattern.compile("publisher at (\\d+) writes/s")
                .matcher(Files.readString(dir.resolve("summary.md")));
        return m.find() ? m.group(1) : "100";
    }
}
