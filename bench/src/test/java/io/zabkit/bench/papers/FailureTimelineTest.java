package io.zabkit.bench.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The figures Fig 8's table is made of, on a hand-made series of 100 ms buckets. */
class FailureTimelineTest {
    private static final FailureTimeline.Run RUN = new FailureTimeline.Run("zabkit",
            new long[] {10, 10, 0, 0, 0, 5, 10, 10, 0, 10}, new long[] {0, 0, 3, 1, 0, 0, 0, 0, 0, 0},
            List.of(new FailureTimeline.Mark("3", 0.2, "kill -9", 5)));

    @Test
    void rateIsOperationsPerSecondOverTheWholeBucketsOfTheWindow() {
        assertEquals(100.0, RUN.rate(0, 0.2), 1e-9);
        assertEquals(55.0, RUN.rate(0, 1.0), 1e-9);
    }

    @Test
    void theLongestStallIsTheLongestRunOfEmptyBuckets() {
        assertEquals(0.3, RUN.longestStall(0, 1.0), 1e-9);
        assertEquals(0.1, RUN.longestStall(0.5, 1.0), 1e-9); // the lone empty bucket at 0.8 s
        assertEquals(0.0, RUN.longestStall(0, 0.2), 1e-9);
    }

    @Test
    void lowestIsTheSmallestBucketAsARate() {
        assertEquals(0.0, RUN.lowest(0, 1.0), 1e-9);
        assertEquals(50.0, RUN.lowest(0.5, 0.8), 1e-9);
    }
}
