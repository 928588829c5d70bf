package io.zabkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmark's command line: defaults, --quick, and a clear error for every bad value. */
class BenchOptionsTest {

    @Test
    void defaultsAreBothSystemsFourReadRatiosAndForceSync() {
        BenchOptions o = BenchOptions.parse(new String[0]);
        assertEquals(List.of(SystemUnderTest.ZOOKEEPER, SystemUnderTest.ZABKIT), o.systems());
        assertEquals(List.of(0, 50, 90, 100), o.readPercents());
        assertEquals(100, o.load().outstanding());
        assertEquals(1024, o.load().valueBytes());
        assertEquals(Duration.ofSeconds(10), o.load().measure());
        assertEquals(20, o.crashRounds()); // issue 21's failover figure is a median of at least 20 rounds
        assertEquals(10, o.jitWarmupS());
        assertTrue(o.forceSync());
        assertFalse(o.quick());
        assertEquals(BenchOptions.LoadClient.LEAN, o.client()); // the servers, not the clients, must limit
        assertEquals(BenchOptions.LoadClient.JAVA, BenchOptions.parse(new String[] {"--client", "java"}).client());
    }

    @Test
    void quickShortensPointsButExplicitOptionsWin() {
        BenchOptions o = BenchOptions.parse(new String[] {"--quick", "--crash-rounds", "3", "--systems", "zookeeper"});
        assertEquals(Duration.ofSeconds(2), o.load().measure());
        assertEquals(3, o.crashRounds());
        assertEquals(2, o.jitWarmupS());
        assertEquals(List.of(SystemUnderTest.ZOOKEEPER), o.systems());
    }

    @Test
    void systemsMaySeparateWithSpacesOrCommas() {
        assertEquals(List.of(SystemUnderTest.ZABKIT, SystemUnderTest.ZOOKEEPER),
                BenchOptions.parse(new String[] {"--systems", "zabkit zookeeper"}).systems());
    }

    @Test
    void badValuesNameTheOptionAndTheRule() {
        assertMessage("unknown option --rate", "--rate", "5");
        assertMessage("--reads: 101 is not a percentage 0..100", "--reads", "0,101");
        assertMessage("--clients must be at least 1, got 0", "--clients", "0");
        assertMessage("--point-s: 'ten' is not an integer", "--point-s", "ten");
        assertMessage("--force-sync must be yes or no, got 'maybe'", "--force-sync", "maybe");
        assertMessage("--client must be lean or java, got 'c'", "--client", "c");
        assertMessage("unknown system 'etcd': expected zookeeper or zabkit", "--systems", "etcd");
        assertMessage("unexpected argument '--out'", "--out");
    }

    @Test
    void percentilesAreNearestRank() {
        long[] ns = {1_000_000, 2_000_000, 3_000_000, 4_000_000};
        assertEquals(2.0, LoadPoint.percentileMs(ns, 50));
        assertEquals(4.0, LoadPoint.percentileMs(ns, 99));
        assertEquals(1.0, LoadPoint.percentileMs(new long[] {1_000_000}, 99));
        assertTrue(Double.isNaN(LoadPoint.percentileMs(new long[0], 50)));
        assertEquals(2.5, Report.median(new double[] {1, 2, 3, 4}));
    }

    private static void assertMessage(String expected, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(args));
        assertEquals(expected, e.getMessage());
    }
}
