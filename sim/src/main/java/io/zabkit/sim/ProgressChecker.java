package io.zabkit.sim;

import io.zabkit.txn.Txn;
import java.util.HashMap;
import java.util.Map;

/**
 * LastProcessedMonotonic: a server's lastProcessed (what it delivered) never goes below what it had
 * delivered while serving clients, except through NodeCrash (a restart recovers from disk). A SNAP
 * installed behind the applied state, or a TRUNC below it, would take back transactions that clients
 * may have read. A follower that abandons a synchronization may put back the state its disk holds
 * (Zab.tla drops what such a server had not made durable; ZOOKEEPER-3642's fix): no client read the
 * state it drops, and it never goes below what the server served.
 */
final class ProgressChecker {
    /** {@code served}: the highest lastProcessed seen while the server served clients, since its last start. */
    private record Seen(long crashes, long lastProcessed, long served) {}

    private final Map<Integer, Seen> seen = new HashMap<>();
    private long checks;

    long checks() {
        return checks;
    }

    /**
     * After a step, for a server that is up: {@code crashes} counts its NodeCrashes so far; {@code serving}
     * says whether it serves clients now.
     */
    void afterStep(int server, long crashes, long lastProcessed, boolean serving) {
        assert lastProcessed >= 0 && crashes >= 0 : "lastProcessed " + lastProcessed + ", crashes " + crashes;
        Seen before = seen.get(server);
        boolean restarted = before == null || before.crashes != crashes; // it recovered whatever its disk held
        long served = restarted ? -1 : before.served;
        if (serving) {
            served = Math.max(served, lastProcessed);
        }
        seen.put(server, new Seen(crashes, lastProcessed, served));
        if (restarted) {
            return;
        }
        checks++;
        if (lastProcessed < served) {
            throw new Violation("LastProcessedMonotonic", "server " + server + " went back from lastProcessed "
                    + Txn.zxidString(before.lastProcessed) + " to " + Txn.zxidString(lastProcessed)
                    + ", below " + Txn.zxidString(served) + " which it had served, without a NodeCrash");
        }
    }
}
