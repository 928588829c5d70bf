package io.zabkit.bench;

/** One throughput point: successful operations completed in the measuring window, their latency, and the errors. */
record PointResult(SystemUnderTest system, int readPercent, long ops, long errors, double seconds, double p50Ms,
        double p99Ms) {

    double opsPerSecond() {
        return seconds > 0 ? ops / seconds : 0;
    }
}
