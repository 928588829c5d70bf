package io.zabkit.sim;

import io.zabkit.core.ServerCore;
import io.zabkit.tree.Znode;
import io.zabkit.txn.Txn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every write a client saw acknowledged survives every restart (CommittedLogDurability seen from the
 * clients). Keeps a model of acknowledged effects per path, the last one by zxid, and checks the
 * recovered tree against it using only what the model can justify: a node may differ from its last
 * acknowledged write only if a write with an unknown outcome (pending or :info) could explain it.
 * Also: the recovered lastProcessed covers every zxid any client saw, and sequential names are
 * never handed out twice.
 */
final class DurabilityChecker {
    private enum Effect { CREATE, SET_DATA, DELETE }

    /** The last acknowledged effect on a path. */
    private record Acked(long zxid, Effect effect, byte[] data, int version, long ephemeralOwner, String by) {}

    private final Map<String, Acked> lastAcked = new TreeMap<>();
    /** Writes whose outcome is unknown: invoked and not completed, or completed :info. */
    private final Set<ClientOp> unknown = new HashSet<>();
    private final Set<String> sequentialNames = new HashSet<>();
    /** Sessions that asked for an ephemeral at a path (any outcome): its disappearance may be their expiry. */
    private final Map<String, Set<Long>> ephemeralCreators = new TreeMap<>();
    private long maxAckedZxid;
    private long maxSeenZxid;
    private long pathsChecked;

    long pathsChecked() {
        return pathsChecked;
    }

    long maxAckedZxid() {
        return maxAckedZxid;
    }

    void invoked(ClientOp op) {
        if (op.kind.isWrite()) {
            unknown.add(op);
        }
        if (op.kind == ClientOp.Kind.CREATE && op.mode.ephemeral() && !op.mode.sequential()) {
            ephemeralCreators.computeIfAbsent(op.path, p -> new HashSet<>()).add(op.session);
        }
    }

    void seen(long zxid) {
        maxSeenZxid = Math.max(maxSeenZxid, zxid);
    }

    void completed(ClientOp op) {
        if (op.outcome != ClientOp.Outcome.INFO) {
            unknown.remove(op);
        }
        if (op.outcome != ClientOp.Outcome.OK || !op.kind.isWrite()) {
            return;
        }
        maxAckedZxid = Math.max(maxAckedZxid, op.zxid);
        String by = "client p" + op.process + " xid " + op.xid + " " + op.describe();
        if (op.kind == ClientOp.Kind.MULTI) {
            for (int i = 0; i < op.ops.size(); i++) {
                ClientCodec.MultiResult r = op.results.get(i);
                acknowledge(op.ops.get(i), r.path(), r.stat() == null ? 0 : r.stat().getVersion(), op.zxid, op.session, by);
            }
        } else {
            acknowledge(op, op.createdPath, op.stat == null ? 0 : op.stat.getVersion(), op.zxid, op.session, by);
        }
    }

    private void acknowledge(ClientOp op, String createdPath, int version, long zxid, long session, String by) {
        switch (op.kind) {
            case CREATE: {
                String path = createdPath != null ? createdPath : op.path;
                if (op.mode.sequential() && !sequentialNames.add(path)) {
                    throw new Violation("SequentialUnique", "sequential name " + path + " handed out twice (now at "
                            + Txn.zxidString(zxid) + " to " + by + ")");
                }
                if (op.mode.ephemeral()) {
                    ephemeralCreators.computeIfAbsent(path, p -> new HashSet<>()).add(session);
                }
                put(path, new Acked(zxid, Effect.CREATE, op.data, 0, op.mode.ephemeral() ? session : 0, by));
                break;
            }
            case SET_DATA:
                put(op.path, new Acked(zxid, Effect.SET_DATA, op.data, version, 0, by));
                break;
            case DELETE:
                put(op.path, new Acked(zxid, Effect.DELETE, null, -1, 0, by));
                break;
            default:
                break; // check and closeSession change no node (closeSession's ephemerals: EphemeralChecker)
        }
    }

    private void put(String path, Acked a) {
        Acked old = lastAcked.get(path);
        if (old == null || old.zxid() <= a.zxid()) {
            lastAcked.put(path, a);
        }
    }

