package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.zabkit.check.Edn;
import io.zabkit.check.History;
import io.zabkit.check.Keyword;
import io.zabkit.check.Op;
import io.zabkit.check.Property;
import io.zabkit.check.Result;
import io.zabkit.check.ZkChecker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulator's client histories through the independent history checker (check/): what the simulator's
 * own checkers accept, zk-check must accept too, and a history that breaks a guarantee must be rejected.
 */
class SimHistoryCheckTest {
    private static final int TICKS = 300;
    private static final int SEEDS = 50;

    static List<Op> ops(SimResult r) {
        List<Op> ops = new ArrayList<>();
        for (String line : r.history().lines()) {
            ops.add(Op.fromEdn(Edn.read(line), ops.size()));
        }
        return ops;
    }

    static SimResult run(long seed) {
        return new Simulator(SimOptions.fromSeed(seed, TICKS, SimDisk.Mode.HONEST), null, true).run();
    }

    @Test
    void honestRunsAreValidForZkCheck() {
        List<String> failures = new ArrayList<>();
        long lines = 0;
        long multis = 0;
        long checkedWrites = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            SimResult run = run(seed);
            assertTrue(run.ok(), run.report());
            List<Op> ops = ops(run);
            lines += ops.size();
            multis += ops.stream().filter(o -> o.f().equals("multi") && o.type() == Op.Type.OK).count();
            Result r = new ZkChecker().check(History.of(ops));
            checkedWrites += r.verdict(Property.LinearizableWrites).checked();
            if (r.status() != Result.Status.INVALID) {
                continue; // VALID, or UNKNOWN for a run too short to check anything: a false alarm is only INVALID
            }
            failures.add("seed " + seed + " (" + run.replayCommand() + " HISTORY=/tmp/h.edn):\n" + r.table());
        }
        System.out.printf("zk-check on %d simulated histories: %d lines, %d ok multis, %d LinearizableWrites checks, %d invalid%n",
                SEEDS, lines, multis, checkedWrites, failures.size());
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + SEEDS + " honest histories rejected; the first:\n" + failures.get(0));
        }
        assertTrue(lines > 100L * SEEDS, "histories too short to prove anything: " + lines + " lines");
        assertTrue(multis > SEEDS / 2, "too few acknowledged multis: " + multis);
    }

    /**
     * Histories of 3-server ensembles, across crashes, partitions and leader changes, through zk-check:
     * FIFO client order, A-linearizable writes, monotonic and sync reads must hold across failover.
     */
    @Test
    void ensembleHistoriesAcrossLeaderChangesAreValidForZkCheck() {
        List<String> failures = new ArrayList<>();
        long lines = 0;
        long leaders = 0;
        long checkedWrites = 0;
        int seeds = 30;
        for (long seed = 1; seed <= seeds; seed++) {
            SimResult run = new Simulator(SimOptions.fromSeed(seed, 600, SimDisk.Mode.HONEST, 3,
                    io.zabkit.zab.Variant.Zab), null, true).run();
            assertTrue(run.ok(), run.report());
            leaders += run.stats().leadersEstablished();
            List<Op> ops = ops(run);
            lines += ops.size();
            Result r = new ZkChecker().check(History.of(ops));
            checkedWrites += r.verdict(Property.LinearizableWrites).checked();
            if (r.status() == Result.Status.INVALID) { // UNKNOWN: a run too short to check anything
                failures.add("seed " + seed + " (" + run.replayCommand() + " HISTORY=/tmp/h.edn):\n" + r.table());
            }
        }
        System.out.printf("zk-check on %d ensemble histories: %d lines, %d leaders, %d LinearizableWrites checks, "
                + "%d invalid%n", seeds, lines, leaders, checkedWrites, failures.size());
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + seeds + " ensemble histories rejected; the first:\n" + failures.get(0));
        }
        assertTrue(leaders > 2L * seeds, "too few leader changes to say anything about failover: " + leaders);
        assertTrue(checkedWrites > 20L * seeds, "too few writes checked: " + checkedWrites);
    }

    /** A multi that failed (one sub-op's error) must change nothing: a later read showing its data is caught. */
    @Test
    void aFailedMultiMadeVisibleIsCaughtAsLinearizableWrites() {
        int caught = 0;
        for (long seed = 1; seed <= 20 && caught < 3; seed++) {
            List<Op> ops = ops(run(seed));
            List<Op> bad = failedMultiVisible(ops);
            if (bad == null) {
                continue;
            }
            assertTrue(new ZkChecker().check(History.of(ops)).valid(), "seed " + seed + ": the honest history must pass");
            Result r = new ZkChecker().check(History.of(bad));
            assertFalse(r.valid(), "seed " + seed + ": a failed multi's data read back must be rejected");
            assertTrue(r.failed().contains(Property.LinearizableWrites), "seed " + seed + ":\n" + r.table());
            caught++;
        }
        assertEquals(3, caught, "too few simulated histories with a failed multi followed by a read of its path");
    }

    /** A sequential name handed out twice (the second create's name replaced by the first's) is caught. */
    @Test
    void aReusedSequentialNameIsCaughtAsSequentialUniqueness() {
        int caught = 0;
        for (long seed = 1; seed <= 20 && caught < 3; seed++) {
            List<Op> bad = sequenceReused(ops(run(seed)));
            if (bad == null) {
                continue;
            }
            Result r = new ZkChecker().check(History.of(bad));
            assertTrue(r.failed().contains(Property.SequentialUniqueness), "seed " + seed + ":\n" + r.table());
            caught++;
        }
        assertEquals(3, caught, "too few simulated histories with two sequential creates under one parent");
    }

    private static final Keyword F = Keyword.of("f"), PATH = Keyword.of("path"), DATA = Keyword.of("data"),
            CREATED = Keyword.of("created-path");

    /** The first failed multi with a set-data on P, and a later ok get-data of P now returning that data. */
    static List<Op> failedMultiVisible(List<Op> ops) {
        for (int i = 0; i < ops.size(); i++) {
            Op o = ops.get(i);
            if (!o.f().equals("multi") || o.type() != Op.Type.FAIL || !(o.value() instanceof List<?> subs)) {
                continue;
            }
            for (Object sub : subs) {
                if (!(sub instanceof Map<?, ?> m) || !Keyword.of("set-data").equals(m.get(F))) {
                    continue;
                }
                String path = (String) m.get(PATH);
                Object data = m.get(DATA);
                for (int j = i + 1; j < ops.size(); j++) {
                    Op r = ops.get(j);
                    if (r.f().equals("get-data") && r.type() == Op.Type.OK && path.equals(r.path()) && r.zxid() != null
                            && r.zxid() > o.zxid()) {
                        List<Op> bad = new ArrayList<>(ops);
                        bad.set(j, r.withValue(data));
                        return bad;
                    }
                }
            }
        }
        return null;
    }

    /** The second ok sequential create under a parent reports the first one's name. */
    static List<Op> sequenceReused(List<Op> ops) {
        Map<String, String> firstByPrefix = new HashMap<>();
        for (int i = 0; i < ops.size(); i++) {
            Op o = ops.get(i);
            if (!o.f().equals("create") || o.type() != Op.Type.OK || !(o.value() instanceof Map<?, ?> v)
                    || !(v.get(CREATED) instanceof String created) || created.equals(o.path())) {
                continue;
            }
            String first = firstByPrefix.putIfAbsent(o.path(), created);
            if (first != null) {
                Map<Object, Object> nv = new LinkedHashMap<>(v);
                nv.put(CREATED, first);
                List<Op> bad = new ArrayList<>(ops);
                bad.set(i, o.withValue(nv));
                return bad;
            }
        }
        return null;
    }
}
