package io.zabkit.bench;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.BoxAndWhiskerRenderer;
import org.jfree.chart.renderer.category.CategoryItemRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.statistics.DefaultBoxAndWhiskerCategoryDataset;

/** bench.png: throughput by read ratio, p50/p99 latency by read ratio, and the leader-crash windows, one panel each. */
final class Plots {
    private static final int PANEL_WIDTH = 620;
    private static final int PANEL_HEIGHT = 460;
    private static final Map<SystemUnderTest, Color> COLORS = Map.of(SystemUnderTest.ZOOKEEPER, new Color(0x1f77b4),
            SystemUnderTest.ZABKIT, new Color(0xd62728));

    private Plots() {}

    static void write(Path png, List<PointResult> points, List<CrashRound> crashes, String subtitle) throws IOException {
        List<JFreeChart> charts = List.of(throughput(points), latency(points), crashes(crashes));
        BufferedImage image = new BufferedImage(PANEL_WIDTH * charts.size(), PANEL_HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        for (int i = 0; i < charts.size(); i++) {
            charts.get(i).addSubtitle(new org.jfree.chart.title.TextTitle(subtitle));
            charts.get(i).draw(g, new Rectangle2D.Double(i * PANEL_WIDTH, 0, PANEL_WIDTH, PANEL_HEIGHT));
        }
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }

    private static JFreeChart throughput(List<PointResult> points) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (PointResult p : points) {
            data.addValue(p.opsPerSecond(), p.system().label(), p.readPercent() + "% reads");
        }
        JFreeChart chart = ChartFactory.createBarChart("Throughput", "workload", "ops/s", data,
                PlotOrientation.VERTICAL, true, false, false);
        colorBySystem(chart.getCategoryPlot(), data);
        return style(chart);
    }

    private static JFreeChart latency(List<PointResult> points) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        addLatency(data, points, "p50", PointResult::p50Ms);
        addLatency(data, points, "p99", PointResult::p99Ms);
        JFreeChart chart = ChartFactory.createBarChart("Latency (issue to reply)", "workload", "ms (log scale)", data,
                PlotOrientation.VERTICAL, true, false, false);
        LogarithmicAxis axis = new LogarithmicAxis("ms (log scale)");
        axis.setAllowNegativesFlag(false);
        axis.setStrictValuesFlag(false);
        chart.getCategoryPlot().setRangeAxis(axis);
        CategoryItemRenderer r = chart.getCategoryPlot().getRenderer();
        for (int row = 0; row < data.getRowCount(); row++) {
            String key = (String) data.getRowKey(row);
            Color base = COLORS.get(SystemUnderTest.parse(key.substring(0, key.indexOf(' '))));
            r.setSeriesPaint(row, key.endsWith("p99") ? base.darker() : brighter(base));
        }
        return style(chart);
    }

    private static void addLatency(DefaultCategoryDataset data, List<PointResult> points, String which,
            ToDoubleFunction<PointResult> ms) {
        for (PointResult p : points) {
            if (!Double.isNaN(ms.applyAsDouble(p))) {
                data.addValue(ms.applyAsDouble(p), p.system().label() + " " + which, p.readPercent() + "% reads");
            }
        }
    }

    private static JFreeChart crashes(List<CrashRound> crashes) {
        DefaultBoxAndWhiskerCategoryDataset data = new DefaultBoxAndWhiskerCategoryDataset();
        for (SystemUnderTest s : SystemUnderTest.values()) {
            List<CrashRound> mine = crashes.stream().filter(c -> c.system() == s).toList();
            if (mine.isEmpty()) {
                continue;
            }
            data.add(mine.stream().map(CrashRound::leaderServingMs).toList(), s.label(), "new leader");
            data.add(mine.stream().map(CrashRound::survivorWriteMs).toList(), s.label(), "survivor's write");
            data.add(mine.stream().map(CrashRound::oldLeaderClientWriteMs).toList(), s.label(), "old leader client's write");
        }
        JFreeChart chart = ChartFactory.createBoxAndWhiskerChart("Leader crash: kill -9 to ...", "", "ms since the kill",
                data, true);
        BoxAndWhiskerRenderer r = (BoxAndWhiskerRenderer) chart.getCategoryPlot().getRenderer();
        r.setMeanVisible(false);
        ((NumberAxis) chart.getCategoryPlot().getRangeAxis()).setAutoRangeIncludesZero(true);
        chart.getCategoryPlot().getDomainAxis().setMaximumCategoryLabelLines(2);
        r.setMaxOutlierVisible(true);
        r.setMinOutlierVisible(true);
        for (int row = 0; row < data.getRowCount(); row++) {
            r.setSeriesPaint(row, COLORS.get(SystemUnderTest.parse((String) data.getRowKey(row))));
        }
        return style(chart);
    }

    private static void colorBySystem(CategoryPlot plot, DefaultCategoryDataset data) {
        for (int row = 0; row < data.getRowCount(); row++) {
            plot.getRenderer().setSeriesPaint(row, COLORS.get(SystemUnderTest.parse((String) data.getRowKey(row))));
        }
    }

    private static Color brighter(Color c) {
        return new Color((c.getRed() + 255) / 2, (c.getGreen() + 255) / 2, (c.getBlue() + 255) / 2);
    }

    private static JFreeChart style(JFreeChart chart) {
        CategoryPlot plot = chart.getCategoryPlot();
        if (plot.getRenderer() instanceof BarRenderer bars) {
            bars.setBarPainter(new StandardBarPainter()); // flat bars: the default theme paints gradients
            bars.setShadowVisible(false);
        }
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }
}
