package io.zabkit.runtime;

import io.zabkit.core.Ready;
import io.zabkit.storage.Snapshot;
import io.zabkit.storage.Storage;
import io.zabkit.txn.Txn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The disk thread: appends log entries and writes snapshots in the order the core produced them.
 * Group commit: everything queued while the previous fsync ran goes to disk with one fsync, then one
 * {@link DiskEvent.Persisted} covers it all. The loop thread submits; this thread owns {@link Storage}.
 */
final class DiskWriter implements Runnable {
    /** Work items drained per group commit; bounds the time between two persisted reports. */
    static final int BATCH_ITEMS_MAX = 4096;

    private sealed interface Work {}

    private record Append(List<Txn> entries, boolean mustSync) implements Work {}

    private record WriteSnapshot(Snapshot snapshot) implements Work {}

    private record Stop() implements Work {}

    /** Zab's synchronous storage work: truncate or install, epochs, a sync tail's mark; the loop waits for it. */
    private record Prepare(long truncateAfter, Snapshot install, Ready.Epochs epochs, Ready.SyncTail syncTail,
                           CompletableFuture<Void> done) implements Work {}

    private final Storage storage;
    private final Consumer<DiskEvent> events;
    private final LinkedBlockingQueue<Work> queue = new LinkedBlockingQueue<>();
    /** Entries submitted and not yet reported persisted; the loop stops reading clients when it is high. */
    private final AtomicInteger unpersistedTxns = new AtomicInteger();

    /** Set when the thread stops on a failure; the loop stops waiting for it. */
    private volatile boolean failed;
    private long appendedZxid = -1;
    private int appendedCount;
    private boolean syncNeeded;

    DiskWriter(Storage storage, Consumer<DiskEvent> events) {
        this.storage = storage;
        this.events = events;
    }

    /** Loop thread: queue the disk work of one batch. */
    void submit(Ready ready) {
        if (!ready.entries().isEmpty()) {
            unpersistedTxns.addAndGet(ready.entries().size());
            queue.add(new Append(ready.entries(), ready.mustSync()));
        }
        if (ready.snapshot() != null) {
            queue.add(new WriteSnapshot(ready.snapshot()));
        }
    }

    /**
     * Loop thread: carry out a batch's truncate, snapshot install and epochs, and wait until they are
     * durable. They run on the disk thread after everything submitted before: the older appends are
     * synced and reported first, so no group commit of older entries is in flight while the log is cut.
     * Rare (once per synchronization with a leader), so blocking the loop for it is fine.
     */
    void prepare(Ready ready) throws IOException, InterruptedException {
        if (!needsPrepare(ready)) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        queue.add(new Prepare(ready.truncateAfter(), ready.installSnapshot(), ready.epochs(), ready.syncTail(), done));
        try {
            while (true) {
                try {
                    done.get(100, TimeUnit.MILLISECONDS);
                    return;
                } catch (TimeoutException e) {
                    if (failed) {
                        throw new IOException("the disk thread failed before it could synchronize the log");
                    }
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? io : new IOException("storage failed while synchronizing: "
                    + cause, cause);
        }
    }

    static boolean needsPrepare(Ready ready) {
        return ready.truncateAfter() != Ready.NO_TRUNCATE || ready.installSnapshot() != null || ready.epochs() != null
                || ready.syncTail() != null;
    }

    /** Loop thread: finish the queued work (with its fsync), then end the thread. */
    void stop() {
        queue.add(new Stop());
    }

    int unpersistedTxns() {
        return unpersistedTxns.get();
    }

    @Override
    public void run() {
        try {
            List<Work> batch = new ArrayList<>();
            while (true) {
                batch.clear();
                batch.add(queue.take());
                queue.drainTo(batch, BATCH_ITEMS_MAX - 1);
                if (!process(batch)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) { // an OutOfMemoryError too: the loop must hear of it and stop
            failed = true;
            events.accept(new DiskEvent.Failed(e));
        }
    }

    /** Returns false after a Stop. */
    private boolean process(List<Work> batch) throws Exception {
        for (Work work : batch) {
            if (work instanceof Append a) {
                storage.append(a.entries());
                appendedZxid = a.entries().get(a.entries().size() - 1).zxid();
                appendedCount += a.entries().size();
                syncNeeded |= a.mustSync();
            } else if (work instanceof Prepare p) {
                prepare(p);
            } else if (work instanceof WriteSnapshot w) {
                commit(); // the snapshot follows the entries before it, durably
                storage.writeSnapshot(w.snapshot());
                events.accept(new DiskEvent.SnapshotWritten(w.snapshot().zxid()));
            } else {
                commit();
                return false;
            }
        }
        commit();
        return true;
    }

    private void prepare(Prepare p) throws Exception {
        try {
            commit(); // older entries are durable and reported before the log changes under them
            if (p.truncateAfter() != Ready.NO_TRUNCATE) {
                storage.truncate(p.truncateAfter());
            }
            if (p.syncTail() != null) {
                storage.markSyncTail(p.syncTail().afterZxid(), p.syncTail().epoch());
            }
            if (p.install() != null) {
                storage.installSnapshot(p.install());
            }
            if (p.epochs() != null) {
                storage.writeEpochs(p.epochs().acceptedEpoch(), p.epochs().currentEpoch());
            }
            p.done().complete(null);
        } catch (Throwable e) { // an OutOfMemoryError too: the loop must hear of it and stop
            p.done().completeExceptionally(e);
            throw e;
        }
    }

    /** One fsync for everything appended since the last one, then one report. */
    private void commit() throws Exception {
        if (appendedCount == 0) {
            return;
        }
        if (syncNeeded) {
            storage.sync();
        }
        assert storage.lastLoggedZxid() >= appendedZxid : "reporting beyond the log";
        events.accept(new DiskEvent.Persisted(appendedZxid));
        unpersistedTxns.addAndGet(-appendedCount);
        assert unpersistedTxns.get() >= 0 : "more txns persisted than submitted";
        appendedZxid = -1;
        appendedCount = 0;
        syncNeeded = false;
    }
}
