package io.zabkit.bench.papers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Seed 003's tables, charts and headlines from measured points. The headlines are read back from the
 * parts' .tsv files, so they always agree with the data and survive rerunning one part.
 */
final class ElSanosiReport {
    /** Fig 2a's protocols (N = 3) and Fig 4-5's (section 4.1), ZooKeeper beside both. */
    static final List<String> FIG2 = List.of("Zab", "ZabAc", "ZabAa", "ZabCt", "ZooKeeper");
    static final List<String> FIG4 = List.of("Zab", "ZabCT", "ZabAA", "ZabAc", "ZabCt", "ZooKeeper");
    static final List<String> ALL = List.of("Zab", "ZabAa", "ZabCt", "ZabAc", "ZabCT", "ZabAA", "ZooKeeper");

    /** One measured point as the .tsv holds it. */
    record Point(String mode, String variant, boolean zookeeper, int servers, int writePercent, MeanInterval server,
            MeanInterval client, MeanInterval writesPerS) {
        static Point of(ElSanosiPaper.Row r) {
            return new Point(r.mode(), r.protocol().label(), r.protocol().isZooKeeper(), r.servers(), r.writePercent(),
                    r.server(), r.client(), r.writesPerS());
        }

        /** The paper's abdelivery latency where the server reports it (zabkit), else the client's (ZooKeeper). */
        MeanInterval latency() {
            return Double.isFinite(server.mean()) ? server : client;
        }
    }

    private ElSanosiReport() {}

