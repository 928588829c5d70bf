package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.zabkit.zab.Variant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Zab ensembles in the simulator as part of the build: crashes and restarts of any server (losing
 * unsynced writes), partitions that break links and partitions that only hold them, random link
 * breaks and reordering across links; every step checks the Zab invariants and the client-level ones.
 * A bounded number of seeds here; {@code make sim-ensembles} runs many more.
 */
class EnsembleSimulationTest {
    private static final int TICKS = 600;

    /** Runs seeds 1..count; fails with the first report and every replay command. */
    private static List<SimResult> runAll(int count, int servers, Variant variant) {
        List<SimResult> results = new ArrayList<>();
        List<SimResult> failures = new ArrayList<>();
        for (long seed = 1; seed <= count; seed++) {
            SimResult r = new Simulator(SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST, servers, variant), null,
                    false).run();
            results.add(r);
            if (!r.ok()) {
                failures.add(r);
            }
        }
        if (!failures.isEmpty()) {
            StringBuilder s = new StringBuilder(failures.size() + " of " + count + " seeds failed (" + servers
                    + " servers, " + variant + "); the first:\n").append(failures.get(0).report());
            for (SimResult r : failures) {
                s.append("failed: ").append(r.summary()).append("  replay: ").append(r.replayCommand()).append('\n');
            }
            fail(s.toString());
        }
        return results;
    }

    private static long sum(List<SimResult> rs, java.util.function.ToLongFunction<SimResult.Stats> f) {
        return rs.stream().mapToLong(r -> f.applyAsLong(r.stats())).sum();
    }

    /**
     * Branches CI's seeds do not reach yet, each with why; every other branch a shape can reach must be
     * reached, or the build fails (a branch no seed reaches is a branch no seed tests).
     */
    private static final Map<Coverage.Branch, String> NOT_YET_REACHED = Map.of(
            Coverage.Branch.FOLLOWER_AHEAD_OF_LEADER, "needs a server with a later history cut off during the"
                    + " election and back before discovery ends: 7 of 1,000 unpinned 3-server seeds and 6 of 300 of 5"
                    + " (50001..), none of CI's 400; no scenario places it yet");

    /**
     * The branches the targeted scenarios exist to reach, with the share of CI's classic seeds (300 of 3
     * servers and 100 of 5) that must reach each: about half of what they reached when the scenarios
     * were tuned (sim/README.md), so a scenario that stops reaching its path fails the build.
     */
    private static final Map<Coverage.Branch, Double> MIN_SEED_SHARE = Map.of(
            Coverage.Branch.CRASH_DURABILITY_WINDOW, 0.18, // 152 of 400 when tuned
            Coverage.Branch.TRUNC, 0.065, // 54 with the leader-cut scenario (18 before)
            Coverage.Branch.LEADER_CUT_WITH_PROPOSALS, 0.2, // 164
            Coverage.Branch.SNAP, 0.18, // 147
            Coverage.Branch.SYNC_ON_SERVER_BEHIND_WRITE, 0.05, // 40
            Coverage.Branch.CLIENT_REFUSED_LAST_ZXID, 0.02, // 16
            Coverage.Branch.LEADER_CRASH_IN_DISCOVERY, 0.18, // 150
            Coverage.Branch.SESSION_ABANDONED_ON_FOLLOWER, 0.15, // 46 of 150 (3 servers)
            Coverage.Branch.REJOIN_RECOVERED_ENSEMBLE, 0.12, // 88 of 300 (3 servers)
            Coverage.Branch.SNAP_BEHIND_APPLIED, 0.03); // 20 of 300 (3 servers) with the rejoin scenario (0 before)

    private static void assertCovered(Coverage.Tally tally, String shape) {
        System.out.print(shape + " " + tally.table());
        List<Coverage.Branch> missing = new ArrayList<>(tally.unreached());
        missing.removeAll(NOT_YET_REACHED.keySet());
        assertTrue(missing.isEmpty(), shape + ": no seed reached " + missing + "\n" + tally.table());
    }

    private static void assertReachedOften(Coverage.Tally tally, long seeds) {
        for (Map.Entry<Coverage.Branch, Double> e : MIN_SEED_SHARE.entrySet()) {
            long reached = tally.seedsReaching(e.getKey());
            assertTrue(reached >= e.getValue() * seeds, e.getKey() + " reached by " + reached + " of " + seeds
                    + " seeds, fewer than " + e.getValue() + " of them: has its targeted scenario stopped reaching it?\n"
                    + tally.table());
        }
    }

    /**
     * ZooKeeper's election transport (SimElectionChannel, {@code --election-channel}): notifications on
     * connections of their own arrive late, long after their sender left the role they name, and the
     * core, finalize-early rule included, must still hold every property. Off in CI's other seeds (it
     * slows elections and thins the bug zoo's catches), so it is run here.
     */
    @Test
    void classicZabHoldsEveryPropertyUnderZooKeepersElectionChannel() {
        Coverage.Tally coverage = new Coverage.Tally();
        List<String> failures = new ArrayList<>();
        for (int servers : new int[] {3, 5}) {
            for (long seed = 1; seed <= (servers == 3 ? 60 : 20); seed++) {
                SimOptions o = SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST, servers, Variant.Zab)
                        .withElectionChannel();
                SimResult r = new Simulator(o, null, false).run();
                coverage.add(r);
                if (!r.ok()) {
                    failures.add(r.summary() + "  replay: " + r.replayCommand());
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        assertTrue(coverage.seedsReaching(Coverage.Branch.STALE_SETTLED_VOTE) >= 8, coverage.table());
        assertTrue(coverage.seedsReaching(Coverage.Branch.NOTIFICATION_RESENT) >= 8, coverage.table());
    }

    @Test
    void classicZabHoldsEveryPropertyInThreeAndFiveServerEnsembles() {
        Coverage.Tally coverage = new Coverage.Tally();
        for (int servers : new int[] {3, 5}) {
            int seeds = servers == 3 ? 300 : 100;
            List<SimResult> rs = runAll(seeds, servers, Variant.Zab);
            rs.forEach(coverage::add);
            long ops = sum(rs, SimResult.Stats::opsOk);
            long crashes = sum(rs, SimResult.Stats::crashes);
            long leaders = sum(rs, SimResult.Stats::leadersEstablished);
            long partitions = sum(rs, SimResult.Stats::partitions);
            System.out.printf("%d servers, %d seeds: %d ops ok, %d NodeCrash, %d leaders began to serve, "
                    + "%d partitions, %d peer messages%n", servers, seeds, ops, crashes, leaders, partitions,
                    sum(rs, SimResult.Stats::peerMessages));
            // The runs must have exercised failover, or passing means little.
            assertTrue(leaders > 2L * seeds, "too few leader changes: " + leaders);
            assertTrue(crashes > seeds, "too few NodeCrash faults: " + crashes);
            assertTrue(partitions > seeds / 10, "too few partitions: " + partitions);
            // 20 a seed: the rejoin and slow-disk scenarios take time out of half the runs (30 before them)
            assertTrue(ops > 20L * seeds, "too few acknowledged client ops: " + ops);
        }
        assertCovered(coverage, "classic Zab, 3 and 5 servers:");
        assertReachedOften(coverage, 400);
    }

    @Test
    void everyFastVariantHoldsUnderItsFaultAssumption() {
        for (Variant v : new Variant[] {Variant.ZabAc, Variant.ZabAa, Variant.ZabCt, Variant.ZabCT}) {
            List<SimResult> rs = runAll(60, 3, v);
            long ops = sum(rs, SimResult.Stats::opsOk);
            System.out.printf("%s, 3 servers, 60 seeds: %d ops ok%n", v, ops);
            // 20 a seed, as classic Zab's: the rejoin and slow-disk scenarios take time out of half the runs
            assertTrue(ops > 20L * 60, v + ": too few acknowledged ops: " + ops);
            Coverage.Tally coverage = new Coverage.Tally();
            rs.forEach(coverage::add);
            // Both the fast path and the fallback to classic proposals, for every variant.
            assertTrue(coverage.seedsReaching(Coverage.Branch.FAST_PROPOSAL) > 0, v + ": no fast proposal\n"
                    + coverage.table());
            assertTrue(coverage.seedsReaching(Coverage.Branch.FAST_FALLBACK) > 0, v + ": no fallback\n"
                    + coverage.table());
            System.out.print(v + " " + coverage.table());
        }
    }

    /**
     * The fast variants log, then acknowledge (seed 003 2.4), yet a ZabAa follower of 3 commits m on one
     * follower's ack: once the whole ensemble may lose power (their assumption broken), a quorum without
     * that follower can elect a leader that never logged m, and the checkers must catch the committed
     * transaction lost in some seed, while classic Zab under the same faults loses nothing. (Acknowledging
     * from memory, before the log, this test caught Durability in at least a tenth of these seeds; logging
     * first leaves the narrower window of the paper's A1.2: a TRUNC below what a follower applied, or a lost write.)
     */
    @Test
    void aFastVariantLosesCommittedWritesWhenItsAssumptionIsBrokenAndClassicZabDoesNot() {
        int caught = 0;
        List<String> properties = new ArrayList<>();
        // The catch is rare since D21 (spec/README.md) changed the draws: with its peer ACK of NEWLEADER 3 of
        // seeds 1-500 (183, 219, 375; 0 of the 80 this test ran before), with its re-ack 1 of seeds 1-250
        int seeds = 250;
        for (long seed = 1; seed <= seeds; seed++) {
            // No single crashes (they keep the ensemble out of the fast path while a server resyncs), but
            // power losses of the whole ensemble: exactly what the variants assume never happens.
            SimOptions o = SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST, 3, Variant.ZabAa)
                    .breakingTheFaultAssumption().withCrashes(0.0, 5).withPowerLoss(0.005);
            SimResult r = new Simulator(o, null, false).run();
            if (!r.ok()) {
                caught++;
                properties.add(r.violation().property());
                assertTrue(r.report().contains("--break-fault-assumption"), r.report());
            }
            SimOptions classic = SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST, 3, Variant.Zab).withCrashes(0.0, 5)
                    .withPowerLoss(0.005);
            SimResult c = new Simulator(classic, null, false).run();
            assertTrue(c.ok(), c.report());
        }
        System.out.println("ZabAa with its assumption broken: " + caught + " of " + seeds + " seeds caught: " + properties);
        assertTrue(caught >= 1, "no seed of " + seeds + " caught a fast variant losing a committed write with its "
                + "assumption broken: " + properties);
    }

    /**
     * A just-recovered leader has applied only its snapshot and sends it as a SNAP behind the follower's
     * own applied state and snapshot ("cannot truncate the log to 0x300000008: snapshot.30000000a is
     * newer"); the follower keeps its applied state and skips the leader's proposals up to it.
     */
    @Test
    void aSnapBehindTheFollowersAppliedStateKeepsIt() {
        // ZabAa seed 6927 stopped reaching it when the fast variants began to log before acknowledging (their
        // draws changed); no ZabAa seed of 3 servers in 1..3000 reaches it now. Zab seeds 407 and 542 (5 servers,
        // run without the targeted scenarios) stopped reaching it when election began to finalize at once on a
        // unanimous reachable quorum; none of the 5-server seeds in 1..3000 that can run that way reaches it
        // now. Re-chosen by running 5-server seeds 1..1000 with all scenarios (the SNAP rejoin targets this
        // path) and keeping seeds that reach SNAP_BEHIND_APPLIED: 622 (the only one that also catches
        // SNAP_BEHIND_APPLIED_INSTALLED, BugZooTest) and 5 (the first to reach it; 36 do).
        Object[][] seeds = {{622L, 5, Variant.Zab}, {5L, 5, Variant.Zab}};
        for (Object[] s : seeds) {
            SimResult r = new Simulator(SimOptions.fromSeed((Long) s[0], TICKS, SimDisk.Mode.HONEST, (Integer) s[1],
                    (Variant) s[2]), null, false).run();
            assertTrue(r.ok(), r.report());
            assertTrue(r.coverage().count(Coverage.Branch.SNAP_BEHIND_APPLIED) > 0,
                    "seed " + s[0] + " no longer sends a SNAP behind a follower's applied state; pick another");
        }
    }

    /**
     * Found by the rejoin scenario (3 servers, seed 300929, since re-pinned): a follower kept its applied state against a
     * SNAP behind it but kept its commit point past it, beyond the log it had just cut ("committed beyond
     * the history"); it now lowers the commit point with the log.
     */
    @Test
    void aSnapBehindAppliedStateLowersTheCommitPointWithTheLog() {
        // Seed 300929 stopped reaching it when election began to finalize at once on a unanimous reachable
        // quorum; re-chosen as the first of seeds 300000.. (run as 300929 was, without the slow-disk scenario)
        // that reaches SNAP_BEHIND_APPLIED with that rule (about one seed in twenty does).
        SimResult r = new Simulator(SimOptions.fromSeed(300002L, TICKS, SimDisk.Mode.HONEST, 3, Variant.Zab)
                .withSlowDisk(false), null, false).run();
        assertTrue(r.ok(), r.report());
        assertTrue(r.coverage().count(Coverage.Branch.SNAP_BEHIND_APPLIED) > 0,
                "seed 300002 no longer sends a SNAP behind a follower's applied state; pick another");
    }

    @Test
    void anEnsembleSeedReplaysExactly() {
        for (long seed : new long[] {3, 77}) {
            SimOptions o = SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST, 3, Variant.Zab).withCrashes(0.01, 20);
            SimResult a = new Simulator(o, null, true).run();
            SimResult b = new Simulator(o, null, true).run();
            assertTrue(a.ok(), a.report());
            assertEquals(a.traceHash(), b.traceHash(), "seed " + seed + " did not replay identically");
            assertEquals(a.history().size(), b.history().size());
        }
    }
}
