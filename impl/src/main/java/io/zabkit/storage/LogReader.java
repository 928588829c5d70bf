package io.zabkit.storage;

import io.zabkit.txn.Txn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses a log file and tells a torn tail from corruption. A crash can only damage the unsynced end
 * of the newest file: a partial record, zeros, or garbage, with no well-formed record after it. Any
 * other damage (in an older file, or followed by a well-formed record) is corruption of data that
 * may have been acknowledged, and is reported, not dropped. So is a record written whole (its trailer
 * repeats its length, see {@link LogFormat}) that fails its checksum, anywhere, the last one included:
 * a bit flip, not a torn append; unless the operator asked to discard it.
 */
final class LogReader {
    private final int maxRecordBytes;
    private final int maxBufferBytes;
    private final boolean discardCorruptTail;

    LogReader(int maxRecordBytes, int maxBufferBytes, boolean discardCorruptTail) {
        this.maxRecordBytes = maxRecordBytes;
        this.maxBufferBytes = maxBufferBytes;
        this.discardCorruptTail = discardCorruptTail;
    }

    LogSegment read(String name, long firstZxid, byte[] file, boolean newest) throws CorruptStorageException {
        long prevZxid = LogFormat.readHeader(file);
        if (prevZxid < 0) {
            String reason = "header is short or does not check (" + file.length + " bytes)";
            requireTornTail(name, file, 0, LogFormat.VERSION, newest, reason);
            return new LogSegment(name, firstZxid, -1, List.of(), List.of(), 0, reason);
        }
        int version = LogFormat.version(file);
        List<Txn> txns = new ArrayList<>();
        List<Integer> ends = new ArrayList<>();
        int offset = LogFormat.HEADER_BYTES;
        long previous = prevZxid;
        while (offset < file.length) {
            int length = LogFormat.recordAt(file, offset, maxRecordBytes, version);
            if (length < 0) {
                String reason = "no well-formed record at offset " + offset + " of " + file.length;
                if (version > 1 && LogFormat.wholeRecordAt(file, offset, maxRecordBytes, version)) {
                    reason = wholeRecordFailsCrc(name, file, offset, previous);
                }
                requireTornTail(name, file, offset, version, newest, reason);
                return new LogSegment(name, firstZxid, prevZxid, txns, ends, offset, reason);
            }
            Txn txn = decode(name, file, offset, length);
            checkOrder(name, offset, txn, previous, txns.isEmpty() ? firstZxid : -1);
            txns.add(txn);
            previous = txn.zxid();
            offset += LogFormat.overheadBytes(version) + length;
            ends.add(offset);
        }
        assert offset == file.length : "read past the end of " + name;
        return new LogSegment(name, firstZxid, prevZxid, txns, ends, offset, null);
    }

    /** Refuses to start unless the operator chose to discard the record; returns the reason to log. */
    private String wholeRecordFailsCrc(String name, byte[] file, int offset, long previous)
            throws CorruptStorageException {
        long claimed = LogFormat.claimedZxid(file, offset);
        String what = name + ": the record at offset " + offset + " (after zxid " + Txn.zxidString(previous)
                + (claimed >= 0 ? ", claiming zxid " + Txn.zxidString(claimed) : "") + ") is whole but fails its"
                + " crc32 check";
        if (!discardCorruptTail) {
            throw new CorruptStorageException(what + ": the disk damaged a transaction that may have been"
                    + " acknowledged (its trailer shows it was written whole, so this is no torn append);"
                    + " refusing to start. Restore the data directory, or start once with"
                    + " --discard-corrupt-log-tail to drop that record (an ensemble member then resyncs"
                    + " from the leader)");
        }
        return what + ", discarded as --discard-corrupt-log-tail asks";
    }

    private void requireTornTail(String name, byte[] file, int offset, int version, boolean newest, String reason)
            throws CorruptStorageException {
        if (!newest) {
            throw new CorruptStorageException(name + ": " + reason + ", in a log file that is not the newest,"
                    + " so it cannot be a torn write; refusing to recover past it");
        }
        for (int later = offset + 1; later < file.length; later++) {
            if (LogFormat.recordAt(file, later, maxRecordBytes, version) > 0) {
                throw new CorruptStorageException(name + ": " + reason + ", but a well-formed record follows"
                        + " at offset " + later + ", so this is corruption, not a torn write");
            }
        }
    }

    private Txn decode(String name, byte[] file, int offset, int length) throws CorruptStorageException {
        byte[] payload = new byte[length];
        System.arraycopy(file, offset + LogFormat.RECORD_HEADER_BYTES, payload, 0, length);
        try {
            return Txn.decode(payload, maxBufferBytes);
        } catch (IOException | RuntimeException e) {
            // The crc matched, so these are the bytes that were written: a writer bug or a format change.
            throw new CorruptStorageException(name + ": record at offset " + offset + " passes its crc but does"
                    + " not decode as a transaction: " + e.getMessage());
        }
    }

    private static void checkOrder(String name, int offset, Txn txn, long previous, long expectedFirst)
            throws CorruptStorageException {
        if (expectedFirst >= 0 && txn.zxid() != expectedFirst) {
            throw new CorruptStorageException(name + ": first record is " + txn + ", not the zxid of the file name");
        }
        if (txn.zxid() <= previous) {
            throw new CorruptStorageException(name + ": record at offset " + offset + " is " + txn
                    + ", not after " + Txn.zxidString(previous));
        }
    }
}
