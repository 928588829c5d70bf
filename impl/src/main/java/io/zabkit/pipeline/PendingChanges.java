package io.zabkit.pipeline;

import io.zabkit.tree.DataTree;
import io.zabkit.tree.EphemeralType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The nodes as prepared-but-unapplied transactions will leave them, over the applied tree: the next
 * write is validated against this view, so pipelined writes (create /a then create /a/b before
 * either is durable) get the results they would get one at a time.
 */
final class PendingChanges {
    private record Change(long zxid, String path, NodeView view) {}

    private final DataTree tree;
    private final Map<String, Change> latestByPath = new HashMap<>();
    private final Deque<Change> inZxidOrder = new ArrayDeque<>();
    /** Undo log of the multi being prepared: the path and what it mapped to before. */
    private final List<Change> undo = new ArrayList<>();
    private final List<String> undoPaths = new ArrayList<>();
    private boolean inMulti;

    PendingChanges(DataTree tree) {
        this.tree = tree;
    }

    NodeView view(String path) {
        Change c = latestByPath.get(path);
        return c != null ? c.view : NodeView.of(tree.get(path));
    }

    void record(long zxid, String path, NodeView view) {
        Change c = new Change(zxid, path, view);
        if (inMulti) {
            undoPaths.add(path);
            undo.add(latestByPath.get(path));
        }
        latestByPath.put(path, c);
        inZxidOrder.addLast(c);
    }

    void beginMulti() {
        assert !inMulti : "multis do not nest";
        inMulti = true;
        undo.clear();
        undoPaths.clear();
    }

    /** A multi op failed: every change it recorded is taken back, newest first. */
    void rollbackMulti() {
        for (int i = undo.size() - 1; i >= 0; i--) {
            Change previous = undo.get(i);
            if (previous == null) {
                latestByPath.remove(undoPaths.get(i));
            } else {
                latestByPath.put(undoPaths.get(i), previous);
            }
            inZxidOrder.removeLast();
        }
        endMulti();
    }

    void endMulti() {
        inMulti = false;
        undo.clear();
        undoPaths.clear();
    }

    /** The tree now includes every transaction up to zxid: their changes are no longer pending. */
    void applied(long zxid) {
        while (!inZxidOrder.isEmpty() && inZxidOrder.peekFirst().zxid <= zxid) {
            Change c = inZxidOrder.removeFirst();
            if (latestByPath.get(c.path) == c) {
                latestByPath.remove(c.path);
            }
        }
    }

    boolean isEmpty() {
        return inZxidOrder.isEmpty();
    }

    /** The session's ephemerals once the pending transactions apply, in path order. */
    List<String> ephemeralsOf(long sessionId) {
        TreeSet<String> paths = new TreeSet<>(tree.ephemeralsOf(sessionId));
        for (Change c : latestByPath.values()) {
            // A pending change decides the path: deleted, or deleted and re-created by another session,
            // it is no longer this session's.
            if (c.view.exists() && c.view.ephemeralOwner() == sessionId
                    && EphemeralType.isSessionOwned(sessionId)) {
                paths.add(c.path);
            } else {
                paths.remove(c.path);
            }
        }
        return new ArrayList<>(paths);
    }
}
