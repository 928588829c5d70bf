package io.zabkit.storage;

import java.util.function.Supplier;

/**
 * A serialized data tree and session table as of {@code zxid}: the core makes it, storage writes
 * it atomically, and recovery hands it back. The bytes are opaque to storage.
 *
 * <p>A {@link #deferred} snapshot holds a copy of the state and makes its bytes on the first
 * {@link #data()}: the core copies the tree on its own thread (no sort, no bytes) and the server's
 * disk thread encodes it. Encoding a 100,000-node tree on the event loop stalled every server of an
 * ensemble at the same zxid for up to 2 s under load, long enough to count as syncLimit's silence.
 */
public final class Snapshot {
    private final long zxid;
    /** Null once the bytes are made. */
    private Supplier<byte[]> encoder;
    private byte[] data;

    public Snapshot(long zxid, byte[] data) {
        assert zxid >= 0 : "snapshot zxid must not be negative";
        assert data != null && data.length > 0 : "snapshot has no data";
        this.zxid = zxid;
        this.data = data;
    }

    private Snapshot(long zxid, Supplier<byte[]> encoder) {
        assert zxid >= 0 : "snapshot zxid must not be negative";
        this.zxid = zxid;
        this.encoder = encoder;
    }

    /** A snapshot whose bytes the encoder makes on the first {@link #data()}, on whichever thread asks. */
    public static Snapshot deferred(long zxid, Supplier<byte[]> encoder) {
        return new Snapshot(zxid, java.util.Objects.requireNonNull(encoder));
    }

    public long zxid() {
        return zxid;
    }

    /** Whether the bytes are made yet (a deferred snapshot's are made on the first {@link #data()}). */
    public synchronized boolean encoded() {
        return data != null;
    }

    public synchronized byte[] data() {
        if (data == null) {
            data = encoder.get();
            encoder = null; // the copy of the state it holds can go
            assert data != null && data.length > 0 : "snapshot has no data";
        }
        return data;
    }

    @Override
    public String toString() {
        return "Snapshot[zxid=0x" + Long.toHexString(zxid) + (encoded() ? ", " + data().length + " bytes]"
                : ", not yet encoded]");
    }
}
