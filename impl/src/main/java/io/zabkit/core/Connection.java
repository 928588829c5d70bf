package io.zabkit.core;

import io.zabkit.pipeline.Request;
import io.zabkit.pipeline.TxnResult;
import io.zabkit.wire.Framer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.zookeeper.data.Id;

/**
 * One client connection as the core sees it. Replies leave in request order (ZooKeeper's FIFO
 * client order): {@link #queue} holds every request not yet answered, and the head is answered
 * only when it can be (a write once applied, a sync once caught up, a read at once).
 */
final class Connection {
    enum Phase { AWAITING_CONNECT, CONNECTED, CLOSED }

    /** A request waiting for its reply. */
    static final class Pending {
        final Request request;
        /**
         * For writes and connects: the zxid of their transaction (0 until the COMMIT of a write relayed
         * to the leader); for syncs: the zxid to catch up to ({@link #AWAITING_LEADER} until the leader says).
         */
        long zxid;
        TxnResult result;
        /** A reply computed when the request arrived (auth, session-resume connect). */
        byte[] ready;
        /** Close the connection once this reply is sent (failed auth, expired session). */
        boolean closeAfter;
        /** A write's packet as the client sent it, to forward it again after a leader change (keepConnections). */
        byte[] packet;
        /**
         * keepConnections: a write (or session create) this server had forwarded or proposed under the leader
         * it lost, not yet answered; resolved exactly once after the next synchronization (K2).
         */
        boolean oldEpoch;
        /** keepConnections: arrived (or must be issued again) while held; not yet sent to any leader. */
        boolean held;
        /** How often an old-epoch or held request was resolved after a sync: never more than once. */
        int resolutions;

        Pending(Request request, long zxid) {
            this.request = request;
            this.zxid = zxid;
        }
    }

    /** A follower's sync before the leader said which zxid it must wait for. */
    static final long AWAITING_LEADER = Long.MAX_VALUE;

    final long id;
    final String remoteAddress;
    final Framer framer;
    final Deque<Pending> queue = new ArrayDeque<>();
    final List<Id> authIds = new ArrayList<>();
    final long establishedMs;
    Phase phase = Phase.AWAITING_CONNECT;
    long sessionId;
    int timeoutMs;
    /** A session of read-only mode ({@link ReadOnlyMode}): reads only, never replicated. */
    boolean readOnly;
    long packetsReceived;
    long packetsSent;
    /** Reply bytes (answers and notifications) made for this connection since the runtime last said its output drained. */
    long replyBytesSinceDrained;
    long lastZxid;
    String lastOp = "NA";
    /** This connection's SASL exchange, from its first op 102 (null before, or without SASL). */
    SaslServers.Exchange sasl;
    long lastLatencyMs;

    Connection(long id, String remoteAddress, int maxPacketBytes, long nowMs) {
        this.id = id;
        this.remoteAddress = remoteAddress;
        this.framer = new Framer(maxPacketBytes);
        this.establishedMs = nowMs;
        String host = hostOf(remoteAddress);
        if (!host.isEmpty()) {
            authIds.add(new Id("ip", host));
        }
    }

    static String hostOf(String remoteAddress) {
        if (remoteAddress == null) {
            return "";
        }
        String a = remoteAddress.startsWith("/") ? remoteAddress.substring(1) : remoteAddress;
        int colon = a.lastIndexOf(':');
        return colon > 0 && a.indexOf(':') == colon ? a.substring(0, colon) : a;
    }

    /**
     * The write a committed transaction answers: by zxid when this server proposed it, else (a write
     * relayed to the leader, zxid still 0) by the client's xid; a session create matches only its own.
     */
    Pending findWrite(long zxid, int cxid, int txnType) {
        for (Pending p : queue) {
            // A sync's zxid is the one it waits for, not its own: it must never take a write's result.
            if (p.result != null || p.ready != null || !p.request.isWrite()) {
                continue;
            }
            if (p.zxid == zxid) {
                return p;
            }
            boolean isCreate = p.request.type() == io.zabkit.wire.OpCode.CREATE_SESSION;
            if (p.zxid == 0 && p.request.xid() == cxid
                    && isCreate == (txnType == io.zabkit.wire.OpCode.CREATE_SESSION)) {
                return p;
            }
        }
        return null;
    }
}
