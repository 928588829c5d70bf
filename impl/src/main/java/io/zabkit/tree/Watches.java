package io.zabkit.tree;

import java.util.ArrayList;
import org.apache.zookeeper.data.ACL;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The watches of one server, as ZooKeeper's WatchManager keeps them: a data table (getData, exists)
 * and a child table (getChildren), each mapping a path to its watchers. A watcher is a client
 * connection id: watches belong to a connection and a client re-registers them with setWatches after
 * moving. Standard watches are one-shot; persistent ones (addWatch) stay, and recursive ones also
 * fire for changes below their path.
 *
 * <p>Each fired event carries the ACL of the node it is about (the changed node; the parent for
 * NodeChildrenChanged), and is delivered only to a session that may READ that node, whatever the
 * watch's mode: ZooKeeper's rule since 3.9.2 (CVE-2024-23944, where a recursive watch on a public
 * parent leaked the names of nodes created under a private one).
 */
public final class Watches {
    /** How a watcher watches a path. */
    public enum Mode { STANDARD, PERSISTENT, PERSISTENT_RECURSIVE }

    /**
     * A notification to deliver: watcher (connection) id, event type, path, the zxid that caused it,
     * and the ACL the watcher needs READ on to receive it (null: no check).
     */
    public record Fired(long watcher, int type, String path, long zxid, List<ACL> acl) {
        public Fired(long watcher, int type, String path, long zxid) {
            this(watcher, type, path, zxid, null);
        }
    }

    /** One registration: in the child table or the data table, its path, watcher and mode. */
    public record Registration(boolean child, String path, long watcher, Mode mode) {}

    private final Table data = new Table();
    private final Table child = new Table();
    private final List<Fired> fired = new ArrayList<>();

    public void addData(String path, long watcher) {
        data.add(path, watcher, Mode.STANDARD);
    }

    public void addChild(String path, long watcher) {
        child.add(path, watcher, Mode.STANDARD);
    }

    /** addWatch: a persistent watch is in both tables; a recursive one only in the data table. */
    public void addPersistent(String path, long watcher, boolean recursive) {
        data.add(path, watcher, recursive ? Mode.PERSISTENT_RECURSIVE : Mode.PERSISTENT);
        if (!recursive) {
            child.add(path, watcher, Mode.PERSISTENT);
        }
    }

    /**
     * Fires data watches on {@code path} (a node whose ACL is {@code acl}); returns the watchers
     * notified, for NodeDeleted suppression.
     */
    public Set<Long> triggerData(String path, int type, long zxid, List<ACL> acl, Set<Long> suppress) {
        return data.trigger(path, type, zxid, acl, suppress, fired);
    }

    public Set<Long> triggerChild(String path, int type, long zxid, List<ACL> acl, Set<Long> suppress) {
        return child.trigger(path, type, zxid, acl, suppress, fired);
    }

    /** Notifications fired since the last call, in the order the changes were applied. */
    public List<Fired> drainFired() {
        if (fired.isEmpty()) {
            return List.of();
        }
        List<Fired> out = new ArrayList<>(fired);
        fired.clear();
        return out;
    }

    public boolean hasData(String path, long watcher) {
        return data.has(path, watcher);
    }

    public boolean hasChild(String path, long watcher) {
        return child.has(path, watcher);
    }

    public boolean hasPersistent(String path, long watcher, boolean recursive) {
        Mode m = data.mode(path, watcher);
        return m == (recursive ? Mode.PERSISTENT_RECURSIVE : Mode.PERSISTENT);
    }

    /** removeWatches for one kind; true when a watch was there. */
    public boolean removeData(String path, long watcher) {
        return data.remove(path, watcher);
    }

    public boolean removeChild(String path, long watcher) {
        return child.remove(path, watcher);
    }

    /**
     * Every registration of both tables, sorted by (table, path, watcher) so that whoever walks them does so
     * deterministically: a server that keeps its connections carries them across a SNAP (keepConnections).
     */
    public List<Registration> registrations() {
        List<Registration> out = new ArrayList<>();
        data.registrations(false, out);
        child.registrations(true, out);
        out.sort(java.util.Comparator.comparing(Registration::child).thenComparing(Registration::path)
                .thenComparingLong(Registration::watcher));
        return out;
    }

    /** Puts back a registration taken from another table by {@link #registrations}. */
    public void add(Registration r) {
        (r.child() ? child : data).add(r.path(), r.watcher(), r.mode());
    }

    /** A connection closed: its watches go with it. */
    public void removeWatcher(long watcher) {
        data.removeWatcher(watcher);
        child.removeWatcher(watcher);
    }

    public int dataCount() {
        return data.count();
    }

    public int childCount() {
        return child.count();
    }

    /** For the wchs/wchc four-letter words: path to watchers of both tables. */
    public Map<Long, Set<String>> byWatcher() {
        Map<Long, Set<String>> result = new LinkedHashMap<>();
        data.collect(result);
        child.collect(result);
        return result;
    }

