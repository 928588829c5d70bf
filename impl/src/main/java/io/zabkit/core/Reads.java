package io.zabkit.core;

import io.zabkit.pipeline.Request;
import io.zabkit.tree.Acls;
import io.zabkit.tree.DataTree;
import io.zabkit.tree.Paths;
import io.zabkit.tree.Watches;
import io.zabkit.tree.Znode;
import io.zabkit.wire.Err;
import io.zabkit.wire.Jute;
import io.zabkit.wire.MultiOps;
import io.zabkit.wire.OpCode;
import io.zabkit.wire.Utf8OutputArchive;
import io.zabkit.wire.ZkException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.ClientInfo;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.proto.AddWatchRequest;
import org.apache.zookeeper.proto.CheckWatchesRequest;
import org.apache.zookeeper.proto.ErrorResponse;
import org.apache.zookeeper.proto.ExistsRequest;
import org.apache.zookeeper.proto.ExistsResponse;
import org.apache.zookeeper.proto.GetACLRequest;
import org.apache.zookeeper.proto.GetACLResponse;
import org.apache.zookeeper.proto.GetAllChildrenNumberRequest;
import org.apache.zookeeper.proto.GetAllChildrenNumberResponse;
import org.apache.zookeeper.proto.GetChildren2Request;
import org.apache.zookeeper.proto.GetChildren2Response;
import org.apache.zookeeper.proto.GetChildrenRequest;
import org.apache.zookeeper.proto.GetChildrenResponse;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.GetDataResponse;
import org.apache.zookeeper.proto.GetEphemeralsRequest;
import org.apache.zookeeper.proto.GetEphemeralsResponse;
import org.apache.zookeeper.proto.MultiHeader;
import org.apache.zookeeper.proto.RemoveWatchesRequest;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.SetWatches;
import org.apache.zookeeper.proto.SetWatches2;
import io.zabkit.tree.WatchKind;

/**
 * Answers reads from this server's applied tree (ZooKeeper reads are local and may lag the leader)
 * and registers the watches they ask for. Every reply header carries lastProcessed, the zxid of the
 * state the read saw.
 */
final class Reads {
    private final DataTree tree;
    private final Watches watches;

    Reads(DataTree tree) {
        this.tree = tree;
        this.watches = tree.watches();
    }

    /** The framed reply to a read; watches set here fire for the first change after this point. */
    byte[] answer(Request r, long lastProcessedZxid, List<Id> authIds) {
        if (r.type() == OpCode.MULTI_READ) {
            return Jute.frame(Replies.concat(Jute.encode(new ReplyHeader(r.xid(), lastProcessedZxid, Err.OK)),
                    multiRead((MultiOps) r.body(), r, authIds, lastProcessedZxid)));
        }
        try {
            Record body = execute(r.type(), r.body(), r, authIds, lastProcessedZxid);
            return Replies.reply(r.xid(), lastProcessedZxid, Err.OK, body);
        } catch (ZkException e) {
            return Replies.reply(r.xid(), lastProcessedZxid, e.code(), null);
        }
    }

