package io.zabkit.bench.avail;

import java.util.Arrays;
import java.util.List;

/** Order statistics of a sample of ms values, NaN-free (callers drop unmeasured values first). */
record Stats(int count, double min, double median, double p90, double max) {
    static Stats of(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new Stats(v.length, v[0], quantile(v, 0.5), quantile(v, 0.9), v[v.length - 1]);
    }

    /** Nearest-rank quantile of sorted values. */
    static double quantile(double[] sorted, double q) {
        assert sorted.length > 0 && q >= 0 && q <= 1 : "quantile of nothing, or q outside [0,1]";
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    static double[] sorted(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).toArray();
        Arrays.sort(v);
        return v;
    }
}
