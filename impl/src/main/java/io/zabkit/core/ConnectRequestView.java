package io.zabkit.core;

import io.zabkit.wire.Jute;
import java.io.EOFException;
import java.io.IOException;
import org.apache.jute.BinaryInputArchive;

/**
 * A client's ConnectRequest. Read field by field because clients older than 3.4 omit the trailing
 * readOnly flag, which the generated record would insist on.
 */
record ConnectRequestView(int protocolVersion, long lastZxidSeen, int timeoutMs, long sessionId, byte[] password,
                          boolean readOnly) {

    static ConnectRequestView decode(byte[] packet, int maxBuffer) throws IOException {
        BinaryInputArchive in = Jute.reader(packet, maxBuffer);
        int protocolVersion = in.readInt("protocolVersion");
        long lastZxidSeen = in.readLong("lastZxidSeen");
        int timeout = in.readInt("timeOut");
        long sessionId = in.readLong("sessionId");
        byte[] password = in.readBuffer("passwd");
        boolean readOnly = false;
        try {
            readOnly = in.readBool("readOnly");
        } catch (EOFException absent) {
            // an old client: not read-only
        }
        if (protocolVersion < 0 || timeout < 0) {
            throw new IOException("connect request with protocol version " + protocolVersion + " and timeout " + timeout);
        }
        return new ConnectRequestView(protocolVersion, lastZxidSeen, timeout, sessionId, password, readOnly);
    }
}
