package io.zabkit.storage;

/**
 * Log and snapshot files are named by a zxid in hex, as ZooKeeper names them ({@code log.100000001}),
 * so a listing sorts into history order once parsed.
 */
final class FileNames {
    static final String LOG_PREFIX = "log.";
    static final String SNAPSHOT_PREFIX = "snapshot.";
    /** The durable intent of a truncate under way, named for the zxid it keeps up to. */
    static final String TRUNCATE_PREFIX = "truncate.";
    /** A synchronization's log tail not yet vouched for by currentEpoch, named for the zxid it follows. */
    static final String SYNC_TAIL_PREFIX = "synctail.";

    private FileNames() {}

    static String log(long firstZxid) {
        return LOG_PREFIX + Long.toHexString(firstZxid);
    }

    static String snapshot(long zxid) {
        return SNAPSHOT_PREFIX + Long.toHexString(zxid);
    }

    static String truncateMarker(long zxid) {
        return TRUNCATE_PREFIX + Long.toHexString(zxid);
    }

    static String syncTailMarker(long afterZxid) {
        return SYNC_TAIL_PREFIX + Long.toHexString(afterZxid);
    }

    /** The zxid in a name with this prefix, or -1 when the name is not one of ours. */
    static long zxidOf(String name, String prefix) {
        if (!name.startsWith(prefix) || name.length() == prefix.length() || name.length() > prefix.length() + 16) {
            return -1;
        }
        String hex = name.substring(prefix.length());
        for (int i = 0; i < hex.length(); i++) {
            if (Character.digit(hex.charAt(i), 16) < 0) {
                return -1;
            }
        }
        long zxid = Long.parseUnsignedLong(hex, 16);
        return zxid < 0 ? -1 : zxid;
    }
}
