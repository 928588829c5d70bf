package io.zabkit.pipeline;

import io.zabkit.tree.Acls;
import io.zabkit.tree.DataTree;
import io.zabkit.tree.EphemeralType;
import io.zabkit.tree.Paths;
import io.zabkit.session.Sessions;
import io.zabkit.txn.Txn;
import io.zabkit.wire.Err;
import io.zabkit.wire.Jute;
import io.zabkit.wire.MultiOps;
import io.zabkit.wire.OpCode;
import io.zabkit.wire.ZkException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.jute.Record;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.proto.CheckVersionRequest;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.DeleteRequest;
import org.apache.zookeeper.proto.SetACLRequest;
import org.apache.zookeeper.proto.SetDataRequest;
import org.apache.zookeeper.txn.CheckVersionTxn;
import org.apache.zookeeper.txn.CloseSessionTxn;
import org.apache.zookeeper.txn.CreateContainerTxn;
import org.apache.zookeeper.txn.CreateSessionTxn;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.ErrorTxn;
import org.apache.zookeeper.txn.MultiTxn;
import org.apache.zookeeper.txn.SetACLTxn;
import org.apache.zookeeper.txn.SetDataTxn;

/**
 * Turns a write request into the transaction the history will carry (ZooKeeper's
 * PrepRequestProcessor): checks the session, the path, the ACL and the expected version against the
 * node as already-prepared transactions will leave it, and assigns the outcome. A write that fails
 * still becomes a transaction (an error txn) with its own zxid, as in ZooKeeper, so a client's
 * writes and failures are totally ordered with everyone else's.
 */
public final class Prep {
    private final DataTree tree;
    private final Sessions sessions;
    private final PendingChanges pending;
    private final int maxBufferBytes;
    /** The ACL schemes zoo.cfg's authProvider.N add (sasl, x509) to the built-in ones. */
    private final java.util.Set<String> providerSchemes;

    public Prep(DataTree tree, Sessions sessions, int maxBufferBytes) {
        this(tree, sessions, maxBufferBytes, java.util.Set.of());
    }

    public Prep(DataTree tree, Sessions sessions, int maxBufferBytes, java.util.Set<String> providerSchemes) {
        this.tree = tree;
        this.sessions = sessions;
        this.pending = new PendingChanges(tree);
        this.maxBufferBytes = maxBufferBytes;
        this.providerSchemes = java.util.Set.copyOf(providerSchemes);
    }

    /** The applied tree now includes everything up to zxid. */
    public void applied(long zxid) {
        pending.applied(zxid);
    }

    public boolean hasPending() {
        return !pending.isEmpty();
    }

    public Txn createSession(long sessionId, int timeoutMs, long zxid, long nowMs) {
        return new Txn(zxid, sessionId, 0, nowMs, OpCode.CREATE_SESSION, new CreateSessionTxn(timeoutMs));
    }

    /** Closes a session (by request or expiry): its ephemerals, including pending ones, go with it. */
    public Txn closeSession(long sessionId, int cxid, long zxid, long nowMs) {
        List<String> doomed = pending.ephemeralsOf(sessionId);
        for (String path : doomed) {
            String parent = Paths.parent(path);
            pending.record(zxid, parent, pending.view(parent).withChildRemoved());
            pending.record(zxid, path, NodeView.ABSENT);
        }
        sessions.markClosing(sessionId);
        return new Txn(zxid, sessionId, cxid, nowMs, OpCode.CLOSE_SESSION, new CloseSessionTxn(doomed));
    }

    /** A container with no children, counting pending creates and deletes. */
    public boolean isDeletableContainer(String path) {
        NodeView node = pending.view(path);
        return node.exists() && node.numChildren() == 0 && EphemeralType.isContainer(node.ephemeralOwner());
    }

    /** Deletes an empty container, as ZooKeeper's ContainerManager does. */
    public Txn deleteContainer(String path, long zxid, long nowMs) {
        assert isDeletableContainer(path) : path + " is not an empty container";
        recordDelete(path, zxid);
        return new Txn(zxid, 0, 0, nowMs, OpCode.DELETE_CONTAINER, new DeleteTxn(path));
    }

    /** The transaction for a client write; failures become an error txn carrying the error code. */
    public Txn prepare(Request request, long zxid, long nowMs) {
        try {
            checkSession(request.sessionId());
            if (request.type() == OpCode.MULTI) {
                return new Txn(zxid, request.sessionId(), request.xid(), nowMs, OpCode.MULTI,
                        prepareMulti((MultiOps) request.body(), request, zxid));
            }
            if (request.type() == OpCode.CLOSE_SESSION) {
                return closeSession(request.sessionId(), request.xid(), zxid, nowMs);
            }
            Record body = prepareOne(request.type(), (Record) request.body(), request, zxid);
            return new Txn(zxid, request.sessionId(), request.xid(), nowMs, txnType(request.type()), body);
        } catch (ZkException e) {
            return new Txn(zxid, request.sessionId(), request.xid(), nowMs, OpCode.ERROR, new ErrorTxn(e.code()));
        }
    }

