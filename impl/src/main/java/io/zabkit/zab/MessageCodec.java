package io.zabkit.zab;

import io.zabkit.txn.Txn;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.data.Id;

/**
 * The bytes of a {@link Message} between two servers: one type byte, then the record's fields in
 * declaration order, big-endian (DataOutputStream). Byte arrays, strings and lists carry a 4-byte
 * length or count; a transaction is its {@link Txn#encode()} bytes. The format is versioned once per
 * link, in the handshake ({@link #VERSION}), not per frame. Decoding checks every length against the
 * bytes left, so a malformed frame costs an IOException naming the type, the field and the lengths,
 * never an allocation its sender chose.
 */
public final class MessageCodec {
    /**
     * Sent in the link handshake; a server refuses a link whose version it does not speak. 2: INFORM and
     * the OBSERVING state (observers), which a version-1 server could not decode.
     */
    public static final int VERSION = 2;

    static final byte NOTIFICATION = 1;
    static final byte FOLLOWER_INFO = 2;
    static final byte LEADER_INFO = 3;
    static final byte ACK_EPOCH = 4;
    static final byte DIFF = 5;
    static final byte TRUNC = 6;
    static final byte SNAP = 7;
    static final byte PROPOSAL = 8;
    static final byte NEW_LEADER = 9;
    static final byte ACK = 10;
    static final byte UP_TO_DATE = 11;
    static final byte COMMIT = 12;
    static final byte PING = 13;
    static final byte FORWARD = 14;
    static final byte SYNC_REQUEST = 15;
    static final byte SYNC_REPLY = 16;
    static final byte INFORM = 17;

    /** The type byte of a SNAP, whose frame may be larger than any other (it carries a whole data tree). */
    public static final byte SNAP_TYPE = SNAP;

    private MessageCodec() {}

