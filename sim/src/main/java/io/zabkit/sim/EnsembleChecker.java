package io.zabkit.sim;

import io.zabkit.core.ServerCore;
import io.zabkit.txn.Txn;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Zab;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Zab's invariants across the ensemble, on the real server state after every simulated step, named as
 * in spec/Zab.tla:
 * <ul>
 *   <li>Leadership: at most one server establishes itself as leader of an epoch;</li>
 *   <li>PrefixConsistency: a zxid names one transaction, in every server's history, forever (so any
 *       two histories agree on what they hold in common);</li>
 *   <li>CommittedLogDurability: a leader that begins to serve has applied every write a client saw
 *       acknowledged, and every closed session is gone from it.</li>
 * </ul>
 * Agreement and TotalOrder of delivery, and equal trees at equal zxids, are {@link TreeDigestChecker}'s.
 */
final class EnsembleChecker {
    private final DurabilityChecker durability;
    private final EphemeralChecker ephemerals;
    /** epoch -> the server that led it. */
    private final Map<Long, Integer> leaders = new HashMap<>();
    /** zxid -> encoded transaction, for every transaction any history held. */
    private final Map<Long, byte[]> txnAt = new HashMap<>();
    /** Which servers served as leader at the last step, by address, with their epoch. */
    private final Map<Integer, Long> servingLeaders = new HashMap<>();
    private long leadersChecked;

    EnsembleChecker(DurabilityChecker durability, EphemeralChecker ephemerals) {
        this.durability = durability;
        this.ephemerals = ephemerals;
    }

    long leadersChecked() {
        return leadersChecked;
    }

    void afterStep(List<SimNode> nodes) {
        for (SimNode n : nodes) {
            if (!n.isUp()) {
                servingLeaders.remove(n.address());
                continue;
            }
            ServerCore core = n.core();
            Zab zab = core.zab();
            checkLeadership(n.address(), zab);
            checkHistory(n.address(), zab);
            boolean serving = zab.isServingLeader();
            Long before = servingLeaders.get(n.address());
            if (serving && (before == null || before != zab.currentEpoch())) {
                leadersChecked++;
                String when = "when server " + n.address() + " began to lead epoch " + zab.currentEpoch();
                durability.check(core, when);
                ephemerals.afterRestart(core);
                servingLeaders.put(n.address(), zab.currentEpoch());
            } else if (!serving) {
                servingLeaders.remove(n.address());
            }
        }
    }

    private void checkLeadership(int address, Zab zab) {
        if (zab.state() != ServerState.LEADING || zab.zabState() == Zab.ZabState.DISCOVERY
                || zab.zabState() == Zab.ZabState.ELECTION || zab.currentEpoch() != zab.acceptedEpoch()) {
            return; // not (yet) the leader of its new epoch: it has not taken it as currentEpoch
        }
        Integer other = leaders.putIfAbsent(zab.currentEpoch(), address);
        if (other != null && other != address) {
            throw new Violation("Leadership", "servers " + other + " and " + address + " both established epoch "
                    + zab.currentEpoch());
        }
    }

    /** Per server, how far its history was checked (reset when it shrinks: TRUNC, SNAP, restart). */
    private final Map<Integer, Long> checkedUpTo = new HashMap<>();

    private void checkHistory(int address, Zab zab) {
        long from = Math.min(checkedUpTo.getOrDefault(address, 0L), zab.lastLoggedZxid());
        from = Math.max(from, zab.historyFloor());
        checkedUpTo.put(address, zab.lastLoggedZxid());
        for (Txn t : zab.historyAfter(from)) {
            byte[] bytes = t.encode();
            byte[] known = txnAt.putIfAbsent(t.zxid(), bytes);
            if (known != null && !Arrays.equals(known, bytes)) {
                throw new Violation("PrefixConsistency", "server " + address + " holds " + t + " at "
                        + Txn.zxidString(t.zxid()) + " but another history held a different transaction there");
            }
        }
    }
}
