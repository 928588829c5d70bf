package io.zabkit.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Client side framing: reassembles length-prefixed packets from a byte stream in any chunking. */
final class FrameReader {
    private final int maxPacketBytes;
    private byte[] buffer = new byte[256];
    private int filled;

    FrameReader(int maxPacketBytes) {
        this.maxPacketBytes = maxPacketBytes;
    }

    /** Adds bytes and returns every packet now complete, in order. */
    List<byte[]> feed(byte[] bytes) throws IOException {
        if (filled + bytes.length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(2 * buffer.length, filled + bytes.length));
        }
        System.arraycopy(bytes, 0, buffer, filled, bytes.length);
        filled += bytes.length;
        List<byte[]> packets = new ArrayList<>();
        int pos = 0;
        while (filled - pos >= 4) {
            int len = ((buffer[pos] & 0xff) << 24) | ((buffer[pos + 1] & 0xff) << 16)
                    | ((buffer[pos + 2] & 0xff) << 8) | (buffer[pos + 3] & 0xff);
            if (len < 0 || len > maxPacketBytes) {
                throw new IOException("server sent a packet length of " + len + " bytes");
            }
            if (filled - pos - 4 < len) {
                break;
            }
            packets.add(Arrays.copyOfRange(buffer, pos + 4, pos + 4 + len));
            pos += 4 + len;
        }
        System.arraycopy(buffer, pos, buffer, 0, filled - pos);
        filled -= pos;
        return packets;
    }
}
