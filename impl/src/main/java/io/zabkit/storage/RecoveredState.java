package io.zabkit.storage;

import io.zabkit.txn.Txn;
import java.util.List;

/**
 * What a server finds on disk at start: the newest valid snapshot (null on a fresh data dir), the
 * transactions logged after it, in zxid order, with any torn tail already cut off, and Zab's two
 * durable epochs.
 *
 * @param acceptedEpoch the last epoch this server acknowledged in discovery (LEADERINFO)
 * @param currentEpoch  the last epoch whose NEWLEADER this server acknowledged; at most acceptedEpoch
 */
public record RecoveredState(Snapshot snapshot, List<Txn> txns, long acceptedEpoch, long currentEpoch) {
    public static RecoveredState empty() {
        return new RecoveredState(null, List.of());
    }

    /** Without epoch files (a standalone server): both epochs are the epoch of the last zxid, as in ZooKeeper. */
    public RecoveredState(Snapshot snapshot, List<Txn> txns) {
        this(snapshot, txns, Txn.epochOf(lastZxidOf(snapshot, txns)), Txn.epochOf(lastZxidOf(snapshot, txns)));
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
        if (currentEpoch > acceptedEpoch) {
            throw new IllegalArgumentException("currentEpoch " + currentEpoch + " is beyond acceptedEpoch "
                    + acceptedEpoch + ": the epoch files are inconsistent");
        }
    }

    public long lastZxid() {
        return lastZxidOf(snapshot, txns);
    }

    private static long lastZxidOf(Snapshot snapshot, List<Txn> txns) {
        if (!txns.isEmpty()) {
            return txns.get(txns.size() - 1).zxid();
        }
        return snapshot == null ? 0 : snapshot.zxid();
    }
}
