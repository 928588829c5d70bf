package io.zabkit.bench.avail;

import io.zabkit.bench.lean.Wire;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.bench.SystemUnderTest;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The availability experiment's arithmetic and checks without servers: the frames the lean client
 * sends, the publisher's values, log time stamps, the phases adding up, and RoundCheck catching
 * rounds that were planted wrong (the real-process run is make test-avail).
 */
class AvailPiecesTest {
    private static final ClientWindow GOOD = new ClientWindow(0, 0, true, 400, 20, 330, 360, 3, false);

    @Test
    void framesCarryTheirLengthAndHeader() {
        ByteBuffer f = Wire.getData(7, "/avail/t00001", true);
        assertEquals(f.capacity() - 4, f.getInt(0));
        assertEquals(7, f.getInt(4));
        assertEquals(Wire.OP_GET_DATA, f.getInt(8));
        assertEquals("/avail/t00001".length(), f.getInt(12));
        ByteBuffer sw = Wire.setWatches(42, List.of("/a", "/b"));
        assertEquals(Wire.XID_SET_WATCHES, sw.getInt(4));
        assertEquals(Wire.OP_SET_WATCHES, sw.getInt(8));
        assertEquals(42L, sw.getLong(12));
        assertEquals(2, sw.getInt(20));
    }

    @Test
    void connectResponseIsReadWithOrWithoutTheReadOnlyByte() {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 + 8 + 4 + 16 + 1);
        b.putInt(0).putInt(6000).putLong(0x1234L).putInt(16).put(new byte[16]).put((byte) 0).flip();
        Wire.Granted g = Wire.connectResponse(b);
        assertEquals(6000, g.timeoutMs());
        assertEquals(0x1234L, g.sessionId());
        assertEquals(16, g.passwd().length);
        ByteBuffer truncated = ByteBuffer.allocate(12).putInt(99).putInt(1).putInt(2).flip(); // 99 bytes claimed, 8 there
        assertThrows(IllegalStateException.class, () -> Wire.buffer(truncated));
    }

    @Test
    void valuesCarryTheirIssueTime() {
        assertEquals(123_456_789L, Writer.issuedNs(Writer.value(123_456_789L, 5)));
        assertEquals(Long.MIN_VALUE, Writer.issuedNs(new byte[3]));
        assertEquals(Long.MIN_VALUE, Writer.issuedNs(null));
    }

    @Test
    void logTimesOfBothSystems() {
        long fault = Instant.parse("2026-11-24T06:30:00.000Z").toEpochMilli();
        String zk = LocalTime.ofInstant(Instant.ofEpochMilli(fault + 250), ZoneId.systemDefault()) + " ";
        assertEquals(250.0, ServerMilestones.msSinceFault(zk.substring(0, 12) + " [x] INFO - Peer state changed: looking",
                fault, true), 1e-9);
        assertEquals(-100.0, ServerMilestones.msSinceFault(
                "2026-11-24T06:29:59.900Z [myid:2] INFO  [zabkit.zab] server 2: LOOKING (x)", fault, false), 1e-9);
        assertTrue(Double.isNaN(ServerMilestones.msSinceFault("\tat java.lang.Thread.run", fault, false)));
    }

    @Test
    void phasesAddUpToTheMedianWindowAndNeverGoNegative() {
        Round r = round(Fault.LEADER_KILL, List.of(GOOD, new ClientWindow(1, 1, true, 500, 25, 340, 380, 2, false),
                new ClientWindow(2, 2, true, 450, 22, 335, 370, 2, false)));
        Phases p = Phases.of(r, new ServerMilestones(r.system(), r.fault(), "lean", 3, 15, 250, 300));
        assertArrayEquals(new double[] {15, 235, 50, 35, 35, 80}, p.ms(), 1e-9);
        assertEquals(450, java.util.Arrays.stream(p.ms()).sum(), 1e-9);
        // serving after the median session (log clocks are coarse): phases shrink to zero, never negative
        Phases late = Phases.of(r, new ServerMilestones(r.system(), r.fault(), "lean", 3, 15, 400, 420));
        assertTrue(java.util.Arrays.stream(late.ms()).allMatch(v -> v >= 0));
        assertEquals(450, java.util.Arrays.stream(late.ms()).sum(), 1e-9);
    }

    @Test
    void roundCheckPassesAGoodRoundAndCatchesPlantedFaults() {
        ServerMilestones ok = new ServerMilestones(SystemUnderTest.ZABKIT, Fault.LEADER_KILL, "lean", 1, 10, 200, 300);
        assertEquals(List.of(), RoundCheck.problems(List.of(round(Fault.LEADER_KILL, List.of(GOOD))), List.of(ok)));
        // an unmeasured window, a window ending before its own session, no loss at all, milestones out of order
        List<ClientWindow> unmeasured = List.of(new ClientWindow(0, 0, true, Double.NaN, 20, 330, 360, 3, false));
        List<ClientWindow> early = List.of(new ClientWindow(0, 0, true, 300, 20, 330, 360, 3, false));
        List<ClientWindow> noLoss = List.of(new ClientWindow(0, 0, false, 10, Double.NaN, Double.NaN, Double.NaN, 0,
                false));
        ServerMilestones disordered = new ServerMilestones(SystemUnderTest.ZABKIT, Fault.LEADER_KILL, "lean", 1, 10,
                300, 200);
        assertEquals(1, RoundCheck.problems(List.of(round(Fault.LEADER_KILL, unmeasured)), List.of(ok)).size());
        assertEquals(1, RoundCheck.problems(List.of(round(Fault.LEADER_KILL, early)), List.of(ok)).size());
        assertEquals(1, RoundCheck.problems(List.of(round(Fault.LEADER_KILL, noLoss)), List.of(ok)).size());
        assertEquals(1, RoundCheck.problems(List.of(round(Fault.LEADER_KILL, List.of(GOOD))), List.of(disordered))
                .size());
    }

    @Test
    void quantilesAreNearestRank() {
        Stats s = Stats.of(List.of(5.0, 1.0, Double.NaN, 3.0, 2.0, 4.0));
        assertEquals(5, s.count());
        assertEquals(1, s.min());
        assertEquals(3, s.median());
        assertEquals(5, s.p90());
        assertEquals(5, s.max());
    }

    @Test
    void optionsRejectNonsense() {
        assertThrows(IllegalArgumentException.class, () -> AvailOptions.parse(new String[] {"--clients", "0"}));
        assertThrows(IllegalArgumentException.class, () -> AvailOptions.parse(new String[] {"--faults", "reboot"}));
        assertThrows(IllegalArgumentException.class, () -> AvailOptions.parse(new String[] {"--rate"}));
        AvailOptions q = AvailOptions.parse(new String[] {"--quick", "--check"});
        assertEquals(List.of(2), q.clients());
        assertTrue(q.check());
    }

    private static Round round(Fault f, List<ClientWindow> windows) {
        return new Round(SystemUnderTest.ZABKIT, "lean", f, windows.size(), 1, 1, 2, 280, 290, windows, windows, 10,
                1.0, 0);
    }
}
