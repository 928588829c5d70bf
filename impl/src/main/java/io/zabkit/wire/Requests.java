package io.zabkit.wire;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.jute.BinaryInputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.proto.AddWatchRequest;
import org.apache.zookeeper.proto.CheckVersionRequest;
import org.apache.zookeeper.proto.CheckWatchesRequest;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.CreateTTLRequest;
import org.apache.zookeeper.proto.DeleteRequest;
import org.apache.zookeeper.proto.ExistsRequest;
import org.apache.zookeeper.proto.GetACLRequest;
import org.apache.zookeeper.proto.GetAllChildrenNumberRequest;
import org.apache.zookeeper.proto.GetChildren2Request;
import org.apache.zookeeper.proto.GetChildrenRequest;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.GetEphemeralsRequest;
import org.apache.zookeeper.proto.MultiHeader;
import org.apache.zookeeper.proto.ReconfigRequest;
import org.apache.zookeeper.proto.RemoveWatchesRequest;
import org.apache.zookeeper.proto.SetACLRequest;
import org.apache.zookeeper.proto.SetDataRequest;
import org.apache.zookeeper.proto.SetWatches;
import org.apache.zookeeper.proto.SetWatches2;
import org.apache.zookeeper.proto.SyncRequest;

/** Decodes the body of a client request by its op code. */
public final class Requests {
    private Requests() {}

    /** Bound on ops in one multi, so a forged count cannot make the server loop or allocate without end. */
    public static final int MAX_MULTI_OPS = 100_000;

    /**
     * The request record for {@code type}, read from {@code in}; null for requests without a body
     * (ping, closeSession, whoAmI). Throws for malformed bodies and for op codes {@link #isKnown}
     * denies: the caller closes the connection.
     */
    public static Object decode(int type, BinaryInputArchive in) throws IOException {
        switch (type) {
            case OpCode.PING:
            case OpCode.CLOSE_SESSION:
            case OpCode.WHO_AM_I:
                return null;
            case OpCode.MULTI:
            case OpCode.MULTI_READ:
                return decodeMulti(in);
            case OpCode.RECONFIG: {
                // Decoded so that it gets ZooKeeper's answer (ReconfigDisabled); never inside a multi.
                ReconfigRequest r = new ReconfigRequest();
                r.deserialize(in, "request");
                return r;
            }
            default:
                Record r = newBody(type);
                if (r == null) {
                    throw new IOException("unknown op code " + type);
                }
                r.deserialize(in, "request");
                return r;
        }
    }

    /**
     * Whether the server decodes this op code as a request (auth and sasl have their own handlers).
     * Anything else is answered Unimplemented, as ZooKeeper answers op codes its Request.isValid denies.
     */
    public static boolean isKnown(int type) {
        switch (type) {
            case OpCode.PING:
            case OpCode.CLOSE_SESSION:
            case OpCode.WHO_AM_I:
            case OpCode.MULTI:
            case OpCode.MULTI_READ:
            case OpCode.RECONFIG:
                return true;
            default:
                return newBody(type) != null;
        }
    }

    static Record newBody(int type) {
        switch (type) {
            case OpCode.CREATE:
            case OpCode.CREATE2:
            case OpCode.CREATE_CONTAINER:
                return new CreateRequest();
            case OpCode.CREATE_TTL:
                return new CreateTTLRequest();
            case OpCode.DELETE:
            case OpCode.DELETE_CONTAINER:
                return new DeleteRequest();
            case OpCode.EXISTS:
                return new ExistsRequest();
            case OpCode.GET_DATA:
                return new GetDataRequest();
            case OpCode.SET_DATA:
                return new SetDataRequest();
            case OpCode.GET_ACL:
                return new GetACLRequest();
            case OpCode.SET_ACL:
                return new SetACLRequest();
            case OpCode.GET_CHILDREN:
                return new GetChildrenRequest();
            case OpCode.GET_CHILDREN2:
                return new GetChildren2Request();
            case OpCode.SYNC:
                return new SyncRequest();
            case OpCode.CHECK:
                return new CheckVersionRequest();
            case OpCode.CHECK_WATCHES:
                return new CheckWatchesRequest();
            case OpCode.REMOVE_WATCHES:
                return new RemoveWatchesRequest();
            case OpCode.SET_WATCHES:
                return new SetWatches();
            case OpCode.SET_WATCHES2:
                return new SetWatches2();
            case OpCode.ADD_WATCH:
                return new AddWatchRequest();
            case OpCode.GET_EPHEMERALS:
                return new GetEphemeralsRequest();
            case OpCode.GET_ALL_CHILDREN_NUMBER:
                return new GetAllChildrenNumberRequest();
            default:
                return null;
        }
    }

    private static MultiOps decodeMulti(BinaryInputArchive in) throws IOException {
        List<MultiOps.Op> ops = new ArrayList<>();
        MultiHeader h = new MultiHeader();
        h.deserialize(in, "multiheader");
        while (!h.getDone()) {
            if (ops.size() >= MAX_MULTI_OPS) {
                throw new IOException("multi with more than " + MAX_MULTI_OPS + " ops");
            }
            Record body = newBody(h.getType());
            if (body == null) {
                throw new IOException("unknown op code " + h.getType() + " inside a multi");
            }
            body.deserialize(in, "op");
            ops.add(new MultiOps.Op(h.getType(), body));
            h.deserialize(in, "multiheader");
        }
        return new MultiOps(ops);
    }
}
