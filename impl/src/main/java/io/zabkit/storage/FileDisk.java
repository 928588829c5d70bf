package io.zabkit.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@link Disk} over a real directory. Appended files stay open so group commit costs one write and one
 * fsync per batch. A file created since the last directory fsync gets one with its next sync: without
 * it, power loss can drop the name of a fully synced file. Not thread-safe: one owner thread.
 */
public final class FileDisk implements Disk {
    private static final String TEMP_SUFFIX = ".tmp";

    private final Path dir;
    private final Map<String, FileChannel> open = new HashMap<>();
    private final Set<String> createdSinceDirSync = new HashSet<>();

    public FileDisk(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
        // A crash during writeAtomically leaves its temp file; the real file is intact or absent.
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().endsWith(TEMP_SUFFIX)) {
                    Files.delete(p);
                }
            }
        }
    }

    @Override
    public List<String> list() throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(Files::isRegularFile).forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }

    @Override
    public byte[] read(String name) throws IOException {
        return Files.readAllBytes(path(name));
    }

    @Override
    public void append(String name, byte[] bytes) throws IOException {
        FileChannel channel = open.get(name);
        if (channel == null) {
            Path p = path(name);
            if (!Files.exists(p)) {
                createdSinceDirSync.add(name);
            }
            channel = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            open.put(name, channel);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    @Override
    public void sync(String name) throws IOException {
        FileChannel channel = open.get(name);
        if (channel != null) {
            channel.force(false);
        } else {
            try (FileChannel c = FileChannel.open(path(name), StandardOpenOption.WRITE)) {
                c.force(false);
            }
        }
        if (createdSinceDirSync.remove(name)) {
            syncDirectory();
        }
    }

    @Override
    public void writeAtomically(String name, byte[] bytes) throws IOException {
        assert !open.containsKey(name) : "writeAtomically over a file open for append: " + name;
        Path temp = path(name + TEMP_SUFFIX);
        try (FileChannel c = FileChannel.open(temp, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                c.write(buffer);
            }
            c.force(true);
        }
        Files.move(temp, path(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory();
    }

    @Override
    public void truncate(String name, long length) throws IOException {
        closeChannel(name);
        try (FileChannel c = FileChannel.open(path(name), StandardOpenOption.WRITE)) {
            assert length <= c.size() : "truncate would grow " + name;
            c.truncate(length);
            c.force(true);
        }
    }

    @Override
    public void delete(String name) throws IOException {
        closeChannel(name);
        createdSinceDirSync.remove(name);
        Files.deleteIfExists(path(name));
        syncDirectory();
    }

    @Override
    public String describe() {
        return dir.toString();
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (FileChannel c : open.values()) {
            try {
                c.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }

    private Path path(String name) {
        assert !name.isEmpty() && name.indexOf('/') < 0 && !name.startsWith(".") : "bad file name: " + name;
        return dir.resolve(name);
    }

    private void closeChannel(String name) throws IOException {
        FileChannel c = open.remove(name);
        if (c != null) {
            c.close();
        }
    }

    /** Makes creations, renames and deletions in the directory durable (Linux allows fsync on a directory). */
    private void syncDirectory() throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }
}
