package io.zabkit.sim;

import io.zabkit.storage.Disk;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An in-memory directory with exactly the crash semantics {@link Disk} promises and no more:
 * appends sit in a page cache until {@link #sync}; {@link #crash} keeps a random prefix of each
 * file's unsynced appends, optionally followed by zeros or garbage up to the lost length (a torn
 * write); a file whose name was never made durable may vanish. writeAtomically, truncate and delete
 * are durable when they return.
 *
 * <p>{@link Mode#LYING_SYNC} is a deliberately broken disk that acknowledges syncs and loses the data
 * anyway: the durability checkers must catch it.
 */
final class SimDisk implements Disk {
    enum Mode { HONEST, LYING_SYNC }

    /** One file: its bytes as the OS shows them, and how much of them survives a crash. */
    private static final class SimFile {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        /** Invariant: 0 <= syncedBytes <= bytes.size(). */
        int syncedBytes;
        /** The directory entry survives a crash (synced, or created durably). */
        boolean nameDurable;
    }

    private final String name;
    private final Mode mode;
    /** Sorted so that crash draws happen in the same order on every run. */
    private final Map<String, SimFile> files = new TreeMap<>();
    private long syncCount;

    SimDisk(String name, Mode mode) {
        this.name = name;
        this.mode = mode;
    }

    @Override
    public List<String> list() {
        return new ArrayList<>(files.keySet());
    }

    @Override
    public byte[] read(String file) throws FileNotFoundException {
        return existing(file).bytes.toByteArray();
    }

    @Override
    public void append(String file, byte[] bytes) {
        files.computeIfAbsent(file, n -> new SimFile()).bytes.writeBytes(bytes);
    }

    @Override
    public void sync(String file) throws FileNotFoundException {
        SimFile f = existing(file);
        syncCount++;
        if (mode == Mode.LYING_SYNC) {
            return; // acknowledged, not durable: the defect the checkers must find
        }
        f.syncedBytes = f.bytes.size();
        f.nameDurable = true;
    }

    @Override
    public void writeAtomically(String file, byte[] bytes) {
        SimFile f = new SimFile();
        f.bytes.writeBytes(bytes);
        f.syncedBytes = bytes.length;
        f.nameDurable = true;
        files.put(file, f);
    }

    @Override
    public void truncate(String file, long length) throws FileNotFoundException {
        SimFile old = existing(file);
        if (length < 0 || length > old.bytes.size()) {
            throw new IllegalArgumentException("truncate " + file + " to " + length + " of " + old.bytes.size() + " bytes");
        }
        writeAtomically(file, Arrays.copyOf(old.bytes.toByteArray(), (int) length));
    }

    @Override
    public void delete(String file) {
        files.remove(file);
    }

    @Override
    public String describe() {
        return "sim:" + name;
    }

    @Override
    public void close() {}

    long syncCount() {
        return syncCount;
    }

    /** Total bytes that a crash right now could lose: what the page cache holds beyond the synced prefix. */
    long unsyncedBytes() {
        long n = 0;
        for (SimFile f : files.values()) {
            n += f.bytes.size() - f.syncedBytes;
        }
        return n;
    }

    /**
     * Power loss (NodeCrash): every file keeps its synced prefix plus a random prefix of the rest, and
     * with {@code tornWriteProbability} the lost part is partly overwritten by zeros or garbage.
     * Returns a one-line summary for the trace.
     */
    String crash(Prng prng, double tornWriteProbability) {
        StringBuilder summary = new StringBuilder();
        for (String file : new ArrayList<>(files.keySet())) {
            SimFile f = files.get(file);
            byte[] all = f.bytes.toByteArray();
            int lost = all.length - f.syncedBytes;
            if (!f.nameDurable && prng.chance(0.5)) {
                files.remove(file);
                summary.append(' ').append(file).append(":vanished");
                continue;
            }
            int kept = f.syncedBytes + prng.between(0, lost);
            byte[] after = Arrays.copyOf(all, kept);
            String how = "";
            if (kept < all.length && prng.chance(tornWriteProbability)) {
                int tail = prng.between(1, all.length - kept);
                byte[] torn = new byte[tail];
                boolean garbage = prng.chance(0.5);
                if (garbage) {
                    prng.fill(torn);
                }
                after = concat(after, torn);
                how = garbage ? "+garbage" + tail : "+zeros" + tail;
            }
            SimFile survivor = new SimFile();
            survivor.bytes.writeBytes(after);
            survivor.syncedBytes = after.length;
            survivor.nameDurable = true;
            files.put(file, survivor);
            assert survivor.syncedBytes >= f.syncedBytes || mode == Mode.LYING_SYNC : "crash lost synced bytes of " + file;
            if (lost > 0) {
                summary.append(' ').append(file).append(":kept").append(kept - f.syncedBytes).append('/')
                        .append(lost).append(how);
            }
        }
        return summary.length() == 0 ? " nothing unsynced" : summary.toString();
    }

    private SimFile existing(String file) throws FileNotFoundException {
        SimFile f = files.get(file);
        if (f == null) {
            throw new FileNotFoundException(describe() + "/" + file + " does not exist");
        }
        return f;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
