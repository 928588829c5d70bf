package io.zabkit.tree;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.zookeeper.data.ACL;

/**
 * The replicated state: znodes by path, the ephemerals of each session, and the watches that changes
 * fire. Changed only through the apply methods, which the pipeline calls for committed transactions
 * in zxid order; so two servers that applied the same prefix of the history hold equal trees
 * (compare {@link #digest()}).
 *
 * <p>Invariants (checked by {@link #checkInvariants()} in tests and simulation): every node but the
 * root has its parent, and is in that parent's children; ephemerals have no children; the digest
 * equals the sum of the node hashes.
 */
public final class DataTree {
    public static final String ZOOKEEPER = "/zookeeper";
    public static final String QUOTA = "/zookeeper/quota";
    public static final String CONFIG = "/zookeeper/config";

    private final Map<String, Znode> nodes = new HashMap<>();
    /** session id to its ephemeral paths; sorted so that expiry deletes in a deterministic order. */
    private final Map<Long, Set<String>> ephemerals = new HashMap<>();
    private final Set<String> containers = new TreeSet<>();
    private final Watches watches = new Watches();
    /**
     * Every distinct ACL of the tree, once, with the number of nodes that have it (ZooKeeper's
     * ReferenceCountedACLCache): a node keeps the shared immutable list, not the copy its request
     * decoded, which cost about 200 bytes a node (list, ACL, Id and two strings), 60 MB of a 512 MB
     * heap at the 300,000 ephemerals of the Kalantari barrier. Invariant: the counts sum to the nodes.
     */
    private final Map<List<ACL>, AclUse> acls = new HashMap<>();
    /** Sum of node hashes (an AdHash): updated per change, so equal trees have equal digests in O(1). */
    private long digest;

    public DataTree() {
        putNode("/", new Znode(new byte[0], Acls.OPEN, 0, 0, 0));
        addSystemNode(ZOOKEEPER, Acls.OPEN);
        addSystemNode(QUOTA, Acls.OPEN);
        addSystemNode(CONFIG, Acls.READ_ONLY);
    }

    /** The /zookeeper subtree exists on every server from the start, outside the history, as in ZooKeeper. */
    private void addSystemNode(String path, List<ACL> acl) {
        putNode(path, new Znode(new byte[0], acl, 0, 0, 0));
        Znode parent = nodes.get(Paths.parent(path));
        unhash(Paths.parent(path), parent);
        parent.children.add(Paths.name(path));
        rehash(Paths.parent(path), parent);
    }

    public static boolean isSystemPath(String path) {
        return path.equals(ZOOKEEPER) || path.startsWith(ZOOKEEPER + "/");
    }

    public Znode get(String path) {
        return nodes.get(path);
    }

    public int nodeCount() {
        return nodes.size();
    }

    public Watches watches() {
        return watches;
    }

    public long digest() {
        return digest;
    }

    // ---- apply: only for committed transactions, in zxid order ----

    public void create(String path, byte[] data, List<ACL> acl, long ephemeralOwner, int parentCVersion,
                       long zxid, long time) {
        String parentPath = Paths.parent(path);
        Znode parent = nodes.get(parentPath);
        assert parent != null : "create " + path + " without its parent: the pipeline must have checked";
        assert !nodes.containsKey(path) : "create " + path + " that exists: the pipeline must have checked";
        assert !EphemeralType.isSessionOwned(parent.ephemeralOwner) : "child of an ephemeral: " + path;
        unhash(parentPath, parent);
        parent.children.add(Paths.name(path));
        if (parentCVersion > parent.cversion) {
            parent.cversion = parentCVersion;
            parent.pzxid = zxid;
        }
        rehash(parentPath, parent);
        Znode created = new Znode(data, acl, zxid, time, ephemeralOwner);
        putNode(path, created);
        if (EphemeralType.isSessionOwned(ephemeralOwner)) {
            ephemerals.computeIfAbsent(ephemeralOwner, s -> new TreeSet<>()).add(path);
        } else if (EphemeralType.isContainer(ephemeralOwner)) {
            containers.add(path);
        }
        // each event goes only to sessions that may read the node it is about (Watches)
        watches.triggerData(path, WatchKind.NODE_CREATED, zxid, created.acl, null);
        watches.triggerChild(parentPath, WatchKind.NODE_CHILDREN_CHANGED, zxid, parent.acl, null);
    }

