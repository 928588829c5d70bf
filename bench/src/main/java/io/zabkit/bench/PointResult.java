package io.zabkit.bench;

/**
 * One throughput point: successful operations completed in the measuring window, their latency, the
 * errors, and the CPU time all servers and the load client (the benchmark's JVM) used in that window.
 */
record PointResult(SystemUnderTest system, int readPercent, long ops, long errors, double seconds, double p50Ms,
        double p99Ms, double serverCpuMs, double clientCpuMs) {

    double opsPerSecond() {
        return seconds > 0 ? ops / seconds : 0;
    }

    /** Server CPU microseconds per successful operation (all servers together); NaN without operations. */
    double serverCpuUsPerOp() {
        return ops > 0 ? serverCpuMs * 1000 / ops : Double.NaN;
    }

    /** The load client's CPU microseconds per successful operation; NaN without operations. */
    double clientCpuUsPerOp() {
        return ops > 0 ? clientCpuMs * 1000 / ops : Double.NaN;
    }
}
