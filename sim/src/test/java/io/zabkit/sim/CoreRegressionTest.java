package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.zabkit.core.CoreConfig;
import io.zabkit.core.Ready;
import io.zabkit.core.ServerCore;
import io.zabkit.storage.RecoveredState;
import io.zabkit.wire.OpCode;
import java.util.List;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.DeleteRequest;
import org.junit.jupiter.api.Test;

/** Core bugs the simulator found, pinned down at the byte level with the simulator's client codec. */
class CoreRegressionTest {
    private final ClientCodec codec = new ClientCodec(CoreConfig.DEFAULT_MAX_BUFFER);
    private final ServerCore core = new ServerCore(CoreConfig.defaults(1, 100, 42), RecoveredState.empty());
    private long lastProposed;

    /** Hands every Ready batch back; persists (calls persisted) only when asked. */
    private void drain(boolean persist) {
        for (int i = 0; i < 100 && core.hasReady(); i++) {
            Ready r = core.ready();
            if (!r.entries().isEmpty()) {
                lastProposed = r.lastEntryZxid();
            }
        }
        if (persist && lastProposed > core.lastProcessedZxid()) {
            core.persisted(lastProposed);
            drain(false);
        }
    }

    private void send(long conn, byte[] bytes, boolean persist) {
        core.receive(conn, bytes);
        drain(persist);
    }

    /**
     * Session A owns /e1; session B deletes it and creates its own /e1, both still pending, when A
     * closes. A's closeSession must not list /e1 (found by the simulator, seed 4892 at the time:
     * "closeSession of 0x... lists /e1 it does not own").
     */
    @Test
    void closeSessionDoesNotTakeAnEphemeralAnotherSessionRecreatedInThePipeline() {
        core.tick(1_000);
        core.connect(1, "/10.0.0.1:1");
        core.connect(2, "/10.0.0.2:1");
        send(1, codec.connect(0, 30_000, 0, null), true);
        send(2, codec.connect(0, 30_000, 0, null), true);
        send(1, codec.request(1, OpCode.CREATE, new CreateRequest("/e1", new byte[] {1}, ClientCodec.OPEN_ACL, 1)), true);
        long ownerA = core.tree().get("/e1").ephemeralOwner();

        send(2, codec.request(1, OpCode.DELETE, new DeleteRequest("/e1", -1)), false);
        send(2, codec.request(2, OpCode.CREATE, new CreateRequest("/e1", new byte[] {2}, ClientCodec.OPEN_ACL, 1)), false);
        send(1, codec.request(2, OpCode.CLOSE_SESSION, null), false);
        drain(true);

        core.checkInvariants();
        assertNotNull(core.tree().get("/e1"), "B's /e1 must survive A's closeSession");
        long ownerB = core.tree().get("/e1").ephemeralOwner();
        assertEquals(List.of("/e1"), core.tree().ephemeralsOf(ownerB));
        assertEquals(false, ownerA == ownerB);
    }
}
