package io.zabkit.sim;

import io.zabkit.txn.Txn;
import java.util.HashMap;
import java.util.Map;

/**
 * LastProcessedMonotonic: a server's lastProcessed (what it delivered) never decreases, except through
 * NodeCrash (a restart recovers from disk). A SNAP installed behind the applied state, or a TRUNC
 * below it, would take back delivered transactions that clients may have read.
 */
final class ProgressChecker {
    private record Seen(long crashes, long lastProcessed) {}

    private final Map<Integer, Seen> seen = new HashMap<>();
    private long checks;

    long checks() {
        return checks;
    }

    /** After a step, for a server that is up: {@code crashes} counts its NodeCrashes so far. */
    void afterStep(int server, long crashes, long lastProcessed) {
        Seen before = seen.put(server, new Seen(crashes, lastProcessed));
        if (before == null || before.crashes != crashes) {
            return; // first sight, or restarted since: it recovered whatever its disk held
        }
        checks++;
        if (lastProcessed < before.lastProcessed) {
            throw new Violation("LastProcessedMonotonic", "server " + server + " went back from lastProcessed "
                    + Txn.zxidString(before.lastProcessed) + " to " + Txn.zxidString(lastProcessed)
                    + " without a NodeCrash");
        }
    }
}