    private void checkSession(long sessionId) throws ZkException {
        if (!sessions.isActive(sessionId)) {
            throw new ZkException(Err.SESSION_EXPIRED, "session 0x" + Long.toHexString(sessionId));
        }
    }

    private static int txnType(int requestType) {
        return requestType == OpCode.DELETE_CONTAINER ? OpCode.DELETE : requestType;
    }

    private Record prepareOne(int type, Record body, Request request, long zxid) throws ZkException {
        switch (type) {
            case OpCode.CREATE:
            case OpCode.CREATE2:
            case OpCode.CREATE_CONTAINER:
                return prepareCreate(type, (CreateRequest) body, request, zxid);
            case OpCode.CREATE_TTL:
                // TTL nodes need ZooKeeper's extended types, which are off by default there too.
                throw new ZkException(Err.UNIMPLEMENTED, "createTTL (extended types are disabled)");
            case OpCode.DELETE:
                return prepareDelete((DeleteRequest) body, request, zxid);
            case OpCode.SET_DATA:
                return prepareSetData((SetDataRequest) body, request, zxid);
            case OpCode.SET_ACL:
                return prepareSetAcl((SetACLRequest) body, request, zxid);
            case OpCode.CHECK:
                return prepareCheck((CheckVersionRequest) body, request);
            case OpCode.RECONFIG:
                throw new ZkException(Err.RECONFIG_DISABLED, "reconfig");
            default:
                throw new ZkException(Err.BAD_ARGUMENTS, "op " + OpCode.name(type) + " is not a write");
        }
    }

    private Record prepareCreate(int type, CreateRequest req, Request request, long zxid) throws ZkException {
        int flags = req.getFlags();
        boolean ephemeral = flags == 1 || flags == 3;
        boolean sequential = flags == 2 || flags == 3;
        boolean container = type == OpCode.CREATE_CONTAINER || flags == 4;
        if (flags < 0 || flags > 4 || (container && type != OpCode.CREATE_CONTAINER)
                || (type == OpCode.CREATE_CONTAINER && flags != 4)) {
            throw new ZkException(Err.BAD_ARGUMENTS, "create flags " + flags + " with " + OpCode.name(type));
        }
        String path = req.getPath();
        if (sequential) {
            Paths.validateSequential(path);
        } else {
            Paths.validate(path);
        }
        if (path.equals("/")) {
            throw new ZkException(Err.BAD_ARGUMENTS, "cannot create /");
        }
        if (req.getData() != null && req.getData().length > maxBufferBytes) {
            throw new ZkException(Err.BAD_ARGUMENTS, path + ": data larger than jute.maxbuffer");
        }
        List<ACL> acl = Acls.fixup(req.getAcl(), request.authIds(), path, providerSchemes);
        String parentPath = Paths.parent(path);
        NodeView parent = pending.view(parentPath);
        if (!parent.exists()) {
            throw new ZkException(Err.NO_NODE, parentPath);
        }
        Acls.check(parent.acl(), Acls.CREATE, request.authIds(), path);
        if (sequential) {
            path = path + String.format(Locale.ENGLISH, "%010d", parent.cversion());
            Paths.validate(path);
        }
        if (pending.view(path).exists()) {
            throw new ZkException(Err.NODE_EXISTS, path);
        }
        if (EphemeralType.isSessionOwned(parent.ephemeralOwner())) {
            throw new ZkException(Err.NO_CHILDREN_FOR_EPHEMERALS, path);
        }
        int newParentCVersion = parent.cversion() + 1;
        long owner = container ? EphemeralType.CONTAINER_OWNER : ephemeral ? request.sessionId() : 0;
        pending.record(zxid, parentPath, parent.withChildAdded());
        pending.record(zxid, path, NodeView.created(acl, owner));
        byte[] data = req.getData(); // null stays null (jute length -1), as ZooKeeper stores it
        if (container) {
            return new CreateContainerTxn(path, data, acl, newParentCVersion);
        }
        return new CreateTxn(path, data, acl, ephemeral, newParentCVersion);
    }

    private Record prepareDelete(DeleteRequest req, Request request, long zxid) throws ZkException {
        String path = req.getPath();
        Paths.validate(path);
        if (path.equals("/") || path.equals(DataTree.ZOOKEEPER) || path.equals(DataTree.QUOTA)
                || path.equals(DataTree.CONFIG)) {
            throw new ZkException(Err.BAD_ARGUMENTS, "cannot delete " + path);
        }
        NodeView parent = pending.view(Paths.parent(path));
        NodeView node = pending.view(path);
        if (!node.exists()) {
            throw new ZkException(Err.NO_NODE, path);
        }
        Acls.check(parent.acl(), Acls.DELETE, request.authIds(), path);
        checkVersion(req.getVersion(), node.version(), path);
        if (node.numChildren() > 0) {
            throw new ZkException(Err.NOT_EMPTY, path);
        }
        recordDelete(path, zxid);
        return new DeleteTxn(path);
    }

