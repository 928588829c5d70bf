package io.zabkit.core;

import io.zabkit.pipeline.TxnResult;
import io.zabkit.tree.WatchKind;
import io.zabkit.wire.Err;
import io.zabkit.wire.Jute;
import io.zabkit.wire.OpCode;
import io.zabkit.wire.Utf8OutputArchive;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.proto.ConnectResponse;
import org.apache.zookeeper.proto.Create2Response;
import org.apache.zookeeper.proto.CreateResponse;
import org.apache.zookeeper.proto.ErrorResponse;
import org.apache.zookeeper.proto.MultiHeader;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.SetACLResponse;
import org.apache.zookeeper.proto.SetDataResponse;
import org.apache.zookeeper.proto.WatcherEvent;

/** Encodes what the server sends a client: framed reply headers and bodies, notifications, connect responses. */
final class Replies {
    private Replies() {}

    static final int NOTIFICATION_XID = -1;
    static final int PING_XID = -2;
    static final int AUTH_XID = -4;
    static final int SET_WATCHES_XID = -8;

    static byte[] reply(int xid, long zxid, int err, Record body) {
        return Jute.encodeFrame(new ReplyHeader(xid, zxid, err), err == Err.OK ? body : null);
    }

    /**
     * A reply whose body is sent whatever the error, as ZooKeeper answers a failed SASL step: its client
     * reads the token that follows the header even then, and takes a missing one for a broken connection.
     */
    static byte[] replyWithBody(int xid, long zxid, int err, Record body) {
        return Jute.encodeFrame(new ReplyHeader(xid, zxid, err), body);
    }

    /** A watch notification; its header carries the zxid of the change that fired it. */
    static byte[] notification(int type, String path, long zxid) {
        return Jute.encodeFrame(new ReplyHeader(NOTIFICATION_XID, zxid, Err.OK),
                new WatcherEvent(type, WatchKind.SYNC_CONNECTED, path));
    }

    static byte[] connectResponse(int timeoutMs, long sessionId, byte[] password) {
        return connectResponse(timeoutMs, sessionId, password, false);
    }

    /** With readOnly, the client learns it is served by a read-only server (its state CONNECTEDREADONLY). */
    static byte[] connectResponse(int timeoutMs, long sessionId, byte[] password, boolean readOnly) {
        return Jute.encodeFrame(new ConnectResponse(0, timeoutMs, sessionId, password, readOnly));
    }

    /** What ZooKeeper answers a client whose session is gone or whose password is wrong: timeout 0. */
    static byte[] sessionExpiredResponse() {
        return connectResponse(0, 0, new byte[16]);
    }

    /** The reply to a committed write, shaped by the request type the client sent. */
    static byte[] writeReply(int xid, long zxid, int requestType, TxnResult r) {
        if (requestType == OpCode.MULTI) {
            return Jute.frame(concat(Jute.encode(new ReplyHeader(xid, zxid, Err.OK)), multiBody(r)));
        }
        if (r.err() != Err.OK) {
            return reply(xid, zxid, r.err(), null);
        }
        return reply(xid, zxid, Err.OK, writeBody(requestType, r));
    }

    private static Record writeBody(int requestType, TxnResult r) {
        switch (requestType) {
            case OpCode.CREATE:
                return new CreateResponse(r.path());
            case OpCode.CREATE2:
            case OpCode.CREATE_CONTAINER:
            case OpCode.CREATE_TTL:
                return new Create2Response(r.path(), r.stat());
            case OpCode.SET_DATA:
                return new SetDataResponse(r.stat());
            case OpCode.SET_ACL:
                return new SetACLResponse(r.stat());
            default:
                return null; // delete, check, closeSession: the header says it all
        }
    }

    /** ZooKeeper's MultiResponse: (MultiHeader, result) pairs, then a done header. */
    private static byte[] multiBody(TxnResult r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryOutputArchive out = new Utf8OutputArchive(bytes);
        try {
            for (TxnResult op : r.multi()) {
                if (op.type() == OpCode.ERROR) {
                    new MultiHeader(OpCode.ERROR, false, op.err()).serialize(out, "hdr");
                    new ErrorResponse(op.err()).serialize(out, "err");
                    continue;
                }
                new MultiHeader(op.type(), false, Err.OK).serialize(out, "hdr");
                Record body = op.type() == OpCode.CREATE ? new CreateResponse(op.path())
                        : op.type() == OpCode.CREATE2 || op.type() == OpCode.CREATE_CONTAINER
                        ? new Create2Response(op.path(), op.stat())
                        : op.type() == OpCode.SET_DATA ? new SetDataResponse(op.stat()) : null;
                if (body != null) {
                    body.serialize(out, "result");
                }
            }
            new MultiHeader(-1, true, -1).serialize(out, "done");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
