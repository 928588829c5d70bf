package io.zabkit.storage;

import java.nio.ByteBuffer;

/**
 * Byte layout of a snapshot file, written atomically in one piece:
 * <pre>
 *   magic "ZBSN" | version 1 | zxid (8) | data length (4) | crc32 of everything before it and the data | data
 * </pre>
 */
final class SnapshotFormat {
    static final int MAGIC = 0x5a42534e; // "ZBSN"
    static final int VERSION = 1;
    static final int HEADER_BYTES = 24;

    private SnapshotFormat() {}

    static byte[] encode(Snapshot snapshot) {
        byte[] data = snapshot.data();
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES + data.length);
        b.putInt(MAGIC).putInt(VERSION).putLong(snapshot.zxid()).putInt(data.length);
        b.putInt(0).put(data);
        b.putInt(20, checksum(b.array(), data.length));
        return b.array();
    }

    /** The snapshot in {@code file}, which is named for {@code zxid}; throws saying what is wrong. */
    static Snapshot decode(byte[] file, long zxid) throws CorruptStorageException {
        if (file.length < HEADER_BYTES) {
            throw new CorruptStorageException("shorter than its header (" + file.length + " bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(file);
        if (b.getInt(0) != MAGIC || b.getInt(4) != VERSION) {
            throw new CorruptStorageException("not a zabkit v1 snapshot (bad magic or version)");
        }
        int length = b.getInt(16);
        if (length <= 0 || length != file.length - HEADER_BYTES) {
            throw new CorruptStorageException("data length " + length + " but file holds "
                    + (file.length - HEADER_BYTES) + " bytes");
        }
        if (b.getInt(20) != checksum(file, length)) {
            throw new CorruptStorageException("crc mismatch");
        }
        if (b.getLong(8) != zxid) {
            throw new CorruptStorageException("holds zxid 0x" + Long.toHexString(b.getLong(8))
                    + ", not the zxid of its name");
        }
        byte[] data = new byte[length];
        b.get(HEADER_BYTES, data);
        return new Snapshot(zxid, data);
    }

    private static int checksum(byte[] file, int dataLength) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(file, 0, 20);
        crc.update(file, HEADER_BYTES, dataLength);
        return (int) crc.getValue();
    }
}
