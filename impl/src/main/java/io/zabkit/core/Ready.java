package io.zabkit.core;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import java.util.List;

/**
 * A batch of work the core hands to its runtime (etcd raft's Ready). The runtime:
 * <ol>
 *   <li>appends {@code entries} to the transaction log, and syncs it when {@code mustSync};</li>
 *   <li>writes {@code snapshot} when present;</li>
 *   <li>sends {@code sends} in order, then closes the connections in {@code closes};</li>
 *   <li>reports durability back with {@link ServerCore#persisted(long)}.</li>
 * </ol>
 * No send in a batch vouches for the entries of the same batch: the core answers a write only after
 * {@code persisted} says its zxid is durable, so sending need not wait for the disk.
 */
public record Ready(List<Txn> entries, boolean mustSync, Snapshot snapshot, List<Outbound> sends,
                    List<Long> closes) {

    /** Bytes for one client connection: a framed reply or notification, or a four-letter-word answer. */
    public record Outbound(long connId, byte[] bytes) {}

    public static final Ready EMPTY = new Ready(List.of(), false, null, List.of(), List.of());

    public boolean isEmpty() {
        return entries.isEmpty() && snapshot == null && sends.isEmpty() && closes.isEmpty();
    }

    public long lastEntryZxid() {
        return entries.isEmpty() ? -1 : entries.get(entries.size() - 1).zxid();
    }
}