    /** After a restart (or at the end): the server's state honours every acknowledgement. */
    void check(ServerCore core, String when) {
        long lastProcessed = core.lastProcessedZxid();
        if (lastProcessed < maxAckedZxid) {
            throw new Violation("Durability", when + ": the server recovered to lastProcessed="
                    + Txn.zxidString(lastProcessed) + " but a client saw a write acknowledged at "
                    + Txn.zxidString(maxAckedZxid));
        }
        if (lastProcessed < maxSeenZxid) {
            throw new Violation("Durability", when + ": the server recovered to lastProcessed="
                    + Txn.zxidString(lastProcessed) + " but a client already saw zxid " + Txn.zxidString(maxSeenZxid));
        }
        for (Map.Entry<String, Acked> e : lastAcked.entrySet()) {
            pathsChecked++;
            String problem = problem(core, e.getKey(), e.getValue());
            if (problem != null) {
                throw new Violation("Durability", when + ": " + e.getKey() + " " + problem + " (last acknowledged: "
                        + e.getValue().effect() + " at " + Txn.zxidString(e.getValue().zxid()) + " by "
                        + e.getValue().by() + ")");
            }
        }
    }

    /** What is wrong with the node at path given its last acknowledged effect, or null. */
    private String problem(ServerCore core, String path, Acked a) {
        Znode n = core.tree().get(path);
        if (a.effect() == Effect.DELETE) {
            if (n == null) {
                return null;
            }
            long czxid = n.stat().getCzxid();
            if (czxid <= a.zxid()) {
                return "exists (created at " + Txn.zxidString(czxid) + ") although its deletion was acknowledged";
            }
            return unknownWrite(path, ClientOp.Kind.CREATE) ? null
                    : "was recreated at " + Txn.zxidString(czxid) + " by no write of unknown outcome";
        }
        if (n == null) {
            boolean ownerGone = false;
            for (long session : ephemeralCreators.getOrDefault(path, Set.of())) {
                ownerGone |= !core.sessions().exists(session);
            }
            return ownerGone || unknownWrite(path, ClientOp.Kind.DELETE) ? null
                    : "is missing and no delete of unknown outcome or ended session explains it";
        }
        long czxid = n.stat().getCzxid();
        if (czxid > a.zxid()) {
            return unknownWrite(path, ClientOp.Kind.CREATE) ? null
                    : "was recreated at " + Txn.zxidString(czxid) + " by no write of unknown outcome";
        }
        if (a.effect() == Effect.CREATE && czxid != a.zxid()) {
            return "has czxid " + Txn.zxidString(czxid) + " but its creation was acknowledged at "
                    + Txn.zxidString(a.zxid());
        }
        long mzxid = n.mzxid();
        if (mzxid < a.zxid()) {
            return "was last modified at " + Txn.zxidString(mzxid) + ": the acknowledged write is lost";
        }
        if (mzxid == a.zxid()) {
            if (!Arrays.equals(n.data(), a.data()) || n.version() != a.version()) {
                return "at the acknowledged zxid holds version " + n.version() + " data " + text(n.data())
                        + " instead of version " + a.version() + " data " + text(a.data());
            }
            return null;
        }
        if (n.version() <= a.version()) {
            return "was modified at " + Txn.zxidString(mzxid) + " without its version passing " + a.version();
        }
        return unknownWrite(path, ClientOp.Kind.SET_DATA) ? null
                : "was modified at " + Txn.zxidString(mzxid) + " by no write of unknown outcome";
    }

    private boolean unknownWrite(String path, ClientOp.Kind kind) {
        for (ClientOp op : unknown) {
            for (ClientOp sub : op.kind == ClientOp.Kind.MULTI ? op.ops : List.of(op)) {
                if (sub.kind == kind && path.equals(sub.path)) {
                    return true;
                }
                if (kind == ClientOp.Kind.DELETE && sub.kind == ClientOp.Kind.CLOSE_SESSION) {
                    return true; // a closeSession of unknown outcome may have deleted an ephemeral
                }
            }
        }
        return false;
    }

    private static String text(byte[] data) {
        return data == null ? "null" : "\"" + new String(data, StandardCharsets.UTF_8) + "\"";
    }

    List<String> ackedPaths() {
        return new ArrayList<>(lastAcked.keySet());
    }
}
