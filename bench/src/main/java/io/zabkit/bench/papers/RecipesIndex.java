package io.zabkit.bench.papers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The index rows (results/README.md, written by Index) of the recipe experiments: seed 002's tables and
 * figures and seed 004's Table 3, read from their .tsv files; each system's cell gives the paper's
 * recipe and Curator's.
 */
final class RecipesIndex {
    private RecipesIndex() {}

    /** A .tsv's rows as column -> value maps. */
    private static Optional<List<Map<String, String>>> read(Path f) throws IOException {
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        List<String> lines = Files.readAllLines(f);
        String[] head = lines.get(0).split("\t");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            String[] v = l.split("\t", -1);
            Map<String, String> m = new java.util.HashMap<>();
            for (int i = 0; i < head.length && i < v.length; i++) {
                m.put(head[i], v[i]);
            }
            rows.add(m);
        }
        return Optional.of(rows);
    }

    private static Optional<Double> max(List<Map<String, String>> rows, String column, Map<String, String> where) {
        return rows.stream().filter(r -> where.entrySet().stream().allMatch(e -> e.getValue().equals(r.get(e.getKey()))))
                .map(r -> Double.parseDouble(r.get(column))).max(Double::compare);
    }

    /** "paper / curator" for one system, formatted by fmt, "not run" where missing. */
    private static String pair(List<Map<String, String>> rows, String column, Map<String, String> where, String system,
            boolean decimals) {
        List<String> out = new ArrayList<>();
        for (String recipe : List.of("paper", "curator")) {
            Map<String, String> w = new java.util.HashMap<>(where);
            w.put("system", system);
            w.put("recipe", recipe);
            out.add(max(rows, column, w).map(v -> decimals ? Part.f2(v) : Part.f0(v)).orElse("not run"));
        }
        return String.join(" / ", out);
    }

    static void append(Path papers, StringBuilder b) throws IOException {
        Path k = papers.resolve("kalantari");
        String both = " (paper's recipe / Curator's)";
        Optional<List<Map<String, String>>> t1 = read(k.resolve("table1.tsv"));
        if (t1.isPresent()) {
            for (String[] c : new String[][] {{"produce", "1,260"}, {"consume", "270"}}) {
                b.append("| seed 002 Table 1, max ").append(c[0]).append(" | 3 servers, clients one op at a time | ")
                        .append(c[1]).append(" ops/s (ZooKeeper 3.3.4) | ")
                        .append(pair(t1.get(), "ops_per_s", Map.of("op", c[0]), "zookeeper", false)).append(" ops/s")
                        .append(both).append(" | ")
                        .append(pair(t1.get(), "ops_per_s", Map.of("op", c[0]), "zabkit", false)).append(" ops/s |\n");
            }
        }
        Optional<List<Map<String, String>>> f4 = read(k.resolve("fig4.tsv"));
        if (f4.isPresent()) {
            for (String size : List.of("1000", "8000")) {
                b.append("| seed 002 Fig 4, consumes from a queue of ").append(size)
                        .append(" | one consumer | linear in the queue's size | ")
                        .append(pair(f4.get(), "ms_per_consume", Map.of("queue_size", size), "zookeeper", true))
                        .append(" ms per consume").append(both).append(" | ")
                        .append(pair(f4.get(), "ms_per_consume", Map.of("queue_size", size), "zabkit", true))
                        .append(" ms per consume |\n");
            }
        }
        Optional<List<Map<String, String>>> f5 = read(k.resolve("fig5.tsv"));
        if (f5.isPresent()) {
            b.append("| seed 002 Fig 5, 2 producers + 2 consumers | k = 1,000 ops each | 442 ops/s (ZooKeeper) | ")
                    .append(pair(f5.get(), "ops_per_s", Map.of("ops_per_client", "1000"), "zookeeper", false))
                    .append(" ops/s").append(both).append(" | ")
                    .append(pair(f5.get(), "ops_per_s", Map.of("ops_per_client", "1000"), "zabkit", false))
                    .append(" ops/s |\n");
        }
        Optional<List<Map<String, String>>> t2 = read(k.resolve("table2.tsv"));
        if (t2.isPresent()) {
            for (String[] c : new String[][] {{"50", "498"}, {"100", "1,096"}, {"200", "4,144"}}) {
                b.append("| seed 002 Table 2, the herd, N = ").append(c[0])
                        .append(" | consume then produce, one element released | ").append(c[1]).append(" ms | ")
                        .append(pair(t2.get(), "ms_until_all_unblocked", Map.of("clients", c[0]), "zookeeper", false))
                        .append(" ms").append(both).append(" | ")
                        .append(pair(t2.get(), "ms_until_all_unblocked", Map.of("clients", c[0]), "zabkit", false))
                        .append(" ms |\n");
            }
        }
        Optional<List<Map<String, String>>> t3 = read(k.resolve("table3.tsv"));
        if (t3.isPresent()) {
            for (String[] c : new String[][] {{"50", "89.9"}, {"100", "267.2"}, {"200", "951.3"}}) {
                b.append("| seed 002 Table 3, ").append(c[0]).append(" clients, b = 1,600 | barriers in a row, threshold ")
                        .append(c[0]).append(" | ").append(c[1]).append(" s (ZooKeeper 3.3.4) | ")
                        .append(barriers(t3.get(), c[0], "zookeeper")).append(" | ")
                        .append(barriers(t3.get(), c[0], "zabkit")).append(" |\n");
            }
        }
        Optional<List<Map<String, String>>> f6 = read(papers.resolve("zookeeper/fig6.tsv"));
        if (f6.isPresent()) {
            for (String[] c : new String[][] {{"3", "0"}, {"3", "80"}, {"3", "100"}, {"13", "80"}}) {
                String servers = c[0];
                String reads = c[1];
                b.append("| seed 004 Fig 6, ").append(reads).append("% reads | ").append(servers).append(" servers, 20 "
                        + "clients x 100 outstanding, 1 KB, all on the leader / spread | lower with every client on the "
                        + "leader | ");
                for (String system : List.of("zookeeper", "zabkit")) {
                    List<String> cells = new ArrayList<>();
                    for (String placement : List.of("leader", "spread")) {
                        cells.add(max(f6.get(), "ops_per_s", Map.of("system", system, "servers", servers, "placement",
                                placement, "read_percent", reads)).map(Part::f0).orElse("not run"));
                    }
                    b.append(String.join(" / ", cells)).append(" ops/s | ");
                }
                b.setLength(b.length() - 1);
                b.append('\n');
            }
        }
        Optional<List<Map<String, String>>> d3 = read(papers.resolve("zookeeper/table3.tsv"));
        if (d3.isPresent()) {
            b.append("| seed 004 Table 3, double barriers | 50-200 clients, Curator's DistributedDoubleBarrier | "
                    + "1,950-3,100 barrier ops/s | ").append(range(d3.get(), "zookeeper")).append(" | ")
                    .append(range(d3.get(), "zabkit")).append(" |\n");
        }
    }

    /**
     * "paper's recipe s / Curator's s" at the largest b each ran for these clients: b = 1,600 is the
     * paper's own, a smaller b is named (the run was scaled down).
     */
    static String barriers(List<Map<String, String>> rows, String clients, String system) {
        List<String> out = new ArrayList<>();
        for (String recipe : List.of("paper", "curator")) {
            Map<String, String> w = Map.of("system", system, "recipe", recipe, "clients", clients);
            Optional<Double> most = max(rows, "barriers", w);
            out.add(most.map(b -> {
                // the .tsv holds the count as written (1600), the index shows it grouped (1,600)
                Optional<Double> sec = max(rows, "seconds", Map.of("system", system, "recipe", recipe, "clients",
                        clients, "barriers", Long.toString(Math.round(b))));
                assert sec.isPresent() : "no seconds for " + system + " " + recipe + " at its own largest b " + b;
                return sec.map(Part::f2).orElse("?") + " s" + (b == 1600 ? "" : " at b = " + Part.f0(b));
            }).orElse("not run"));
        }
        return String.join(" / ", out) + " (paper's recipe / Curator's)";
    }

    private static String range(List<Map<String, String>> rows, String system) {
        List<Double> v = rows.stream().filter(r -> system.equals(r.get("system")))
                .map(r -> Double.parseDouble(r.get("barrier_ops_per_s"))).sorted().toList();
        return v.isEmpty() ? "not run" : Part.f0(v.get(0)) + "-" + Part.f0(v.get(v.size() - 1)) + " barrier ops/s";
    }
}
