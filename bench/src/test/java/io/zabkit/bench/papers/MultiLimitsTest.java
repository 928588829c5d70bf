package io.zabkit.bench.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.ServerExtras;
import io.zabkit.bench.SystemUnderTest;
import java.util.List;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fig 6's atomicity check on real 3-server ensembles of both systems, with jute.maxbuffer lowered to
 * 256 KB so the limit is reached in a second: a multi under the limit applies whole on every server;
 * one over it, and one whose last op fails, apply nothing anywhere.
 */
class MultiLimitsTest {
    private static final int MAX_BUFFER = 256 << 10;

    /** The verdict the sweep relies on: all or nothing, and the same on every server. */
    @Test
    void theAtomicityVerdictCatchesPartialAndDivergentTrees() {
        assertTrue(result(0, 0, 0).atomic());
        assertTrue(result(100, 100, 100).atomic());
        assertFalse(result(50, 50, 50).atomic(), "half-applied everywhere");
        assertFalse(result(100, 0, 100).atomic(), "applied on some servers only");
        assertFalse(result(100, 100, 99).atomic(), "one create missing on one server");
    }

    private static MultiLimits.Result result(Integer... children) {
        return new MultiLimits.Result(1024, 100, MultiLimits.Outcome.OK, "OK", 0.1, List.of(children));
    }

    @ParameterizedTest
    @EnumSource(SystemUnderTest.class)
    void aMultiAppliesWholeOrNotAtAllOnEveryServer(SystemUnderTest system) throws Exception {
        ServerExtras extras = new ServerExtras(null, List.of("-Djute.maxbuffer=" + MAX_BUFFER),
                List.of("jute.maxbuffer=" + MAX_BUFFER));
        try (Ensemble e = Systems.start(system, 3, 256, extras)) {
            int leader = e.leader().orElseThrow();
            int clientBuffer = 8 << 20; // the client sends what the servers must refuse

            MultiLimits.Result fits = MultiLimits.run(e, leader, clientBuffer, "/fits", 1024, 100, false);
            assertEquals(MultiLimits.Outcome.OK, fits.outcome(), fits.toString());
            assertEquals(List.of(100, 100, 100), fits.childrenPerServer());

            MultiLimits.Result over = MultiLimits.run(e, leader, clientBuffer, "/over", 1024, 400, false);
            assertNotEquals(MultiLimits.Outcome.OK, over.outcome(), "400 KB over a 256 KB limit: " + over);
            assertEquals(List.of(0, 0, 0), over.childrenPerServer(), over.toString());

            MultiLimits.Result planted = MultiLimits.run(e, leader, clientBuffer, "/planted", 1024, 100, true);
            assertEquals("NODEEXISTS", planted.code(), planted.toString());
            assertEquals(List.of(0, 0, 0), planted.childrenPerServer(), planted.toString());
            assertTrue(planted.atomic() && over.atomic() && fits.atomic());
            assertEquals(3, e.runningIds().size(), "every server still runs");
        }
    }
}