    public void delete(String path, long zxid) {
        Znode node = nodes.get(path);
        assert node != null : "delete of missing " + path;
        assert node.children.isEmpty() : "delete of non-empty " + path;
        String parentPath = Paths.parent(path);
        Znode parent = nodes.get(parentPath);
        unhash(parentPath, parent);
        parent.children.remove(Paths.name(path));
        // ZooKeeper bumps pzxid but not cversion on a deletion.
        if (zxid > parent.pzxid) {
            parent.pzxid = zxid;
        }
        rehash(parentPath, parent);
        unhash(path, node);
        nodes.remove(path);
        releaseAcl(node.acl);
        if (EphemeralType.isSessionOwned(node.ephemeralOwner)) {
            Set<String> owned = ephemerals.get(node.ephemeralOwner);
            owned.remove(path);
            if (owned.isEmpty()) {
                ephemerals.remove(node.ephemeralOwner);
            }
        } else if (EphemeralType.isContainer(node.ephemeralOwner)) {
            containers.remove(path);
        }
        Set<Long> notified = watches.triggerData(path, WatchKind.NODE_DELETED, zxid, node.acl, null);
        watches.triggerChild(path, WatchKind.NODE_DELETED, zxid, node.acl, notified);
        watches.triggerChild(parentPath, WatchKind.NODE_CHILDREN_CHANGED, zxid, parent.acl, null);
    }

    public void setData(String path, byte[] data, int version, long zxid, long time) {
        Znode node = nodes.get(path);
        assert node != null : "setData of missing " + path;
        unhash(path, node);
        node.data = data;
        node.version = version;
        node.mzxid = zxid;
        node.mtime = time;
        rehash(path, node);
        watches.triggerData(path, WatchKind.NODE_DATA_CHANGED, zxid, node.acl, null);
    }

    public void setAcl(String path, List<ACL> acl, int aversion) {
        Znode node = nodes.get(path);
        assert node != null : "setACL of missing " + path;
        unhash(path, node);
        releaseAcl(node.acl);
        node.acl = retainAcl(acl);
        node.aversion = aversion;
        rehash(path, node);
    }

    // ---- queries ----

    /** The session's ephemerals in path order (the order a closeSession deletes them). */
    public List<String> ephemeralsOf(long sessionId) {
        Set<String> owned = ephemerals.get(sessionId);
        return owned == null ? List.of() : new ArrayList<>(owned);
    }

    public Set<Long> sessionsWithEphemerals() {
        return Collections.unmodifiableSet(ephemerals.keySet());
    }

    /** Containers that had children once and have none now: what ZooKeeper's ContainerManager deletes. */
    public List<String> emptyContainers() {
        List<String> result = new ArrayList<>();
        for (String path : containers) {
            Znode node = nodes.get(path);
            if (node.children.isEmpty() && node.cversion > 0) {
                result.add(path);
            }
        }
        return result;
    }

    /** Number of descendants of path, not counting path itself. */
    public int allChildrenNumber(String path) {
        Znode node = nodes.get(path);
        if (node == null) {
            return 0;
        }
        int n = 0;
        for (String name : node.children) {
            n += 1 + allChildrenNumber(Paths.child(path, name));
        }
        return n;
    }

    /** Every node with its path, in no order (TreeCodec's capture for a snapshot). */
    void forEachNode(java.util.function.BiConsumer<String, Znode> action) {
        nodes.forEach(action);
    }

    /** Paths in sorted order, for comparing trees in tests. */
    public Map<String, Znode> sortedNodes() {
        return new TreeMap<>(nodes);
    }

    public long approximateDataSize() {
        long size = 0;
        for (Map.Entry<String, Znode> e : nodes.entrySet()) {
            size += e.getKey().length() + (e.getValue().data == null ? 0 : e.getValue().data.length);
        }
        return size;
    }

    // ---- restore from a snapshot ----

    /** Puts a node read from a snapshot; parents come before children in snapshot order. */
    void restore(String path, Znode node) {
        if (nodes.containsKey(path)) {
            unhash(path, nodes.get(path));
        }
        putNode(path, node);
        if (!path.equals("/")) {
            Znode parent = nodes.get(Paths.parent(path));
            if (parent == null) {
                throw new IllegalStateException("snapshot has " + path + " before its parent");
            }
            unhash(Paths.parent(path), parent);
            parent.children.add(Paths.name(path));
            rehash(Paths.parent(path), parent);
        }
        if (EphemeralType.isSessionOwned(node.ephemeralOwner)) {
            ephemerals.computeIfAbsent(node.ephemeralOwner, s -> new TreeSet<>()).add(path);
        } else if (EphemeralType.isContainer(node.ephemeralOwner)) {
            containers.add(path);
        }
    }

    // ---- digest ----

    private void putNode(String path, Znode node) {
        node.acl = retainAcl(node.acl);
        Znode replaced = nodes.put(path, node);
        if (replaced != null) { // restore over a node
            releaseAcl(replaced.acl);
        }
        node.pathHash = pathHash(path);
        rehash(path, node);
    }

