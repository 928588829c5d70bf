package io.zabkit.sim;

import io.zabkit.wire.Jute;
import io.zabkit.wire.OpCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.jute.BinaryInputArchive;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.proto.ConnectRequest;
import org.apache.zookeeper.proto.ConnectResponse;
import org.apache.zookeeper.proto.Create2Response;
import org.apache.zookeeper.proto.CreateResponse;
import org.apache.zookeeper.proto.ErrorResponse;
import org.apache.zookeeper.proto.ExistsResponse;
import org.apache.zookeeper.proto.GetChildrenResponse;
import org.apache.zookeeper.proto.GetDataResponse;
import org.apache.zookeeper.proto.MultiHeader;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.RequestHeader;
import org.apache.zookeeper.proto.SetDataResponse;
import org.apache.zookeeper.proto.SyncResponse;
import org.apache.zookeeper.proto.WatcherEvent;

/**
 * The ZooKeeper client protocol as a ZooKeeper client speaks it, with the jute records: connect
 * request and response, request header plus body, reply header plus a body shaped by the request
 * type, multi (MultiHeader + op records), pings (xid -2) and notifications (xid -1). No state: the
 * simulated client and the fuzz tests keep their own.
 */
public final class ClientCodec {
    public static final int NOTIFICATION_XID = -1;
    public static final int PING_XID = -2;
    public static final int SET_WATCHES_XID = -8;
    public static final List<ACL> OPEN_ACL = List.of(new ACL(31, new Id("world", "anyone")));

    private final int maxBufferBytes;

    public ClientCodec(int maxBufferBytes) {
        this.maxBufferBytes = maxBufferBytes;
    }

    /** One op of a multi: its type and request record, and after the reply its outcome. */
    public record MultiResult(int type, int err, String path, Stat stat) {}

    /** A decoded server packet: a reply, a ping reply or a notification. */
    public record Reply(int xid, long zxid, int err, Record body, List<MultiResult> multi) {
        public boolean isNotification() {
            return xid == NOTIFICATION_XID;
        }

        public WatcherEvent event() {
            return (WatcherEvent) body;
        }
    }

    public byte[] connect(long lastZxidSeen, int timeoutMs, long sessionId, byte[] password) {
        return Jute.frame(Jute.encode(new ConnectRequest(0, lastZxidSeen, timeoutMs, sessionId,
                password == null ? new byte[16] : password, false)));
    }

    public byte[] request(int xid, int type, Record body) {
        return Jute.frame(Jute.encode(new RequestHeader(xid, type), body));
    }

    public byte[] ping() {
        return request(PING_XID, OpCode.PING, null);
    }

    /** A multi: each op as (MultiHeader, request record), ended by a done header. */
    public byte[] multi(int xid, List<Integer> types, List<Record> bodies) {
        assert types.size() == bodies.size() : "one body per op";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryOutputArchive out = BinaryOutputArchive.getArchive(bytes);
        try {
            new RequestHeader(xid, OpCode.MULTI).serialize(out, "header");
            for (int i = 0; i < types.size(); i++) {
                new MultiHeader(types.get(i), false, -1).serialize(out, "header");
                bodies.get(i).serialize(out, "request");
            }
            new MultiHeader(-1, true, -1).serialize(out, "header");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Jute.frame(bytes.toByteArray());
    }

    public ConnectResponse decodeConnect(byte[] packet) throws IOException {
        BinaryInputArchive in = Jute.reader(packet, maxBufferBytes);
        ConnectResponse r = new ConnectResponse();
        r.setProtocolVersion(in.readInt("protocolVersion"));
        r.setTimeOut(in.readInt("timeOut"));
        r.setSessionId(in.readLong("sessionId"));
        r.setPasswd(in.readBuffer("passwd"));
        return r; // the trailing readOnly flag is optional, as for real clients
    }

    /** Whether a reply packet answers a ping (its xid), before it is matched to a request. */
    public boolean isPingReply(byte[] packet) throws IOException {
        ReplyHeader h = new ReplyHeader();
        h.deserialize(Jute.reader(packet, maxBufferBytes), "header");
        return h.getXid() == PING_XID;
    }

    /**
     * Decodes a reply; {@code requestType} is the type of the request this xid answers (unused for
     * pings and notifications).
     */
    public Reply decodeReply(byte[] packet, int requestType) throws IOException {
        BinaryInputArchive in = Jute.reader(packet, maxBufferBytes);
        ReplyHeader h = new ReplyHeader();
        h.deserialize(in, "header");
        if (h.getXid() == NOTIFICATION_XID) {
            WatcherEvent e = new WatcherEvent();
            e.deserialize(in, "response");
            return new Reply(h.getXid(), h.getZxid(), h.getErr(), e, List.of());
        }
        if (h.getXid() == PING_XID || h.getXid() == SET_WATCHES_XID) {
            return new Reply(h.getXid(), h.getZxid(), h.getErr(), null, List.of());
        }
        if (requestType == OpCode.MULTI) {
            return new Reply(h.getXid(), h.getZxid(), h.getErr(), null, decodeMulti(in));
        }
        if (h.getErr() != 0) {
            return new Reply(h.getXid(), h.getZxid(), h.getErr(), null, List.of());
        }
        Record body = responseFor(requestType);
        if (body != null) {
            body.deserialize(in, "response");
        }
        return new Reply(h.getXid(), h.getZxid(), h.getErr(), body, List.of());
    }

    private static List<MultiResult> decodeMulti(BinaryInputArchive in) throws IOException {
        List<MultiResult> results = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            MultiHeader h = new MultiHeader();
            h.deserialize(in, "header");
            if (h.getDone()) {
                return results;
            }
            if (h.getType() == OpCode.ERROR) {
                ErrorResponse e = new ErrorResponse();
                e.deserialize(in, "response");
                results.add(new MultiResult(h.getType(), e.getErr(), null, null));
                continue;
            }
            Record body = responseFor(h.getType());
            String path = null;
            Stat stat = null;
            if (body != null) {
                body.deserialize(in, "response");
                if (body instanceof CreateResponse c) {
                    path = c.getPath();
                } else if (body instanceof Create2Response c) {
                    path = c.getPath();
                    stat = c.getStat();
                } else if (body instanceof SetDataResponse s) {
                    stat = s.getStat();
                }
            }
            results.add(new MultiResult(h.getType(), 0, path, stat));
        }
        throw new IOException("multi reply with no done header after 10000 results");
    }

    /** The response record a successful request of this type carries, or null for header-only replies. */
    static Record responseFor(int requestType) {
        switch (requestType) {
            case OpCode.CREATE: return new CreateResponse();
            case OpCode.CREATE2: case OpCode.CREATE_CONTAINER: case OpCode.CREATE_TTL: return new Create2Response();
            case OpCode.SET_DATA: return new SetDataResponse();
            case OpCode.GET_DATA: return new GetDataResponse();
            case OpCode.EXISTS: return new ExistsResponse();
            case OpCode.GET_CHILDREN: return new GetChildrenResponse();
            case OpCode.SYNC: return new SyncResponse();
            default: return null; // delete, check, ping, closeSession
        }
    }
}
