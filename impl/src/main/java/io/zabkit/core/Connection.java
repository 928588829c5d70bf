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
        /** For writes and connects: the zxid of their transaction; for syncs: the zxid to catch up to. */
        final long zxid;
        TxnResult result;
        /** A reply computed when the request arrived (auth, session-resume connect). */
        byte[] ready;
        /** Close the connection once this reply is sent (failed auth, expired session). */
        boolean closeAfter;

        Pending(Request request, long zxid) {
            this.request = request;
            this.zxid = zxid;
        }
    }

    final long id;
    final String remoteAddress;
    final Framer framer;
    final Deque<Pending> queue = new ArrayDeque<>();
    final List<Id> authIds = new ArrayList<>();
    final long establishedMs;
    Phase phase = Phase.AWAITING_CONNECT;
    long sessionId;
    int timeoutMs;
    long packetsReceived;
    long packetsSent;
    long lastZxid;
    String lastOp = "NA";
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

    Pending findWrite(long zxid) {
        for (Pending p : queue) {
            if (p.zxid == zxid && p.result == null && p.ready == null) {
                return p;
            }
        }
        return null;
    }
}
