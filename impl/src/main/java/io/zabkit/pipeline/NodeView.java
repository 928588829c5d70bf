package io.zabkit.pipeline;

import io.zabkit.tree.Znode;
import java.util.List;
import org.apache.zookeeper.data.ACL;

/**
 * What the pipeline knows of a node when it validates a write: the applied tree's node, or the node
 * as the transactions already prepared but not yet applied will leave it (ZooKeeper's ChangeRecord).
 */
record NodeView(boolean exists, List<ACL> acl, int version, int cversion, int aversion, long ephemeralOwner,
                int numChildren) {

    static final NodeView ABSENT = new NodeView(false, List.of(), 0, 0, 0, 0, 0);

    static NodeView of(Znode n) {
        return n == null ? ABSENT
                : new NodeView(true, n.acl(), n.version(), n.cversion(), n.aversion(), n.ephemeralOwner(),
                        n.numChildren());
    }

    static NodeView created(List<ACL> acl, long ephemeralOwner) {
        return new NodeView(true, acl, 0, 0, 0, ephemeralOwner, 0);
    }

    NodeView withVersion(int v) {
        return new NodeView(true, acl, v, cversion, aversion, ephemeralOwner, numChildren);
    }

    NodeView withAcl(List<ACL> a, int av) {
        return new NodeView(true, a, version, cversion, av, ephemeralOwner, numChildren);
    }

    NodeView withChildAdded() {
        return new NodeView(true, acl, version, cversion + 1, aversion, ephemeralOwner, numChildren + 1);
    }

    NodeView withChildRemoved() {
        return new NodeView(true, acl, version, cversion, aversion, ephemeralOwner, numChildren - 1);
    }
}
