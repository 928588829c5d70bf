package io.zabkit.storage;

/**
 * A serialized data tree and session table as of {@code zxid}: the core makes it, storage writes
 * it atomically, and recovery hands it back. The bytes are opaque to storage.
 */
public record Snapshot(long zxid, byte[] data) {
    public Snapshot {
        assert zxid >= 0 : "snapshot zxid must not be negative";
        assert data != null && data.length > 0 : "snapshot has no data";
    }
}
