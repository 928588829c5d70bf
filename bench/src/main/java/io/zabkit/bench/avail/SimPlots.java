package io.zabkit.bench.avail;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws the simulator's availability sweep (sim's AvailSweep, `make avail-sim`) from its TSVs with
 * bench/avail's chart helpers: per series the window (min, median, max) against the setting varied,
 * one colour per fault, System S's 3-100 s band drawn in; CDFs of every disconnected client's window
 * for the client-count series; and the calibration points beside the real-process medians of
 * results/availability/rounds.tsv (zabkit, lean clients) when that file is given.
 */
public final class SimPlots {
    private static final Map<String, Color> FAULT_COLORS = Map.of("leader-kill", new Color(0xd62728), "follower-kill",
            new Color(0x2ca02c), "leader-pause", new Color(0x1f77b4), "leader-partition", new Color(0x9467bd));

    private SimPlots() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: SimPlots DIR [REAL_ROUNDS_TSV]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        List<Map<String, String>> points = read(dir.resolve("points.tsv"));
        List<Map<String, String>> windows = read(dir.resolve("windows.tsv"));
        Map<String, List<Map<String, String>>> bySeries = new LinkedHashMap<>();
        for (Map<String, String> p : points) {
            bySeries.computeIfAbsent(p.get("series"), k -> new ArrayList<>()).add(p);
        }
        int files = 0;
        for (Map.Entry<String, List<Map<String, String>>> e : bySeries.entrySet()) {
            if (e.getKey().equals("calibrate")) {
                continue;
            }
            AvailPlots.save(dir.resolve("sweep-" + e.getKey()), List.of(sweep(e.getKey(), e.getValue())),
                    subtitle(e.getValue().get(0), e.getValue().get(0).get("axis")), 480);
            files++;
        }
        for (String series : List.of("clients", "cpuClients")) {
            if (bySeries.containsKey(series)) {
                List<JFreeChart> panels = new ArrayList<>();
                for (String fault : faults(bySeries.get(series))) {
                    panels.add(cdf(series, fault, windows));
                }
                AvailPlots.save(dir.resolve("cdf-" + series), panels, subtitle(bySeries.get(series).get(0), "clients"),
                        480);
                files++;
            }
        }
        if (args.length > 1 && bySeries.containsKey("calibrate") && Files.exists(Path.of(args[1]))) {
            List<JFreeChart> panels = new ArrayList<>();
            List<Map<String, String>> real = read(Path.of(args[1]));
            for (String fault : faults(bySeries.get("calibrate"))) {
                panels.add(calibration(fault, bySeries.get("calibrate"), real));
            }
            AvailPlots.save(dir.resolve("calibration"), panels, subtitle(bySeries.get("calibrate").get(0), "clients"),
                    480);
            files++;
        }
        System.out.println("sim plots: " + files + " figures (PNG and SVG) in " + dir);
    }

    private static JFreeChart sweep(String series, List<Map<String, String>> rows) {
        XYSeriesCollection data = new XYSeriesCollection();
        List<Color> colors = new ArrayList<>();
        List<Boolean> dashed = new ArrayList<>();
        String axis = rows.get(0).get("axis");
        for (String fault : faults(rows)) {
            for (String stat : List.of("median", "min", "max")) {
                XYSeries s = new XYSeries(fault + " " + stat, true, true);
                for (Map<String, String> r : rows) {
                    long v = Long.parseLong(r.get("window_" + stat + "_ms"));
                    if (r.get("fault").equals(fault) && v >= 0) {
                        s.add(Math.max(1, Double.parseDouble(r.get("value"))), Math.max(1, v));
                    }
                }
                data.addSeries(s);
                colors.add(FAULT_COLORS.getOrDefault(fault, Color.GRAY));
                dashed.add(!stat.equals("median"));
            }
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Simulated windows vs " + axis + " (" + series + ")", axis,
                "ms from the fault to a post-fault change (log)", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRangeAxis(AvailPlots.logAxis("ms from the fault to a post-fault change (log)"));
        if (!axis.equals("cpu_us_per_watch")) {
            plot.setDomainAxis(AvailPlots.logAxis(axis + " (log)"));
        }
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < colors.size(); i++) {
            r.setSeriesPaint(i, colors.get(i));
            r.setSeriesStroke(i, dashed.get(i) ? new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {4f, 4f}, 0f) : new BasicStroke(2f));
            r.setSeriesShapesVisible(i, !dashed.get(i));
        }
        plot.setRenderer(r);
        IntervalMarker band = new IntervalMarker(3_000, 100_000, new Color(255, 200, 120, 60));
        band.setLabel("System S leader crash: 3-100 s");
        band.setLabelAnchor(org.jfree.chart.ui.RectangleAnchor.TOP_RIGHT);
        band.setLabelTextAnchor(org.jfree.chart.ui.TextAnchor.TOP_RIGHT);
        plot.addRangeMarker(band);
        double hi = Math.max(200_000, plot.getRangeAxis().getUpperBound());
        plot.getRangeAxis().setRange(1, hi);
        return AvailPlots.style(chart);
    }

    private static JFreeChart cdf(String series, String fault, List<Map<String, String>> windows) {
        Map<Integer, List<Double>> byValue = new TreeMap<>();
        for (Map<String, String> w : windows) {
            if (w.get("series").equals(series) && w.get("fault").equals(fault)) {
                byValue.computeIfAbsent(Integer.parseInt(w.get("value")), k -> new ArrayList<>())
                        .add(Double.parseDouble(w.get("window_ms")));
            }
        }
        XYSeriesCollection data = new XYSeriesCollection();
        for (Map.Entry<Integer, List<Double>> e : byValue.entrySet()) {
            double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            XYSeries s = new XYSeries("N=" + e.getKey(), false, true);
            for (int i = 0; i < v.length; i++) {
                s.add(Math.max(v[i], 1), (double) i / v.length);
                s.add(Math.max(v[i], 1), (double) (i + 1) / v.length);
            }
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("CDF, " + fault + " (" + series + ")",
                "ms from the fault to a post-fault change (log)", "fraction of disconnected clients", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(AvailPlots.logAxis("ms from the fault to a post-fault change (log)"));
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        Color base = FAULT_COLORS.getOrDefault(fault, Color.GRAY);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            r.setSeriesPaint(i, i % 2 == 0 ? base : base.darker().darker());
            r.setSeriesStroke(i, new BasicStroke(1.2f + i * 0.7f));
        }
        plot.setRenderer(r);
        return AvailPlots.style(chart);
    }

    /** Simulated medians (lines) beside the real zabkit lean-client medians (points) of the same N. */
    private static JFreeChart calibration(String fault, List<Map<String, String>> sim, List<Map<String, String>> real) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYSeries simulated = new XYSeries("simulated median", true, true);
        XYSeries simMax = new XYSeries("simulated max", true, true);
        for (Map<String, String> r : sim) {
            if (r.get("fault").equals(fault) && Long.parseLong(r.get("window_median_ms")) >= 0) {
                simulated.add(Double.parseDouble(r.get("clients")), Double.parseDouble(r.get("window_median_ms")));
                simMax.add(Double.parseDouble(r.get("clients")), Double.parseDouble(r.get("window_max_ms")));
            }
        }
        data.addSeries(simulated);
        data.addSeries(simMax);
        for (String system : List.of("zabkit", "zookeeper")) {
            XYSeries s = new XYSeries("real " + system + " median (lean)", true, true);
            for (Map<String, String> r : real) {
                if (r.get("system").equals(system) && r.get("client").equals("lean") && r.get("fault").equals(fault)
                        && !r.get("window_median_ms").equals("-")) {
                    s.add(Double.parseDouble(r.get("clients")), Double.parseDouble(r.get("window_median_ms")));
                }
            }
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Calibration, " + fault, "clients (1,000 watches each)",
                "window ms (log)", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRangeAxis(AvailPlots.logAxis("window ms (log)"));
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        Color c = FAULT_COLORS.getOrDefault(fault, Color.GRAY);
        r.setSeriesPaint(0, c);
        r.setSeriesPaint(1, c.brighter());
        r.setSeriesStroke(1, new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {4f, 4f}, 0f));
        r.setSeriesPaint(2, Color.BLACK);
        r.setSeriesPaint(3, Color.GRAY);
        r.setSeriesLinesVisible(2, false);
        r.setSeriesLinesVisible(3, false);
        plot.setRenderer(r);
        return AvailPlots.style(chart);
    }

    private static List<String> faults(List<Map<String, String>> rows) {
        List<String> out = new ArrayList<>();
        for (Map<String, String> r : rows) {
            if (!out.contains(r.get("fault"))) {
                out.add(r.get("fault"));
            }
        }
        return out;
    }

    private static String subtitle(Map<String, String> r, String varied) {
        StringBuilder s = new StringBuilder("simulator, " + r.get("servers") + " servers");
        for (String k : List.of("clients", "watches_per_client", "tick_time_ms", "init_limit", "sync_limit",
                "session_timeout_ms", "writes_per_s", "cpu_us_per_watch")) {
            if (!k.equals(varied)) {
                s.append(", ").append(k).append(' ').append(r.get(k));
            }
        }
        return s.toString();
    }

    private static List<Map<String, String>> read(Path tsv) throws IOException {
        List<String> lines = Files.readAllLines(tsv);
        String[] header = lines.get(0).split("\t");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split("\t", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length && i < cells.length; i++) {
                row.put(header[i], cells[i]);
            }
            rows.add(row);
        }
        return rows;
    }
}
