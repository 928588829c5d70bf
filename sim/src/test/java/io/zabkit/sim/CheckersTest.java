package io.zabkit.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.zabkit.core.CoreConfig;
import io.zabkit.core.ServerCore;
import io.zabkit.storage.RecoveredState;
import io.zabkit.tree.WatchKind;
import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.zookeeper.proto.WatcherEvent;
import org.apache.zookeeper.txn.CreateTxn;
import org.junit.jupiter.api.Test;

/** Each checker fails on the violation it exists for and passes the matching correct case. */
class CheckersTest {
    private static final CoreConfig CONFIG = CoreConfig.defaults(1, 100, 42);

    private static Txn create(long zxid, String path, String data) {
        return new Txn(zxid, 0, 0, 1000, OpCode.CREATE,
                new CreateTxn(path, data.getBytes(StandardCharsets.UTF_8), ClientCodec.OPEN_ACL, false, 1));
    }

    private static ServerCore coreWith(Txn... txns) {
        return new ServerCore(CONFIG, new RecoveredState(null, List.of(txns)));
    }

    private static ClientOp ackedCreate(String path, String data, long zxid) {
        ClientOp op = new ClientOp(ClientOp.Kind.CREATE, path, data.getBytes(StandardCharsets.UTF_8), -1,
                ClientOp.Mode.PERSISTENT, false, List.of());
        op.session = 7;
        op.outcome = ClientOp.Outcome.OK;
        op.zxid = zxid;
        op.createdPath = path;
        return op;
    }

    @Test
    void treeDigestCheckerCatchesATreeThatDiffersAtTheSameZxid() {
        TreeDigestChecker same = new TreeDigestChecker(1);
        same.proposed(List.of(create(1, "/a", "x")));
        same.afterStep(coreWith(create(1, "/a", "x")));

        TreeDigestChecker other = new TreeDigestChecker(1);
        other.proposed(List.of(create(1, "/a", "y")));
        Violation v = assertThrows(Violation.class, () -> other.afterStep(coreWith(create(1, "/a", "x"))));
        assertEquals("TreeDigest", v.property());
    }

    @Test
    void durabilityCheckerCatchesALostOrAlteredAcknowledgedWrite() {
        DurabilityChecker d = new DurabilityChecker();
        ClientOp op = ackedCreate("/a", "x", 1);
        d.invoked(op);
        d.completed(op);
        d.check(coreWith(create(1, "/a", "x")), "test");

        Violation lost = assertThrows(Violation.class, () -> d.check(coreWith(), "test"));
        assertEquals("Durability", lost.property());
        Violation altered = assertThrows(Violation.class, () -> d.check(coreWith(create(1, "/a", "y")), "test"));
        assertEquals("Durability", altered.property());
    }

    @Test
    void durabilityCheckerCatchesASequentialNameHandedOutTwice() {
        DurabilityChecker d = new DurabilityChecker();
        for (long zxid = 1; zxid <= 2; zxid++) {
            ClientOp op = new ClientOp(ClientOp.Kind.CREATE, "/s-", new byte[0], -1,
                    ClientOp.Mode.PERSISTENT_SEQUENTIAL, false, List.of());
            op.outcome = ClientOp.Outcome.OK;
            op.zxid = zxid;
            op.createdPath = "/s-0000000001";
            d.invoked(op);
            if (zxid == 1) {
                d.completed(op);
            } else {
                assertEquals("SequentialUnique", assertThrows(Violation.class, () -> d.completed(op)).property());
            }
        }
    }

    @Test
    void fifoCheckerCatchesAReplyOutOfOrderAndAViewGoingBack() {
        FifoClientOrderChecker f = new FifoClientOrderChecker();
        f.reply(100, 7, 1, 3, 3, 10);
        assertEquals("FifoClientOrder", assertThrows(Violation.class, () -> f.reply(100, 7, 1, 4, 5, 11)).property());
        assertEquals("FifoClientOrder", assertThrows(Violation.class, () -> f.reply(100, 7, 1, 4, 4, 9)).property());
    }

    @Test
    void watchOrderingCheckerCatchesALateSpuriousOrRepeatedEvent() {
        WatchOrderingChecker w = new WatchOrderingChecker();
        ClientOp read = new ClientOp(ClientOp.Kind.GET_DATA, "/a", null, -1, null, true, List.of());
        read.connId = 1;
        read.outcome = ClientOp.Outcome.OK;
        w.reply(1, 5);
        w.completed(read);
        WatcherEvent changed = new WatcherEvent(WatchKind.NODE_DATA_CHANGED, WatchKind.SYNC_CONNECTED, "/a");
        w.reply(1, 6);
        assertEquals("WatchOrdering", assertThrows(Violation.class, () -> w.event(100, 1, changed, 6)).property());

        WatchOrderingChecker ok = new WatchOrderingChecker();
        ok.reply(1, 5);
        ok.completed(read);
        ok.event(100, 1, changed, 6);
        assertEquals("WatchOrdering", assertThrows(Violation.class, () -> ok.event(100, 1, changed, 7)).property());
        WatcherEvent children = new WatcherEvent(WatchKind.NODE_CHILDREN_CHANGED, WatchKind.SYNC_CONNECTED, "/b");
        assertEquals("WatchOrdering", assertThrows(Violation.class, () -> ok.event(100, 1, children, 8)).property());
    }

    @Test
    void readCheckerCatchesAReadThatDoesNotMatchTheHistoryAtItsZxid() {
        TreeDigestChecker digests = new TreeDigestChecker(1);
        ReadChecker reads = new ReadChecker(List.of("/", "/a"));
        digests.listen(reads);
        digests.proposed(List.of(create(1, "/a", "x")));
        reads.completed(read("/a", 1, "x", ClientOp.Outcome.OK));
        reads.completed(read("/a", 0, null, ClientOp.Outcome.FAIL));
        assertEquals("ReadsAtZxid", assertThrows(Violation.class,
                () -> reads.completed(read("/a", 1, "y", ClientOp.Outcome.OK))).property());
        assertEquals("ReadsAtZxid", assertThrows(Violation.class,
                () -> reads.completed(read("/a", 1, null, ClientOp.Outcome.FAIL))).property());
    }

    private static ClientOp read(String path, long zxid, String data, ClientOp.Outcome outcome) {
        ClientOp op = new ClientOp(ClientOp.Kind.GET_DATA, path, null, -1, null, false, List.of());
        op.outcome = outcome;
        op.zxid = zxid;
        if (outcome == ClientOp.Outcome.OK) {
            op.readData = data.getBytes(StandardCharsets.UTF_8);
            op.stat = new org.apache.zookeeper.data.Stat(zxid, zxid, 1000, 1000, 0, 0, 0, 0, data.length(), 0, zxid);
        } else {
            op.err = io.zabkit.wire.Err.NO_NODE;
        }
        return op;
    }
}
