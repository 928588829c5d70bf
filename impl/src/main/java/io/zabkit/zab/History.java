package io.zabkit.zab;

import io.zabkit.txn.Txn;
import java.util.ArrayList;
import java.util.List;

/**
 * The in-memory part of a server's history (spec: {@code history[i]}): every transaction after
 * {@code floor}, in zxid order. The prefix up to {@code floor} lives only in the applied data tree
 * (and its snapshot). The leader syncs followers from here with DIFF; a follower whose last zxid is
 * below the floor gets a SNAP. Applied transactions are kept up to a bound so that a lagging
 * follower can still be synced with a DIFF.
 */
final class History {
    private final List<Txn> txns = new ArrayList<>();
    private long floor;

    History(long floor) {
        this.floor = floor;
    }

    long floor() {
        return floor;
    }

    long lastZxid() {
        return txns.isEmpty() ? floor : txns.get(txns.size() - 1).zxid();
    }

    int size() {
        return txns.size();
    }

    void append(Txn txn) {
        if (txn.zxid() <= lastZxid()) {
            throw new IllegalStateException("history must grow in zxid order: " + Txn.zxidString(txn.zxid())
                    + " after " + Txn.zxidString(lastZxid()));
        }
        txns.add(txn);
    }

    /** True when zxid is the floor or a transaction held here: the follower's history then agrees up to it. */
    boolean contains(long zxid) {
        return zxid == floor || indexOf(zxid) >= 0;
    }

    /** The transactions after zxid, which must be {@link #contains contained}. */
    List<Txn> after(long zxid) {
        if (zxid == floor) {
            return List.copyOf(txns);
        }
        int i = indexOf(zxid);
        if (i < 0) {
            throw new IllegalArgumentException(Txn.zxidString(zxid) + " is not in the history");
        }
        return List.copyOf(txns.subList(i + 1, txns.size()));
    }

    /** The transactions in (from, to], in order. */
    List<Txn> range(long from, long to) {
        List<Txn> out = new ArrayList<>();
        for (Txn t : txns) {
            if (t.zxid() > from && t.zxid() <= to) {
                out.add(t);
            }
        }
        return out;
    }

    /** Drops every transaction after zxid (TRUNC); zxid must not be below the floor. */
    void truncateAfter(long zxid) {
        if (zxid < floor) {
            throw new IllegalStateException("TRUNC to " + Txn.zxidString(zxid) + " would cut the applied state at "
                    + Txn.zxidString(floor));
        }
        while (!txns.isEmpty() && txns.get(txns.size() - 1).zxid() > zxid) {
            txns.remove(txns.size() - 1);
        }
    }

    /** The transactions held, after the floor. */
    List<Txn> txns() {
        return List.copyOf(txns);
    }

    /** Back to a state taken with {@link #floor} and {@link #txns} (a synchronization abandoned). */
    void restore(long floor, List<Txn> txns) {
        this.txns.clear();
        this.floor = floor;
        for (Txn t : txns) {
            append(t);
        }
        assert lastZxid() >= floor : "restored below its floor";
    }

    /** Replaces everything by a snapshot at zxid (SNAP). */
    void resetTo(long zxid) {
        txns.clear();
        floor = zxid;
    }

    /** Forgets applied transactions beyond the newest {@code keep} ones at or below {@code applied}. */
    void trim(long applied, int keep) {
        int appliedCount = 0;
        while (appliedCount < txns.size() && txns.get(appliedCount).zxid() <= applied) {
            appliedCount++;
        }
        int drop = appliedCount - keep;
        if (drop > 0) {
            floor = txns.get(drop - 1).zxid();
            txns.subList(0, drop).clear();
        }
    }

    private int indexOf(long zxid) {
        int lo = 0;
        int hi = txns.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long z = txns.get(mid).zxid();
            if (z == zxid) {
                return mid;
            }
            if (z < zxid) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return -1;
    }
}
