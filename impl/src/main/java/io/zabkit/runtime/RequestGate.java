package io.zabkit.runtime;

import java.util.Arrays;

/**
 * What one client connection has sent and the core has not been handed yet, cut at request
 * boundaries, and how many handed requests still wait for their reply. The loop hands the core one
 * request at a time, and only while the connection's unsent replies and its outstanding requests
 * (and the server's) are under their bounds, so a client that pipelines requests and never reads
 * makes the server stop reading from it instead of building every reply in memory (ZooKeeper stops
 * reading from such a connection too).
 *
 * <p>Only the 4-byte length prefix and the request header's xid are looked at; decoding stays in the
 * core. The first 4 bytes of a connection may be a four-letter word, or garbage: a first length
 * outside 0..jute.maxbuffer switches the gate to pass-through, and the core answers or closes.
 */
final class RequestGate {
    /** A reply's xid for a watch notification, which answers no request. */
    static final int NOTIFICATION_XID = -1;

    private final int maxPacketBytes;
    private byte[] buffer = new byte[256];
    /** Invariant: 0 <= start <= end <= buffer.length; bytes [start, end) are not yet handed to the core. */
    private int start;
    private int end;
    /** The first packet (the ConnectRequest) or the raw first bytes have been handed: the handshake. */
    private boolean handshakeHanded;
    private boolean passThrough;
    /** The first framed reply is the ConnectResponse, which has no xid. */
    private boolean connectResponseSeen;
    private int outstanding;

    RequestGate(int maxPacketBytes) {
        this.maxPacketBytes = maxPacketBytes;
    }

    void add(byte[] bytes, int offset, int length) {
        if (start > 0 && end + length > buffer.length) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        if (end + length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, end + length));
        }
        System.arraycopy(bytes, offset, buffer, end, length);
        end += length;
    }

    /** Bytes received and not handed to the core. */
    int buffered() {
        return end - start;
    }

    /** The length of the next chunk to hand the core (a whole packet, or all in pass-through); 0 if none. */
    int nextChunkBytes() {
        int available = end - start;
        if (passThrough) {
            return available;
        }
        if (available < 4) {
            return 0;
        }
        int len = ((buffer[start] & 0xff) << 24) | ((buffer[start + 1] & 0xff) << 16)
                | ((buffer[start + 2] & 0xff) << 8) | (buffer[start + 3] & 0xff);
        if (len < 0 || len > maxPacketBytes) {
            // a four-letter word or a malformed length: the core's framer answers or closes
            passThrough = true;
            return available;
        }
        return available >= 4 + len ? 4 + len : 0;
    }

    byte[] array() {
        return buffer;
    }

    int chunkOffset() {
        return start;
    }

    /** The chunk of {@link #nextChunkBytes()} was handed to the core: count it as outstanding. */
    void handed(int chunkBytes) {
        assert chunkBytes > 0 && chunkBytes <= end - start : "handing " + chunkBytes + " of " + (end - start);
        boolean request = handshakeHanded && !passThrough && chunkBytes >= 8;
        handshakeHanded = true;
        if (request) {
            outstanding++;
        }
        start += chunkBytes;
        if (start == end) {
            start = 0;
            end = 0;
            if (buffer.length > 65536) {
                buffer = new byte[256]; // give a large packet's buffer back
            }
        }
    }

    boolean handshakeHanded() {
        return handshakeHanded;
    }

    /**
     * Bytes for the client from the core: each framed reply (not a notification, not the
     * ConnectResponse) answers one outstanding request. Returns how many it answered.
     */
    int replied(byte[] bytes) {
        if (passThrough) {
            return 0;
        }
        int answered = 0;
        int pos = 0;
        while (pos + 4 <= bytes.length) {
            int len = ((bytes[pos] & 0xff) << 24) | ((bytes[pos + 1] & 0xff) << 16)
                    | ((bytes[pos + 2] & 0xff) << 8) | (bytes[pos + 3] & 0xff);
            if (len < 0 || pos + 4 + len > bytes.length) {
                break; // not framed (a four-letter word's answer)
            }
            if (!connectResponseSeen) {
                connectResponseSeen = true;
            } else if (len >= 4) {
                int xid = ((bytes[pos + 4] & 0xff) << 24) | ((bytes[pos + 5] & 0xff) << 16)
                        | ((bytes[pos + 6] & 0xff) << 8) | (bytes[pos + 7] & 0xff);
                if (xid != NOTIFICATION_XID && outstanding > 0) {
                    outstanding--;
                    answered++;
                }
            }
            pos += 4 + len;
        }
        assert outstanding >= 0 : "outstanding below zero";
        return answered;
    }

    /** Requests handed to the core whose reply has not been seen. */
    int outstanding() {
        return outstanding;
    }
}