    private Record execute(int type, Object body, Request r, List<Id> ids, long lastZxid) throws ZkException {
        long watcher = r.connId();
        switch (type) {
            case OpCode.EXISTS: {
                ExistsRequest q = (ExistsRequest) body;
                Paths.validate(q.getPath());
                Znode n = tree.get(q.getPath());
                if (n != null) {
                    Acls.check(n.acl(), Acls.READ, ids, q.getPath()); // as ZooKeeper 3.9: READ, and no watch without it
                }
                if (q.getWatch()) {
                    watches.addData(q.getPath(), watcher);
                }
                if (n == null) {
                    throw new ZkException(Err.NO_NODE, q.getPath());
                }
                return new ExistsResponse(n.stat());
            }
            case OpCode.GET_DATA: {
                GetDataRequest q = (GetDataRequest) body;
                Znode n = readable(q.getPath(), ids);
                if (q.getWatch()) {
                    watches.addData(q.getPath(), watcher);
                }
                return new GetDataResponse(n.data(), n.stat());
            }
            case OpCode.GET_CHILDREN: {
                GetChildrenRequest q = (GetChildrenRequest) body;
                Znode n = readable(q.getPath(), ids);
                if (q.getWatch()) {
                    watches.addChild(q.getPath(), watcher);
                }
                return new GetChildrenResponse(new ArrayList<>(n.children()));
            }
            case OpCode.GET_CHILDREN2: {
                GetChildren2Request q = (GetChildren2Request) body;
                Znode n = readable(q.getPath(), ids);
                if (q.getWatch()) {
                    watches.addChild(q.getPath(), watcher);
                }
                return new GetChildren2Response(new ArrayList<>(n.children()), n.stat());
            }
            case OpCode.GET_ACL:
                return getAcl((GetACLRequest) body, ids);
            case OpCode.GET_ALL_CHILDREN_NUMBER: {
                String path = ((GetAllChildrenNumberRequest) body).getPath();
                readable(path, ids);
                return new GetAllChildrenNumberResponse(tree.allChildrenNumber(path));
            }
            case OpCode.GET_EPHEMERALS: {
                String prefix = ((GetEphemeralsRequest) body).getPrefixPath();
                List<String> result = new ArrayList<>();
                for (String path : tree.ephemeralsOf(r.sessionId())) {
                    if (prefix == null || prefix.isEmpty() || prefix.equals("/") || path.startsWith(prefix)) {
                        result.add(path);
                    }
                }
                return new GetEphemeralsResponse(result);
            }
            case OpCode.CHECK_WATCHES: {
                CheckWatchesRequest q = (CheckWatchesRequest) body;
                if (!hasWatch(q.getPath(), q.getType(), watcher, false)) {
                    throw new ZkException(Err.NO_WATCHER, q.getPath());
                }
                return null;
            }
            case OpCode.REMOVE_WATCHES: {
                RemoveWatchesRequest q = (RemoveWatchesRequest) body;
                if (!hasWatch(q.getPath(), q.getType(), watcher, true)) {
                    throw new ZkException(Err.NO_WATCHER, q.getPath());
                }
                return null;
            }
            case OpCode.ADD_WATCH: {
                AddWatchRequest q = (AddWatchRequest) body;
                Paths.validate(q.getPath());
                if (q.getMode() != 0 && q.getMode() != 1) {
                    throw new ZkException(Err.BAD_ARGUMENTS, "addWatch mode " + q.getMode());
                }
                watches.addPersistent(q.getPath(), watcher, q.getMode() == 1);
                return new ErrorResponse(Err.OK); // the Java client reads this body; without it, ConnectionLoss
            }
            case OpCode.SET_WATCHES: {
                SetWatches q = (SetWatches) body;
                setWatches(q.getRelativeZxid(), q.getDataWatches(), q.getExistWatches(), q.getChildWatches(),
                        List.of(), List.of(), watcher, lastZxid);
                return null;
            }
            case OpCode.SET_WATCHES2: {
                SetWatches2 q = (SetWatches2) body;
                setWatches(q.getRelativeZxid(), q.getDataWatches(), q.getExistWatches(), q.getChildWatches(),
                        q.getPersistentWatches(), q.getPersistentRecursiveWatches(), watcher, lastZxid);
                return null;
            }
            case OpCode.WHO_AM_I:
                return whoAmI(ids);
            default:
                throw new ZkException(Err.UNIMPLEMENTED, OpCode.name(type));
        }
    }

    private Znode readable(String path, List<Id> ids) throws ZkException {
        Paths.validate(path);
        Znode n = tree.get(path);
        if (n == null) {
            throw new ZkException(Err.NO_NODE, path);
        }
        Acls.check(n.acl(), Acls.READ, ids, path);
        return n;
    }

    /** READ or ADMIN may read an ACL; without ADMIN the digest hashes are masked, as in ZooKeeper. */
    private Record getAcl(GetACLRequest q, List<Id> ids) throws ZkException {
        Paths.validate(q.getPath());
        Znode n = tree.get(q.getPath());
        if (n == null) {
            throw new ZkException(Err.NO_NODE, q.getPath());
        }
        boolean admin = Acls.permits(n.acl(), Acls.ADMIN, ids);
        if (!admin) {
            Acls.check(n.acl(), Acls.READ, ids, q.getPath());
        }
        List<ACL> acl = new ArrayList<>();
        for (ACL a : n.acl()) {
            Id id = a.getId();
            if (!admin && id.getScheme().equals("digest")) {
                id = new Id("digest", id.getId().substring(0, id.getId().indexOf(':')) + ":x");
            }
            acl.add(new ACL(a.getPerms(), id));
        }
        return new GetACLResponse(acl, n.stat());
    }

