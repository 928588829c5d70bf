package io.zabkit.storage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Zab's two durable epochs, one file each as in ZooKeeper's dataDir ({@code acceptedEpoch},
 * {@code currentEpoch}): the number in decimal and a newline, so an operator can read them. Each file
 * is replaced atomically, so a crash leaves the old number or the new one, never a mix.
 */
final class EpochFiles {
    static final String ACCEPTED = "acceptedEpoch";
    static final String CURRENT = "currentEpoch";
    /** An epoch is the high 32 bits of a zxid. */
    static final long MAX_EPOCH = 0xffffffffL;
    /** Absent from {@link #read}: the file does not exist. */
    static final long MISSING = -1;

    private static final int MAX_DIGITS = 10; // "4294967295"

    private EpochFiles() {}

    static byte[] encode(long epoch) {
        assert epoch >= 0 && epoch <= MAX_EPOCH : "epoch out of range: " + epoch;
        return (epoch + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** The epoch stored in {@code name}, or {@link #MISSING}; throws saying what is wrong and what to do. */
    static long read(Disk disk, String name) throws IOException {
        if (!disk.list().contains(name)) {
            return MISSING;
        }
        byte[] bytes = disk.read(name);
        long epoch = parse(bytes);
        if (epoch < 0) {
            throw new CorruptStorageException(disk.describe() + "/" + name + " holds " + printable(bytes)
                    + ", not an epoch (decimal digits 0.." + MAX_EPOCH + " and a newline). zabkit replaces it"
                    + " atomically, so something else damaged it. Restore it from a backup; failing that, stop"
                    + " this server, move its log and snapshot directories away and restart it empty, so that"
                    + " it rejoins and syncs from the leader (safe only while a quorum of the other servers"
                    + " keeps its data)");
        }
        assert parse(encode(epoch)) == epoch : "epoch does not survive its own encoding: " + epoch;
        return epoch;
    }

    /** The epoch in the bytes, or -1 when they are not exactly what {@link #encode} writes. */
    private static long parse(byte[] bytes) {
        int digits = bytes.length - 1;
        if (digits < 1 || digits > MAX_DIGITS || bytes[digits] != '\n' || (bytes[0] == '0' && digits > 1)) {
            return -1;
        }
        long epoch = 0;
        for (int i = 0; i < digits; i++) {
            if (bytes[i] < '0' || bytes[i] > '9') {
                return -1;
            }
            epoch = epoch * 10 + (bytes[i] - '0');
        }
        return epoch <= MAX_EPOCH ? epoch : -1;
    }

    /** The file's bytes for a message: text when it is short printable ASCII, else its length. */
    private static String printable(byte[] bytes) {
        if (bytes.length > 32) {
            return bytes.length + " bytes";
        }
        StringBuilder s = new StringBuilder("\"");
        for (byte b : bytes) {
            if (b == '\n') {
                s.append("\\n");
            } else if (b >= 0x20 && b < 0x7f) {
                s.append((char) b);
            } else {
                s.append(String.format("\\x%02x", b & 0xff));
            }
        }
        return s.append("\" (").append(bytes.length).append(" bytes)").toString();
    }
}
