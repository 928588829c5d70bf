package io.zabkit.bench.avail;

import io.zabkit.bench.SystemUnderTest;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.SVGUtils;

/**
 * The figures, each as PNG and SVG: fig10 (System S's Fig 10a and 10b-c: min/median/max window per
 * client count, both systems, with the paper's 3 ms and 3-100 s), cdf (every client's window), and
 * phases (the leader-kill and follower-kill windows taken apart, stacked).
 */
final class AvailPlots {
    private static final int W = 640;
    private static final int H = 480;
    private static final Map<SystemUnderTest, Color> COLORS = Map.of(SystemUnderTest.ZOOKEEPER, new Color(0x1f77b4),
            SystemUnderTest.ZABKIT, new Color(0xd62728));

    private AvailPlots() {}

    static void write(AvailOptions o, List<Round> rounds, List<ServerMilestones> milestones) throws IOException {
        String sub = String.format(java.util.Locale.ROOT, "5 servers, %d watches/client, %d writes/s; "
                + "load avg %.1f-%.1f (shared 2-core host)", o.topics(), o.writesPerSecond(),
                rounds.stream().mapToDouble(Round::loadAverage).min().orElse(Double.NaN),
                rounds.stream().mapToDouble(Round::loadAverage).max().orElse(Double.NaN));
        List<JFreeChart> fig10 = new ArrayList<>();
        List<JFreeChart> cdf = new ArrayList<>();
        List<JFreeChart> phases = new ArrayList<>();
        for (Fault f : o.faults()) {
            fig10.add(perClientCount(rounds, f));
            cdf.add(cdf(rounds, f));
            phases.add(phases(rounds, milestones, f));
        }
        save(o.out().resolve("fig10"), fig10, sub, H);
        save(o.out().resolve("cdf"), cdf, sub, H);
        save(o.out().resolve("phases"), phases, sub, H + 200);
    }

