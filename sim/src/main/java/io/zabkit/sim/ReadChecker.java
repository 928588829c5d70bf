package io.zabkit.sim;

import io.zabkit.tree.DataTree;
import io.zabkit.tree.Znode;
import io.zabkit.txn.Txn;
import io.zabkit.wire.Err;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * ReadsAtZxid: a read shows exactly the state the history gives at the zxid in its reply header. On
 * one server this is what SyncReads, MonotonicReads and LinearizableWrites come down to: a read
 * answered at zxid r saw every write up to r and none after. Follows the shadow tree of
 * {@link TreeDigestChecker}, recording the states of the paths the workload reads.
 */
final class ReadChecker implements TreeDigestChecker.ShadowListener {
    /** A path's state from {@code zxid} on. */
    private record State(long zxid, boolean exists, byte[] data, int version, long mzxid, List<String> children) {}

    private final Map<String, List<State>> history = new TreeMap<>();
    private long readsChecked;

    ReadChecker(List<String> paths) {
        for (String p : paths) {
            history.put(p, new ArrayList<>());
        }
        reset();
    }

    long readsChecked() {
        return readsChecked;
    }

    @Override
    public void reset() {
        for (List<State> states : history.values()) {
            states.clear();
        }
    }

    @Override
    public void applied(long zxid, DataTree tree) {
        for (Map.Entry<String, List<State>> e : history.entrySet()) {
            State now = stateOf(zxid, e.getKey(), tree);
            List<State> states = e.getValue();
            State last = states.isEmpty() ? null : states.get(states.size() - 1);
            if (last == null || !sameState(last, now)) {
                states.add(now);
            }
        }
    }

    void completed(ClientOp op) {
        boolean read = op.kind == ClientOp.Kind.GET_DATA || op.kind == ClientOp.Kind.EXISTS
                || op.kind == ClientOp.Kind.GET_CHILDREN;
        if (!read || op.outcome == ClientOp.Outcome.INFO || op.err == Err.CONNECTION_LOSS
                || !history.containsKey(op.path)) {
            return;
        }
        readsChecked++;
        State expected = at(op.path, op.zxid);
        String got;
        boolean ok;
        if (op.kind == ClientOp.Kind.GET_CHILDREN) {
            ok = op.isOk() ? expected.exists() && expected.children().equals(op.children)
                    : op.err == Err.NO_NODE && !expected.exists();
            got = op.isOk() ? "children " + op.children : Err.name(op.err);
        } else if (!op.isOk() || op.stat == null) {
            ok = !expected.exists() && (op.err == Err.NO_NODE);
            got = Err.name(op.err);
        } else {
            ok = expected.exists() && expected.version() == op.stat.getVersion()
                    && expected.mzxid() == op.stat.getMzxid()
                    && (op.kind != ClientOp.Kind.GET_DATA || Arrays.equals(expected.data(), op.readData));
            got = "version " + op.stat.getVersion() + " mzxid " + Txn.zxidString(op.stat.getMzxid())
                    + (op.kind == ClientOp.Kind.GET_DATA ? " data " + text(op.readData) : "");
        }
        if (!ok) {
            throw new Violation("ReadsAtZxid", "client p" + op.process + " xid " + op.xid + " " + op.describe()
                    + " answered at " + Txn.zxidString(op.zxid) + " saw " + got + " but the history at that zxid has "
                    + describe(expected));
        }
    }

    /**
     * The zxid of the first change after {@code zxid} that fires a watch of this kind on path ('d'
     * data: created, deleted, data changed; 'e' exists: created; 'c' children: children changed or
     * deleted), or -1 if there was none.
     */
    long firstChangeAfter(char kind, String path, long zxid) {
        if (!history.containsKey(path)) {
            return -1;
        }
        State seen = at(path, zxid);
        for (State s : history.get(path)) {
            if (s.zxid() <= zxid) {
                continue;
            }
            boolean fires = switch (kind) {
                case 'd' -> s.exists() != seen.exists() || s.mzxid() != seen.mzxid();
                case 'e' -> s.exists();
                case 'c' -> !s.exists() || !s.children().equals(seen.children());
                default -> throw new IllegalArgumentException("watch kind " + kind);
            };
            if (fires) {
                return s.zxid();
            }
        }
        return -1;
    }

    boolean existsAt(String path, long zxid) {
        return history.containsKey(path) && at(path, zxid).exists();
    }

    private State at(String path, long zxid) {
        List<State> states = history.get(path);
        for (int i = states.size() - 1; i >= 0; i--) {
            if (states.get(i).zxid() <= zxid) {
                return states.get(i);
            }
        }
        throw new Violation("ReadsAtZxid", "a read of " + path + " at " + Txn.zxidString(zxid)
                + " precedes the recorded history");
    }

    private static State stateOf(long zxid, String path, DataTree tree) {
        Znode n = tree.get(path);
        if (n == null) {
            return new State(zxid, false, null, -1, -1, List.of());
        }
        List<String> children = new ArrayList<>(n.children());
        children.sort(null);
        return new State(zxid, true, n.data(), n.version(), n.mzxid(), children);
    }

    private static boolean sameState(State a, State b) {
        return a.exists() == b.exists() && a.version() == b.version() && a.mzxid() == b.mzxid()
                && Arrays.equals(a.data(), b.data()) && a.children().equals(b.children());
    }

    private static String describe(State s) {
        if (!s.exists()) {
            return "no node (since " + Txn.zxidString(s.zxid()) + ")";
        }
        return "version " + s.version() + " mzxid " + Txn.zxidString(s.mzxid()) + " data " + text(s.data())
                + (s.children().isEmpty() ? "" : " children " + s.children()) + " (since " + Txn.zxidString(s.zxid()) + ")";
    }

    private static String text(byte[] data) {
        return data == null ? "null" : "\"" + new String(data, StandardCharsets.UTF_8) + "\"";
    }
}
