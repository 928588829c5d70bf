package io.zabkit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.wire.Err;
import io.zabkit.wire.Jute;
import io.zabkit.wire.OpCode;
import io.zabkit.zab.Variant;
import io.zabkit.zab.ZabConfig;
import java.util.List;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.proto.ConnectRequest;
import org.apache.zookeeper.proto.ConnectResponse;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.GetChildrenRequest;
import org.apache.zookeeper.proto.SetDataRequest;
import org.apache.zookeeper.proto.SyncRequest;
import org.junit.jupiter.api.Test;

/**
 * Read-only mode in the core: server 1 of three, alone (no peer ever answers), so it stays looking. The
 * contract pair (ReadOnlyContract) covers the end of the mode, when a quorum is back.
 */
class ServerCoreReadOnlyTest {
    private static CoreHarness alone(boolean readOnlyMode) {
        CoreConfig c = CoreConfig.defaults(1, 100, 7)
                .withZab(new ZabConfig(List.of(1L, 2L, 3L), 10, 5, 200, Variant.Zab, 0.5, 1));
        CoreHarness h = new CoreHarness(c);
        if (readOnlyMode) {
            h.core.enableReadOnlyMode();
        }
        return h;
    }

    private static void connect(CoreHarness h, long connId, long sessionId, boolean canBeReadOnly) {
        h.core.connect(connId, "/127.0.0.1:" + (40000 + connId));
        h.core.receive(connId, Jute.frame(Jute.encode(new ConnectRequest(0, 0, 3000, sessionId, new byte[16],
                canBeReadOnly))));
        h.collect();
    }

    /** Ticks through the grace period, counted from the first tick that sees the server looking. */
    private static void afterGrace(CoreHarness h) {
        h.core.tick(h.now);
        h.now += ReadOnlyMode.MIN_GRACE_MS;
        h.core.tick(h.now);
        h.collect();
    }

    @Test
    void aLookingServerServesReadOnlyClientsOnlyAfterTheGracePeriod() throws Exception {
        CoreHarness h = alone(true);
        connect(h, 1, 0, true);
        assertTrue(h.closed.contains(1L), "no read-only service before the grace period");
        assertEquals("null", FourLetterWords.answer("isro", h.core));

        afterGrace(h);
        assertTrue(h.core.isReadOnly());
        assertEquals("ro", FourLetterWords.answer("isro", h.core));
        connect(h, 2, 0, true);
        ConnectResponse r = CoreHarness.connectResponse(h.framesTo(2).get(0));
        assertTrue(r.getReadOnly(), "the ConnectResponse says read-only");
        assertEquals(1, r.getSessionId() >>> 56, "a session id of server 1");
        assertEquals(2_000, r.getTimeOut(), "3000 ms asked, clamped to maxSessionTimeout (20 ticks)");
        assertFalse(h.closed.contains(2L));
        h.core.checkInvariants();
    }

    @Test
    void readsAreServedAndEveryStateChangeIsNotReadOnlyOnAKeptConnection() throws Exception {
        CoreHarness h = alone(true);
        afterGrace(h);
        connect(h, 1, 0, true);
        h.framesTo(1);
        h.send(1, 1, OpCode.GET_CHILDREN, new GetChildrenRequest("/", false));
        assertEquals(Err.OK, CoreHarness.header(h.framesTo(1).get(0)).getErr());
        int xid = 2;
        for (int op : List.of(OpCode.CREATE, OpCode.SET_DATA, OpCode.SYNC)) {
            org.apache.jute.Record body = op == OpCode.CREATE
                    ? new CreateRequest("/x", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, 0)
                    : op == OpCode.SET_DATA ? new SetDataRequest("/", new byte[0], -1) : new SyncRequest("/");
            h.send(1, xid, op, body);
            var header = CoreHarness.header(h.framesTo(1).get(0));
            assertEquals(xid, header.getXid());
            assertEquals(Err.NOT_READ_ONLY, header.getErr(), OpCode.name(op) + " on a read-only session");
            xid++;
        }
        assertFalse(h.closed.contains(1L), "refused writes keep the connection");
        assertTrue(h.logged.isEmpty(), "nothing is logged in read-only mode");
        h.send(1, xid, OpCode.CLOSE_SESSION, null);
        assertEquals(Err.OK, CoreHarness.header(h.framesTo(1).get(0)).getErr());
        assertTrue(h.closed.contains(1L), "closeSession ends the read-only session");
    }

    @Test
    void notReadOnlyClientsAndUnknownSessionsAreRefused() throws Exception {
        CoreHarness h = alone(true);
        afterGrace(h);
        connect(h, 1, 0, false);
        assertTrue(h.closed.contains(1L), "a client without canBeReadOnly is closed");
        assertTrue(h.framesTo(1).isEmpty());
        connect(h, 2, 0x0100_0000_0000_00ffL, true);
        assertEquals(0, CoreHarness.connectResponse(h.framesTo(2).get(0)).getTimeOut(), "an unknown session expired");
        assertTrue(h.closed.contains(2L));
    }

    @Test
    void aReadOnlySessionResumesWithItsPasswordAndExpiresWithAnother() throws Exception {
        CoreHarness h = alone(true);
        afterGrace(h);
        connect(h, 1, 0, true);
        ConnectResponse first = CoreHarness.connectResponse(h.framesTo(1).get(0));
        h.core.connect(3, "/127.0.0.1:40003");
        h.core.receive(3, Jute.frame(Jute.encode(new ConnectRequest(0, 0, 3000, first.getSessionId(),
                first.getPasswd(), true))));
        h.collect();
        ConnectResponse resumed = CoreHarness.connectResponse(h.framesTo(3).get(0));
        assertEquals(first.getSessionId(), resumed.getSessionId(), "resumed with its password");
        assertTrue(resumed.getReadOnly());
        assertFalse(h.closed.contains(3L));
        connect(h, 4, first.getSessionId(), true); // a zero password
        assertEquals(0, CoreHarness.connectResponse(h.framesTo(4).get(0)).getTimeOut(), "a wrong password expires");
        assertTrue(h.closed.contains(4L));
        h.core.checkInvariants();
    }

    @Test
    void withoutTheSwitchALookingServerTakesNoClient() {
        CoreHarness h = alone(false);
        afterGrace(h);
        assertFalse(h.core.isReadOnly());
        connect(h, 1, 0, true);
        assertTrue(h.closed.contains(1L));
    }
}