    /** checkWatches / removeWatches: types 1 children, 2 data, 3 any, 4 persistent, 5 recursive. */
    private boolean hasWatch(String path, int type, long watcher, boolean remove) throws ZkException {
        Paths.validate(path);
        boolean data = type == 2 || type == 3;
        boolean child = type == 1 || type == 3;
        boolean found = false;
        if (type == 4 || type == 5) {
            found = watches.hasPersistent(path, watcher, type == 5);
            if (found && remove) {
                watches.removeData(path, watcher);
                watches.removeChild(path, watcher);
            }
            return found;
        }
        if (type < 1 || type > 5) {
            throw new ZkException(Err.BAD_ARGUMENTS, "watcher type " + type);
        }
        if (data && watches.hasData(path, watcher)) {
            found = true;
            if (remove) {
                watches.removeData(path, watcher);
            }
        }
        if (child && watches.hasChild(path, watcher)) {
            found = true;
            if (remove) {
                watches.removeChild(path, watcher);
            }
        }
        return found;
    }

    /**
     * Re-registers a moved client's watches. A change the client missed since relativeZxid fires at
     * once instead (ZooKeeper's DataTree.setWatches); the header zxid of such an event is the node's
     * mzxid, pzxid or czxid, or lastProcessed for a node that is gone.
     */
    private void setWatches(long relativeZxid, List<String> data, List<String> exist, List<String> child,
                            List<String> persistent, List<String> recursive, long watcher, long lastZxid) {
        List<Watches.Fired> missed = new ArrayList<>();
        for (String path : nonNull(data)) {
            Znode n = tree.get(path);
            if (n == null) {
                missed.add(new Watches.Fired(watcher, WatchKind.NODE_DELETED, path, lastZxid));
            } else if (n.mzxid() > relativeZxid) {
                missed.add(new Watches.Fired(watcher, WatchKind.NODE_DATA_CHANGED, path, n.mzxid()));
            } else {
                watches.addData(path, watcher);
            }
        }
        for (String path : nonNull(exist)) {
            Znode n = tree.get(path);
            if (n != null) {
                missed.add(new Watches.Fired(watcher, WatchKind.NODE_CREATED, path, n.stat().getCzxid()));
            } else {
                watches.addData(path, watcher);
            }
        }
        for (String path : nonNull(child)) {
            Znode n = tree.get(path);
            if (n == null) {
                missed.add(new Watches.Fired(watcher, WatchKind.NODE_DELETED, path, lastZxid));
            } else if (n.pzxid() > relativeZxid) {
                missed.add(new Watches.Fired(watcher, WatchKind.NODE_CHILDREN_CHANGED, path, n.pzxid()));
            } else {
                watches.addChild(path, watcher);
            }
        }
        for (String path : nonNull(persistent)) {
            watches.addPersistent(path, watcher, false);
        }
        for (String path : nonNull(recursive)) {
            watches.addPersistent(path, watcher, true);
        }
        pendingMissed.addAll(missed);
    }

    /** Events setWatches found missed; the core sends them before the setWatches reply. */
    final List<Watches.Fired> pendingMissed = new ArrayList<>();

    private static List<String> nonNull(List<String> l) {
        return l == null ? List.of() : l;
    }

    private static Record whoAmI(List<Id> ids) {
        List<ClientInfo> infos = new ArrayList<>();
        for (Id id : ids) {
            String user = id.getScheme().equals("digest") && id.getId().contains(":")
                    ? id.getId().substring(0, id.getId().indexOf(':')) : id.getId();
            infos.add(new ClientInfo(id.getScheme(), user));
        }
        return new org.apache.zookeeper.proto.WhoAmIResponse(infos);
    }

    /** multiRead: each op answered on its own (no atomicity), errors per op. */
    private byte[] multiRead(MultiOps ops, Request r, List<Id> ids, long lastZxid) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryOutputArchive out = new Utf8OutputArchive(bytes);
        try {
            for (MultiOps.Op op : ops.ops()) {
                Record result;
                try {
                    if (op.type() != OpCode.GET_DATA && op.type() != OpCode.GET_CHILDREN) {
                        throw new ZkException(Err.BAD_ARGUMENTS, OpCode.name(op.type()) + " in multiRead");
                    }
                    result = execute(op.type(), op.body(), r, ids, lastZxid);
                    new MultiHeader(op.type(), false, Err.OK).serialize(out, "hdr");
                } catch (ZkException e) {
                    new MultiHeader(OpCode.ERROR, false, e.code()).serialize(out, "hdr");
                    result = new ErrorResponse(e.code());
                }
                result.serialize(out, "result");
            }
            new MultiHeader(-1, true, -1).serialize(out, "done");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
