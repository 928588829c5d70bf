package io.zabkit.bench.lean;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.proto.ConnectRequest;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.RequestHeader;
import org.apache.zookeeper.proto.SetDataRequest;
import org.apache.zookeeper.proto.SetWatches;

/**
 * ZooKeeper's client wire format at the jute level, for the lean client: requests are the
 * zookeeper-jute record classes behind a 4-byte length; replies are read straight from the frame
 * (reply header, then the few fields the watch experiment needs), so a notification costs no objects
 * beyond its path.
 */
public final class Wire {
    public static final int PROTOCOL_VERSION = 0;
    public static final int OP_GET_DATA = 4;
    public static final int OP_SET_DATA = 5;
    public static final int OP_PING = 11;
    public static final int OP_CLOSE_SESSION = -11;
    public static final int OP_SET_WATCHES = 101;
    /** The xids ZooKeeper reserves: notifications, pings and SetWatches replies. */
    public static final int XID_NOTIFICATION = -1;
    public static final int XID_PING = -2;
    public static final int XID_SET_WATCHES = -8;
    /** WatcherEvent types (Watcher.Event.EventType). */
    public static final int EVENT_NODE_DATA_CHANGED = 3;
    /** Frames longer than this are a protocol error, not data (ZooKeeper's jute.maxbuffer default). */
    public static final int MAX_FRAME = 0xfffff + 1024;

    private Wire() {}

    public static ByteBuffer connect(long lastZxidSeen, int timeoutMs, long sessionId, byte[] passwd) {
        return frame(null, new ConnectRequest(PROTOCOL_VERSION, lastZxidSeen, timeoutMs, sessionId, passwd, false));
    }

    public static ByteBuffer getData(int xid, String path, boolean watch) {
        return frame(new RequestHeader(xid, OP_GET_DATA), new GetDataRequest(path, watch));
    }

    public static ByteBuffer setData(int xid, String path, byte[] data) {
        return frame(new RequestHeader(xid, OP_SET_DATA), new SetDataRequest(path, data, -1));
    }

    public static ByteBuffer setWatches(long relativeZxid, List<String> dataWatches) {
        return frame(new RequestHeader(XID_SET_WATCHES, OP_SET_WATCHES),
                new SetWatches(relativeZxid, dataWatches, List.of(), List.of()));
    }

    public static ByteBuffer ping() {
        return frame(new RequestHeader(XID_PING, OP_PING), null);
    }

    public static ByteBuffer closeSession(int xid) {
        return frame(new RequestHeader(xid, OP_CLOSE_SESSION), null);
    }

    private static ByteBuffer frame(RequestHeader header, Record body) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            bytes.write(new byte[4]);
            BinaryOutputArchive out = BinaryOutputArchive.getArchive(bytes);
            if (header != null) {
                header.serialize(out, "header");
            }
            if (body != null) {
                body.serialize(out, "request");
            }
            ByteBuffer b = ByteBuffer.wrap(bytes.toByteArray());
            b.putInt(0, b.capacity() - 4);
            return b;
        } catch (IOException e) {
            throw new UncheckedIOException("serializing into memory", e);
        }
    }

    /** The session a ConnectResponse grants; timeoutMs <= 0 means the server refused (expired) the session. */
    public record Granted(int timeoutMs, long sessionId, byte[] passwd) {}

    public static Granted connectResponse(ByteBuffer frame) {
        frame.getInt(); // protocol version
        int timeout = frame.getInt();
        long session = frame.getLong();
        byte[] passwd = buffer(frame);
        return new Granted(timeout, session, passwd == null ? new byte[16] : passwd);
    }

    /** A jute buffer: int length (-1 for null), then the bytes. */
    public static byte[] buffer(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0) {
            return null;
        }
        if (n > b.remaining()) {
            throw new IllegalStateException("buffer of " + n + " bytes in a frame with " + b.remaining() + " left");
        }
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    public static String string(ByteBuffer b) {
        byte[] s = buffer(b);
        return s == null ? null : new String(s, StandardCharsets.UTF_8);
    }
}