    public int pathCount() {
        Set<String> paths = new HashSet<>(data.byPath.keySet());
        paths.addAll(child.byPath.keySet());
        return paths.size();
    }

    /** One table: path to (watcher to mode), with the reverse index a connection close needs. */
    private static final class Table {
        final Map<String, Map<Long, Mode>> byPath = new HashMap<>();
        final Map<Long, Set<String>> byWatcher = new HashMap<>();
        int recursiveCount;

        void add(String path, long watcher, Mode mode) {
            Mode old = byPath.computeIfAbsent(path, p -> new LinkedHashMap<>()).get(watcher);
            if (old != null && old != Mode.STANDARD && mode == Mode.STANDARD) {
                return; // a persistent watch already covers it, as in ZooKeeper
            }
            byPath.get(path).put(watcher, mode);
            byWatcher.computeIfAbsent(watcher, w -> new HashSet<>()).add(path);
            if (old == Mode.PERSISTENT_RECURSIVE) {
                recursiveCount--;
            }
            if (mode == Mode.PERSISTENT_RECURSIVE) {
                recursiveCount++;
            }
        }

        boolean has(String path, long watcher) {
            Map<Long, Mode> watchers = byPath.get(path);
            return watchers != null && watchers.containsKey(watcher);
        }

        Mode mode(String path, long watcher) {
            Map<Long, Mode> watchers = byPath.get(path);
            return watchers == null ? null : watchers.get(watcher);
        }

        boolean remove(String path, long watcher) {
            Map<Long, Mode> watchers = byPath.get(path);
            if (watchers == null) {
                return false;
            }
            Mode old = watchers.remove(watcher);
            if (old == null) {
                return false;
            }
            if (old == Mode.PERSISTENT_RECURSIVE) {
                recursiveCount--;
            }
            if (watchers.isEmpty()) {
                byPath.remove(path);
            }
            Set<String> paths = byWatcher.get(watcher);
            paths.remove(path);
            if (paths.isEmpty()) {
                byWatcher.remove(watcher);
            }
            return true;
        }

        void removeWatcher(long watcher) {
            Set<String> paths = byWatcher.get(watcher);
            if (paths == null) {
                return;
            }
            for (String path : new ArrayList<>(paths)) {
                remove(path, watcher);
            }
        }

        Set<Long> trigger(String path, int type, long zxid, List<ACL> acl, Set<Long> suppress, List<Fired> out) {
            if (byPath.isEmpty()) {
                return Set.of(); // nobody watches anything: the common case of a write-heavy load
            }
            Set<Long> notified = new HashSet<>();
            fireAt(path, path, type, zxid, acl, suppress, notified, out);
            if (recursiveCount > 0 && type != WatchKind.NODE_CHILDREN_CHANGED) {
                for (String p = path; !p.equals("/"); ) {
                    p = Paths.parent(p);
                    fireAt(p, path, type, zxid, acl, suppress, notified, out);
                }
            }
            return notified;
        }

        private void fireAt(String watchedPath, String changedPath, int type, long zxid, List<ACL> acl,
                            Set<Long> suppress, Set<Long> notified, List<Fired> out) {
            Map<Long, Mode> watchers = byPath.get(watchedPath);
            if (watchers == null) {
                return;
            }
            boolean exact = watchedPath.equals(changedPath);
            List<Long> oneShot = new ArrayList<>();
            for (Map.Entry<Long, Mode> e : watchers.entrySet()) {
                Mode mode = e.getValue();
                if (!exact && mode != Mode.PERSISTENT_RECURSIVE) {
                    continue;
                }
                if (mode == Mode.PERSISTENT_RECURSIVE && type == WatchKind.NODE_CHILDREN_CHANGED) {
                    continue;
                }
                long watcher = e.getKey();
                if (mode == Mode.STANDARD) {
                    oneShot.add(watcher);
                }
                if ((suppress != null && suppress.contains(watcher)) || !notified.add(watcher)) {
                    continue;
                }
                out.add(new Fired(watcher, type, changedPath, zxid, acl));
            }
            for (long watcher : oneShot) {
                remove(watchedPath, watcher);
            }
        }

        void registrations(boolean isChild, List<Registration> out) {
            for (Map.Entry<String, Map<Long, Mode>> e : byPath.entrySet()) {
                for (Map.Entry<Long, Mode> w : e.getValue().entrySet()) {
                    out.add(new Registration(isChild, e.getKey(), w.getKey(), w.getValue()));
                }
            }
        }

        int count() {
            int n = 0;
            for (Map<Long, Mode> watchers : byPath.values()) {
                n += watchers.size();
            }
            return n;
        }

        void collect(Map<Long, Set<String>> into) {
            for (Map.Entry<Long, Set<String>> e : byWatcher.entrySet()) {
                into.computeIfAbsent(e.getKey(), w -> new java.util.TreeSet<>()).addAll(e.getValue());
            }
        }
    }
}
