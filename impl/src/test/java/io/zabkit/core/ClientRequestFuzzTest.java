package io.zabkit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zabkit.tree.Acls;
import io.zabkit.wire.Err;
import io.zabkit.wire.OpCode;
import java.io.IOException;
import java.util.List;
import io.zabkit.fuzz.Seeds;
import io.zabkit.wire.Jute;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.jute.Record;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.proto.AuthPacket;
import org.apache.zookeeper.proto.CheckVersionRequest;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.DeleteRequest;
import org.apache.zookeeper.proto.ExistsRequest;
import org.apache.zookeeper.proto.GetChildren2Request;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.GetDataResponse;
import org.apache.zookeeper.proto.RequestHeader;
import org.apache.zookeeper.proto.SetDataRequest;
import org.apache.zookeeper.proto.SetWatches;
import org.apache.zookeeper.proto.SyncRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * No client can crash the server (hardening): any bytes after a handshake, framed or not, whatever
 * requests they decode to, leave the core's invariants holding and the server serving another client.
 * The committed inputs (ClientRequestFuzzTestInputs/) replay in every test run; `make fuzz` mutates them,
 * coverage-guided. The inputs start from real request frames (see FuzzSeeds).
 */
class ClientRequestFuzzTest {
    @FuzzTest(maxDuration = "2m")
    void anyBytesFromAnEstablishedClient(byte[] input) throws IOException {
        CoreHarness h = new CoreHarness();
        long fuzzed = h.connect(1, 0, null);
        // in two reads, at a point the input picks, so partial frames are fuzzed too
        int cut = input.length == 0 ? 0 : Byte.toUnsignedInt(input[0]) % (input.length + 1);
        h.core.receive(fuzzed, input, 0, cut);
        h.collect();
        if (!h.closed.contains(fuzzed)) {
            h.core.receive(fuzzed, input, cut, input.length - cut);
        }
        h.persistAll(); // checks the core's invariants after every batch
        h.now += 1_000;
        h.core.tick(h.now);
        h.persistAll();

        long other = h.connect(2, 0, null);
        h.framesTo(other);
        h.send(other, 1, OpCode.CREATE, new CreateRequest("/fuzz-survivor", new byte[] {42}, Acls.OPEN, 0));
        h.persistAll();
        h.send(other, 2, OpCode.GET_DATA, new GetDataRequest("/fuzz-survivor", false));
        h.persistAll();
        List<byte[]> replies = h.framesTo(other);
        assertEquals(2, replies.size(), "the other client gets both replies");
        int createErr = CoreHarness.header(replies.get(0)).getErr();
        // the fuzzed client may have created the node itself; any other answer means the server broke
        assertTrue(createErr == Err.OK || createErr == Err.NODE_EXISTS, "create answered " + createErr);
        if (createErr == Err.OK) {
            assertEquals(Err.OK, CoreHarness.header(replies.get(1)).getErr());
            assertEquals(42, CoreHarness.body(replies.get(1), new GetDataResponse()).getData()[0]);
        }
    }

    /** Real request frames, a few sessions' worth each: what a ZooKeeper client sends. */
    @Test
    @EnabledIfSystemProperty(named = Seeds.WRITE_PROPERTY, matches = "true")
    void writeSeeds() {
        byte[] v = "v".getBytes(StandardCharsets.UTF_8);
        Seeds.write(getClass(), "anyBytesFromAnEstablishedClient", "seed-crud", frames(
                request(1, OpCode.CREATE, new CreateRequest("/a", v, Acls.OPEN, 0)),
                request(2, OpCode.CREATE, new CreateRequest("/a/e", v, Acls.OPEN, 1)),
                request(3, OpCode.CREATE, new CreateRequest("/a/s", v, Acls.OPEN, 2)),
                request(4, OpCode.GET_DATA, new GetDataRequest("/a", true)),
                request(5, OpCode.SET_DATA, new SetDataRequest("/a", v, 0)),
                request(6, OpCode.EXISTS, new ExistsRequest("/a/x", true)),
                request(7, OpCode.GET_CHILDREN2, new GetChildren2Request("/a", true)),
                request(8, OpCode.DELETE, new DeleteRequest("/a/e", -1)),
                request(9, OpCode.SYNC, new SyncRequest("/a"))));
        Seeds.write(getClass(), "anyBytesFromAnEstablishedClient", "seed-session", frames(
                request(-4, OpCode.AUTH, new AuthPacket(0, "digest", "bob:secret".getBytes(StandardCharsets.UTF_8))),
                request(-8, OpCode.SET_WATCHES, new SetWatches(0, java.util.List.of("/a"), java.util.List.of("/b"),
                        java.util.List.of("/c"))),
                request(-2, OpCode.PING, null),
                request(10, OpCode.CHECK, new CheckVersionRequest("/a", 1)),
                request(11, OpCode.CLOSE_SESSION, null)));
        Seeds.write(getClass(), "anyBytesFromAnEstablishedClient", "seed-acl", frames(
                request(1, OpCode.CREATE, new CreateRequest("/p", v, java.util.List.of(new org.apache.zookeeper.data.ACL(31,
                        new Id("digest", "bob:hash="))), 0)),
                request(2, OpCode.GET_DATA, new GetDataRequest("/p", false))));
    }

    private static byte[] request(int xid, int type, Record body) {
        return Jute.frame(body == null ? Jute.encode(new RequestHeader(xid, type)) : Jute.encode(new RequestHeader(xid, type), body));
    }

    private static byte[] frames(byte[]... frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x7f); // the first byte picks where the input is cut in two reads
        for (byte[] f : frames) {
            out.writeBytes(f);
        }
        return out.toByteArray();
    }
}
