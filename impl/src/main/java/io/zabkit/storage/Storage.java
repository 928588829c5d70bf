package io.zabkit.storage;

import io.zabkit.txn.Txn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The server's durable state: a transaction log in files named by their first zxid, and snapshots.
 * Call {@link #recover()} once, then {@link #append} batches and {@link #sync} each (group commit: one
 * fsync per batch), and {@link #writeSnapshot} now and then, which rolls the log and purges what the
 * newest {@code snapRetainCount} snapshots no longer need. Single-threaded: one owner.
 */
public final class Storage implements AutoCloseable {

    /**
     * @param forceSync        false skips the fsyncs of the log (zoo.cfg forceSync=no): faster, and
     *                         acknowledged writes may be lost on power failure
     * @param snapRetainCount  snapshots kept by purging, with every log file they need
     * @param maxBufferBytes   jute.maxbuffer, bounding each length prefix inside a transaction
     */
    public record Options(boolean forceSync, int snapRetainCount, int maxBufferBytes) {
        public Options {
            if (snapRetainCount < 1 || maxBufferBytes <= 0) {
                throw new IllegalArgumentException("need snapRetainCount >= 1 and maxBufferBytes > 0");
            }
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

    public Storage(Disk logDisk, Disk snapshotDisk, Options options, Consumer<String> warn) {
        this.logDisk = logDisk;
        this.snapshotDisk = snapshotDisk;
        this.options = options;
        this.warn = warn;
        this.reader = new LogReader(options.maxRecordBytes(), options.maxBufferBytes());
    }

    /** The newest valid snapshot and every logged transaction after it; repairs a torn log tail. */
    public RecoveredState recover() throws IOException {
        if (recovered) {
            throw new IllegalStateException("recover() runs once, before any append");
        }
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
        RecoveredState state = new RecoveredState(snapshot, txns);
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
        if (currentLog != null && currentLogDirty && options.forceSync()) {
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
        // The file being closed must be complete before a newer one exists: only the newest may be torn.
        sync();
        String name = FileNames.snapshot(snapshot.zxid());
        snapshotDisk.writeAtomically(name, SnapshotFormat.encode(snapshot));
        assert Arrays.equals(SnapshotFormat.decode(snapshotDisk.read(name), snapshot.zxid()).data(),
                snapshot.data()) : "snapshot reads back different from what was written: " + name;
        currentLog = null;
        purge();
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

    // MERGE(storage): placeholders so the runtime compiles against the Storage API it will call; the
    // branch `storage` implements these three. Keep that branch's versions and delete these.

    /** Drops every logged transaction after zxid, durably (Zab TRUNC). */
    public void truncate(long zxid) throws IOException {
        throw new UnsupportedOperationException("Storage.truncate is not merged yet (branch storage)");
    }

    /** Replaces the state with the snapshot, durably; the log after its zxid goes (Zab SNAP). */
    public void installSnapshot(Snapshot s) throws IOException {
        throw new UnsupportedOperationException("Storage.installSnapshot is not merged yet (branch storage)");
    }

    /** Stores acceptedEpoch and currentEpoch durably. */
    public void writeEpochs(long acceptedEpoch, long currentEpoch) throws IOException {
        throw new UnsupportedOperationException("Storage.writeEpochs is not merged yet (branch storage)");
    }
}
