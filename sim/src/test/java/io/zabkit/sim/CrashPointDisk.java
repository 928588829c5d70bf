package io.zabkit.sim;

import io.zabkit.storage.Disk;
import java.io.IOException;
import java.util.List;

/**
 * Wraps a {@link Disk} and stops the process (throws {@link Crash}) just before its n-th changing
 * operation (append, sync, writeAtomically, truncate, delete), so a test can crash a storage
 * operation between any two of its steps. Reads pass through. Disarmed until {@link Budget#crashBefore}.
 */
final class CrashPointDisk implements Disk {
    /** Where the process died; nothing after it reached the disk. */
    static final class Crash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crash(String message) {
            super(message, null, false, false);
        }
    }

    /** One countdown shared by the disks of one server, so a crash point counts steps across both. */
    static final class Budget {
        private long remaining = Long.MAX_VALUE;
        private int changes;

        /** Lets {@code changes} more changing operations through, then crashes. */
        void crashBefore(long changes) {
            this.remaining = changes;
            this.changes = 0;
        }

        void disarm() {
            this.remaining = Long.MAX_VALUE;
        }

        /** Changing operations carried out since the last {@link #crashBefore}. */
        int changes() {
            return changes;
        }
    }

    private final Disk disk;
    private final Budget budget;

    CrashPointDisk(Disk disk, Budget budget) {
        this.disk = disk;
        this.budget = budget;
    }

    private void change(String what) {
        if (budget.remaining == 0) {
            throw new Crash("crash before " + what + " on " + disk.describe());
        }
        budget.remaining--;
        budget.changes++;
    }

    @Override
    public List<String> list() throws IOException {
        return disk.list();
    }

    @Override
    public byte[] read(String name) throws IOException {
        return disk.read(name);
    }

    @Override
    public void append(String name, byte[] bytes) throws IOException {
        change("append " + name);
        disk.append(name, bytes);
    }

    @Override
    public void sync(String name) throws IOException {
        change("sync " + name);
        disk.sync(name);
    }

    @Override
    public void writeAtomically(String name, byte[] bytes) throws IOException {
        change("writeAtomically " + name);
        disk.writeAtomically(name, bytes);
    }

    @Override
    public void truncate(String name, long length) throws IOException {
        change("truncate " + name);
        disk.truncate(name, length);
    }

    @Override
    public void delete(String name) throws IOException {
        change("delete " + name);
        disk.delete(name);
    }

    @Override
    public String describe() {
        return disk.describe();
    }

    @Override
    public void close() throws IOException {
        disk.close();
    }
}
