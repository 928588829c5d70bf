package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The simulator as part of the build: a thousand short seeded runs must hold every property, a seed
 * must replay exactly, and a disk that lies about fsync must be caught.
 */
class SimulatorTest {
    /** Short runs: enough for crashes, restarts and expiries, small enough for the shared 2-core machine. */
    private static final int TICKS = 300;
    private static final int SEEDS = 1000;

    @Test
    void thousandSeedsHoldEveryProperty() {
        List<SimResult> failures = new ArrayList<>();
        long ops = 0;
        long crashes = 0;
        long restartsCompared = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            SimResult r = new Simulator(SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST), null, false).run();
            ops += r.stats().opsInvoked();
            crashes += r.stats().crashes();
            restartsCompared += r.stats().restartsCompared();
            if (!r.ok()) {
                failures.add(r);
            }
        }
        System.out.printf("simulated %d seeds: %d client ops, %d NodeCrash, %d recoveries compared, %d failures%n",
                SEEDS, ops, crashes, restartsCompared, failures.size());
        if (!failures.isEmpty()) {
            StringBuilder s = new StringBuilder(failures.size() + " of " + SEEDS + " seeds failed; the first:\n");
            s.append(failures.get(0).report());
            for (SimResult r : failures) {
                s.append("failed: ").append(r.summary()).append("  replay: ").append(r.replayCommand()).append('\n');
            }
            fail(s.toString());
        }
        // The runs must have exercised what the properties are about, or passing means nothing.
        assertTrue(ops > 50L * SEEDS, "client ops per seed too few: " + ops);
        assertTrue(crashes > SEEDS, "too few NodeCrash faults: " + crashes);
        assertEquals(crashes, restartsCompared, "every crash is followed by a recovery that is compared");
    }

    @Test
    void aSeedReplaysExactly() {
        for (long seed : new long[] {7, 601, 4242}) {
            SimOptions options = SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST).withCrashes(0.02, 20);
            SimResult first = new Simulator(options, null, true).run();
            SimResult second = new Simulator(options, null, true).run();
            assertTrue(first.traceEvents() > 100, "a run with so few events proves little: " + first.summary());
            assertEquals(first.traceHash(), second.traceHash(), "seed " + seed + " did not replay identically");
            assertEquals(first.traceEvents(), second.traceEvents());
            assertEquals(first.history().size(), second.history().size());
        }
        SimResult a = new Simulator(SimOptions.fromSeed(1, TICKS, SimDisk.Mode.HONEST), null, false).run();
        SimResult b = new Simulator(SimOptions.fromSeed(2, TICKS, SimDisk.Mode.HONEST), null, false).run();
        assertNotEquals(a.traceHash(), b.traceHash(), "different seeds must give different runs");
    }

    @Test
    void aDiskThatAcknowledgesSyncsAndLosesDataIsCaughtByTheDurabilityChecker() {
        int caught = 0;
        int seeds = 30;
        List<String> properties = new ArrayList<>();
        for (long seed = 1; seed <= seeds; seed++) {
            SimOptions options = SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.LYING_SYNC).withCrashes(0.02, 5);
            SimResult r = new Simulator(options, null, false).run();
            if (!r.ok()) {
                properties.add(r.violation().property());
                if (r.violation().property().equals("Durability")) {
                    caught++;
                }
                assertTrue(r.report().contains("replay: make sim-replay SEED=" + seed), r.report());
            }
        }
        assertTrue(caught >= seeds / 2, "the DurabilityChecker caught only " + caught + " of " + seeds
                + " runs on a lying disk; violations: " + properties);
    }

    @Test
    void simulatorRefusesToRunWithoutAssertions() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SimMain.class.getName(),
                "--seed", "1", "--ticks", "10").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "SimMain without -ea did not exit");
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("-ea"), out);
    }
}
