package io.zabkit.sim;

import io.zabkit.core.ServerCore;
import io.zabkit.pipeline.Applier;
import io.zabkit.session.Sessions;
import io.zabkit.tree.DataTree;
import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * "Data trees are equal at equal zxids". In an ensemble the chain is the committed history as the
 * servers deliver it: every delivered transaction must be the chain's transaction at its zxid or extend
 * the chain (Agreement, TotalOrder), and every server's tree must match the shadow at its
 * lastProcessed. The single-server form follows.
 *
 * <p>Single server: Keeps the canonical chain of
 * transactions the server handed to storage and replays it on a shadow tree, recording the digest at
 * every zxid. The live server must match the shadow at its lastProcessed after every step, and a
 * recovered server must match it at the zxid it recovered to (its history a prefix of the chain);
 * after a restart the chain is cut back to what survived, since lost transactions' zxids are reused.
 */
final class TreeDigestChecker {
    /** Follows the shadow tree: told of every transaction applied to it, and when it restarts from zxid 0. */
    interface ShadowListener {
        void reset();

        void applied(long zxid, DataTree shadow);
    }

    private final List<Txn> chain = new ArrayList<>();
    private final Map<Long, Long> digestAt = new HashMap<>();
    /** What the live server's tree digest was at each lastProcessed it reached, recorded after every step. */
    private final Map<Long, Long> liveDigestAt = new HashMap<>();
    private final long serverId;
    private final List<ShadowListener> listeners = new ArrayList<>();
    private DataTree shadow;
    private Applier shadowApplier;
    private long restartsCompared;

    private final boolean ensemble;
    private final Map<Long, Txn> chainByZxid = new HashMap<>();

    TreeDigestChecker(long serverId) {
        this(serverId, false);
    }

    /** @param ensemble whether the chain is the ensemble's committed history (fed by {@link #applied}) */
    TreeDigestChecker(long serverId, boolean ensemble) {
        this.serverId = serverId;
        this.ensemble = ensemble;
        resetShadow();
    }

    /** Ensemble: server {@code by} delivered txn. It must agree with the chain, or extend it. */
    void applied(int by, Txn txn) {
        Txn known = chainByZxid.get(txn.zxid());
        if (known != null) {
            if (!java.util.Arrays.equals(known.encode(), txn.encode())) {
                throw new Violation("Agreement", "server " + by + " delivered " + txn + " but another server delivered "
                        + known + " at the same zxid");
            }
            return;
        }
        long last = chain.isEmpty() ? 0 : chain.get(chain.size() - 1).zxid();
        if (txn.zxid() <= last) {
            throw new Violation("TotalOrder", "server " + by + " delivered " + txn + ", which the committed history"
                    + " (delivered by others up to " + Txn.zxidString(last) + ") does not hold");
        }
        chain.add(txn);
        chainByZxid.put(txn.zxid(), txn);
        applyToShadow(txn);
    }

    void listen(ShadowListener listener) {
        listeners.add(listener);
        listener.reset();
        listener.applied(0, shadow);
    }

    long restartsCompared() {
        return restartsCompared;
    }

    /**
     * The zxid of the closeSession transaction that ended {@code sessionId} (the latest in the chain), or -1
     * when the chain has none: a client told its session expired learns no zxid, but the history should carry it.
     */
    long closeSessionZxid(long sessionId) {
        for (int i = chain.size() - 1; i >= 0; i--) {
            Txn t = chain.get(i);
            if (t.type() == OpCode.CLOSE_SESSION && t.sessionId() == sessionId) {
                return t.zxid();
            }
        }
        return -1;
    }

    /** The chain as it stands: what the history's writes really did (lost transactions already cut off). */
    List<Txn> committedChain() {
        return List.copyOf(chain);
    }

    /** A batch the core handed to storage: the next part of the chain. */
    void proposed(List<Txn> txns) {
        for (Txn txn : txns) {
            long last = chain.isEmpty() ? 0 : chain.get(chain.size() - 1).zxid();
            if (txn.zxid() <= last) {
                throw new Violation("TotalOrder", "the server proposed " + txn + " after " + Txn.zxidString(last));
            }
            chain.add(txn);
            applyToShadow(txn);
        }
    }

    /** After every step: the live tree equals the shadow at the same zxid. */
    void afterStep(ServerCore core) {
        compare(core, "after a step");
        if (!ensemble) {
            liveDigestAt.put(core.lastProcessedZxid(), core.tree().digest());
        }
    }

    /** After a restart: the recovered tree equals the pre-crash state at the recovered zxid; the chain is cut there. */
    void afterRestart(ServerCore core) {
        if (ensemble) {
            compare(core, "after recovery"); // committed transactions are never lost: nothing to cut
            restartsCompared++;
            return;
        }
        long recovered = core.lastProcessedZxid();
        Long before = liveDigestAt.get(recovered);
        if (before != null && before != core.tree().digest()) {
            throw new Violation("TreeDigest", "recovered tree at " + Txn.zxidString(recovered) + " has digest "
                    + Long.toHexString(core.tree().digest()) + " but the server had " + Long.toHexString(before)
                    + " at that zxid before the crash");
        }
        liveDigestAt.keySet().removeIf(zxid -> zxid > recovered);
        compare(core, "after recovery");
        restartsCompared++;
        int keep = 0;
        while (keep < chain.size() && chain.get(keep).zxid() <= recovered) {
            keep++;
        }
        if (keep < chain.size()) {
            chain.subList(keep, chain.size()).clear();
            resetShadow();
            for (Txn txn : chain) {
                applyToShadow(txn);
            }
        }
    }

    private void compare(ServerCore core, String when) {
        long zxid = core.lastProcessedZxid();
        Long expected = digestAt.get(zxid);
        if (expected == null) {
            throw new Violation("TreeDigest", "server " + core.config().serverId() + " is at " + Txn.zxidString(zxid)
                    + " " + when
                    + ", which it never proposed (chain ends at "
                    + (chain.isEmpty() ? "0x0" : Txn.zxidString(chain.get(chain.size() - 1).zxid())) + ")");
        }
        long actual = core.tree().digest();
        if (actual != expected) {
            throw new Violation("TreeDigest", "server " + core.config().serverId() + ": data tree at "
                    + Txn.zxidString(zxid) + " " + when + " has digest "
                    + Long.toHexString(actual) + " but the history applied up to that zxid gives "
                    + Long.toHexString(expected));
        }
    }

    private void resetShadow() {
        shadow = new DataTree();
        shadowApplier = new Applier(shadow, new Sessions(serverId, 0), 0);
        digestAt.clear();
        digestAt.put(0L, shadow.digest());
        for (ShadowListener l : listeners) {
            l.reset();
            l.applied(0, shadow);
        }
    }

    private void applyToShadow(Txn txn) {
        shadowApplier.apply(txn, 0);
        shadow.watches().drainFired();
        digestAt.put(txn.zxid(), shadow.digest());
        for (ShadowListener l : listeners) {
            l.applied(txn.zxid(), shadow);
        }
    }
}