    static List<Point> read(Path tsv) throws IOException {
        List<Point> out = new ArrayList<>();
        if (!Files.exists(tsv)) {
            return out;
        }
        List<String> lines = Files.readAllLines(tsv);
        if (lines.isEmpty() || !lines.get(0).equals(ElSanosiPaper.TSV_HEAD)) {
            throw new IllegalArgumentException(tsv + " does not start with the expected header:\n"
                    + ElSanosiPaper.TSV_HEAD);
        }
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            if (f.length != 15) {
                throw new IllegalArgumentException(tsv + ": a row of " + f.length + " fields, not 15: " + line);
            }
            int windows = Integer.parseInt(f[5]);
            out.add(new Point(f[0], f[2], f[1].equals("zookeeper"), Integer.parseInt(f[3]), Integer.parseInt(f[4]),
                    interval(f[7], f[8], windows), interval(f[9], f[10], windows), interval(f[11], f[12], windows)));
        }
        return out;
    }

    private static MeanInterval interval(String mean, String half, int n) {
        return new MeanInterval(number(mean), number(half), n);
    }

    private static double number(String s) {
        return s.equals("NaN") || s.equals("-") ? Double.NaN : Double.parseDouble(s);
    }

    static Optional<Point> find(List<Point> points, String variant, int servers, int writePercent) {
        return points.stream().filter(p -> p.variant().equals(variant) && p.servers() == servers
                && p.writePercent() == writePercent).findFirst();
    }

    /** The part's two markdown tables: latency (Fig 2, Fig 4) and throughput (Fig 3, Fig 5). */
    static void tables(Part part, List<ElSanosiPaper.Row> rows, List<Integer> sizes) {
        List<Point> points = rows.stream().map(Point::of).toList();
        Set<String> variants = new LinkedHashSet<>();
        points.forEach(p -> variants.add(p.variant()));
        table(part, "Abdelivery latency, ms (zabkit: at the server; ZooKeeper: at the client), mean ± 95% CI",
                points, sizes, variants, p -> p.latency().show("%.2f"), true);
        table(part, "Client-observed write latency, ms, mean ± 95% CI (both systems measured alike)", points, sizes,
                variants, p -> p.client().show("%.2f"), false);
        table(part, "Throughput, acknowledged writes/s (the paper counts abdeliveries at all N servers: N times this), "
                + "mean ± 95% CI", points, sizes, variants, p -> p.writesPerS().show("%,.0f"), false);
    }

    private static void table(Part part, String title, List<Point> points, List<Integer> sizes, Set<String> variants,
            Function<Point, String> cell, boolean withServerNote) {
        part.text("### " + title + "\n");
        StringBuilder head = new StringBuilder("| N | write % |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (String v : variants) {
            head.append(' ').append(v).append(" |");
            rule.append("---|");
        }
        part.text(head.toString()).text(rule.toString());
        for (int n : sizes) {
            for (int wr : ElSanosiPaper.WRITE_PERCENTS) {
                StringBuilder line = new StringBuilder("| " + n + " | " + wr + " |");
                boolean any = false;
                for (String v : variants) {
                    Optional<Point> p = find(points, v, n, wr);
                    any |= p.isPresent();
                    line.append(' ').append(p.map(cell).orElse("-")).append(" |");
                }
                if (any) {
                    part.text(line.toString());
                }
            }
        }
        part.text(withServerNote ? "\nZooKeeper has no server-side abdelivery latency: its column is the client's.\n"
                : "");
    }

    /** Fig 2 per N and Fig 4-5 (N = 3), each PNG + SVG; Fig 3 spans the parts: {@link #headlines}. */
    static void charts(Path out, String name, boolean netOnly, List<Point> points, List<Integer> sizes)
            throws IOException {
        String mode = netOnly ? "Net-Only (forceSync=no, tmpfs)" : "with the disk (forceSync=yes)";
        for (int n : sizes) {
            Charts.Lines lines = new Charts.Lines();
            for (String v : FIG2) {
                points.stream().filter(p -> p.variant().equals(v) && p.servers() == n).forEach(p ->
                        lines.add(series(p), p.writePercent(), p.latency().mean()));
            }
            points.stream().filter(p -> p.variant().equals("Zab") && p.servers() == n).forEach(p ->
                    lines.add("zabkit Zab (client-observed)", p.writePercent(), p.client().mean()));
            if (!lines.isEmpty()) {
                Charts.write(out, name + "-fig2-n" + n, "Seed 003 Fig 2: abdelivery latency, N = " + n,
                        mode + "; zabkit at the server, ZooKeeper at the client", "write ratio (%)", "latency (ms)",
                        lines, false);
            }
        }
        Charts.Lines fig4 = new Charts.Lines();
        Charts.Lines fig5 = new Charts.Lines();
        for (String v : FIG4) {
            points.stream().filter(p -> p.variant().equals(v) && p.servers() == 3).forEach(p -> {
                fig4.add(series(p), p.writePercent(), p.latency().mean());
                fig5.add(series(p), p.writePercent(), p.writesPerS().mean());
            });
        }
        if (!fig4.isEmpty()) {
            Charts.write(out, name + "-fig4", "Seed 003 Fig 4: latency, N = 3, with ZabCT and ZabAA", mode
                    + "; zabkit at the server, ZooKeeper at the client", "write ratio (%)", "latency (ms)", fig4, false);
            Charts.write(out, name + "-fig5", "Seed 003 Fig 5: throughput, N = 3, with ZabCT and ZabAA", mode,
                    "write ratio (%)", "acknowledged writes/s", fig5, false);
        }
    }

    private static String series(Point p) {
        return p.zookeeper() ? "zookeeper (client-observed)" : "zabkit " + p.variant();
    }

    /** The paper's headline claims against each mode's data: headlines.{md,tsv}. */
    static void headlines(Path out, Consumer<String> log) throws IOException {
        Part part = new Part(out, "headlines", "Their headlines against ours",
                "claim\tpaper\tmode\tours\tverdict", log);
        List<Point> net = new ArrayList<>(read(out.resolve("net3.tsv")));
        net.addAll(read(out.resolve("net57.tsv")));
        List<Point> disk = read(out.resolve("disk.tsv"));
        if (net.isEmpty() && disk.isEmpty()) {
            throw new IllegalStateException("no net3.tsv, net57.tsv or disk.tsv in " + out + ": run those parts first");
        }
        part.text("Read from net3.tsv, net57.tsv and disk.tsv (server-side abdelivery latency, N = 3 unless said). The rules: a "
                + "gap \"grows\" if it is positive and larger at 100% than at 25% writes; \"nearly levels\" if ZabCt "
                + "is at most ZabAc's 95% half-width or 10% (the larger) above ZabAc; \"close\" if the 95% intervals overlap or the means differ by at most 10%; "
                + "\"faster\" by the means.\n");
        part.text("| claim | the paper | mode | ours | verdict |").text("|---|---|---|---|---|");
        List<String> netVerdicts = net.isEmpty() ? List.of() : claims(part, "net-only", net);
        List<String> diskVerdicts = disk.isEmpty() ? List.of() : claims(part, "disk", disk);
        // the paper's own claim (section 3): skipping the log write cannot change the conclusions, so each
        // claim testable in both modes (N = 3: every claim but the N >= 5 one) must get the same verdict
        int same = 0;
        int both = 0;
        for (int i = 0; i < Math.min(netVerdicts.size(), diskVerdicts.size()); i++) {
            if (!netVerdicts.get(i).equals("not measured") && !diskVerdicts.get(i).equals("not measured")) {
                both++;
                same += netVerdicts.get(i).equals(diskVerdicts.get(i)) ? 1 : 0;
            }
        }
        claim(part, "Skipping the disk cannot change the conclusions", "Net-Only figures stand for logged runs",
                "net-only vs disk", same + " of " + both + " claims with the same verdict in both modes",
                verdict(both > 0, same == both));
        for (String[] p : new String[][] {{"net3", "3"}, {"net57", "5,7"}, {"disk", "3"}}) {
            List<Point> pts = read(out.resolve(p[0] + ".tsv")); // every part's charts redrawn from its data
            if (!pts.isEmpty()) {
                charts(out, p[0], !p[0].equals("disk"), pts,
                        Arrays.stream(p[1].split(",")).map(Integer::parseInt).toList());
            }
        }
        Charts.Lines fig3 = new Charts.Lines();
        for (String v : ALL) {
            net.stream().filter(p -> p.variant().equals(v) && p.writePercent() == 100).forEach(p ->
                    fig3.add(series(p), p.servers(), p.writesPerS().mean()));
        }
        if (!fig3.isEmpty()) {
            Charts.write(out, "net-fig3", "Seed 003 Fig 3: throughput at 100% writes", "Net-Only (forceSync=no, tmpfs)",
                    "servers (N)", "acknowledged writes/s", fig3, false);
        }
        Charts.Lines modes = new Charts.Lines();
        for (String v : List.of("Zab", "ZabAc", "ZabCt", "ZooKeeper")) {
            for (List<Point> pts : List.of(net, disk)) {
                pts.stream().filter(p -> p.variant().equals(v) && p.servers() == 3).forEach(p ->
                        modes.add(series(p) + ", " + p.mode(), p.writePercent(), p.latency().mean()));
            }
        }
        if (!modes.isEmpty()) {
            Charts.write(out, "net-vs-disk", "Seed 003: Net-Only against the disk, N = 3",
                    "abdelivery latency: zabkit at the server, ZooKeeper at the client", "write ratio (%)",
                    "latency (ms)", modes, false);
        }
        part.finish(ElSanosiPaper.ORDER, ElSanosiPaper.HEADER);
    }

    /** Each claim's row for one mode; returns the verdicts in claim order. */
    private static List<String> claims(Part part, String mode, List<Point> pts) {
        List<String> verdicts = new ArrayList<>();
        // 1: the Zab - ZabAc gap at N = 3 grows with the write ratio, ~12 ms at 25% to ~17 ms at 100%
        double g25 = gap(pts, "Zab", "ZabAc", 3, 25);
        double g100 = gap(pts, "Zab", "ZabAc", 3, 100);
        verdicts.add(claim(part, "Zab - ZabAc gap grows with writes (N = 3)", "12 ms at 25% -> 17 ms at 100%", mode,
                String.format("%.2f ms at 25%% -> %.2f ms at 100%%", g25, g100),
                verdict(Double.isFinite(g25) && Double.isFinite(g100), g25 > 0 && g100 > g25)));
        // 2: ZabCt nearly levels ZabAc at 100% writes
        double ct = lat(pts, "ZabCt", 3, 100);
        double ac = lat(pts, "ZabAc", 3, 100);
        double zab = lat(pts, "Zab", 3, 100);
        double acHalf = find(pts, "ZabAc", 3, 100).map(p -> p.latency().halfWidth()).orElse(Double.NaN);
        double slack = Math.max(Double.isFinite(acHalf) ? acHalf : 0, 0.1 * ac); // "levels": reaches ZabAc's level
        verdicts.add(claim(part, "ZabCt nearly levels ZabAc at 100% writes (N = 3)", "ZabCt ~ ZabAc", mode,
                String.format("ZabCt %.2f, ZabAc %.2f ± %.2f, Zab %.2f ms", ct, ac, acHalf, zab),
                verdict(Double.isFinite(ct + ac), ct <= ac + slack)));
        // 3: ZabCt close to ZabAa for N >= 5 (and the closeness tightens with N)
        int close = 0;
        int total = 0;
        StringBuilder diffs = new StringBuilder();
        for (int n : List.of(5, 7, 9)) {
            for (int wr : ElSanosiPaper.WRITE_PERCENTS) {
                Optional<Point> a = find(pts, "ZabCt", n, wr);
                Optional<Point> b = find(pts, "ZabAa", n, wr);
                if (a.isPresent() && b.isPresent()) {
                    total++;
                    MeanInterval x = a.get().server();
                    MeanInterval y = b.get().server();
                    boolean near = x.overlaps(y) || Math.abs(x.mean() - y.mean()) <= 0.1 * y.mean();
                    close += near ? 1 : 0;
                    if (wr == 100) {
                        diffs.append(String.format("; N = %d, 100%%: %+.2f ms", n, x.mean() - y.mean()));
                    }
                }
            }
        }
        verdicts.add(claim(part, "ZabCt close to ZabAa for N >= 5", "nearly close at every write ratio, closer as N grows", mode,
                close + " of " + total + " points close" + diffs, verdict(total > 0, close == total)));
        // 4: ZabCT faster than ZabAA at every write ratio (N = 3)
        int faster = 0;
        int compared = 0;
        StringBuilder d = new StringBuilder();
        for (int wr : ElSanosiPaper.WRITE_PERCENTS) {
            double x = lat(pts, "ZabCT", 3, wr);
            double y = lat(pts, "ZabAA", 3, wr);
            if (Double.isFinite(x) && Double.isFinite(y)) {
                compared++;
                faster += x < y ? 1 : 0;
                d.append(String.format("%s%d%%: %+.2f", d.length() == 0 ? "" : ", ", wr, x - y));
            }
        }
        verdicts.add(claim(part, "ZabCT faster than ZabAA at every write ratio (N = 3)", "ZabCT below ZabAA at 25-100%", mode,
                faster + " of " + compared + " (ZabCT - ZabAA, ms: " + d + ")", verdict(compared > 0, faster == compared)));
        // 5: the variants beat Zab (N = 3: ZabAc; N >= 5: ZabAa), the trend behind Fig 2
        int below = 0;
        int pairs = 0;
        for (int n : List.of(3, 5, 7, 9)) {
            for (int wr : ElSanosiPaper.WRITE_PERCENTS) {
                double z = lat(pts, "Zab", n, wr);
                double v = lat(pts, n == 3 ? "ZabAc" : "ZabAa", n, wr);
                if (Double.isFinite(z) && Double.isFinite(v)) {
                    pairs++;
                    below += v < z ? 1 : 0;
                }
            }
        }
        verdicts.add(claim(part, "ZabAc (N = 3) and ZabAa (N >= 5) below Zab", "at every write ratio and N", mode,
                below + " of " + pairs + " points", verdict(pairs > 0, below == pairs)));
        return verdicts;
    }

    private static double lat(List<Point> pts, String variant, int n, int wr) {
        return find(pts, variant, n, wr).map(p -> p.latency().mean()).orElse(Double.NaN);
    }

    private static double gap(List<Point> pts, String slower, String faster, int n, int wr) {
        return lat(pts, slower, n, wr) - lat(pts, faster, n, wr);
    }

    private static String verdict(boolean measured, boolean holds) {
        return !measured ? "not measured" : holds ? "agrees" : "disagrees";
    }

    private static String claim(Part part, String claim, String paper, String mode, String ours, String verdict) {
        part.text("| " + claim + " | " + paper + " | " + mode + " | " + ours + " | " + verdict + " |");
        part.row(claim, paper, mode, ours, verdict);
        return verdict;
    }

    /** results/README.md's rows for seed 003 (Index), from the parts' .tsv files; nothing if none ran. */
    static void indexRows(Path dir, StringBuilder b) throws IOException {
        List<Point> net = new ArrayList<>(read(dir.resolve("net3.tsv")));
        List<Point> disk = read(dir.resolve("disk.tsv"));
        for (List<Point> pts : List.of(net, disk)) {
            if (pts.isEmpty()) {
                continue;
            }
            String mode = pts.get(0).mode();
            for (int wr : List.of(25, 100)) {
                b.append("| seed 003 Fig 2a, ").append(wr).append("% writes, ").append(mode)
                        .append(" | 3 servers, closed-loop clients, 1 KB | Zab - ZabAc about ")
                        .append(wr == 25 ? "12" : "17").append(" ms | ")
                        .append(find(pts, "ZooKeeper", 3, wr).map(p -> p.client().show("%.2f") + " ms (client)")
                                .orElse("not run"))
                        .append(" | Zab ").append(find(pts, "Zab", 3, wr).map(p -> p.server().show("%.2f")).orElse("-"))
                        .append(", ZabAc ").append(find(pts, "ZabAc", 3, wr).map(p -> p.server().show("%.2f"))
                                .orElse("-")).append(" ms (server) |\n");
            }
            b.append("| seed 003 Fig 3/5, 100% writes, ").append(mode).append(" | 3 servers | variants at least as fast "
                    + "as Zab | ").append(find(pts, "ZooKeeper", 3, 100).map(p -> p.writesPerS().show("%,.0f"))
                            .orElse("not run")).append(" writes/s |");
            for (String v : List.of("Zab", "ZabAc", "ZabCt", "ZabCT", "ZabAA")) {
                b.append(' ').append(v).append(' ').append(find(pts, v, 3, 100)
                        .map(p -> p.writesPerS().show("%,.0f")).orElse("-")).append(';');
            }
            b.setLength(b.length() - 1);
            b.append(" writes/s |\n");
        }
        Path headlines = dir.resolve("headlines.tsv");
        if (Files.exists(headlines)) {
            List<String> rows = Files.readAllLines(headlines);
            long agree = rows.stream().skip(1).filter(r -> r.endsWith("\tagrees")).count();
            long tested = rows.stream().skip(1).filter(r -> !r.endsWith("\tnot measured")).count();
            b.append("| seed 003, the paper's headlines | [el-sanosi/README.md](papers/el-sanosi/README.md) | "
                    + "Zab-ZabAc gap grows; ZabCt levels ZabAc; ZabCt near ZabAa (N >= 5); ZabCT faster than ZabAA; "
                    + "the variants below Zab; the disk changes nothing | - | ").append(agree).append(" of ").append(tested)
                    .append(" verdicts agree (both modes) |\n");
        }
    }
}
