package io.zabkit.storage;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * Byte layout of a log file. A header, then records back to back:
 * <pre>
 *   header: magic "ZBLG" | version 2 | prevZxid (8) | crc32 of the 16 bytes before it
 *   record: length (4, &gt; 0) | crc32 of the payload (4) | payload = Txn.encode() | length again (4)
 * </pre>
 * The trailing length tells a torn append from damage (ZooKeeper's log ends each record with a marker
 * byte for the same reason): an append cut short, or a tail the file system filled with zeros or stale
 * bytes, loses the record's end, so its trailer does not repeat its length; a record whose trailer does
 * and whose crc fails was written whole and damaged afterwards. Version 1 files (no trailer) are still
 * read, with every damaged last record taken as torn.
 * prevZxid is the last zxid logged before this file was started, so recovery can prove that no
 * transaction fell between two files or between a snapshot and the first log it replays.
 * Big-endian, like the rest of ZooKeeper. A zero length is never written, so zero-filled tails
 * never parse as records (the crc32 of no bytes is zero).
 */
final class LogFormat {
    static final int MAGIC = 0x5a424c47; // "ZBLG"
    static final int VERSION = 2;
    static final int HEADER_BYTES = 20;
    /** Length and crc before the payload (both versions). */
    static final int RECORD_HEADER_BYTES = 8;
    static final int TRAILER_BYTES = 4;
    /** Bytes of a (version 2) record besides its payload. */
    static final int RECORD_OVERHEAD_BYTES = RECORD_HEADER_BYTES + TRAILER_BYTES;

    private LogFormat() {}

    static byte[] header(long prevZxid) {
        assert prevZxid >= 0 : "negative prevZxid " + prevZxid;
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
        b.putInt(MAGIC).putInt(VERSION).putLong(prevZxid);
        b.putInt(crc(b.array(), 0, 16));
        return b.array();
    }

    /** The header's prevZxid, or -1 when the header is short or does not check. */
    static long readHeader(byte[] file) {
        if (file.length < HEADER_BYTES) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.wrap(file);
        if (b.getInt(0) != MAGIC || (b.getInt(4) != 1 && b.getInt(4) != VERSION) || b.getInt(16) != crc(file, 0, 16)) {
            return -1;
        }
        long prevZxid = b.getLong(8);
        return prevZxid < 0 ? -1 : prevZxid;
    }

    /** The version of a file whose header checks (see {@link #readHeader}). */
    static int version(byte[] file) {
        return ByteBuffer.wrap(file).getInt(4);
    }

    static int overheadBytes(int version) {
        return version == 1 ? RECORD_HEADER_BYTES : RECORD_OVERHEAD_BYTES;
    }

    static void putRecord(ByteBuffer out, byte[] payload) {
        assert payload.length > 0 : "empty log record";
        out.putInt(payload.length).putInt(crc(payload, 0, payload.length)).put(payload).putInt(payload.length);
    }

    /**
     * The payload length of a well-formed record at {@code offset}, or -1 when there is none:
     * short, zero or oversized length, or a crc mismatch.
     */
    static int recordAt(byte[] file, int offset, int maxRecordBytes, int version) {
        if (!wholeRecordAt(file, offset, maxRecordBytes, version)) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.wrap(file);
        int length = b.getInt(offset);
        int expected = b.getInt(offset + 4);
        return crc(file, offset + RECORD_HEADER_BYTES, length) == expected ? length : -1;
    }

    /**
     * Whether the bytes at {@code offset} are a record written whole, whatever its crc: a plausible
     * length, all its bytes present, and (version 2) its trailer repeating the length. Version 1 has
     * no trailer, so only the length says so.
     */
    static boolean wholeRecordAt(byte[] file, int offset, int maxRecordBytes, int version) {
        int overhead = overheadBytes(version);
        if (file.length - offset < overhead) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(file);
        int length = b.getInt(offset);
        if (length <= 0 || length > maxRecordBytes || length > file.length - offset - overhead) {
            return false;
        }
        return version == 1 || b.getInt(offset + RECORD_HEADER_BYTES + length) == length;
    }

    /** The zxid a record's payload claims (TxnHeader: clientId, cxid, zxid), or -1 if too short to say. */
    static long claimedZxid(byte[] file, int offset) {
        int zxidAt = offset + RECORD_HEADER_BYTES + 8 + 4;
        return file.length - zxidAt >= 8 ? ByteBuffer.wrap(file).getLong(zxidAt) : -1;
    }

    static int crc(byte[] bytes, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
