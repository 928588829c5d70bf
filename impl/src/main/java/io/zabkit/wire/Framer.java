package io.zabkit.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits one connection's byte stream into packets: a 4-byte big-endian length, then that many bytes.
 * The first 4 bytes of a connection may instead be a four-letter word (ruok, srvr, ...), as ZooKeeper
 * allows. Lengths below zero or above jute.maxbuffer are protocol errors: the caller closes.
 */
public final class Framer {
    private final int maxPacketBytes;
    private byte[] buffer = new byte[256];
    private int filled;
    private boolean sawFirstPacket;

    public Framer(int maxPacketBytes) {
        this.maxPacketBytes = maxPacketBytes;
    }

    /** A sink for what the stream holds: whole packets, or a four-letter word. */
    public interface Sink {
        void packet(byte[] packet);

        void fourLetterWord(String word);
    }

    /** Feeds bytes; calls the sink for every complete packet. Throws on a malformed stream. */
    public void feed(byte[] bytes, int offset, int length, Sink sink) throws IOException {
        append(bytes, offset, length);
        int pos = 0;
        while (filled - pos >= 4) {
            if (!sawFirstPacket && pos == 0) {
                String word = new String(buffer, 0, 4, StandardCharsets.US_ASCII);
                if (FourLetterWordNames.isKnown(word)) {
                    filled = 0;
                    sink.fourLetterWord(word);
                    return;
                }
            }
            int len = ((buffer[pos] & 0xff) << 24) | ((buffer[pos + 1] & 0xff) << 16)
                    | ((buffer[pos + 2] & 0xff) << 8) | (buffer[pos + 3] & 0xff);
            if (len < 0 || len > maxPacketBytes) {
                throw new IOException("packet length " + len + " is outside 0.." + maxPacketBytes
                        + " (jute.maxbuffer)");
            }
            if (filled - pos - 4 < len) {
                break;
            }
            sawFirstPacket = true;
            byte[] packet = Arrays.copyOfRange(buffer, pos + 4, pos + 4 + len);
            pos += 4 + len;
            sink.packet(packet);
        }
        compact(pos);
    }

    private void append(byte[] bytes, int offset, int length) {
        if (filled + length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, filled + length));
        }
        System.arraycopy(bytes, offset, buffer, filled, length);
        filled += length;
    }

    private void compact(int consumed) {
        if (consumed == 0) {
            return;
        }
        System.arraycopy(buffer, consumed, buffer, 0, filled - consumed);
        filled -= consumed;
        if (buffer.length > 65536 && filled < buffer.length / 4) {
            buffer = Arrays.copyOf(buffer, Math.max(256, filled));
        }
    }

    /** Bytes received but not yet a whole packet. */
    public int buffered() {
        return filled;
    }

}
