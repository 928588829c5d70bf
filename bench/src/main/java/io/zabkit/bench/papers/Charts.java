package io.zabkit.bench.papers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/** Line and bar charts, each written as NAME.png and NAME.svg side by side. */
final class Charts {
    private static final int WIDTH = 760;
    private static final int HEIGHT = 500;

    private Charts() {}

    /** Series name to its points, in the order the legend shows them. */
    static final class Lines {
        final Map<String, XYSeries> series = new LinkedHashMap<>();

        void add(String name, double x, double y) {
            if (Double.isFinite(y)) {
                series.computeIfAbsent(name, n -> new XYSeries(n, false, true)).add(x, y);
            }
        }

        boolean isEmpty() {
            return series.isEmpty();
        }
    }

    /** Writes dir/name.png and dir/name.svg; logY for figures that span orders of magnitude. */
    static void write(Path dir, String name, String title, String subtitle, String xLabel, String yLabel, Lines lines,
            boolean logY) throws IOException {
        JFreeChart chart = lineChart(name, title, subtitle, xLabel, yLabel, lines);
        XYPlot plot = chart.getXYPlot();
        if (logY) {
            LogarithmicAxis axis = new LogarithmicAxis(yLabel + " (log scale)");
            axis.setAllowNegativesFlag(false);
            axis.setStrictValuesFlag(false);
            plot.setRangeAxis(axis);
        }
        plot.setRenderer(systemLines(lines, true, 2f));
        whiteBackground(chart, plot);
        draw(dir, name, chart);
    }

    /** A vertical line at x with a label (an event on a time axis). */
    record Marker(double x, String label) {}

    /**
     * A time series chart without point shapes (dense series), with labelled vertical markers, written
     * as NAME.png and NAME.svg; both systems' series on one figure, zabkit solid, ZooKeeper dashed.
     */
    static void timeline(Path dir, String name, String title, String subtitle, String xLabel, String yLabel,
            Lines lines, List<Marker> markers) throws IOException {
        JFreeChart chart = lineChart(name, title, subtitle, xLabel, yLabel, lines);
        XYPlot plot = chart.getXYPlot();
        plot.setRenderer(systemLines(lines, false, 1.5f));
        for (Marker m : markers) {
            org.jfree.chart.plot.ValueMarker v = new org.jfree.chart.plot.ValueMarker(m.x());
            v.setPaint(Color.DARK_GRAY);
            v.setStroke(new BasicStroke(0.8f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 3f},
                    0f));
            v.setLabel(m.label());
            v.setLabelAnchor(org.jfree.chart.ui.RectangleAnchor.TOP_LEFT);
            v.setLabelTextAnchor(org.jfree.chart.ui.TextAnchor.TOP_RIGHT);
            plot.addDomainMarker(v);
        }
        whiteBackground(chart, plot);
        draw(dir, name, chart);
    }

    /** An XY line chart of the series under its title and subtitle; a chart without points is refused. */
    private static JFreeChart lineChart(String name, String title, String subtitle, String xLabel, String yLabel,
            Lines lines) {
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("chart " + name + " has no points");
        }
        XYSeriesCollection data = new XYSeriesCollection();
        lines.series.values().forEach(data::addSeries);
        JFreeChart chart = ChartFactory.createXYLineChart(title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true,
                false, false);
        chart.addSubtitle(new TextTitle(subtitle));
        return chart;
    }

    /**
     * Each series in its system's palette, zabkit solid and ZooKeeper dashed, so the two systems read
     * apart in grey print too; with point shapes or (dense series) without.
     */
    private static XYLineAndShapeRenderer systemLines(Lines lines, boolean shapes, float width) {
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, shapes);
        List<String> names = List.copyOf(lines.series.keySet());
        int zookeeperSeen = 0;
        int zabkitSeen = 0;
        for (int i = 0; i < names.size(); i++) {
            boolean zookeeper = names.get(i).startsWith("zookeeper");
            r.setSeriesPaint(i, color(zookeeper, zookeeper ? zookeeperSeen++ : zabkitSeen++));
            r.setSeriesStroke(i, zookeeper ? new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {6f, 4f}, 0f) : new BasicStroke(width));
        }
        assert zookeeperSeen + zabkitSeen == names.size() : "every series has its system's colour";
        return r;
    }

    /** White chart and plot, light grey grid lines. */
    private static void whiteBackground(JFreeChart chart, XYPlot plot) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        chart.setBackgroundPaint(Color.WHITE);
    }

    /**
     * A grouped bar chart (one group per category, one bar per series), written as NAME.png and NAME.svg;
     * for cases that are not points on an axis.
     */
    static void bars(Path dir, String name, String title, String subtitle, String yLabel,
            DefaultCategoryDataset data, boolean logY) throws IOException {
        if (data.getRowCount() == 0) {
            throw new IllegalArgumentException("chart " + name + " has no bars");
        }
        JFreeChart chart = ChartFactory.createBarChart(title, "", yLabel, data, PlotOrientation.VERTICAL, true, false,
                false);
        chart.addSubtitle(new TextTitle(subtitle));
        CategoryPlot plot = chart.getCategoryPlot();
        if (logY) {
            LogarithmicAxis axis = new LogarithmicAxis(yLabel + " (log scale)");
            axis.setAllowNegativesFlag(false);
            axis.setStrictValuesFlag(false);
            plot.setRangeAxis(axis);
        }
        BarRenderer r = (BarRenderer) plot.getRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        int zookeeperSeen = 0;
        int zabkitSeen = 0;
        for (int i = 0; i < data.getRowCount(); i++) {
            boolean zookeeper = data.getRowKey(i).toString().startsWith("zookeeper");
            r.setSeriesPaint(i, color(zookeeper, zookeeper ? zookeeperSeen++ : zabkitSeen++));
        }
        plot.getDomainAxis().setMaximumCategoryLabelLines(3);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        chart.setBackgroundPaint(Color.WHITE);
        draw(dir, name, chart);
    }

    private static void draw(Path dir, String name, JFreeChart chart) throws IOException {
        Files.createDirectories(dir);
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        chart.draw(g, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
        g.dispose();
        ImageIO.write(image, "png", dir.resolve(name + ".png").toFile());
        SVGGraphics2D svg = new SVGGraphics2D(WIDTH, HEIGHT);
        chart.draw(svg, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
        Files.writeString(dir.resolve(name + ".svg"), svg.getSVGDocument());
    }

    private static final Color[] ZABKIT = {new Color(0xd62728), new Color(0xff7f0e), new Color(0x8c564b),
            new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22)}; // six: seed 003's variants
    private static final Color[] ZOOKEEPER = {new Color(0x1f77b4), new Color(0x17becf), new Color(0x2ca02c),
            new Color(0x9467bd)};

    /** zabkit in reds and browns, ZooKeeper in blues and greens: the index-th series of its system. */
    private static Color color(boolean zookeeper, int index) {
        Color[] palette = zookeeper ? ZOOKEEPER : ZABKIT;
        return palette[index % palette.length];
    }
}
