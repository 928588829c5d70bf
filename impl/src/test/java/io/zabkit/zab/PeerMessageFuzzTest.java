package io.zabkit.zab;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zabkit.fuzz.Seeds;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * No peer (stray, impersonating or broken) can crash a server with a frame: the codec either decodes a
 * message or throws IOException, which closes that link only; a decoded message encodes back to a frame
 * that decodes to the same message, so nothing is lost or invented in between. Inputs in
 * PeerMessageFuzzTestInputs/ start from one real frame of each message type (see FuzzSeeds).
 */
class PeerMessageFuzzTest {
    /** A small jute.maxbuffer, so the fuzzer reaches the length checks as well as the content. */
    static final int MAX_BYTES = 1 << 16;

    @FuzzTest(maxDuration = "2m")
    void anyFrameFromAPeer(byte[] frame) {
        Message m;
        try {
            m = MessageCodec.decode(frame, MAX_BYTES);
        } catch (IOException refused) {
            return; // the link is closed; that is the contract
        }
        byte[] again = MessageCodec.encode(m);
        try {
            assertArrayEquals(again, MessageCodec.encode(MessageCodec.decode(again, Integer.MAX_VALUE)),
                    "a decoded message re-encodes stably: " + m);
        } catch (IOException e) {
            throw new AssertionError("the codec cannot read its own frame of " + m, e);
        }
    }

    /** One real frame of every message type (MessageCodecTest's samples). */
    @Test
    @EnabledIfSystemProperty(named = Seeds.WRITE_PROPERTY, matches = "true")
    void writeSeeds() {
        int i = 0;
        for (Message m : MessageCodecTest.samples()) {
            Seeds.write(getClass(), "anyFrameFromAPeer", String.format("seed-%02d-%s", i++, m.getClass().getSimpleName()),
                    MessageCodec.encode(m));
        }
    }
}