    private void recordDelete(String path, long zxid) {
        String parentPath = Paths.parent(path);
        pending.record(zxid, parentPath, pending.view(parentPath).withChildRemoved());
        pending.record(zxid, path, NodeView.ABSENT);
    }

    private Record prepareSetData(SetDataRequest req, Request request, long zxid) throws ZkException {
        String path = req.getPath();
        Paths.validate(path);
        NodeView node = pending.view(path);
        if (!node.exists()) {
            throw new ZkException(Err.NO_NODE, path);
        }
        Acls.check(node.acl(), Acls.WRITE, request.authIds(), path);
        if (req.getData() != null && req.getData().length > maxBufferBytes) {
            throw new ZkException(Err.BAD_ARGUMENTS, path + ": data larger than jute.maxbuffer");
        }
        checkVersion(req.getVersion(), node.version(), path);
        int newVersion = node.version() + 1;
        pending.record(zxid, path, node.withVersion(newVersion));
        return new SetDataTxn(path, req.getData(), newVersion); // null stays null, as in ZooKeeper
    }

    private Record prepareSetAcl(SetACLRequest req, Request request, long zxid) throws ZkException {
        String path = req.getPath();
        Paths.validate(path);
        NodeView node = pending.view(path);
        if (!node.exists()) {
            throw new ZkException(Err.NO_NODE, path);
        }
        Acls.check(node.acl(), Acls.ADMIN, request.authIds(), path);
        checkVersion(req.getVersion(), node.aversion(), path);
        List<ACL> acl = Acls.fixup(req.getAcl(), request.authIds(), path, providerSchemes);
        int newAversion = node.aversion() + 1;
        pending.record(zxid, path, node.withAcl(acl, newAversion));
        return new SetACLTxn(path, acl, newAversion);
    }

    private Record prepareCheck(CheckVersionRequest req, Request request) throws ZkException {
        String path = req.getPath();
        Paths.validate(path);
        NodeView node = pending.view(path);
        if (!node.exists()) {
            throw new ZkException(Err.NO_NODE, path);
        }
        Acls.check(node.acl(), Acls.READ, request.authIds(), path);
        checkVersion(req.getVersion(), node.version(), path);
        return new CheckVersionTxn(path, req.getVersion());
    }

    private static void checkVersion(int expected, int current, String path) throws ZkException {
        if (expected != -1 && expected != current) {
            throw new ZkException(Err.BAD_VERSION, path + " (expected " + expected + ", is " + current + ")");
        }
    }

    /**
     * A multi is all or nothing: ops are checked in order against the view the earlier ops leave;
     * at the first failure the view is rolled back, and the txn records the failing op's error and
     * RuntimeInconsistency for the ops after it (applying it changes nothing).
     */
    private MultiTxn prepareMulti(MultiOps multi, Request request, long zxid) throws ZkException {
        List<org.apache.zookeeper.txn.Txn> txns = new ArrayList<>(multi.ops().size());
        int failure = Err.OK;
        pending.beginMulti();
        try {
            for (MultiOps.Op op : multi.ops()) {
                if (failure != Err.OK) {
                    txns.add(errorSubTxn(Err.RUNTIME_INCONSISTENCY));
                    continue;
                }
                try {
                    if (!isMultiWriteOp(op.type())) {
                        throw new ZkException(Err.BAD_ARGUMENTS, "op " + OpCode.name(op.type()) + " in a multi");
                    }
                    Record body = prepareOne(op.type(), op.body(), request, zxid);
                    txns.add(new org.apache.zookeeper.txn.Txn(txnType(op.type()), Jute.encode(body)));
                } catch (ZkException e) {
                    failure = e.code();
                    txns.add(errorSubTxn(failure));
                }
            }
        } finally {
            if (failure != Err.OK) {
                pending.rollbackMulti();
            } else {
                pending.endMulti();
            }
        }
        return new MultiTxn(txns);
    }

    private static boolean isMultiWriteOp(int type) {
        switch (type) {
            case OpCode.CREATE: case OpCode.CREATE2: case OpCode.CREATE_CONTAINER: case OpCode.CREATE_TTL:
            case OpCode.DELETE: case OpCode.SET_DATA: case OpCode.CHECK:
                return true;
            default:
                return false;
        }
    }

    private static org.apache.zookeeper.txn.Txn errorSubTxn(int code) {
        return new org.apache.zookeeper.txn.Txn(OpCode.ERROR, Jute.encode(new ErrorTxn(code)));
    }
}
