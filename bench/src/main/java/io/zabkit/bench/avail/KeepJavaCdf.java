package io.zabkit.bench.avail;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * keepConnections with the official Java client (issue 20 item 7): over several leader-kill rounds, the CDF of
 * the watch-unavailable window of the official clients at home on a surviving server, one curve per setting
 * (e.g. ZooKeeper, zabkit with the switch off, zabkit with it on), and each round's median against the time
 * from the kill until the new leader served. Reads rounds.tsv and windows.tsv of avail-systems runs.
 * Usage: KeepJavaCdf OUT_BASE LABEL=DIR,DIR,... [LABEL=DIR,...]... (writes OUT_BASE.png/.svg, prints a table).
 */
public final class KeepJavaCdf {
    private KeepJavaCdf() {}

    /** One official-client leader-kill round: the survivors' windows and the server side of the same round. */
    record JavaRound(String run, int survivors, int lostConnection, double[] windowsMs, double servingMs, double load) {
        JavaRound {
            assert windowsMs.length <= survivors : windowsMs.length + " windows of " + survivors + " survivors";
            assert lostConnection <= survivors : lostConnection + " lost of " + survivors;
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: KeepJavaCdf OUT_BASE LABEL=DIR,DIR,... [LABEL=DIR,...]...");
            System.exit(2);
        }
        Map<String, List<JavaRound>> settings = new LinkedHashMap<>();
        for (String arg : Arrays.asList(args).subList(1, args.length)) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("expected LABEL=DIR,DIR,... but got '" + arg + "'");
            }
            List<JavaRound> rounds = new ArrayList<>();
            for (String dir : arg.substring(eq + 1).split(",")) {
                rounds.addAll(read(Path.of(dir)));
            }
            settings.put(arg.substring(0, eq), rounds);
        }
        System.out.println("setting\trun\tsurvivors\tlost_connection\twindow_min_ms\twindow_median_ms\twindow_max_ms"
                + "\tserving_ms\tmedian/serving\tload");
        XYSeriesCollection data = new XYSeriesCollection();
        double loadLo = Double.MAX_VALUE;
        double loadHi = 0;
        for (Map.Entry<String, List<JavaRound>> e : settings.entrySet()) {
            List<Double> all = new ArrayList<>();
            int lost = 0;
            int survivors = 0;
            for (JavaRound r : e.getValue()) {
                Stats s = Stats.of(Arrays.stream(r.windowsMs()).boxed().toList());
                System.out.printf(Locale.ROOT, "%s\t%s\t%d\t%d\t%.0f\t%.0f\t%.0f\t%.0f\t%.2f\t%.1f%n", e.getKey(), r.run(),
                        r.survivors(), r.lostConnection(), s.min(), s.median(), s.max(), r.servingMs(),
                        s.median() / r.servingMs(), r.load());
                Arrays.stream(r.windowsMs()).forEach(all::add);
                lost += r.lostConnection();
                survivors += r.survivors();
                loadLo = Math.min(loadLo, r.load());
                loadHi = Math.max(loadHi, r.load());
            }
            double[] v = Stats.sorted(all);
            XYSeries cdf = new XYSeries(String.format(Locale.ROOT, "%s (%d of %d lost the connection)", e.getKey(), lost,
                    survivors), false, true);
            for (int i = 0; i < v.length; i++) {
                cdf.add(Math.max(v[i], 0.1), (double) (i + 1) / v.length);
            }
            data.addSeries(cdf);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Leader kill -9, official Java client: survivors' windows",
                "ms from the kill to the client's first post-fault change (log)", "fraction of survivors' windows",
                data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(AvailPlots.logAxis("ms from the kill to the client's first post-fault change (log)"));
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        Color[] colors = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), Color.DARK_GRAY};
        Shape[] shapes = {new Ellipse2D.Double(-3, -3, 6, 6), new Rectangle2D.Double(-3, -3, 6, 6),
                new java.awt.Polygon(new int[] {-4, 0, 4}, new int[] {3, -4, 3}, 3), new Ellipse2D.Double(-2, -2, 4, 4)};
        for (int i = 0; i < data.getSeriesCount(); i++) {
            r.setSeriesPaint(i, colors[i % colors.length]);
            r.setSeriesShape(i, shapes[i % shapes.length]); // markers as well as colours: readable in grey
            r.setSeriesStroke(i, new BasicStroke(1.4f));
        }
        plot.setRenderer(r);
        AvailPlots.style(chart);
        AvailPlots.save(Path.of(args[0]), List.of(chart), String.format(Locale.ROOT,
                "5 servers, 25 official clients, %d rounds per setting; load avg %.1f-%.1f",
                settings.values().iterator().next().size(), loadLo, loadHi), 480);
    }

    private static List<JavaRound> read(Path dir) throws IOException {
        List<String[]> rounds = table(dir.resolve("rounds.tsv"));
        List<String[]> windows = table(dir.resolve("windows.tsv"));
        List<String> rh = Arrays.asList(rounds.get(0));
        List<String> wh = Arrays.asList(windows.get(0));
        List<JavaRound> out = new ArrayList<>();
        for (String[] f : rounds.subList(1, rounds.size())) {
            if (!f[rh.indexOf("fault")].equals("leader-kill") || !f[rh.indexOf("client")].equals("java")) {
                continue;
            }
            String victim = f[rh.indexOf("victim")];
            List<Double> survivors = new ArrayList<>();
            int count = 0;
            int lost = 0;
            for (String[] w : windows.subList(1, windows.size())) {
                if (w[wh.indexOf("client")].equals("java") && w[wh.indexOf("fault")].equals("leader-kill")
                        && !w[wh.indexOf("home_server")].equals(victim)) {
                    count++;
                    lost += w[wh.indexOf("lost_connection")].equals("true") ? 1 : 0;
                    double ms = number(w[wh.indexOf("window_ms")]);
                    if (!Double.isNaN(ms)) {
                        survivors.add(ms);
                    }
                }
            }
            out.add(new JavaRound(dir.getFileName().toString(), count, lost,
                    survivors.stream().mapToDouble(Double::doubleValue).toArray(), number(f[rh.indexOf("serving_ms")]),
                    number(f[rh.indexOf("load_average")])));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(dir + ": no official-client leader-kill round (run with --java-clients N)");
        }
        return out;
    }

    private static List<String[]> table(Path tsv) throws IOException {
        return Files.readAllLines(tsv).stream().map(l -> l.split("\t", -1)).toList();
    }

    private static double number(String s) {
        return s.equals("-") || s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }
}
