package io.zabkit.storage;

import io.zabkit.txn.Txn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The server's durable state: a transaction log in files named by their first zxid, snapshots, and
 * Zab's two epochs. Call {@link #recover()} once, then {@link #append} batches and {@link #sync} each
 * (group commit: one fsync per batch), and {@link #writeSnapshot} now and then, which rolls the log and
 * purges what the newest {@code snapRetainCount} snapshots no longer need. A follower syncing with its
 * leader also calls {@link #truncate} (TRUNC), {@link #installSnapshot} (SNAP) and {@link #writeEpochs}.
 * Single-threaded: one owner.
 */
public final class Storage implements AutoCloseable {

    /**
     * @param forceSync        false skips the fsyncs of the log (zoo.cfg forceSync=no): faster, and
     *                         acknowledged writes may be lost on power failure
     * @param snapRetainCount  snapshots kept by purging, with every log file they need
     * @param maxBufferBytes   jute.maxbuffer, bounding each length prefix inside a transaction
     */
    /**
     * @param discardCorruptTail the operator's explicit choice (ServerMain's --discard-corrupt-log-tail)
     *                           to drop a complete last record of the newest log file that fails its
     *                           checksum, as if it were torn; without it recovery refuses to start
     */
    public record Options(boolean forceSync, int snapRetainCount, int maxBufferBytes, boolean discardCorruptTail) {
        public Options {
            if (snapRetainCount < 1 || maxBufferBytes <= 0) {
                throw new IllegalArgumentException("need snapRetainCount >= 1 and maxBufferBytes > 0");
            }
        }

        public Options(boolean forceSync, int snapRetainCount, int maxBufferBytes) {
            this(forceSync, snapRetainCount, maxBufferBytes, false);
        }

        /** A multi's txn can carry a little more than one client packet; the bound only catches garbage. */
        int maxRecordBytes() {
            return 2 * maxBufferBytes + 4096;
        }
    }

    private final Disk logDisk;
    private final Disk snapshotDisk;
    private final Options options;
    private final Consumer<String> warn;
    private final LogReader reader;

    private boolean recovered;
    /** The highest zxid in the log or the newest snapshot; every append must exceed it. */
    private long lastLoggedZxid;
    /** The log file appends go to; null until the first append after recovery or a snapshot (a roll). */
    private String currentLog;
    private boolean currentLogDirty;
    /** The stored epochs (or, until written, their defaults from the last zxid); they never decrease. */
    private long acceptedEpoch;
    private long currentEpoch;
    /** The marked sync tail (see {@link #markSyncTail}): the zxid it follows, or -1 when none is marked. */
    private long syncTailAfter = -1;
    private long syncTailEpoch = -1;

    public Storage(Disk logDisk, Disk snapshotDisk, Options options, Consumer<String> warn) {
        this.logDisk = logDisk;
        this.snapshotDisk = snapshotDisk;
        this.options = options;
        this.warn = warn;
        this.reader = new LogReader(options.maxRecordBytes(), options.maxBufferBytes(), options.discardCorruptTail());
    }

    /** The newest valid snapshot and every logged transaction after it; repairs a torn log tail. */
    public RecoveredState recover() throws IOException {
        if (recovered) {
            throw new IllegalStateException("recover() runs once, before any append");
        }
        finishInterruptedTruncate();
        dropUnvouchedSyncTail();
        Snapshot snapshot = newestValidSnapshot();
        long have = snapshot == null ? 0 : snapshot.zxid();
        List<Long> logs = zxidsOf(logDisk, FileNames.LOG_PREFIX);
        logs.sort(Comparator.naturalOrder());
        List<Txn> txns = new ArrayList<>();
        for (int i = firstLogNeeded(logs, have); i < logs.size(); i++) {
            String name = FileNames.log(logs.get(i));
            LogSegment segment = readSegment(name, logs.get(i), i == logs.size() - 1);
            if (segment.prevZxid() > have) {
                throw new CorruptStorageException(gapMessage(snapshot, segment, have));
            }
            for (Txn txn : segment.txns()) {
                if (txn.zxid() > have) {
                    txns.add(txn);
                    have = txn.zxid();
                }
            }
            if (segment.isTorn()) {
                repairTornTail(segment);
            } else if (segment.txns().isEmpty() && i == logs.size() - 1) {
                // A crash right after a roll can leave only the header. The next append rolls to a file of
                // the same name (the next zxid), so this one must go.
                warn.accept(logDisk.describe() + "/" + segment.name() + " holds no transactions; deleting it");
                logDisk.delete(segment.name());
            }
        }
        lastLoggedZxid = have;
        recovered = true;
        purge(); // a crash may have cut the last purge short
        recoverEpochs(Txn.epochOf(have));
        RecoveredState state = new RecoveredState(snapshot, txns, acceptedEpoch, currentEpoch);
        assert state.lastZxid() == lastLoggedZxid : "recovered " + state.lastZxid() + " vs " + lastLoggedZxid;
        return state;
    }

    /** Appends transactions, in zxid order, to the current log file; durable only after {@link #sync}. */
    public void append(List<Txn> txns) throws IOException {
        requireRecovered();
        if (txns.isEmpty()) {
            return;
        }
        List<byte[]> payloads = new ArrayList<>(txns.size());
        int bytes = 0;
        long previous = lastLoggedZxid;
        for (Txn txn : txns) {
            if (txn.zxid() <= previous) {
                throw new IllegalArgumentException("append out of zxid order: " + txn + " after "
                        + Txn.zxidString(previous));
            }
            byte[] payload = txn.encode();
            assert payload.length > 0 && payload.length <= options.maxRecordBytes() : "record size " + payload.length;
            assert decodesTo(payload, txn) : "txn does not survive its own encoding: " + txn;
            payloads.add(payload);
            bytes += LogFormat.RECORD_OVERHEAD_BYTES + payload.length;
            previous = txn.zxid();
        }
        boolean roll = currentLog == null;
        ByteBuffer out = ByteBuffer.allocate(bytes + (roll ? LogFormat.HEADER_BYTES : 0));
        if (roll) {
            out.put(LogFormat.header(lastLoggedZxid));
        }
        for (byte[] payload : payloads) {
            LogFormat.putRecord(out, payload);
        }
        assert !out.hasRemaining() : "batch buffer size mismatch";
        String target = roll ? FileNames.log(txns.get(0).zxid()) : currentLog;
        assert !roll || !logDisk.list().contains(target) : "new log file already exists: " + target;
        logDisk.append(target, out.array());
        currentLog = target;
        currentLogDirty = true;
        lastLoggedZxid = previous;
    }

    /** Makes every append so far durable (unless forceSync is off). */
    public void sync() throws IOException {
        requireRecovered();
        if (!options.forceSync()) {
            return; // the file stays dirty: closeCurrentLog still syncs it before it stops being the newest
        }
        if (currentLog != null && currentLogDirty) {
            logDisk.sync(currentLog);
        }
        currentLogDirty = false;
    }

    /** Writes a snapshot atomically, then starts a new log file and purges old snapshots and logs. */
    public void writeSnapshot(Snapshot snapshot) throws IOException {
        requireRecovered();
        if (snapshot.zxid() > lastLoggedZxid) {
            throw new IllegalArgumentException("snapshot at " + Txn.zxidString(snapshot.zxid())
                    + " is ahead of the log, which ends at " + Txn.zxidString(lastLoggedZxid));
        }
        closeCurrentLog();
        String name = FileNames.snapshot(snapshot.zxid());
        snapshotDisk.writeAtomically(name, SnapshotFormat.encode(snapshot));
        assert Arrays.equals(SnapshotFormat.decode(snapshotDisk.read(name), snapshot.zxid()).data(),
                snapshot.data()) : "snapshot reads back different from what was written: " + name;
        purge();
    }

    /**
     * Durably drops every logged transaction after {@code zxid} (Zab TRUNC: a divergent, uncommitted
     * tail); the next append continues after what is kept. All or nothing across a crash: a marker
     * naming {@code zxid} is written first, and recovery finishes a truncate it finds one for.
     *
     * @throws IllegalStateException when a snapshot newer than {@code zxid} exists: a snapshot holds
     *                               committed state, which Zab never truncates
     */
    public void truncate(long zxid) throws IOException {
        requireRecovered();
        if (zxid < 0) {
            throw new IllegalArgumentException("truncate to negative zxid " + zxid);
        }
        if (syncTailAfter >= 0 && zxid <= syncTailAfter) {
            // The follower left its synchronization: the marked tail goes, a SNAP's snapshot with it, as a
            // restart would drop them (dropUnvouchedSyncTail).
            deleteSnapshotsAfter(syncTailAfter);
            clearSyncTail();
        }
        cut(zxid);
    }

    private void cut(long zxid) throws IOException {
        requireNoSnapshotAfter(zxid, "truncate the log to");
        if (zxid >= lastLoggedZxid) {
            return; // nothing is logged after it
        }
        String marker = FileNames.truncateMarker(zxid);
        logDisk.writeAtomically(marker, ("truncate the log after " + Txn.zxidString(zxid) + "\n")
                .getBytes(StandardCharsets.US_ASCII));
        currentLog = null; // the next append starts a file whose header vouches for the kept prefix
        currentLogDirty = false;
        long keptInLog = cutLogAfter(zxid);
        logDisk.delete(marker);
        lastLoggedZxid = Math.max(keptInLog, newestSnapshotZxid());
        assert lastLoggedZxid <= zxid : "truncate kept " + Txn.zxidString(lastLoggedZxid);
    }

    /**
     * Replaces this server's state by the leader's (Zab SNAP): afterwards recovery starts from
     * {@code snapshot} and nothing logged after its zxid survives, so a divergent tail is never replayed
     * on top of it; appends continue after its zxid. The log may end anywhere before it. A crash in
     * between leaves the log truncated to the snapshot's zxid (a prefix of the old state), then the
     * snapshot appears atomically.
     *
     * @throws IllegalStateException when a snapshot newer than {@code snapshot} exists
     */
    public void installSnapshot(Snapshot snapshot) throws IOException {
        requireRecovered();
        cut(snapshot.zxid());
        closeCurrentLog();
        String name = FileNames.snapshot(snapshot.zxid());
        snapshotDisk.writeAtomically(name, SnapshotFormat.encode(snapshot));
        assert Arrays.equals(SnapshotFormat.decode(snapshotDisk.read(name), snapshot.zxid()).data(),
                snapshot.data()) : "installed snapshot reads back different: " + name;
        lastLoggedZxid = snapshot.zxid();
        if (syncTailAfter < 0) {
            purge(); // else at the epoch's write: until then a restart may need the older state back
        }
    }

    /**
     * Stores Zab's epochs durably (ZooKeeper's files acceptedEpoch and currentEpoch, on the snapshot
     * disk), each replaced atomically; a file whose value is unchanged is not rewritten.
     *
     * @throws IllegalArgumentException when currentEpoch &gt; acceptedEpoch, an epoch is out of range, or
     *                                  either would go back: Zab's epochs never decrease
     */
    public void writeEpochs(long acceptedEpoch, long currentEpoch) throws IOException {
        requireRecovered();
        if (currentEpoch < 0 || currentEpoch > acceptedEpoch || acceptedEpoch > EpochFiles.MAX_EPOCH) {
            throw new IllegalArgumentException("need 0 <= currentEpoch <= acceptedEpoch <= " + EpochFiles.MAX_EPOCH
                    + ", got acceptedEpoch " + acceptedEpoch + " and currentEpoch " + currentEpoch);
        }
        if (acceptedEpoch < this.acceptedEpoch || currentEpoch < this.currentEpoch) {
            throw new IllegalArgumentException("epochs never go back: stored acceptedEpoch " + this.acceptedEpoch
                    + ", currentEpoch " + this.currentEpoch + "; asked for " + acceptedEpoch + ", " + currentEpoch);
        }
        // acceptedEpoch first: whichever files a crash leaves updated, currentEpoch <= acceptedEpoch still holds.
        writeEpochIfChanged(EpochFiles.ACCEPTED, acceptedEpoch);
        this.acceptedEpoch = acceptedEpoch;
        writeEpochIfChanged(EpochFiles.CURRENT, currentEpoch);
        this.currentEpoch = currentEpoch;
        if (syncTailAfter >= 0 && currentEpoch >= syncTailEpoch) {
            clearSyncTail(); // currentEpoch now vouches for the tail: it is an ordinary part of the log
            purge(); // what a SNAP installed under the mark made older files unneeded
        }
    }

    /**
     * A follower at NEWLEADER, before it appends the synchronized proposals: what is logged after
     * {@code afterZxid} from now on, and a SNAP's snapshot installed after it, is vouched for only by
     * currentEpoch {@code epoch}. Recovery drops that tail while currentEpoch is older, so the synced log and the new currentEpoch become durable as
     * one step, as Zab.tla's NEWLEADER takes them (a crash between the log's fsync and the epoch's write
     * would otherwise leave a log ahead of currentEpoch: ZOOKEEPER-2354). The epoch's write clears the
     * mark, and so does a truncate that cuts the tail. Durable when this returns.
     */
    public void markSyncTail(long afterZxid, long epoch) throws IOException {
        requireRecovered();
        if (afterZxid < 0 || epoch < 0 || epoch > EpochFiles.MAX_EPOCH) {
            throw new IllegalArgumentException("need a zxid >= 0 and an epoch in 0.." + EpochFiles.MAX_EPOCH
                    + ", got " + Txn.zxidString(afterZxid) + " and " + epoch);
        }
        if (afterZxid < lastLoggedZxid) {
            throw new IllegalStateException("a sync tail after " + Txn.zxidString(afterZxid)
                    + " would take in entries already logged, up to " + Txn.zxidString(lastLoggedZxid));
        }
        if (epoch <= currentEpoch) {
            return; // already vouched for
        }
        String marker = FileNames.syncTailMarker(afterZxid);
        logDisk.writeAtomically(marker, EpochFiles.encode(epoch));
        if (syncTailAfter >= 0 && syncTailAfter != afterZxid) {
            logDisk.delete(FileNames.syncTailMarker(syncTailAfter)); // the newer mark covers a later tail
        }
        syncTailAfter = afterZxid;
        syncTailEpoch = epoch;
        assert EpochFiles.read(logDisk, marker) == epoch : marker + " reads back different";
    }

    public long lastLoggedZxid() {
        return lastLoggedZxid;
    }

    @Override
    public void close() throws IOException {
        try {
            logDisk.close();
        } finally {
            if (snapshotDisk != logDisk) {
                snapshotDisk.close();
            }
        }
    }

    /**
     * Syncs the file appends went to and makes the next append start a new one. Even with forceSync
     * off: recovery takes damage in a file that is not the newest for corruption, not a torn write.
     */
    private void closeCurrentLog() throws IOException {
        if (currentLog != null && currentLogDirty) {
            logDisk.sync(currentLog);
        }
        currentLog = null;
        currentLogDirty = false;
    }

    private void writeEpochIfChanged(String name, long epoch) throws IOException {
        if (EpochFiles.read(snapshotDisk, name) != epoch) {
            snapshotDisk.writeAtomically(name, EpochFiles.encode(epoch));
            assert EpochFiles.read(snapshotDisk, name) == epoch : name + " reads back different from " + epoch;
        }
    }

    /** The epoch files, or for a missing one the epoch of the last zxid, as ZooKeeper does. */
    private void recoverEpochs(long lastZxidEpoch) throws IOException {
        long accepted = EpochFiles.read(snapshotDisk, EpochFiles.ACCEPTED);
        long current = EpochFiles.read(snapshotDisk, EpochFiles.CURRENT);
        acceptedEpoch = accepted == EpochFiles.MISSING ? lastZxidEpoch : accepted;
        currentEpoch = current == EpochFiles.MISSING ? lastZxidEpoch : current;
        if (currentEpoch > acceptedEpoch) {
            throw new CorruptStorageException("currentEpoch " + currentEpoch
                    + (current == EpochFiles.MISSING ? " (no file: the epoch of the last zxid)" : "")
                    + " is beyond acceptedEpoch " + acceptedEpoch
                    + (accepted == EpochFiles.MISSING ? " (no file: the epoch of the last zxid)" : "")
                    + " in " + snapshotDisk.describe() + "; zabkit writes acceptedEpoch first, so a file was lost or"
                    + " edited. Restore both from a backup; failing that, move this server's log and snapshot"
                    + " directories away and restart it empty to resync from the leader");
        }
    }

    /** A follower snapshots nothing of its own during synchronization: a newer one is the leader's SNAP. */
    private void deleteSnapshotsAfter(long zxid) throws IOException {
        for (long z : zxidsOf(snapshotDisk, FileNames.SNAPSHOT_PREFIX)) {
            if (z > zxid) {
                snapshotDisk.delete(FileNames.snapshot(z));
            }
        }
        assert newestSnapshotZxid() <= zxid : "a snapshot after the dropped tail survived";
    }

    private void clearSyncTail() throws IOException {
        logDisk.delete(FileNames.syncTailMarker(syncTailAfter));
        syncTailAfter = -1;
        syncTailEpoch = -1;
    }

    /**
     * A sync tail's mark found at start (see {@link #markSyncTail}): while currentEpoch is older than the
     * mark's epoch, the server stopped between NEWLEADER's log write and its currentEpoch, and what it
     * logged after the mark's zxid is dropped, as if NEWLEADER never came. Either way the mark goes.
     */
    private void dropUnvouchedSyncTail() throws IOException {
        List<Long> marks = zxidsOf(logDisk, FileNames.SYNC_TAIL_PREFIX);
        if (marks.isEmpty()) {
            return;
        }
        long current = EpochFiles.read(snapshotDisk, EpochFiles.CURRENT);
        long after = marks.stream().min(Comparator.naturalOrder()).orElseThrow(); // two only if a crash cut a swap
        long epoch = EpochFiles.read(logDisk, FileNames.syncTailMarker(after));
        if (epoch == EpochFiles.MISSING) {
            throw new IllegalStateException("listed and then missing: " + FileNames.syncTailMarker(after));
        }
        if (current < epoch) {
            warn.accept(logDisk.describe() + ": the log after " + Txn.zxidString(after) + " was written at NEWLEADER"
                    + " of epoch " + epoch + ", but currentEpoch is " + current + "; dropping that tail"
                    + (newestSnapshotZxid() > after ? " and the snapshot the leader sent with it" : ""));
            deleteSnapshotsAfter(after);
            cutLogAfter(after);
        }
        for (long mark : marks) {
            logDisk.delete(FileNames.syncTailMarker(mark));
        }
    }

    /**
     * A truncate writes its marker before it deletes or cuts anything; a marker found at start means a
     * crash cut the truncate short, so finish it (cutting is idempotent) before reading the log.
     */
    private void finishInterruptedTruncate() throws IOException {
        List<Long> markers = zxidsOf(logDisk, FileNames.TRUNCATE_PREFIX);
        if (markers.isEmpty()) {
            return;
        }
        long zxid = markers.stream().min(Comparator.naturalOrder()).orElseThrow(); // truncating to the lowest does all
        long newestSnapshot = newestSnapshotZxid();
        if (newestSnapshot > zxid) {
            throw new CorruptStorageException(logDisk.describe() + "/" + FileNames.truncateMarker(zxid)
                    + " says a truncate after " + Txn.zxidString(zxid) + " was under way, but "
                    + snapshotDisk.describe() + "/" + FileNames.snapshot(newestSnapshot) + " is newer, and"
                    + " truncate refuses to drop snapshotted state; inspect the files: one was not written by zabkit");
        }
        warn.accept(logDisk.describe() + ": a crash interrupted truncating the log after " + Txn.zxidString(zxid)
                + "; finishing it");
        cutLogAfter(zxid);
        for (long marker : markers) {
            logDisk.delete(FileNames.truncateMarker(marker));
        }
    }

    /**
     * Deletes the log files that start after {@code zxid}, newest first, then cuts the file holding
     * {@code zxid} after its record (deleting it if nothing of it stays). Newest first, so that a crash
     * part way leaves a shorter log but never a gap. Idempotent. Returns the last zxid kept, 0 if none.
     */
    private long cutLogAfter(long zxid) throws IOException {
        List<Long> logs = zxidsOf(logDisk, FileNames.LOG_PREFIX);
        logs.sort(Comparator.reverseOrder());
        for (long first : logs) {
            String name = FileNames.log(first);
            if (first > zxid) {
                logDisk.delete(name);
                continue;
            }
            LogSegment segment = readSegment(name, first, true); // newest, now that the later ones are gone
            int kept = segment.countThrough(zxid);
            if (kept == 0) {
                logDisk.delete(name); // only a torn header can hold no record named at most zxid
                continue;
            }
            int cut = segment.recordEnds().get(kept - 1);
            if (kept < segment.txns().size() || segment.isTorn()) {
                logDisk.truncate(name, cut);
            }
            long last = segment.txns().get(kept - 1).zxid();
            assert last <= zxid && (kept == segment.txns().size() || segment.txns().get(kept).zxid() > zxid)
                    : name + ": cut after " + Txn.zxidString(last) + " for " + Txn.zxidString(zxid);
            return last;
        }
        return 0;
    }

    private void requireNoSnapshotAfter(long zxid, String action) throws IOException {
        long newest = newestSnapshotZxid();
        if (newest > zxid) {
            throw new IllegalStateException("cannot " + action + " " + Txn.zxidString(zxid) + ": "
                    + snapshotDisk.describe() + "/" + FileNames.snapshot(newest) + " is newer, and a snapshot holds"
                    + " only committed transactions, which Zab never drops; the leader's TRUNC or SNAP point is"
                    + " behind this server's committed state");
        }
    }

    private long newestSnapshotZxid() throws IOException {
        return zxidsOf(snapshotDisk, FileNames.SNAPSHOT_PREFIX).stream().max(Comparator.naturalOrder()).orElse(0L);
    }

    /**
     * The newest snapshot that checks. Unusable newer ones are moved aside (renamed *.corrupt, kept
     * for a post-mortem), so that purging, which keeps the newest few by name, never counts a corrupt
     * snapshot in place of the one recovery relies on.
     */
    private Snapshot newestValidSnapshot() throws IOException {
        List<Long> zxids = zxidsOf(snapshotDisk, FileNames.SNAPSHOT_PREFIX);
        zxids.sort(Comparator.reverseOrder());
        for (long zxid : zxids) {
            String name = FileNames.snapshot(zxid);
            try {
                return SnapshotFormat.decode(snapshotDisk.read(name), zxid);
            } catch (CorruptStorageException e) {
                warn.accept(snapshotDisk.describe() + "/" + name + " is unusable (" + e.getMessage()
                        + "); moving it aside to " + name + ".corrupt and falling back to the previous snapshot");
                snapshotDisk.writeAtomically(name + ".corrupt", snapshotDisk.read(name));
                snapshotDisk.delete(name);
            }
        }
        return null;
    }

    /**
     * Every zxid in a log file is below the name of the next file, so a file followed by one named at
     * most snapshotZxid + 1 holds nothing after the snapshot.
     */
    private static int firstLogNeeded(List<Long> sortedLogs, long snapshotZxid) {
        int first = 0;
        for (int i = 0; i < sortedLogs.size(); i++) {
            if (sortedLogs.get(i) <= snapshotZxid + 1) {
                first = i;
            }
        }
        return first;
    }

    private String gapMessage(Snapshot snapshot, LogSegment segment, long have) {
        return "transactions are missing: " + logDisk.describe() + "/" + segment.name() + " continues from "
                + Txn.zxidString(segment.prevZxid()) + " but recovery only has up to " + Txn.zxidString(have)
                + (snapshot == null ? " and found no valid snapshot" : " (snapshot " + Txn.zxidString(snapshot.zxid()) + ")")
                + " in " + snapshotDisk.describe();
    }

    private LogSegment readSegment(String name, long firstZxid, boolean newest) throws IOException {
        try {
            return reader.read(name, firstZxid, logDisk.read(name), newest);
        } catch (CorruptStorageException e) {
            throw new CorruptStorageException(logDisk.describe() + "/" + e.getMessage()); // messages start with the name
        }
    }

    /** Cuts the unsynced garbage off the newest log file so later appends (to a new file) stay clean. */
    private void repairTornTail(LogSegment segment) throws IOException {
        warn.accept(logDisk.describe() + "/" + segment.name() + ": torn tail after a crash (" + segment.tornReason()
                + "); keeping " + segment.txns().size() + " transactions"
                + (segment.txns().isEmpty() ? ", deleting the file" : ", truncating to " + segment.validBytes() + " bytes"));
        if (segment.txns().isEmpty()) {
            logDisk.delete(segment.name());
        } else {
            logDisk.truncate(segment.name(), segment.validBytes());
        }
    }

    /** Keeps the newest snapRetainCount snapshots and the logs from the oldest kept one onwards. */
    private void purge() throws IOException {
        List<Long> snapshots = zxidsOf(snapshotDisk, FileNames.SNAPSHOT_PREFIX);
        if (snapshots.size() < options.snapRetainCount()) {
            return; // With fewer snapshots, keep every log: recovery from an empty tree stays possible.
        }
        snapshots.sort(Comparator.reverseOrder());
        long oldestKept = snapshots.get(options.snapRetainCount() - 1);
        for (long zxid : snapshots.subList(options.snapRetainCount(), snapshots.size())) {
            snapshotDisk.delete(FileNames.snapshot(zxid));
        }
        List<Long> logs = zxidsOf(logDisk, FileNames.LOG_PREFIX);
        logs.sort(Comparator.naturalOrder());
        for (int i = 0; i + 1 < logs.size() && logs.get(i + 1) <= oldestKept + 1; i++) {
            // Every zxid in logs[i] is below the name of logs[i + 1], so the oldest kept snapshot covers it.
            assert !FileNames.log(logs.get(i)).equals(currentLog) : "purging the current log";
            logDisk.delete(FileNames.log(logs.get(i)));
        }
    }

    private static List<Long> zxidsOf(Disk disk, String prefix) throws IOException {
        List<Long> zxids = new ArrayList<>();
        for (String name : disk.list()) {
            long zxid = FileNames.zxidOf(name, prefix);
            if (zxid >= 0 && name.equals(prefix + Long.toHexString(zxid))) {
                zxids.add(zxid);
            }
        }
        return zxids;
    }

    private boolean decodesTo(byte[] payload, Txn txn) {
        try {
            Txn back = Txn.decode(payload, options.maxBufferBytes());
            return back.zxid() == txn.zxid() && back.type() == txn.type() && back.sessionId() == txn.sessionId()
                    && back.cxid() == txn.cxid() && back.time() == txn.time();
        } catch (IOException e) {
            return false;
        }
    }

    private void requireRecovered() {
        if (!recovered) {
            throw new IllegalStateException("call recover() before using the log");
        }
    }
}
