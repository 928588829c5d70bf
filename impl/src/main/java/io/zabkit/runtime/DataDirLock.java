package io.zabkit.runtime;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a data directory, so two servers never append to one log. The kernel drops it
 * when the process dies, kill -9 included, so a restart never finds a stale lock.
 */
final class DataDirLock implements AutoCloseable {
    static final String FILE = "zabkit.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DataDirLock acquire(Path dir) throws IOException {
        FileChannel channel = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this very JVM (an embedded server, a test)
        }
        if (lock == null) {
            channel.close();
            throw new IOException("another zabkit server is using " + dir + " (" + dir.resolve(FILE) + " is locked)");
        }
        return new DataDirLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