    private static final class AclUse {
        final List<ACL> acl;
        int nodes;

        AclUse(List<ACL> acl) {
            this.acl = acl;
        }
    }

    /** The shared list equal to acl, counted for one more node. */
    private List<ACL> retainAcl(List<ACL> acl) {
        if (acl == null) {
            return null;
        }
        AclUse use = acls.get(acl);
        if (use == null) {
            List<ACL> shared = List.copyOf(acl); // immutable: a caller's list may change, the key must not
            use = new AclUse(shared);
            acls.put(shared, use);
        }
        use.nodes++;
        assert use.acl.equals(acl) : "shared ACL differs from the node's";
        return use.acl;
    }

    private void releaseAcl(List<ACL> acl) {
        if (acl == null) {
            return;
        }
        AclUse use = acls.get(acl);
        assert use != null && use.nodes > 0 : "releasing an ACL no node holds: " + acl;
        if (--use.nodes == 0) {
            acls.remove(acl);
        }
    }

    /** Takes the node out of the digest with the hash cached when it went in: one hash per change, not two. */
    private void unhash(String path, Znode node) {
        assert node.pathHash == pathHash(path) : "node cached under another path than " + path;
        digest -= node.hash;
    }

    private void rehash(String path, Znode node) {
        node.hash = hash(node.pathHash, node);
        digest += node.hash;
    }

    /** A 64-bit hash of a node's path, data, ACL and Stat fields (children are covered by their own nodes). */
    static long hash(String path, Znode n) {
        return hash(pathHash(path), n);
    }

    private static long pathHash(String path) {
        return mixBytes(0x9E3779B97F4A7C15L, path.getBytes(StandardCharsets.UTF_8));
    }

    private static long hash(long pathHash, Znode n) {
        long h = n.data == null ? mix(pathHash, -1) : mixBytes(pathHash, n.data); // null data is not empty data
        h = mix(h, n.acl == null ? 0 : n.acl.hashCode());
        h = mix(h, n.czxid);
        h = mix(h, n.mzxid);
        h = mix(h, n.ctime);
        h = mix(h, n.mtime);
        h = mix(h, n.version);
        h = mix(h, n.cversion);
        h = mix(h, n.aversion);
        h = mix(h, n.ephemeralOwner);
        h = mix(h, n.pzxid);
        return mix(h, n.children.size());
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Eight bytes per multiply (a 1 KB value was a chain of 1,024 dependent multiplies), then the tail byte by byte. */
    private static long mixBytes(long h, byte[] bytes) {
        int i = 0;
        for (int end = bytes.length - 7; i < end; i += 8) {
            h = Long.rotateLeft(h ^ (long) LONGS.get(bytes, i), 29) * 0x100000001B3L;
        }
        for (; i < bytes.length; i++) {
            h = (h ^ bytes[i]) * 0x100000001B3L;
        }
        return mix(h, bytes.length);
    }

    private static long mix(long h, long v) {
        long x = h ^ (v + 0x9E3779B97F4A7C15L + (h << 6) + (h >>> 2));
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        return x;
    }

    /** Structural invariants of the tree; cheap enough to run after every step in simulation. */
    public void checkInvariants() {
        long sum = 0;
        for (Map.Entry<String, Znode> e : nodes.entrySet()) {
            String path = e.getKey();
            Znode node = e.getValue();
            long fresh = hash(path, node);
            check(node.acl == null || acls.containsKey(node.acl) && acls.get(node.acl).acl == node.acl,
                    "the ACL of " + path + " is not the shared one");
            check(node.hash == fresh, "cached hash of " + path + " is stale");
            sum += fresh;
            if (!path.equals("/")) {
                Znode parent = nodes.get(Paths.parent(path));
                check(parent != null, "node " + path + " has no parent");
                check(parent.children.contains(Paths.name(path)), "parent of " + path + " does not list it");
            }
            for (String name : node.children) {
                check(nodes.containsKey(Paths.child(path, name)), "child " + name + " of " + path + " missing");
            }
            if (EphemeralType.isSessionOwned(node.ephemeralOwner)) {
                check(node.children.isEmpty(), "ephemeral " + path + " has children");
                check(ephemerals.getOrDefault(node.ephemeralOwner, Set.of()).contains(path),
                        "ephemeral " + path + " missing from its session's set");
            }
        }
        check(sum == digest, "incremental digest drifted from the node hashes");
        long aclUses = 0;
        for (AclUse use : acls.values()) {
            check(use.nodes > 0, "an ACL no node has is still kept: " + use.acl);
            aclUses += use.nodes;
        }
        check(aclUses == nodes.size(), aclUses + " ACL uses counted for " + nodes.size() + " nodes");
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError("DataTree invariant: " + message);
        }
    }
}
