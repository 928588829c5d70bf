package io.zabkit.bench.avail;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.geom.Ellipse2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * keepConnections (issue 20 item 7) against today: the leader-kill watch-unavailable window of the lean
 * clients at home on a surviving server (not the killed leader), per client count, with the switch off and on,
 * next to the server-side time from the kill until the new leader serves (srvr) in the same rounds, and the
 * 1.5x target. Reads rounds.tsv and windows.tsv of two avail-systems runs, prints the figures, and draws them.
 * Usage: KeepPlot OFF_DIR ON_DIR OUT_BASE (writes OUT_BASE.png and OUT_BASE.svg).
 */
public final class KeepPlot {
    private KeepPlot() {}

    /** One leader-kill round of rounds.tsv: system, clients, median window, new leader serving, load. */
    private record Row(String system, int clients, double windowMedianMs, double servingMs, double load) {}

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: KeepPlot OFF_DIR ON_DIR OUT_BASE");
            System.exit(2);
        }
        List<Row> off = read(Path.of(args[0]));
        List<Row> on = read(Path.of(args[1]));
        System.out.println("run\tsystem\tclients\tsurvivors_window_median_ms\tserving_ms\tratio\tload");
        for (List<Row> rows : List.of(off, on)) {
            for (Row r : rows) {
                System.out.printf(Locale.ROOT, "%s\t%s\t%d\t%.0f\t%.0f\t%.2f\t%.1f%n", rows == off ? args[0] : args[1],
                        r.system(), r.clients(), r.windowMedianMs(), r.servingMs(), r.windowMedianMs() / r.servingMs(),
                        r.load());
            }
        }
        XYSeriesCollection data = new XYSeriesCollection();
        data.addSeries(series("ZooKeeper: survivors' window (median)", off, "zookeeper", false));
        data.addSeries(series("zabkit, switch off: survivors' window (median)", off, "zabkit", false));
        data.addSeries(series("zabkit, keepConnections: survivors' window (median)", on, "zabkit", false));
        data.addSeries(series("zabkit, keepConnections: kill -> new leader serving", on, "zabkit", true));
        XYSeries target = new XYSeries("1.5 x kill -> new leader serving (target)", true, true);
        for (Row r : on) {
            if (r.system().equals("zabkit") && !Double.isNaN(r.servingMs())) {
                target.add(r.clients(), 1.5 * r.servingMs());
            }
        }
        data.addSeries(target);
        double loadLo = java.util.stream.Stream.concat(off.stream(), on.stream()).mapToDouble(Row::load).min().orElse(Double.NaN);
        double loadHi = java.util.stream.Stream.concat(off.stream(), on.stream()).mapToDouble(Row::load).max().orElse(Double.NaN);
        JFreeChart chart = ChartFactory.createXYLineChart("Leader kill -9: keeping connections across leader loss",
                "lean clients (each watching every topic)", "ms after the kill", data, PlotOrientation.VERTICAL, true,
                false, false);
        XYPlot plot = chart.getXYPlot();
        ((NumberAxis) plot.getDomainAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer();
        Color[] colors = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), Color.DARK_GRAY, Color.GRAY};
        for (int i = 0; i < colors.length; i++) {
            r.setSeriesPaint(i, colors[i]);
            r.setSeriesShapesVisible(i, true);
            r.setSeriesShape(i, new Ellipse2D.Double(-3, -3, 6, 6));
        }
        r.setSeriesStroke(4, new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1, new float[] {6, 4}, 0));
        plot.setRenderer(r);
        AvailPlots.style(chart);
        AvailPlots.save(Path.of(args[2]), List.of(chart), String.format(Locale.ROOT,
                "5 servers, lean clients, 1 round per point; load avg %.1f-%.1f (shared 2-core host)", loadLo, loadHi), 520);
    }

    private static XYSeries series(String name, List<Row> rows, String system, boolean serving) {
        XYSeries s = new XYSeries(name, true, true);
        for (Row r : rows) {
            double v = serving ? r.servingMs() : r.windowMedianMs();
            if (r.system().equals(system) && !Double.isNaN(v)) {
                s.add(r.clients(), v);
            }
        }
        return s;
    }

    /** Leader-kill lean rounds: the median window of the clients at home on a surviving server. */
    private static List<Row> read(Path dir) throws IOException {
        List<String[]> rounds = table(dir.resolve("rounds.tsv"));
        List<String[]> windows = table(dir.resolve("windows.tsv"));
        List<String> rh = Arrays.asList(rounds.get(0));
        List<String> wh = Arrays.asList(windows.get(0));
        List<Row> rows = new ArrayList<>();
        for (String[] f : rounds.subList(1, rounds.size())) {
            if (!f[rh.indexOf("fault")].equals("leader-kill") || !f[rh.indexOf("client")].equals("lean")) {
                continue;
            }
            String system = f[rh.indexOf("system")];
            String clients = f[rh.indexOf("clients")];
            String victim = f[rh.indexOf("victim")];
            List<Double> survivors = new ArrayList<>();
            for (String[] w : windows.subList(1, windows.size())) {
                if (w[wh.indexOf("system")].equals(system) && w[wh.indexOf("fault")].equals("leader-kill")
                        && w[wh.indexOf("client")].equals("lean") && w[wh.indexOf("clients")].equals(clients)
                        && !w[wh.indexOf("home_server")].equals(victim) && !Double.isNaN(number(w[wh.indexOf("window_ms")]))) {
                    survivors.add(number(w[wh.indexOf("window_ms")]));
                }
            }
            rows.add(new Row(system, Integer.parseInt(clients), Stats.of(survivors).median(),
                    number(f[rh.indexOf("serving_ms")]), number(f[rh.indexOf("load_average")])));
        }
        return rows;
    }

    private static List<String[]> table(Path tsv) throws IOException {
        return Files.readAllLines(tsv).stream().map(l -> l.split("\t", -1)).toList();
    }

    private static double number(String s) {
        return s.equals("-") || s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }
}