    /** Fig 10: x clients, y window (log ms), min/median/max per system; the official client's as a lone marker. */
    private static JFreeChart perClientCount(List<Round> rounds, Fault f) {
        XYSeriesCollection data = new XYSeriesCollection();
        List<Color> colors = new ArrayList<>();
        List<Boolean> lines = new ArrayList<>();
        for (SystemUnderTest s : SystemUnderTest.values()) {
            for (String client : List.of("lean", "java")) {
                List<Round> mine = rounds.stream().filter(r -> r.system() == s && r.fault() == f
                        && r.client().equals(client)).toList();
                if (mine.isEmpty()) {
                    continue;
                }
                for (String stat : List.of("max", "median", "min")) {
                    XYSeries series = new XYSeries(s.label() + " " + client + " " + stat, true, true);
                    for (Round r : mine) {
                        Stats st = Stats.of(r.affected().stream().map(ClientWindow::windowMs).toList());
                        double v = stat.equals("min") ? st.min() : stat.equals("median") ? st.median() : st.max();
                        if (!Double.isNaN(v)) {
                            series.add(r.clients(), Math.max(v, 0.1));
                        }
                    }
                    data.addSeries(series);
                    Color c = COLORS.get(s);
                    colors.add(stat.equals("median") ? c : stat.equals("max") ? c.darker() : brighter(c));
                    lines.add(client.equals("lean"));
                }
            }
        }
        String title = switch (f) {
            case FOLLOWER_KILL -> "Fig 10a: follower kill -9";
            case LEADER_KILL -> "Fig 10b-c: leader kill -9";
            case LEADER_PAUSE -> "Leader SIGSTOP (not in System S)";
        };
        JFreeChart chart = ChartFactory.createXYLineChart(title + ": watch-unavailable window", "clients (each watching every topic)",
                "ms from the fault to a post-fault change (log)", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRangeAxis(logAxis("ms from the fault to a post-fault change (log)"));
        ((NumberAxis) plot.getDomainAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer();
        for (int i = 0; i < colors.size(); i++) {
            r.setSeriesPaint(i, colors.get(i));
            r.setSeriesLinesVisible(i, lines.get(i));
            r.setSeriesShapesVisible(i, true);
            r.setSeriesShape(i, lines.get(i) ? new Ellipse2D.Double(-3, -3, 6, 6) : diamond());
        }
        plot.setRenderer(r);
        // the paper's numbers must be on the figure: the range spans them and the data
        double lo = Math.min(f.hitsLeader() ? 3_000 : 3, data.getSeriesCount() == 0 ? 3 : plot.getRangeAxis().getLowerBound());
        double hi = Math.max(f.hitsLeader() ? 100_000 : 3, data.getSeriesCount() == 0 ? 3 : plot.getRangeAxis().getUpperBound());
        plot.getRangeAxis().setRange(lo / 2, hi * 2);
        if (f.hitsLeader()) {
            IntervalMarker band = new IntervalMarker(3_000, 100_000, new Color(0, 0, 0, 25));
            band.setLabel("System S: 3-100 s");
            band.setLabelAnchor(RectangleAnchor.TOP_LEFT);
            band.setLabelTextAnchor(TextAnchor.TOP_LEFT);
            plot.addRangeMarker(band);
        } else {
            ValueMarker m = new ValueMarker(3, Color.DARK_GRAY, new BasicStroke(1.2f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER, 1, new float[] {6, 4}, 0));
            m.setLabel("System S min: 3 ms");
            m.setLabelAnchor(RectangleAnchor.BOTTOM_RIGHT);
            m.setLabelTextAnchor(TextAnchor.TOP_RIGHT);
            plot.addRangeMarker(m);
        }
        return style(chart);
    }

    /** Every affected client's window, one step curve per system and client count. */
    private static JFreeChart cdf(List<Round> rounds, Fault f) {
        XYSeriesCollection data = new XYSeriesCollection();
        List<Color> colors = new ArrayList<>();
        for (Round r : rounds) {
            if (r.fault() != f) {
                continue;
            }
            double[] v = Stats.sorted(r.affected().stream().map(ClientWindow::windowMs).toList());
            XYSeries s = new XYSeries(r.system().label() + " " + r.client() + " N=" + r.clients(), false, true);
            for (int i = 0; i < v.length; i++) {
                s.add(Math.max(v[i], 0.1), (double) i / v.length);
                s.add(Math.max(v[i], 0.1), (double) (i + 1) / v.length);
            }
            data.addSeries(s);
            Color c = COLORS.get(r.system());
            colors.add(r.client().equals("java") ? c.darker().darker() : c);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("CDF of windows, " + f.label(),
                "ms from the fault to a post-fault change (log)", "fraction of disconnected clients", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(logAxis("ms from the fault to a post-fault change (log)"));
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < colors.size(); i++) {
            r.setSeriesPaint(i, colors.get(i));
            r.setSeriesStroke(i, new BasicStroke(1.2f + i % 3 * 0.6f));
        }
        plot.setRenderer(r);
        return style(chart);
    }

    /**
     * Each round's window taken apart at its median client: server side (first survivor LOOKING,
     * new leader elected, new leader serving) from the logs, client side (session renewed, watches
     * re-registered, first post-fault change) from the clients' clocks; one panel per fault.
     */
    private static JFreeChart phases(List<Round> rounds, List<ServerMilestones> milestones, Fault f) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (int i = 0; i < rounds.size(); i++) {
            Round r = rounds.get(i);
            if (r.fault() != f) {
                continue;
            }
            Phases p = Phases.of(r, milestones.get(i));
            String cat = r.system().label() + " " + r.client() + " N=" + r.clients();
            for (int k = 0; k < Phases.NAMES.size(); k++) {
                data.addValue(p.ms()[k], Phases.NAMES.get(k), cat);
            }
        }
        JFreeChart chart = ChartFactory.createStackedBarChart("Where the window goes: " + f.label()
                + " (median client)", "", "ms since the fault", data, PlotOrientation.HORIZONTAL, true, false, false);
        StackedBarRenderer r = (StackedBarRenderer) chart.getCategoryPlot().getRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        Color[] palette = {new Color(0x7f7f7f), new Color(0xff7f0e), new Color(0x9467bd), new Color(0x2ca02c),
            new Color(0x17becf), new Color(0xbcbd22)};
        for (int k = 0; k < palette.length; k++) {
            r.setSeriesPaint(k, palette[k]);
        }
        chart.getCategoryPlot().getDomainAxis().setTickLabelFont(new Font("SansSerif", Font.PLAIN, 9));
        chart.getCategoryPlot().setBackgroundPaint(Color.WHITE);
        chart.getCategoryPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    static LogarithmicAxis logAxis(String label) {
        LogarithmicAxis a = new LogarithmicAxis(label);
        a.setAllowNegativesFlag(false);
        a.setStrictValuesFlag(false);
        return a;
    }

    private static Shape diamond() {
        java.awt.geom.Path2D.Double d = new java.awt.geom.Path2D.Double();
        d.moveTo(0, -5);
        d.lineTo(5, 0);
        d.lineTo(0, 5);
        d.lineTo(-5, 0);
        d.closePath();
        return d;
    }

    private static Color brighter(Color c) {
        return new Color((c.getRed() + 255) / 2, (c.getGreen() + 255) / 2, (c.getBlue() + 255) / 2);
    }

    static JFreeChart style(JFreeChart chart) {
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    /** Panels side by side, into base.png and base.svg. */
    static void save(Path base, List<JFreeChart> charts, String subtitle, int height) throws IOException {
        charts.forEach(c -> c.addSubtitle(new TextTitle(subtitle, new Font("SansSerif", Font.PLAIN, 10))));
        int width = W * charts.size();
        BufferedImage png = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = png.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        SVGGraphics2D svg = new SVGGraphics2D(width, height);
        for (int i = 0; i < charts.size(); i++) {
            Rectangle2D area = new Rectangle2D.Double(i * W, 0, charts.size() == 1 ? width : W, height);
            charts.get(i).draw(g, area);
            charts.get(i).draw(svg, area);
        }
        g.dispose();
        ImageIO.write(png, "png", base.resolveSibling(base.getFileName() + ".png").toFile());
        SVGUtils.writeToSVG(base.resolveSibling(base.getFileName() + ".svg").toFile(), svg.getSVGElement());
    }
}
