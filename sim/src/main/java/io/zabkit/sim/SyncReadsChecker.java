package io.zabkit.sim;

import io.zabkit.txn.Txn;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * SyncReads, in ensembles as on one server: a sync's reply zxid, and the zxid of every read the same
 * session invokes after that sync completed, are at least every zxid acknowledged to any client, and
 * every zxid any server had applied, before the sync was invoked (ZooKeeper's sync: "the server is
 * caught up with the leader"; an applied zxid is committed, so every leader that can answer the sync
 * holds it). A follower that answers a sync without asking the leader, or without waiting for what the
 * leader named, or a leader that answers with less than it proposed, breaks it.
 */
final class SyncReadsChecker {
    /** The highest acknowledged write zxid when each outstanding sync or read was invoked / must reach. */
    private final Map<ClientOp, Long> floorAtInvoke = new IdentityHashMap<>();
    /** Per session: what its completed syncs promised its later reads. */
    private final Map<Long, Long> sessionFloor = new HashMap<>();
    private long maxAcked = -1;
    /** The highest zxid any server applied, as of the end of the last step (before this step's invocations). */
    private long maxApplied = -1;
    private long checks;

    long checks() {
        return checks;
    }

    /** A server has applied up to zxid (its lastProcessed at the end of a step). */
    void applied(long zxid) {
        maxApplied = Math.max(maxApplied, zxid);
    }

    void invoked(ClientOp op) {
        if (op.kind == ClientOp.Kind.SYNC) {
            floorAtInvoke.put(op, Math.max(maxAcked, maxApplied));
        } else if (!op.kind.isWrite() && sessionFloor.containsKey(op.session)) {
            floorAtInvoke.put(op, sessionFloor.get(op.session));
        }
    }

    void completed(ClientOp op) {
        Long floor = floorAtInvoke.remove(op);
        if (op.outcome == ClientOp.Outcome.OK && op.kind.isWrite()) {
            maxAcked = Math.max(maxAcked, op.zxid);
        }
        if (floor == null || op.outcome != ClientOp.Outcome.OK || op.zxid < 0) {
            return;
        }
        checks++;
        if (op.zxid < floor) {
            String what = op.kind == ClientOp.Kind.SYNC ? "sync" : "read " + op.describe() + " after a sync";
            throw new Violation("SyncReads", "session 0x" + Long.toHexString(op.session) + ": " + what
                    + " answered at zxid " + Txn.zxidString(op.zxid) + ", below " + Txn.zxidString(floor)
                    + " acknowledged or applied before the sync was invoked");
        }
        if (op.kind == ClientOp.Kind.SYNC) {
            sessionFloor.merge(op.session, floor, Math::max);
        }
    }
}
