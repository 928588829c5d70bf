package io.zabkit.txn;

import io.zabkit.wire.Jute;
import io.zabkit.wire.OpCode;
import java.io.IOException;
import org.apache.jute.BinaryInputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.txn.CheckVersionTxn;
import org.apache.zookeeper.txn.CloseSessionTxn;
import org.apache.zookeeper.txn.CreateContainerTxn;
import org.apache.zookeeper.txn.CreateSessionTxn;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.ErrorTxn;
import org.apache.zookeeper.txn.MultiTxn;
import org.apache.zookeeper.txn.SetACLTxn;
import org.apache.zookeeper.txn.SetDataTxn;
import org.apache.zookeeper.txn.TxnHeader;

/**
 * One transaction of the history: what the log stores, what Zab proposes and what every server
 * applies. The header fields are ZooKeeper's TxnHeader; the body is the jute txn record for the type.
 *
 * @param zxid      (epoch << 32) | counter; strictly increasing along the history
 * @param sessionId the session that issued the request (0 for server-internal transactions)
 * @param cxid      the client's xid, so the applying server can answer the right request
 * @param time      the leader's clock when it created the transaction: ctime/mtime of the nodes it touches
 * @param type      an {@link OpCode}; {@link OpCode#ERROR} for a write that failed in the pipeline
 * @param body      the jute txn record matching {@code type}
 */
public record Txn(long zxid, long sessionId, int cxid, long time, int type, Record body) {

    public static long zxid(long epoch, long counter) {
        assert epoch >= 0 && epoch <= 0xffffffffL : "epoch out of range: " + epoch;
        assert counter >= 0 && counter <= 0xffffffffL : "counter out of range: " + counter;
        return (epoch << 32) | counter;
    }

    public static long epochOf(long zxid) {
        return zxid >>> 32;
    }

    public static long counterOf(long zxid) {
        return zxid & 0xffffffffL;
    }

    public static String zxidString(long zxid) {
        return "0x" + Long.toHexString(zxid);
    }

    /** TxnHeader followed by the body: the bytes the log writes and a PROPOSAL carries. */
    public byte[] encode() {
        return Jute.encode(new TxnHeader(sessionId, cxid, zxid, time, type), body);
    }

    public static Txn decode(byte[] bytes, int maxBuffer) throws IOException {
        BinaryInputArchive in = Jute.reader(bytes, maxBuffer);
        TxnHeader header = new TxnHeader();
        header.deserialize(in, "hdr");
        Record body = newBody(header.getType());
        body.deserialize(in, "txn");
        return new Txn(header.getZxid(), header.getClientId(), header.getCxid(), header.getTime(),
                header.getType(), body);
    }

    /** An empty body record for a txn type; also used to decode the sub-transactions of a multi. */
    public static Record newBody(int type) throws IOException {
        switch (type) {
            case OpCode.CREATE:
            case OpCode.CREATE2:
                return new CreateTxn();
            case OpCode.CREATE_CONTAINER:
                return new CreateContainerTxn();
            case OpCode.DELETE:
            case OpCode.DELETE_CONTAINER:
                return new DeleteTxn();
            case OpCode.SET_DATA:
                return new SetDataTxn();
            case OpCode.SET_ACL:
                return new SetACLTxn();
            case OpCode.CHECK:
                return new CheckVersionTxn();
            case OpCode.MULTI:
                return new MultiTxn();
            case OpCode.CREATE_SESSION:
                return new CreateSessionTxn();
            case OpCode.CLOSE_SESSION:
                return new CloseSessionTxn();
            case OpCode.ERROR:
                return new ErrorTxn();
            default:
                throw new IOException("no transaction body for type " + OpCode.name(type));
        }
    }

    @Override
    public String toString() {
        return OpCode.name(type) + "@" + zxidString(zxid) + "(session 0x" + Long.toHexString(sessionId)
                + ", cxid " + cxid + ")";
    }
}
