package io.zabkit.runtime;

/** What the disk thread reports back to the loop thread. */
sealed interface DiskEvent {
    /** The log is durable (or, with forceSync=no, written) up to zxid. */
    record Persisted(long zxid) implements DiskEvent {}

    record SnapshotWritten(long zxid) implements DiskEvent {}

    /** The disk failed; the server must stop rather than acknowledge anything more. */
    record Failed(Throwable cause) implements DiskEvent {}
}
