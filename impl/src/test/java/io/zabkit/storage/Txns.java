package io.zabkit.storage;

import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.SetDataTxn;

/** Realistic transactions for storage tests. */
final class Txns {
    private Txns() {}

    static Txn create(long zxid) {
        byte[] data = ("value-" + zxid).getBytes(StandardCharsets.UTF_8);
        List<ACL> acl = List.of(new ACL(31, new Id("world", "anyone")));
        return new Txn(zxid, 0x100000001L, (int) zxid, 1_700_000_000_000L + zxid, OpCode.CREATE,
                new CreateTxn("/node-" + zxid, data, acl, false, (int) zxid));
    }

    static Txn setData(long zxid) {
        return new Txn(zxid, 0x100000001L, (int) zxid, 1_700_000_000_000L + zxid, OpCode.SET_DATA,
                new SetDataTxn("/node", new byte[] {(byte) zxid}, (int) zxid));
    }

    /** Transactions with zxids epoch:from .. epoch:to, alternating create and setData. */
    static List<Txn> range(long epoch, long from, long to) {
        List<Txn> txns = new ArrayList<>();
        for (long c = from; c <= to; c++) {
            long zxid = Txn.zxid(epoch, c);
            txns.add(c % 2 == 0 ? create(zxid) : setData(zxid));
        }
        return txns;
    }

    static List<Long> zxids(List<Txn> txns) {
        List<Long> zxids = new ArrayList<>();
        for (Txn t : txns) {
            zxids.add(t.zxid());
        }
        return zxids;
    }
}
