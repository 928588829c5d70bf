package io.zabkit.storage;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * Byte layout of a log file. A header, then records back to back:
 * <pre>
 *   header: magic "ZBLG" | version 1 | prevZxid (8) | crc32 of the 16 bytes before it
 *   record: length (4, &gt; 0) | crc32 of the payload (4) | payload = Txn.encode()
 * </pre>
 * prevZxid is the last zxid logged before this file was started, so recovery can prove that no
 * transaction fell between two files or between a snapshot and the first log it replays.
 * Big-endian, like the rest of ZooKeeper. A zero length is never written, so zero-filled tails
 * never parse as records (the crc32 of no bytes is zero).
 */
final class LogFormat {
    static final int MAGIC = 0x5a424c47; // "ZBLG"
    static final int VERSION = 1;
    static final int HEADER_BYTES = 20;
    static final int RECORD_OVERHEAD_BYTES = 8;

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
        if (b.getInt(0) != MAGIC || b.getInt(4) != VERSION || b.getInt(16) != crc(file, 0, 16)) {
            return -1;
        }
        long prevZxid = b.getLong(8);
        return prevZxid < 0 ? -1 : prevZxid;
    }

    static void putRecord(ByteBuffer out, byte[] payload) {
        assert payload.length > 0 : "empty log record";
        out.putInt(payload.length).putInt(crc(payload, 0, payload.length)).put(payload);
    }

    /**
     * The payload length of a well-formed record at {@code offset}, or -1 when there is none:
     * short, zero or oversized length, or a crc mismatch.
     */
    static int recordAt(byte[] file, int offset, int maxRecordBytes) {
        if (file.length - offset < RECORD_OVERHEAD_BYTES) {
            return -1;
        }
        ByteBuffer b = ByteBuffer.wrap(file);
        int length = b.getInt(offset);
        if (length <= 0 || length > maxRecordBytes || length > file.length - offset - RECORD_OVERHEAD_BYTES) {
            return -1;
        }
        int expected = b.getInt(offset + 4);
        return crc(file, offset + RECORD_OVERHEAD_BYTES, length) == expected ? length : -1;
    }

    static int crc(byte[] bytes, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
