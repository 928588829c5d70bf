package io.zabkit.core;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import io.zabkit.zab.Message;
import java.util.List;

/**
 * A batch of work the core hands to its runtime (etcd raft's Ready). The runtime, in this order:
 * <ol>
 *   <li>truncates the log after {@code truncateAfter} when it is not {@link #NO_TRUNCATE} (Zab TRUNC);
 *       marks {@code syncTail} when present (what is logged after its zxid from now on, and a snapshot
 *       installed after it, waits for currentEpoch to reach its epoch); installs {@code installSnapshot}
 *       when present (Zab SNAP: the log after its zxid goes too); all durably, before anything else of
 *       the batch;</li>
 *   <li>stores {@code epochs} durably when present, before any message of the batch leaves
 *       (acceptedEpoch before ACKEPOCH, currentEpoch before the ACK of NEWLEADER);</li>
 *   <li>appends {@code entries} to the transaction log, and syncs it when {@code mustSync};</li>
 *   <li>writes {@code snapshot} when present;</li>
 *   <li>sends {@code sends} in order, then closes the connections in {@code closes};</li>
 *   <li>carries out {@code peerOut} in order: a message to a server, or a reset of the link to it;</li>
 *   <li>reports durability back with {@link ServerCore#persisted(long)}.</li>
 * </ol>
 * No send in a batch vouches for the entries of the same batch: the core answers a write (and a
 * follower ACKs a proposal) only after {@code persisted} says its zxid is durable, so sending need
 * not wait for the disk.
 */
public record Ready(long truncateAfter, Snapshot installSnapshot, Epochs epochs, SyncTail syncTail, List<Txn> entries,
                    boolean mustSync, Snapshot snapshot, List<Outbound> sends, List<Long> closes,
                    List<PeerOut> peerOut) {

    public static final long NO_TRUNCATE = -1;

    /** Bytes for one client connection: a framed reply or notification, or a four-letter-word answer. */
    public record Outbound(long connId, byte[] bytes) {}

    /** Zab's durable epochs (the files acceptedEpoch and currentEpoch in ZooKeeper's dataDir). */
    public record Epochs(long acceptedEpoch, long currentEpoch) {}

    /**
     * What a follower logs after {@code afterZxid} from NEWLEADER on is vouched for only by currentEpoch
     * {@code epoch}: recovery drops it while currentEpoch is older (Storage#markSyncTail).
     */
    public record SyncTail(long afterZxid, long epoch) {}

    /**
     * A message for server {@code peer}; or, when {@code message} is null, the core gave up on its link
     * to that server: close it (both directions), so the peer notices at once.
     */
    public record PeerOut(long peer, Message message) {
        public boolean isReset() {
            return message == null;
        }
    }

    public static final Ready EMPTY = new Ready(NO_TRUNCATE, null, null, null, List.of(), false, null, List.of(),
            List.of(), List.of());

    /** The batch of a standalone server: log, snapshot and client traffic only. */
    public Ready(List<Txn> entries, boolean mustSync, Snapshot snapshot, List<Outbound> sends, List<Long> closes) {
        this(NO_TRUNCATE, null, null, null, entries, mustSync, snapshot, sends, closes, List.of());
    }

    public boolean isEmpty() {
        return truncateAfter == NO_TRUNCATE && installSnapshot == null && epochs == null && syncTail == null
                && entries.isEmpty()
                && snapshot == null && sends.isEmpty() && closes.isEmpty() && peerOut.isEmpty();
    }

    public long lastEntryZxid() {
        return entries.isEmpty() ? -1 : entries.get(entries.size() - 1).zxid();
    }
}