    public static byte[] encode(Message m) {
        ByteArrayOutputStream bytes = SCRATCH.get();
        bytes.reset();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            write(m, out); // never re-enters encode(Message): a PROPOSAL's txn goes through Jute's own buffer
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("in-memory encoding cannot fail", e);
        }
        byte[] frame = bytes.toByteArray();
        if (bytes.size() > SCRATCH_BYTES_KEPT_MAX) {
            SCRATCH.remove(); // a SNAP: do not keep a whole tree's buffer for the thread
        }
        return frame;
    }

    /** Frames are encoded into one buffer per thread and copied out once (a new 64-byte stream grew per 1 KB PROPOSAL). */
    private static final ThreadLocal<ByteArrayOutputStream> SCRATCH = ThreadLocal.withInitial(() -> new ByteArrayOutputStream(4096));
    private static final int SCRATCH_BYTES_KEPT_MAX = 1 << 20;

    private static void write(Message m, DataOutputStream out) throws IOException {
        if (m instanceof Message.Notification n) {
            out.writeByte(NOTIFICATION);
            out.writeLong(n.electionEpoch());
            out.writeByte(n.state().ordinal());
            out.writeLong(n.leader());
            out.writeLong(n.zxid());
            out.writeLong(n.peerEpoch());
        } else if (m instanceof Message.FollowerInfo f) {
            out.writeByte(FOLLOWER_INFO);
            out.writeLong(f.acceptedEpoch());
            out.writeLong(f.lastZxid());
        } else if (m instanceof Message.LeaderInfo l) {
            out.writeByte(LEADER_INFO);
            out.writeLong(l.newEpoch());
        } else if (m instanceof Message.AckEpoch a) {
            out.writeByte(ACK_EPOCH);
            out.writeLong(a.currentEpoch());
            out.writeLong(a.lastZxid());
        } else if (m instanceof Message.Diff d) {
            out.writeByte(DIFF);
            out.writeLong(d.zxid());
        } else if (m instanceof Message.Trunc t) {
            out.writeByte(TRUNC);
            out.writeLong(t.zxid());
        } else if (m instanceof Message.Snap s) {
            out.writeByte(SNAP);
            out.writeLong(s.zxid());
            writeBytes(out, s.snapshot());
        } else if (m instanceof Message.Proposal p) {
            out.writeByte(PROPOSAL);
            writeBytes(out, p.txn().encode());
            out.writeBoolean(p.fast());
        } else if (m instanceof Message.Inform i) {
            out.writeByte(INFORM);
            writeBytes(out, i.txn().encode());
        } else if (m instanceof Message.NewLeader n) {
            out.writeByte(NEW_LEADER);
            out.writeLong(n.zxid());
        } else if (m instanceof Message.Ack a) {
            out.writeByte(ACK);
            out.writeLong(a.epoch());
            out.writeLong(a.zxid());
            out.writeBoolean(a.zab());
        } else if (m instanceof Message.UpToDate u) {
            out.writeByte(UP_TO_DATE);
            out.writeLong(u.zxid());
        } else if (m instanceof Message.Commit c) {
            out.writeByte(COMMIT);
            out.writeLong(c.zxid());
        } else if (m instanceof Message.Ping p) {
            out.writeByte(PING);
            out.writeInt(p.sessions().size());
            for (Message.SessionTouch t : p.sessions()) {
                out.writeLong(t.sessionId());
                out.writeInt(t.timeoutMs());
            }
        } else if (m instanceof Message.Forward f) {
            out.writeByte(FORWARD);
            out.writeLong(f.sessionId());
            out.writeInt(f.cxid());
            out.writeInt(f.type());
            out.writeInt(f.timeoutMs());
            writeBytes(out, f.packet());
            out.writeInt(f.authIds().size());
            for (Id id : f.authIds()) {
                writeString(out, id.getScheme());
                writeString(out, id.getId());
            }
        } else if (m instanceof Message.SyncRequest s) {
            out.writeByte(SYNC_REQUEST);
            out.writeLong(s.sessionId());
            out.writeInt(s.cxid());
        } else if (m instanceof Message.SyncReply s) {
            out.writeByte(SYNC_REPLY);
            out.writeLong(s.sessionId());
            out.writeInt(s.cxid());
            out.writeLong(s.zxid());
        } else {
            throw new IllegalArgumentException("no encoding for " + m.getClass().getName());
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    /** Null strings (an Id may hold them) are length -1, as jute writes them. */
    private static void writeString(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    /** A SNAP carries a whole snapshot at a real zxid; anything else is a broken or hostile peer's frame. */
    private static Message.Snap snap(long zxid, byte[] snapshot) throws IOException {
        if (zxid < 0 || snapshot.length == 0) {
            throw new IOException("SNAP at zxid " + zxid + " with " + snapshot.length + " bytes of snapshot: not a snapshot");
        }
        return new Message.Snap(zxid, snapshot);
    }

    /**
     * Decodes one frame (without its length prefix). {@code maxBytes} bounds the frame, and with it
     * every length inside; a transaction inside is decoded with the same bound (jute.maxbuffer).
     */
    public static Message decode(byte[] frame, int maxBytes) throws IOException {
        if (frame.length > maxBytes) {
            throw new IOException("peer message of " + frame.length + " bytes exceeds the limit of " + maxBytes);
        }
        if (frame.length == 0) {
            throw new IOException("empty peer message: no type byte");
        }
        Reader in = new Reader(frame, frame[0]);
        Message m = switch (frame[0]) {
            case NOTIFICATION -> new Message.Notification(in.i64("electionEpoch"), in.state(), in.i64("leader"),
                    in.i64("zxid"), in.i64("peerEpoch"));
            case FOLLOWER_INFO -> new Message.FollowerInfo(in.i64("acceptedEpoch"), in.i64("lastZxid"));
            case LEADER_INFO -> new Message.LeaderInfo(in.i64("newEpoch"));
            case ACK_EPOCH -> new Message.AckEpoch(in.i64("currentEpoch"), in.i64("lastZxid"));
            case DIFF -> new Message.Diff(in.i64("zxid"));
            case TRUNC -> new Message.Trunc(in.i64("zxid"));
            case SNAP -> snap(in.i64("zxid"), in.bytes("snapshot"));
            case PROPOSAL -> new Message.Proposal(in.txn(maxBytes), in.bool("fast"));
            case INFORM -> new Message.Inform(in.txn(maxBytes));
            case NEW_LEADER -> new Message.NewLeader(in.i64("zxid"));
            case ACK -> new Message.Ack(in.i64("epoch"), in.i64("zxid"), in.bool("zab"));
            case UP_TO_DATE -> new Message.UpToDate(in.i64("zxid"));
            case COMMIT -> new Message.Commit(in.i64("zxid"));
            case PING -> new Message.Ping(in.touches());
            case FORWARD -> new Message.Forward(in.i64("sessionId"), in.i32("cxid"), in.i32("type"),
                    in.i32("timeoutMs"), in.bytes("packet"), in.ids());
            case SYNC_REQUEST -> new Message.SyncRequest(in.i64("sessionId"), in.i32("cxid"));
            case SYNC_REPLY -> new Message.SyncReply(in.i64("sessionId"), in.i32("cxid"), in.i64("zxid"));
            default -> throw new IOException("unknown peer message type " + frame[0] + " (" + frame.length
                    + " bytes); codec version " + VERSION + " knows types 1 to " + SYNC_REPLY);
        };
        in.expectEnd();
        return m;
    }

    /** A cursor over one frame whose every read names the field it was reading when the bytes ran out. */
    private static final class Reader {
        private final byte[] b;
        private final byte type;
        private int pos = 1;

        Reader(byte[] frame, byte type) {
            this.b = frame;
            this.type = type;
        }

        private void need(String field, int n) throws IOException {
            if (b.length - pos < n) {
                throw new IOException("peer message type " + type + " truncated in field " + field + ": needs "
                        + n + " bytes at offset " + pos + ", frame has " + b.length);
            }
        }

        long i64(String field) throws IOException {
            need(field, 8);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (b[pos++] & 0xff);
            }
            return v;
        }

        int i32(String field) throws IOException {
            need(field, 4);
            int v = 0;
            for (int i = 0; i < 4; i++) {
                v = (v << 8) | (b[pos++] & 0xff);
            }
            return v;
        }

        boolean bool(String field) throws IOException {
            need(field, 1);
            byte v = b[pos++];
            if (v != 0 && v != 1) {
                throw new IOException("peer message type " + type + ": field " + field + " is " + v
                        + ", not a boolean");
            }
            return v == 1;
        }

        Message.ServerState state() throws IOException {
            need("state", 1);
            int v = b[pos++];
            Message.ServerState[] states = Message.ServerState.values();
            if (v < 0 || v >= states.length) {
                throw new IOException("peer message type " + type + ": field state is " + v + ", not one of 0 to "
                        + (states.length - 1));
            }
            return states[v];
        }

        /** A length, checked against the bytes left: each element takes at least {@code minElementBytes}. */
        private int length(String field, int minElementBytes) throws IOException {
            int n = i32(field + " length");
            long needed = (long) n * minElementBytes;
            if (n < 0 || needed > b.length - pos) {
                throw new IOException("peer message type " + type + ": field " + field + " claims length " + n
                        + " but " + (b.length - pos) + " bytes are left of a " + b.length + "-byte frame");
            }
            return n;
        }

        byte[] bytes(String field) throws IOException {
            int n = length(field, 1);
            byte[] v = java.util.Arrays.copyOfRange(b, pos, pos + n);
            pos += n;
            return v;
        }

        String string(String field) throws IOException {
            need(field + " length", 4);
            int peek = ((b[pos] & 0xff) << 24) | ((b[pos + 1] & 0xff) << 16) | ((b[pos + 2] & 0xff) << 8)
                    | (b[pos + 3] & 0xff);
            if (peek == -1) {
                pos += 4;
                return null;
            }
            return new String(bytes(field), StandardCharsets.UTF_8);
        }

        Txn txn(int maxBytes) throws IOException {
            byte[] bytes = bytes("txn");
            try {
                return Txn.decode(bytes, maxBytes);
            } catch (IOException | RuntimeException e) {
                throw new IOException("peer message type " + type + ": field txn (" + bytes.length
                        + " bytes) is not a transaction: " + e.getMessage(), e);
            }
        }

        List<Message.SessionTouch> touches() throws IOException {
            int n = length("sessions", Long.BYTES + Integer.BYTES);
            List<Message.SessionTouch> touches = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                touches.add(new Message.SessionTouch(i64("sessions[" + i + "].sessionId"),
                        i32("sessions[" + i + "].timeoutMs")));
            }
            return touches;
        }

        List<Id> ids() throws IOException {
            int n = length("authIds", 2 * Integer.BYTES);
            List<Id> ids = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ids.add(new Id(string("authIds[" + i + "].scheme"), string("authIds[" + i + "].id")));
            }
            return ids;
        }

        void expectEnd() throws IOException {
            if (pos != b.length) {
                throw new IOException("peer message type " + type + " has " + (b.length - pos)
                        + " trailing bytes after its last field (frame of " + b.length + " bytes)");
            }
        }
    }
}
