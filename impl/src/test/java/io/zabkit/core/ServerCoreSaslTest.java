package io.zabkit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.wire.Err;
import io.zabkit.wire.OpCode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import javax.security.sasl.SaslException;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.GetDataResponse;
import org.apache.zookeeper.proto.GetSASLRequest;
import org.apache.zookeeper.proto.SetSASLResponse;
import org.junit.jupiter.api.Test;

/**
 * The core's op 102 and enforce.auth rules with a scripted two-step mechanism, so each reply can be read
 * byte by byte: the identity sasl:alice only once the exchange completes, a failure answered with its
 * token field present and the connection closed, and -124 for anything before authentication.
 */
class ServerCoreSaslTest {
    private static final List<ACL> ONLY_ALICE = List.of(new ACL(31, new Id("sasl", "alice")));

    /** "hello" gets "challenge"; then "right" completes as alice, anything else fails. */
    private static final SaslServers SCRIPTED = () -> new SaslServers.Exchange() {
        private boolean challenged;
        private String authorized;

        @Override
        public byte[] evaluate(byte[] token) throws SaslException {
            String t = new String(token, StandardCharsets.UTF_8);
            if (!challenged && t.equals("hello")) {
                challenged = true;
                return "challenge".getBytes(StandardCharsets.UTF_8);
            }
            if (challenged && authorized == null && t.equals("right")) {
                authorized = "alice";
                return null;
            }
            throw new SaslException("scripted failure on '" + t + "'");
        }

        @Override
        public String authorizedId() {
            return authorized;
        }
    };

    private static CoreHarness harness(Set<String> enforced) {
        CoreHarness h = new CoreHarness();
        h.core.useClientAuth(new ClientAuth(enforced, true, false), SCRIPTED);
        h.connect(1, 0, null);
        h.framesTo(1);
        return h;
    }

    private static GetSASLRequest token(String s) {
        return new GetSASLRequest(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aCompletedExchangeGivesTheSessionItsSaslIdentity() throws Exception {
        CoreHarness h = harness(Set.of("sasl"));
        h.send(1, 1, OpCode.SASL, token("hello"));
        byte[] challenge = h.framesTo(1).get(0);
        assertEquals(Err.OK, CoreHarness.header(challenge).getErr());
        assertArrayEquals("challenge".getBytes(StandardCharsets.UTF_8),
                CoreHarness.body(challenge, new SetSASLResponse()).getToken());
        h.send(1, 2, OpCode.SASL, token("right"));
        assertEquals(Err.OK, CoreHarness.header(h.framesTo(1).get(0)).getErr());
        h.send(1, 3, OpCode.CREATE, new CreateRequest("/alice", new byte[] {7}, ONLY_ALICE, 0));
        h.persistAll();
        assertEquals(Err.OK, CoreHarness.header(h.framesTo(1).get(0)).getErr());
        h.send(1, 4, OpCode.GET_DATA, new GetDataRequest("/alice", false));
        byte[] read = h.framesTo(1).get(0);
        assertArrayEquals(new byte[] {7}, CoreHarness.body(read, new GetDataResponse()).getData());
        assertTrue(h.closed.isEmpty());
    }

    @Test
    void aRequestBeforeAuthenticationIsRefusedWithMinus124AndClosed() throws Exception {
        CoreHarness h = harness(Set.of("sasl"));
        h.send(1, 1, OpCode.SASL, token("hello")); // half way is not authenticated
        h.framesTo(1);
        h.send(1, 2, OpCode.CREATE, new CreateRequest("/x", new byte[0], io.zabkit.tree.Acls.OPEN, 0));
        List<byte[]> frames = h.framesTo(1);
        assertEquals(1, frames.size());
        assertEquals(Err.SESSION_CLOSED_REQUIRE_SASL_AUTH, CoreHarness.header(frames.get(0)).getErr());
        assertEquals(List.of(1L), h.closed);
        assertTrue(h.logged.stream().noneMatch(t -> t.type() == OpCode.CREATE), "the refused create was logged");
    }

    @Test
    void aFailedExchangeIsAnsweredWithAnEmptyTokenAndClosed() throws Exception {
        for (Set<String> enforced : List.of(Set.<String>of(), Set.of("sasl"))) {
            CoreHarness h = harness(enforced);
            h.send(1, 1, OpCode.SASL, token("hello"));
            h.framesTo(1);
            h.send(1, 2, OpCode.SASL, token("wrong"));
            byte[] reply = h.framesTo(1).get(0);
            int expected = enforced.isEmpty() ? Err.AUTH_FAILED : Err.SESSION_CLOSED_REQUIRE_SASL_AUTH;
            assertEquals(expected, CoreHarness.header(reply).getErr());
            // the Java client reads the token field even after an error: it must be there (null, length -1)
            assertNull(CoreHarness.body(reply, new SetSASLResponse()).getToken());
            assertEquals(List.of(1L), h.closed);
        }
    }

    @Test
    void withoutTheProviderTheSaslAclSchemeIsInvalid() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.framesTo(1);
        h.send(1, 1, OpCode.CREATE, new CreateRequest("/alice", new byte[0], ONLY_ALICE, 0));
        h.persistAll();
        assertEquals(Err.INVALID_ACL, CoreHarness.header(h.framesTo(1).get(0)).getErr());
    }
}
