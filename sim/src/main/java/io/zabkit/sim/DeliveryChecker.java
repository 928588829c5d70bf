package io.zabkit.sim;

import io.zabkit.txn.Txn;
import io.zabkit.zab.Zab;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ZabInvariantOnDeliver (spec/Zab.tla, half of CommittedLogDurability): under classic Zab every
 * transaction a server delivers is logged, on disk, by a quorum. Checked whenever a server's
 * lastProcessed moves forward during a step (not when a restart recovers it: that is replaying its own
 * disk), for the highest zxid delivered: a server that logs it durably holds the prefix before it too.
 *
 * <p>A server logs z durably when its history holds z (or z is at or below the floor its snapshot
 * covers), its lastPersisted reaches z, and the simulated disk agrees: no append at or below z waits
 * for an fsync (SimNode.unsyncedFrom). The core's lastPersisted alone is the server's belief, and a
 * server that takes an fsync in flight as done (ZOOKEEPER-4712's class) believes wrongly: the spec's
 * "on disk" is the disk's. A server that is down counts with what its last live state had on disk: a
 * crash keeps synced bytes. The fast variants
 * acknowledge from memory and keep only the spec's weaker FollowerInvariant, so they are not checked.
 */
final class DeliveryChecker {
    private record Seen(long crashes, long lastProcessed) {}

    private final List<Long> voters;
    /** The Zab state each server had at the end of its last step up (frozen once it crashed). */
    private final Map<Integer, Zab> lastZab = new HashMap<>();
    /** Each server's SimNode.unsyncedFrom at the end of its last step up (frozen once it crashed). */
    private final Map<Integer, Long> lastUnsyncedFrom = new HashMap<>();
    private final Map<Integer, Seen> seen = new HashMap<>();
    private long checks;

    DeliveryChecker(List<Long> voters) {
        assert !voters.isEmpty() : "an ensemble has voters";
        this.voters = List.copyOf(voters);
    }

    long checks() {
        return checks;
    }

    /** After every step, with every node (up or down). */
    void afterStep(List<SimNode> nodes) {
        for (SimNode n : nodes) {
            if (n.isUp()) {
                lastZab.put(n.address(), n.core().zab());
                lastUnsyncedFrom.put(n.address(), n.unsyncedFrom());
            }
        }
        for (SimNode n : nodes) {
            if (!n.isUp()) {
                continue;
            }
            long processed = n.core().lastProcessedZxid();
            Seen before = seen.put(n.address(), new Seen(n.crashes(), processed));
            if (before == null || before.crashes != n.crashes() || processed <= before.lastProcessed) {
                continue; // first sight or recovered from its own disk; or nothing newly delivered
            }
            check(n.address(), processed);
        }
    }

    private void check(int server, long zxid) {
        checks++;
        List<Integer> loggedBy = new ArrayList<>();
        for (Map.Entry<Integer, Zab> e : lastZab.entrySet()) {
            if (!voters.contains((long) e.getKey())) {
                continue; // an observer's log is in no quorum: durability counts only voters
            }
            if (logsDurably(e.getValue(), lastUnsyncedFrom.get(e.getKey()), zxid)) {
                loggedBy.add(e.getKey());
            }
        }
        if (loggedBy.size() * 2 <= voters.size()) {
            throw new Violation("ZabInvariantOnDeliver", "server " + server + " delivered " + Txn.zxidString(zxid)
                    + " while only servers " + loggedBy + " of " + voters.size() + " have it on disk");
        }
    }

    private static boolean logsDurably(Zab zab, long unsyncedFrom, long zxid) {
        if (zab.lastPersisted() < zxid) {
            return false;
        }
        if (zxid <= zab.historyFloor()) {
            return true; // in the applied state its snapshot covers
        }
        if (zxid >= unsyncedFrom) {
            return false; // the core takes it as durable, the disk does not hold it yet
        }
        List<Txn> from = zab.historyAfter(zxid - 1);
        return !from.isEmpty() && from.get(0).zxid() == zxid;
    }
}
