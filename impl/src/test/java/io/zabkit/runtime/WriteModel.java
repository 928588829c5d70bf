package io.zabkit.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * What clients were told, key by key: the last acknowledged state of each znode, and the one write
 * per znode whose fate is unknown (in flight when the server died). After a crash each znode must be
 * in its acknowledged state or, if it had a write in flight, in the state that write would make;
 * a multi's two znodes exist together or not at all. Thread-safe: callbacks record from ZooKeeper's
 * event thread.
 */
final class WriteModel {
    /** A znode's state: absent (version -1) or present with a version and data. */
    record State(int version, byte[] data) {
        static final State ABSENT = new State(-1, null);

        boolean matches(Stat stat, byte[] actual) {
            return stat != null && stat.getVersion() == version && Arrays.equals(data, actual);
        }

        @Override
        public String toString() {
            return version < 0 ? "absent" : "v" + version + " '" + new String(data) + "'";
        }
    }

    static final class Key {
        final String path;
        State acked = State.ABSENT;
        /** The state a write in flight would make; null when none is. */
        State pending;
        /** A write whose outcome is unknown: no more writes to this key. */
        boolean uncertain;

        Key(String path) {
            this.path = path;
        }
    }

    /** Two znodes created by one multi. */
    record Pair(String a, String b) {}

    private final Map<String, Key> keys = new LinkedHashMap<>();
    private final Map<Pair, Boolean> pairs = new LinkedHashMap<>(); // value: acknowledged
    int ackedWrites;

    synchronized Key newKey(String path, State creating) {
        Key k = new Key(path);
        k.pending = creating;
        keys.put(path, k);
        return k;
    }

    /** A key with an acknowledged create and nothing in flight, or null. */
    synchronized Key idleKey(int index) {
        List<Key> idle = new ArrayList<>();
        for (Key k : keys.values()) {
            if (k.pending == null && !k.uncertain && k.acked.version() >= 0) {
                idle.add(k);
            }
        }
        return idle.isEmpty() ? null : idle.get(index % idle.size());
    }

    synchronized void beginWrite(Key k, State next) {
        assert k.pending == null && !k.uncertain : "two writes in flight on " + k.path;
        k.pending = next;
    }

    synchronized void acked(Key k, int version) {
        assert k.pending != null && k.pending.version() == version : k.path + " acked as v" + version + ", expected "
                + k.pending;
        k.acked = k.pending;
        k.pending = null;
        ackedWrites++;
    }

    /** Connection loss and the like: the write may or may not have happened. */
    synchronized void unknown(Key k) {
        k.uncertain = true;
    }

    synchronized void newPair(Pair p) {
        pairs.put(p, false);
    }

    synchronized void pairAcked(Pair p) {
        pairs.put(p, true);
        ackedWrites++;
    }

    /** Reads every znode the model knows and lists every violation. */
    synchronized List<String> violations(ZooKeeper zk) throws KeeperException, InterruptedException {
        List<String> bad = new ArrayList<>();
        for (Key k : keys.values()) {
            Stat stat = new Stat();
            byte[] data = read(zk, k.path, stat);
            boolean ok = k.acked.matches(data == null ? null : stat, data)
                    || (data == null && k.acked.version() < 0)
                    || (k.pending != null && (k.pending.matches(data == null ? null : stat, data)));
            if (!ok) {
                bad.add(k.path + ": found " + (data == null ? "absent" : "v" + stat.getVersion() + " '"
                        + new String(data) + "'") + ", acknowledged " + k.acked + (k.pending == null ? ""
                        : ", in flight " + k.pending));
            }
        }
        for (Map.Entry<Pair, Boolean> e : pairs.entrySet()) {
            boolean a = zk.exists(e.getKey().a(), false) != null;
            boolean b = zk.exists(e.getKey().b(), false) != null;
            if (a != b || (e.getValue() && !a)) {
                bad.add("multi " + e.getKey() + ": a " + (a ? "exists" : "absent") + ", b " + (b ? "exists" : "absent")
                        + (e.getValue() ? ", acknowledged" : ", in flight"));
            }
        }
        return bad;
    }

    /** After a check, what the server holds is what clients may see from now on: it becomes acknowledged. */
    synchronized void settle(ZooKeeper zk) throws KeeperException, InterruptedException {
        for (Key k : keys.values()) {
            if (k.pending != null) {
                Stat stat = new Stat();
                byte[] data = read(zk, k.path, stat);
                k.acked = data == null ? State.ABSENT : new State(stat.getVersion(), data);
                k.pending = null;
            }
            k.uncertain = false;
        }
        for (Map.Entry<Pair, Boolean> e : pairs.entrySet()) {
            if (!e.getValue() && zk.exists(e.getKey().a(), false) != null) {
                e.setValue(true);
            }
        }
    }

    /** Creates and setData whose outcome the client never heard (multis not counted). */
    synchronized int inFlight() {
        int n = 0;
        for (Key k : keys.values()) {
            n += k.pending != null ? 1 : 0;
        }
        return n;
    }

    synchronized int size() {
        return keys.size() + pairs.size();
    }

    private static byte[] read(ZooKeeper zk, String path, Stat stat) throws KeeperException, InterruptedException {
        try {
            return zk.getData(path, false, stat);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }
}
