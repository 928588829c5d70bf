package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.zabkit.zab.Bug;
import io.zabkit.zab.Variant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Observers beside the voters in the simulator, under the same faults as any ensemble: every invariant
 * holds (durability counts voters only; an observer's deliveries are the committed chain's; its clients'
 * reads obey the client properties; ObserverNeverVotes), the observer paths are reached, and the leader
 * counting an observer's ACK (Bug.OBSERVER_ACK_COUNTED) is caught. Seeds 2001.. here; the sweeps in
 * sim/README.md ran seeds 1..500 of each shape.
 */
class ObserverSimulationTest {
    private static final int TICKS = 600;
    private static final long FIRST = 2001;

    private static SimOptions options(long seed, int voters, int observers) {
        return SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST, voters, Variant.Zab).withObservers(observers);
    }

    private static Coverage.Tally runAll(int voters, int observers, int count) {
        Coverage.Tally tally = new Coverage.Tally();
        List<String> failures = new ArrayList<>();
        for (long seed = FIRST; seed < FIRST + count; seed++) {
            SimResult r = new Simulator(options(seed, voters, observers), null, false).run();
            tally.add(r);
            if (!r.ok()) {
                failures.add(r.summary() + "  replay: " + r.replayCommand() + "\n" + r.report());
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " of " + count + " seeds failed; the first:\n"
                + (failures.isEmpty() ? "" : failures.get(0)));
        return tally;
    }

    private static void assertObserversWorked(Coverage.Tally tally, int count) {
        for (Coverage.Branch b : List.of(Coverage.Branch.OBSERVER_SYNC, Coverage.Branch.OBSERVER_INFORM,
                Coverage.Branch.OBSERVER_FORWARD, Coverage.Branch.OBSERVER_SYNC_REQUEST)) {
            assertTrue(tally.seedsReaching(b) > 0, "no seed reached " + b + "\n" + tally.table());
        }
        assertTrue(tally.seedsReaching(Coverage.Branch.OBSERVER_INFORM) >= count / 2,
                "observers served in under half the seeds\n" + tally.table());
    }

    @Test
    void threeVotersAndTwoObserversHoldEveryProperty() {
        assertObserversWorked(runAll(3, 2, 100), 100);
    }

    @Test
    void fiveVotersAndTwoObserversHoldEveryProperty() {
        assertObserversWorked(runAll(5, 2, 40), 40);
    }

    @Test
    void theLeaderCountingAnObserversAckIsCaught() {
        for (long seed = FIRST; seed < FIRST + 20; seed++) {
            SimResult r = new Simulator(options(seed, 3, 2).withBugs(Set.of(Bug.OBSERVER_ACK_COUNTED)), null, false).run();
            if (!r.ok()) {
                assertTrue(r.replayCommand().contains("--observers 2") && r.replayCommand().contains("--bug "
                        + Bug.OBSERVER_ACK_COUNTED.name()), r.replayCommand());
                assertEquals("ZabInvariantOnDeliver", r.violation().property(), r.report());
                assertTrue(new Simulator(options(seed, 3, 2), null, false).run().ok(), "fails without the switch too");
                return;
            }
        }
        fail("OBSERVER_ACK_COUNTED not caught in 20 seeds of 3 voters and 2 observers");
    }

    @Test
    void withoutObserversTheSwitchChangesNothing() {
        // an equivalent mutant without observers: the same seed runs the same with it planted
        SimOptions plain = SimOptions.fromSeed(FIRST, TICKS, SimDisk.Mode.HONEST, 3, Variant.Zab);
        SimResult with = new Simulator(plain.withBugs(Set.of(Bug.OBSERVER_ACK_COUNTED)), null, false).run();
        SimResult without = new Simulator(plain, null, false).run();
        assertTrue(with.ok() && without.ok(), with.summary());
        assertEquals(without.stats().opsOk(), with.stats().opsOk());
        assertEquals(without.stats().maxAckedZxid(), with.stats().maxAckedZxid());
    }
}
