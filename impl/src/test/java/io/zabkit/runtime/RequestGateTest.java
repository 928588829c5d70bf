package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestGateTest {
    private static final int MAX = 1 << 20;

    private static byte[] frame(int xid, int bodyBytes) {
        return ByteBuffer.allocate(4 + 4 + bodyBytes).putInt(4 + bodyBytes).putInt(xid).array();
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        ByteBuffer b = ByteBuffer.allocate(n);
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    @Test
    void cutsWholePacketsAndCountsRequestsAfterTheHandshake() {
        RequestGate gate = new RequestGate(MAX);
        byte[] connect = ByteBuffer.allocate(4 + 44).putInt(44).array();
        byte[] stream = concat(connect, frame(1, 20), frame(2, 20));
        gate.add(stream, 0, stream.length - 3); // the last packet is 3 bytes short
        assertEquals(48, gate.nextChunkBytes());
        gate.handed(48);
        assertTrue(gate.handshakeHanded());
        assertEquals(0, gate.outstanding(), "the ConnectRequest is no outstanding request");
        assertEquals(28, gate.nextChunkBytes());
        gate.handed(28);
        assertEquals(1, gate.outstanding());
        assertEquals(0, gate.nextChunkBytes(), "an incomplete packet is not handed");
        gate.add(stream, stream.length - 3, 3);
        assertEquals(28, gate.nextChunkBytes());
        gate.handed(28);
        assertEquals(2, gate.outstanding());
        assertEquals(0, gate.buffered());
    }

    @Test
    void repliesAnswerRequestsButNotificationsAndTheConnectResponseDoNot() {
        RequestGate gate = new RequestGate(MAX);
        byte[] stream = concat(ByteBuffer.allocate(8).putInt(4).array(), frame(1, 8), frame(2, 8));
        gate.add(stream, 0, stream.length);
        for (int chunk; (chunk = gate.nextChunkBytes()) > 0; ) {
            gate.handed(chunk);
        }
        assertEquals(2, gate.outstanding());
        assertEquals(0, gate.replied(frame(0, 30)), "the ConnectResponse answers the handshake");
        assertEquals(0, gate.replied(frame(RequestGate.NOTIFICATION_XID, 30)));
        assertEquals(2, gate.replied(concat(frame(1, 12), frame(2, 12))));
        assertEquals(0, gate.outstanding());
        assertEquals(0, gate.replied(frame(3, 12)), "never below zero");
    }

    @Test
    void aFourLetterWordOrAMalformedLengthPassesThrough() {
        RequestGate gate = new RequestGate(MAX);
        byte[] ruok = "ruok".getBytes(StandardCharsets.US_ASCII);
        gate.add(ruok, 0, 4);
        assertEquals(4, gate.nextChunkBytes());
        gate.handed(4);
        assertEquals(0, gate.outstanding());
        assertEquals(0, gate.replied("imok".getBytes(StandardCharsets.US_ASCII)));

        RequestGate big = new RequestGate(MAX);
        byte[] tooLong = ByteBuffer.allocate(6).putInt(MAX + 1).array();
        big.add(tooLong, 0, tooLong.length);
        assertEquals(6, big.nextChunkBytes(), "handed whole: the core's framer refuses it");
    }

    @Test
    void nothingIsHandedBeforeFourBytes() {
        RequestGate gate = new RequestGate(MAX);
        gate.add(new byte[] {0, 0}, 0, 2);
        assertEquals(0, gate.nextChunkBytes());
        assertFalse(gate.handshakeHanded());
    }
}
