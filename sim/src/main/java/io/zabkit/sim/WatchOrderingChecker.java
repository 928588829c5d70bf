package io.zabkit.sim;

import io.zabkit.tree.Paths;
import io.zabkit.tree.WatchKind;
import io.zabkit.txn.Txn;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.zookeeper.proto.WatcherEvent;

/**
 * WatchOrdering: a client sees a watch event before any reply that reflects the change that fired
 * it (on one connection the event's zxid exceeds every reply zxid before it), and only for a watch it
 * set on that connection and that has not fired yet (watches are one-shot).
 */
final class WatchOrderingChecker {
    /** Per connection: the largest reply zxid so far, and the watches set ("d:" data, "c:" child + path). */
    private static final class ConnView {
        long maxReplyZxid;
        final Set<String> watches = new HashSet<>();
        /** Paths SetWatches re-set both a data and a child watch on: a deleted node fires NodeDeleted twice there. */
        final Set<String> doubleDeleteAllowed = new HashSet<>();
    }

    private final Map<Long, ConnView> connections = new HashMap<>();
    private long eventsChecked;

    long eventsChecked() {
        return eventsChecked;
    }

    void reply(long connId, long zxid) {
        ConnView c = view(connId);
        c.maxReplyZxid = Math.max(c.maxReplyZxid, zxid);
    }

    /** A read completed: an ok getData/exists sets a data watch (exists also on a missing node), getChildren a child watch. */
    void completed(ClientOp op) {
        if (op.kind == ClientOp.Kind.ADD_WATCH && op.isOk()) {
            view(op.connId).watches.add((op.recursive ? "r:" : "p:") + op.path);
            return;
        }
        if (!op.watch || op.outcome != ClientOp.Outcome.OK) {
            return;
        }
        String key = op.kind == ClientOp.Kind.GET_CHILDREN ? "c:" + op.path : "d:" + op.path;
        view(op.connId).watches.add(key);
    }

    /** SetWatches re-registered these on a new connection; missed changes may fire at once. */
    void restored(long connId, List<String> data, List<String> exist, List<String> child) {
        ConnView c = view(connId);
        for (String p : data) {
            c.watches.add("d:" + p);
        }
        for (String p : exist) {
            c.watches.add("d:" + p);
        }
        for (String p : child) {
            c.watches.add("c:" + p);
            if (data.contains(p) || exist.contains(p)) {
                c.doubleDeleteAllowed.add(p);
            }
        }
    }

    void event(int client, long connId, WatcherEvent e, long zxid) {
        eventsChecked++;
        ConnView c = view(connId);
        String where = "client " + client + " conn " + connId + " " + e.getPath() + " type " + e.getType();
        if (zxid <= c.maxReplyZxid) {
            throw new Violation("WatchOrdering", where + ": event for the change at " + Txn.zxidString(zxid)
                    + " arrived after a reply at " + Txn.zxidString(c.maxReplyZxid) + " that already reflects it");
        }
        boolean data = c.watches.contains("d:" + e.getPath());
        boolean child = c.watches.contains("c:" + e.getPath());
        boolean matches = switch (e.getType()) {
            case WatchKind.NODE_CREATED, WatchKind.NODE_DATA_CHANGED -> data;
            case WatchKind.NODE_CHILDREN_CHANGED -> child;
            case WatchKind.NODE_DELETED -> data || child;
            default -> false;
        };
        boolean persistent = persistentMatch(c, e.getType(), e.getPath());
        if (persistent) {
            matches = true; // persistent watches stay; a standard one on the path is consumed by the same event
        }
        if (!matches && e.getType() == WatchKind.NODE_DELETED && c.doubleDeleteAllowed.remove(e.getPath())) {
            return; // as ZooKeeper's DataTree.setWatches does: one NodeDeleted per re-set watch kind
        }
        if (!matches) {
            throw new Violation("WatchOrdering", where + " at " + Txn.zxidString(zxid)
                    + ": no watch of that kind was set on this connection (spurious or fired twice)");
        }
        if (e.getType() == WatchKind.NODE_CHILDREN_CHANGED) {
            c.watches.remove("c:" + e.getPath());
        } else if (e.getType() == WatchKind.NODE_DELETED) {
            c.watches.remove("c:" + e.getPath());
            c.watches.remove("d:" + e.getPath());
        } else {
            c.watches.remove("d:" + e.getPath());
        }
        if (e.getType() != WatchKind.NODE_DELETED) {
            c.doubleDeleteAllowed.remove(e.getPath());
        }
    }

    /** A persistent watch on the path, or a recursive one on it or an ancestor (not for NodeChildrenChanged). */
    private static boolean persistentMatch(ConnView c, int type, String path) {
        if (c.watches.contains("p:" + path)) {
            return true;
        }
        if (type == WatchKind.NODE_CHILDREN_CHANGED) {
            return false;
        }
        for (String p = path; ; p = Paths.parent(p)) {
            if (c.watches.contains("r:" + p)) {
                return true;
            }
            if (p.equals("/")) {
                return false;
            }
        }
    }

    void disconnected(long connId) {
        connections.remove(connId);
    }

    private ConnView view(long connId) {
        return connections.computeIfAbsent(connId, id -> new ConnView());
    }
}
