package io.zabkit.bench;

import java.time.Duration;

/**
 * The throughput workload: clients spread over the servers, each keeping up to {@code outstanding}
 * asynchronous requests in flight on {@code keys} znodes of {@code valueBytes} each. Every point is
 * bounded by {@code measure} and by {@code measuredOpsMax}.
 */
record LoadSettings(int clients, int outstanding, int valueBytes, int keys, Duration warmup, Duration measure,
        int measuredOpsMax) {

    LoadSettings {
        if (clients < 1 || outstanding < 1 || valueBytes < 0 || keys < 1 || measuredOpsMax < 1) {
            throw new IllegalArgumentException("clients, outstanding, keys and ops bound must be positive, value size >= 0");
        }
        if (measure.isZero() || measure.isNegative() || warmup.isNegative()) {
            throw new IllegalArgumentException("a point needs a positive measuring time and a warm-up >= 0");
        }
    }
}
