package io.zabkit.storage;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** In-memory {@link Disk} for tests: counts syncs, and {@link #crash()} keeps only synced bytes. */
final class MemDisk implements Disk {
    private final Map<String, ByteArrayOutputStream> files = new HashMap<>();
    private final Map<String, Integer> syncedBytes = new HashMap<>();
    int syncs;
    int atomicWrites;

    @Override
    public List<String> list() {
        return new ArrayList<>(files.keySet());
    }

    @Override
    public byte[] read(String name) {
        ByteArrayOutputStream f = files.get(name);
        if (f == null) {
            throw new IllegalArgumentException("no file " + name);
        }
        return f.toByteArray();
    }

    @Override
    public void append(String name, byte[] bytes) {
        files.computeIfAbsent(name, n -> new ByteArrayOutputStream()).writeBytes(bytes);
    }

    @Override
    public void sync(String name) {
        syncs++;
        syncedBytes.put(name, files.get(name).size());
    }

    @Override
    public void writeAtomically(String name, byte[] bytes) {
        atomicWrites++;
        put(name, bytes);
    }

    @Override
    public void truncate(String name, long length) {
        put(name, Arrays.copyOf(read(name), (int) length));
    }

    @Override
    public void delete(String name) {
        files.remove(name);
        syncedBytes.remove(name);
    }

    @Override
    public String describe() {
        return "mem:";
    }

    @Override
    public void close() {}

    /** Replaces a file's bytes as a test's way of tearing or corrupting it; counts as durable. */
    void put(String name, byte[] bytes) {
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        f.writeBytes(bytes);
        files.put(name, f);
        syncedBytes.put(name, bytes.length);
    }

    /** The disk after power loss: unsynced appends are gone, never-synced files too. */
    MemDisk crash() {
        MemDisk after = new MemDisk();
        for (Map.Entry<String, Integer> e : syncedBytes.entrySet()) {
            after.put(e.getKey(), Arrays.copyOf(read(e.getKey()), e.getValue()));
        }
        return after;
    }
}
