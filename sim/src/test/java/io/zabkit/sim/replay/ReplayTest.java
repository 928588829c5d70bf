package io.zabkit.sim.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.zab.Bug;
import io.zabkit.zab.Variant;
import io.zabkit.zab.ZabConfig;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Model-based replay on one behaviour TLC wrote (spec/ReplayZab.cfg, -simulate -depth 45 -seed 3: two
 * elections, DIFF syncs, three crashes, two partitions, three proposals): the correct core follows it,
 * a planted bug does not; and the TLA+ value reader.
 */
class ReplayTest {
    private static Behaviour fixture() throws IOException, URISyntaxException {
        return Behaviour.read(Path.of(ReplayTest.class.getResource("/replay/ReplayZab_seed3_0_11").toURI()));
    }

    private static Replayer.Outcome replay(Behaviour b, Set<Bug> bugs) {
        ZabConfig config = new ZabConfig(List.of(1L, 2L, 3L), 10, 5, 200, Variant.Zab, 1.0, 0).withBugs(bugs);
        return new Replayer(config).replay(b);
    }

    @Test
    void theCorrectCoreFollowsTheBehaviour() throws Exception {
        Behaviour b = fixture();
        assertEquals(44, b.steps());
        Replayer.Outcome o = replay(b, Set.of());
        assertNull(o.mismatch(), () -> "mismatch: " + o.mismatch());
        assertEquals(44, o.steps());
        assertEquals(2, o.coverage().get("FollowerProcessDIFF"));
        assertEquals(3, o.coverage().get("NodeCrash"));
    }

    @Test
    void anAckBeforeFsyncIsCaughtWhereTheFollowerLogsTheProposal() throws Exception {
        Replayer.Outcome o = replay(fixture(), Set.of(Bug.ACK_BEFORE_FSYNC));
        assertNotNull(o.mismatch());
        assertTrue(o.mismatch().action().startsWith("FollowerProcessPROPOSAL"), o.mismatch().toString());
        assertTrue(o.mismatch().what().contains("sent ACK of <<3,1>>"), o.mismatch().what());
        assertNull(o.mismatch().knownDivergence());
    }

    @Test
    void applyingBeforeCommitIsCaughtAsLastCommittedAhead() throws Exception {
        Replayer.Outcome o = replay(fixture(), Set.of(Bug.APPLY_BEFORE_COMMIT));
        assertNotNull(o.mismatch());
        assertTrue(o.mismatch().what().contains("delivered 2 entries, beyond the spec's lastCommitted 0"), o.mismatch().what());
    }

    @Test
    void readsTheValuesTlcPrints() {
        Object v = TlaValues.parse("( s1 :> <<[zxid |-> <<1, 2>>, value |-> 1]>> @@ s2 :> <<>> )");
        Map<?, ?> f = (Map<?, ?>) v;
        List<?> h = (List<?>) f.get(new TlaValues.ModelValue("s1"));
        assertEquals(List.of(1L, 2L), ((Map<?, ?>) h.get(0)).get("zxid"));
        assertEquals(List.of(), f.get(new TlaValues.ModelValue("s2")));
        assertEquals(Set.of(Set.of(new TlaValues.ModelValue("s1"), new TlaValues.ModelValue("s3"))),
                TlaValues.parse("{{s1, s3}}"));
        assertEquals(Map.of("mtype", "ACKEPOCH", "fresh", false, "epoch", -1L),
                TlaValues.parse("[mtype |-> \"ACKEPOCH\", fresh |-> FALSE, epoch |-> -1]"));
    }

    @Test
    void badInputIsRefusedWithWhereAndWhat(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        TlaValues.ParseException e = assertThrows(TlaValues.ParseException.class, () -> TlaValues.parse("<<1, 2"));
        assertTrue(e.getMessage().contains("'>>'") || e.getMessage().contains("','"), e.getMessage());
        Path noAct = dir.resolve("b_0_0");
        Files.writeString(noAct, "---- MODULE b_0_0 ----\nSTATE_1 == \n/\\ x = 1\n\n====\n");
        IOException io = assertThrows(IOException.class, () -> Behaviour.read(noAct));
        assertTrue(io.getMessage().contains("ReplayZab.tla"), io.getMessage());
    }
}
