package io.zabkit.tree;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * One znode of the data tree. Mutated only by {@link DataTree} while applying a transaction, so every
 * server that applies the same history holds equal nodes.
 */
public final class Znode {
    byte[] data;
    List<ACL> acl;
    final long czxid;
    final long ctime;
    /** Owner session for ephemerals, {@link EphemeralType#CONTAINER_OWNER} for containers, 0 otherwise. */
    final long ephemeralOwner;
    long mzxid;
    long mtime;
    int version;
    /** Bumped by every child creation, never by a deletion (as ZooKeeper does); the sequence suffix source. */
    int cversion;
    int aversion;
    /** zxid of the last creation or deletion of a child. */
    long pzxid;
    final Set<String> children = new HashSet<>();
    /** DataTree's digest: the hash of this node's path (fixed), and of the whole node as it now is. */
    long pathHash;
    long hash;

    Znode(byte[] data, List<ACL> acl, long zxid, long time, long ephemeralOwner) {
        this.data = data;
        this.acl = acl;
        this.czxid = zxid;
        this.mzxid = zxid;
        this.pzxid = zxid;
        this.ctime = time;
        this.mtime = time;
        this.ephemeralOwner = ephemeralOwner;
    }

    /** Restores a node from a snapshot, every Stat field as it was. */
    Znode(byte[] data, List<ACL> acl, Stat s) {
        this(data, acl, s.getCzxid(), s.getCtime(), s.getEphemeralOwner());
        this.mzxid = s.getMzxid();
        this.mtime = s.getMtime();
        this.version = s.getVersion();
        this.cversion = s.getCversion();
        this.aversion = s.getAversion();
        this.pzxid = s.getPzxid();
    }

    public byte[] data() {
        return data;
    }

    public List<ACL> acl() {
        return acl;
    }

    public int version() {
        return version;
    }

    public int cversion() {
        return cversion;
    }

    public int aversion() {
        return aversion;
    }

    public long ephemeralOwner() {
        return ephemeralOwner;
    }

    public long mzxid() {
        return mzxid;
    }

    public long pzxid() {
        return pzxid;
    }

    public int numChildren() {
        return children.size();
    }

    public Set<String> children() {
        return children;
    }

    /**
     * The client-visible Stat: every field exactly as ZooKeeper reports it. ZooKeeper stores cversion
     * as a count of child creations (the sequence counter) and reports {@code 2 * cversion - numChildren},
     * which also counts deletions.
     */
    public Stat stat() {
        return new Stat(czxid, mzxid, ctime, mtime, version, 2 * cversion - children.size(), aversion,
                ephemeralOwner, data == null ? 0 : data.length, children.size(), pzxid);
    }

    /** The Stat as stored: cversion is the raw creation count, as snapshots keep it. */
    Stat storedStat() {
        return new Stat(czxid, mzxid, ctime, mtime, version, cversion, aversion, ephemeralOwner,
                data == null ? 0 : data.length, children.size(), pzxid);
    }
}
