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

    private final java.util.List<Long> closed = new java.util.ArrayList<>();

    /** Hands every Ready batch back; persists (calls persisted) only when asked. */
    private void drain(boolean persist) {
        for (int i = 0; i < 100 && core.hasReady(); i++) {
            Ready r = core.ready();
            if (!r.entries().isEmpty()) {
                lastProposed = r.lastEntryZxid();
            }
            closed.addAll(r.closes());
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

    /**
     * A crash right after a log roll keeps only the new file's 20-byte header (LogFormat.HEADER_BYTES).
     * Recovery must not keep that file, or the next append rolls into the same name (found by the
     * simulator, seeds 133 and 140 at the time: "new log file already exists").
     */
    @Test
    void recoveryDropsAHeaderOnlyLogFileSoTheNextRollDoesNotCollide() throws Exception {
        SimDisk log = new SimDisk("log", SimDisk.Mode.HONEST);
        SimDisk snap = new SimDisk("snap", SimDisk.Mode.HONEST);
        io.zabkit.storage.Storage.Options options = new io.zabkit.storage.Storage.Options(true, 2, 0xfffff);
        io.zabkit.storage.Storage first = new io.zabkit.storage.Storage(log, snap, options, w -> { });
        first.recover();
        first.append(List.of(create(1, "/a"), create(2, "/b")));
        first.sync();
        first.writeSnapshot(new io.zabkit.storage.Snapshot(2, new byte[] {1, 2, 3}));
        first.append(List.of(create(3, "/c")));
        String rolled = "log.3";
        byte[] whole = log.read(rolled);
        assertEquals(true, whole.length > 20, "the rolled file holds a header and a record");
        log.truncate(rolled, 20); // what the crash kept: the header alone

        io.zabkit.storage.Storage second = new io.zabkit.storage.Storage(log, snap, options, w -> { });
        assertEquals(2, second.recover().lastZxid());
        second.append(List.of(create(3, "/c")));
        second.sync();
        assertEquals(3, new io.zabkit.storage.Storage(log, snap, options, w -> { }).recover().lastZxid());
    }

    private static io.zabkit.txn.Txn create(long zxid, String path) {
        return new io.zabkit.txn.Txn(zxid, 0, 0, 1000, OpCode.CREATE,
                new org.apache.zookeeper.txn.CreateTxn(path, new byte[0], ClientCodec.OPEN_ACL, false, (int) zxid));
    }

    /**
     * A session expires while its client is quiet; the client's next request is a sync, which waits
     * for exactly the expiry's closeSession zxid. Committing the closeSession must close the
     * connection, not hand its result to the sync (found by the simulator's liveness phase, seed 601
     * at the time: the client hung with every later reply lost).
     */
    @Test
    void aSyncWaitingForItsSessionsExpiryDoesNotSwallowTheClose() {
        core.tick(1_000);
        core.connect(1, "/10.0.0.1:1");
        send(1, codec.connect(0, 2_000, 0, null), true);
        core.tick(1_000 + 60_000); // far past any session timeout: the expiry's closeSession is proposed
        drain(false);
        long closeZxid = lastProposed;
        send(1, codec.request(1, OpCode.SYNC, new org.apache.zookeeper.proto.SyncRequest("/")), false);
        core.persisted(closeZxid);
        drain(false);
        assertEquals(List.of(1L), closed, "the expired session's connection must be closed");
        core.checkInvariants();
    }
}
