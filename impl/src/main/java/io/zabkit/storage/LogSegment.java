package io.zabkit.storage;

import io.zabkit.txn.Txn;
import java.util.List;

/**
 * One log file as read back: its header, its well-formed records, and where its valid bytes end.
 *
 * @param name        the file name ({@code log.<first zxid in hex>})
 * @param firstZxid   the zxid in the name; the first record's zxid when there are records
 * @param prevZxid    the last zxid logged before the file was started; -1 when the header was torn
 * @param txns        the records, zxids strictly increasing, all &gt; prevZxid
 * @param recordEnds  for each record, the offset just past it: where a cut after that record goes
 * @param validBytes  length of the header plus the records; less than the file when its tail is torn
 * @param tornReason  why the bytes after validBytes were dropped, or null when there were none
 */
record LogSegment(String name, long firstZxid, long prevZxid, List<Txn> txns, List<Integer> recordEnds,
                  int validBytes, String tornReason) {
    LogSegment {
        txns = List.copyOf(txns);
        recordEnds = List.copyOf(recordEnds);
        assert recordEnds.size() == txns.size() : name + ": " + txns.size() + " records, " + recordEnds.size() + " ends";
        assert recordEnds.isEmpty() || recordEnds.get(recordEnds.size() - 1) == validBytes : name + ": last end";
        assert txns.isEmpty() || txns.get(0).zxid() == firstZxid : name + " starts with " + txns.get(0);
        assert prevZxid >= 0 || txns.isEmpty() : name + " has records but no header";
    }

    boolean isTorn() {
        return tornReason != null;
    }

    /** How many leading records have a zxid of at most {@code zxid}. */
    int countThrough(long zxid) {
        int n = 0;
        while (n < txns.size() && txns.get(n).zxid() <= zxid) {
            n++;
        }
        return n;
    }

    long lastZxid() {
        return txns.isEmpty() ? prevZxid : txns.get(txns.size() - 1).zxid();
    }
}
