package io.zabkit.bench.papers;

import java.util.List;

/**
 * The mean of a few repetitions' figures and its 95% confidence interval's half-width (Student's t with
 * n - 1 degrees of freedom), as seed 003 reports its latencies and throughputs.
 */
record MeanInterval(double mean, double halfWidth, int n) {
    /** t(0.975, df) for df = 1..30; beyond, the normal's 1.96 is within 2%. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
            2.056, 2.052, 2.048, 2.045, 2.042};

    static MeanInterval of(List<Double> values) {
        List<Double> v = values.stream().filter(Double::isFinite).toList();
        if (v.isEmpty()) {
            return new MeanInterval(Double.NaN, Double.NaN, 0);
        }
        double mean = v.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        if (v.size() == 1) {
            return new MeanInterval(mean, Double.NaN, 1);
        }
        double ss = v.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
        double sd = Math.sqrt(ss / (v.size() - 1));
        int df = v.size() - 1;
        double t = df <= T975.length ? T975[df - 1] : 1.96;
        MeanInterval m = new MeanInterval(mean, t * sd / Math.sqrt(v.size()), v.size());
        assert m.halfWidth >= 0 : "a negative interval";
        return m;
    }

    /** Whether the two intervals overlap (the difference is not significant at this crude level). */
    boolean overlaps(MeanInterval o) {
        return Math.abs(mean - o.mean) <= (Double.isNaN(halfWidth) ? 0 : halfWidth)
                + (Double.isNaN(o.halfWidth) ? 0 : o.halfWidth);
    }

    String show(String format) {
        if (!Double.isFinite(mean)) {
            return "-";
        }
        return String.format(format, mean) + (Double.isFinite(halfWidth) ? " ± " + String.format(format, halfWidth) : "");
    }
}
