package io.zabkit.storage;

import io.zabkit.txn.Txn;
import java.util.List;

/**
 * What a server finds on disk at start: the newest valid snapshot (null on a fresh data dir) and the
 * transactions logged after it, in zxid order, with any torn tail already cut off.
 */
public record RecoveredState(Snapshot snapshot, List<Txn> txns) {
    public static RecoveredState empty() {
        return new RecoveredState(null, List.of());
    }

    public RecoveredState {
        txns = List.copyOf(txns);
        long previous = snapshot == null ? 0 : snapshot.zxid();
        for (Txn t : txns) {
            if (t.zxid() <= previous) {
                throw new IllegalArgumentException("recovered log is not in zxid order after "
                        + Txn.zxidString(previous) + ": " + t);
            }
            previous = t.zxid();
        }
    }

    public long lastZxid() {
        if (!txns.isEmpty()) {
            return txns.get(txns.size() - 1).zxid();
        }
        return snapshot == null ? 0 : snapshot.zxid();
    }
}
