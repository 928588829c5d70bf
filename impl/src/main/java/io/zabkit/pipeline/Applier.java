package io.zabkit.pipeline;

import io.zabkit.session.Sessions;
import io.zabkit.tree.DataTree;
import io.zabkit.tree.EphemeralType;
import io.zabkit.tree.Znode;
import io.zabkit.txn.Txn;
import io.zabkit.wire.Err;
import io.zabkit.wire.Jute;
import io.zabkit.wire.OpCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
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

/**
 * Applies committed transactions to the data tree and the session table, in zxid order (the
 * delivery step: ZooKeeper's FinalRequestProcessor and DataTree.processTxn). Every server runs this
 * on the same history, so it must be a pure function of the transaction and the state it applies to.
 */
public final class Applier {
    private final DataTree tree;
    private final Sessions sessions;
    private long lastProcessedZxid;

    public Applier(DataTree tree, Sessions sessions, long lastProcessedZxid) {
        this.tree = tree;
        this.sessions = sessions;
        this.lastProcessedZxid = lastProcessedZxid;
    }

    /** The zxid of the last transaction applied: lastProcessed in the shared vocabulary. */
    public long lastProcessedZxid() {
        return lastProcessedZxid;
    }

    public TxnResult apply(Txn txn, long nowMs) {
        if (txn.zxid() <= lastProcessedZxid) {
            throw new IllegalStateException("delivering " + txn + " after " + Txn.zxidString(lastProcessedZxid)
                    + ": the history must be applied in zxid order, once");
        }
        TxnResult result = applyBody(txn, txn.type(), txn.body(), nowMs);
        lastProcessedZxid = txn.zxid();
        return result;
    }

    private TxnResult applyBody(Txn txn, int type, Record body, long nowMs) {
        long zxid = txn.zxid();
        switch (type) {
            case OpCode.CREATE:
            case OpCode.CREATE2: {
                CreateTxn c = (CreateTxn) body;
                long owner = c.getEphemeral() ? txn.sessionId() : 0;
                tree.create(c.getPath(), c.getData(), c.getAcl(), owner, c.getParentCVersion(), zxid, txn.time());
                return TxnResult.ok(type, c.getPath(), tree.get(c.getPath()).stat());
            }
            case OpCode.CREATE_CONTAINER: {
                CreateContainerTxn c = (CreateContainerTxn) body;
                tree.create(c.getPath(), c.getData(), c.getAcl(), EphemeralType.CONTAINER_OWNER,
                        c.getParentCVersion(), zxid, txn.time());
                return TxnResult.ok(type, c.getPath(), tree.get(c.getPath()).stat());
            }
            case OpCode.DELETE:
            case OpCode.DELETE_CONTAINER: {
                String path = ((DeleteTxn) body).getPath();
                tree.delete(path, zxid);
                return TxnResult.ok(type, path, null);
            }
            case OpCode.SET_DATA: {
                SetDataTxn s = (SetDataTxn) body;
                tree.setData(s.getPath(), s.getData(), s.getVersion(), zxid, txn.time());
                return TxnResult.ok(type, s.getPath(), tree.get(s.getPath()).stat());
            }
            case OpCode.SET_ACL: {
                SetACLTxn s = (SetACLTxn) body;
                tree.setAcl(s.getPath(), s.getAcl(), s.getVersion());
                return TxnResult.ok(type, s.getPath(), tree.get(s.getPath()).stat());
            }
            case OpCode.CHECK:
                return TxnResult.ok(type, ((CheckVersionTxn) body).getPath(), null);
            case OpCode.MULTI:
                return applyMulti(txn, (MultiTxn) body, nowMs);
            case OpCode.CREATE_SESSION:
                sessions.applyCreate(txn.sessionId(), ((CreateSessionTxn) body).getTimeOut(), nowMs);
                return TxnResult.ok(type, null, null);
            case OpCode.CLOSE_SESSION:
                applyClose(txn.sessionId(), (CloseSessionTxn) body, zxid);
                return TxnResult.ok(type, null, null);
            case OpCode.ERROR:
                return TxnResult.error(((ErrorTxn) body).getErr());
            default:
                throw new IllegalStateException("cannot apply " + txn);
        }
    }

    /** Expiry and close delete the session's ephemerals in the same transaction, then forget the session. */
    private void applyClose(long sessionId, CloseSessionTxn close, long zxid) {
        List<String> doomed = close.getPaths2Delete() != null ? close.getPaths2Delete() : tree.ephemeralsOf(sessionId);
        for (String path : doomed) {
            Znode node = tree.get(path);
            assert node != null && node.ephemeralOwner() == sessionId
                    : "closeSession of 0x" + Long.toHexString(sessionId) + " lists " + path + " it does not own";
            tree.delete(path, zxid);
        }
        assert tree.ephemeralsOf(sessionId).isEmpty() : "ephemerals outlive session 0x" + Long.toHexString(sessionId);
        sessions.applyClose(sessionId);
    }

    private TxnResult applyMulti(Txn txn, MultiTxn multi, long nowMs) {
        List<org.apache.zookeeper.txn.Txn> ops = multi.getTxns();
        int failedAt = -1;
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).getType() == OpCode.ERROR) {
                failedAt = i;
                break;
            }
        }
        List<TxnResult> results = new ArrayList<>(ops.size());
        if (failedAt >= 0) {
            // All or nothing: nothing changes; ops before the failure report OK, ops after it report
            // RuntimeInconsistency, the failing op its own code (what ZooKeeper's clients expect).
            for (int i = 0; i < ops.size(); i++) {
                int code = i < failedAt ? Err.OK
                        : i == failedAt ? decodeError(ops.get(i)) : Err.RUNTIME_INCONSISTENCY;
                results.add(TxnResult.error(code));
            }
            return new TxnResult(OpCode.MULTI, 0, null, null, results);
        }
        for (org.apache.zookeeper.txn.Txn op : ops) {
            results.add(applyBody(txn, op.getType(), decode(op), nowMs));
        }
        return new TxnResult(OpCode.MULTI, 0, null, null, results);
    }

    private static int decodeError(org.apache.zookeeper.txn.Txn op) {
        return ((ErrorTxn) decode(op)).getErr();
    }

    private static Record decode(org.apache.zookeeper.txn.Txn op) {
        try {
            return Jute.decode(op.getData(), Txn.newBody(op.getType()), Integer.MAX_VALUE);
        } catch (IOException e) {
            throw new UncheckedIOException("undecodable op in a committed multi", e);
        }
    }
}
