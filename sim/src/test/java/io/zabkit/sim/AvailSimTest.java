package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The availability driver (issue 20 item 4): one seed, one run; windows bounded by the timeouts that cause them. */
class AvailSimTest {
    private static AvailSim.Setting small(AvailSim.Fault fault, long seed, double cpuUsPerWatch) {
        return new AvailSim.Setting(5, 10, 20, 1000, 10, 2, 10_000, fault, 50, new AvailServer.Cpu(0, cpuUsPerWatch),
                seed, 60_000);
    }

    @Test
    void aSeedIsOneRun() {
        AvailSim.Outcome a = new AvailSim(small(AvailSim.Fault.LEADER_KILL, 7, 0)).run(60_000);
        AvailSim.Outcome b = new AvailSim(small(AvailSim.Fault.LEADER_KILL, 7, 0)).run(60_000);
        assertEquals(a.traceHash(), b.traceHash(), "same seed, same trace");
        assertArrayEquals(a.windowsMs(), b.windowsMs(), "same seed, same windows");
    }

    @Test
    void everySubscriberOfTheLeaderLosesAndRegainsItsWatches() {
        AvailSim.Outcome o = new AvailSim(small(AvailSim.Fault.LEADER_KILL, 3, 0)).run(60_000);
        assertEquals(10, o.disconnected(), "followers drop their clients when the leader goes");
        assertEquals(0, o.unsettled(), "every window closed");
        assertEquals(10, o.windowsMs().length);
    }

    @Test
    void aStoppedLeaderIsNoticedOnlyAfterSyncLimitTicks() {
        AvailSim.Outcome o = new AvailSim(small(AvailSim.Fault.LEADER_PAUSE, 3, 0)).run(60_000);
        // followers give up on a silent leader after syncLimit x tickTime = 2 s; its own clients after 2/3 of 10 s
        assertTrue(o.windowsMs()[0] >= 2_000, "window " + o.windowsMs()[0] + " ms before syncLimit expired");
        assertTrue(o.windowsMs()[o.windowsMs().length - 1] >= 6_666, "the stopped leader's clients wait for their"
                + " read timeout, got " + o.windowsMs()[o.windowsMs().length - 1]);
    }

    @Test
    void aCpuCostPerWatchDelaysTheReRegistrationBurst() {
        AvailSim.Outcome free = new AvailSim(small(AvailSim.Fault.LEADER_KILL, 3, 0)).run(60_000);
        AvailSim.Outcome paid = new AvailSim(small(AvailSim.Fault.LEADER_KILL, 3, 2_000)).run(60_000);
        // 10 clients x 20 watches x 2 ms over 4 survivors: about 100 ms of queue at each
        assertTrue(AvailSim.percentile(paid.windowsMs(), 0.5) >= AvailSim.percentile(free.windowsMs(), 0.5) + 80,
                "free " + AvailSim.describe(free.windowsMs()) + " vs paid " + AvailSim.describe(paid.windowsMs()));
    }
}
