package io.zabkit.zab;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;

/** Where Zab puts what it wants done; the core gathers it into the next Ready batch, in this order. */
public interface Effects {
    /** Drop every logged transaction after zxid (TRUNC), durably, before anything else of the batch. */
    void truncateLog(long zxid);

    /** Replace state and log by this snapshot (SNAP), durably, before anything else of the batch. */
    void installSnapshot(Snapshot snapshot);

    /** Store both epochs durably before any message of the batch leaves. */
    void storeEpochs(long acceptedEpoch, long currentEpoch);

    /**
     * NEWLEADER: what is logged after {@code afterZxid} from now on (the synced proposals) is vouched for
     * only once currentEpoch reaches {@code epoch}. Durable before the batch's entries; a restart before
     * then drops that tail, so the synced log and currentEpoch become durable as one step (Zab.tla's
     * FollowerProcessNEWLEADER; ZOOKEEPER-2354's window closed).
     */
    void markSyncTail(long afterZxid, long epoch);

    /** Append a transaction to the log; {@code persisted} reports it durable. */
    void log(Txn txn);

    /** A message to another server. */
    void send(long to, Message message);

    /** Close the link to a server (both directions), so that it notices at once. */
    void resetLink(long peer);
}
