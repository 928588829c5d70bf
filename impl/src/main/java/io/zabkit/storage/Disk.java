package io.zabkit.storage;

import java.io.IOException;
import java.util.List;

/**
 * One directory of files, as storage sees it. {@link FileDisk} is the real one; the simulator's disk
 * loses unsynced appends on a crash, so the contract below is exactly what recovery may rely on.
 *
 * <ul>
 *   <li>{@link #append} is buffered: after a crash a file keeps a prefix of its unsynced appends,
 *       possibly followed by zeros or garbage up to the length the lost appends would have had.</li>
 *   <li>{@link #sync} makes a file's content and its name (directory entry) durable.</li>
 *   <li>{@link #writeAtomically}, {@link #truncate} and {@link #delete} are durable when they return;
 *       a crash during {@code writeAtomically} leaves the old file (or none), never a partial one.</li>
 * </ul>
 */
public interface Disk extends AutoCloseable {

    /** Names of the files in the directory, in no particular order. */
    List<String> list() throws IOException;

    byte[] read(String name) throws IOException;

    /** Appends to the end of the file, creating it when missing. */
    void append(String name, byte[] bytes) throws IOException;

    void sync(String name) throws IOException;

    void writeAtomically(String name, byte[] bytes) throws IOException;

    void truncate(String name, long length) throws IOException;

    void delete(String name) throws IOException;

    /** Where the files are, for messages. */
    String describe();

    @Override
    void close() throws IOException;
}
