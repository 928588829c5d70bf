package io.zabkit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.tree.Acls;
import io.zabkit.tree.WatchKind;
import io.zabkit.wire.Err;
import io.zabkit.wire.OpCode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.zookeeper.proto.ConnectResponse;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.CreateResponse;
import org.apache.zookeeper.proto.DeleteRequest;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.GetDataResponse;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.SetDataRequest;
import org.apache.zookeeper.proto.SyncRequest;
import org.apache.zookeeper.proto.WatcherEvent;
import org.junit.jupiter.api.Test;

/** The core's ordering and durability rules, seen at the byte level with durability held back. */
class ServerCoreTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aWriteIsAnsweredOnlyAfterItIsDurable() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.framesTo(1);
        h.send(1, 1, OpCode.CREATE, new CreateRequest("/a", bytes("v"), Acls.OPEN, 0));
        assertEquals(1, h.logged.stream().filter(t -> t.type() == OpCode.CREATE).count(), "create is logged at once");
        assertTrue(h.framesTo(1).isEmpty(), "no reply before the log is durable");
        h.persistAll();
        List<byte[]> frames = h.framesTo(1);
        assertEquals(1, frames.size());
        assertEquals("/a", CoreHarness.body(frames.get(0), new CreateResponse()).getPath());
    }

    @Test
    void aReadWaitsBehindTheSessionsEarlierWrite() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.framesTo(1);
        h.send(1, 1, OpCode.CREATE, new CreateRequest("/a", bytes("v"), Acls.OPEN, 0));
        h.send(1, 2, OpCode.GET_DATA, new GetDataRequest("/a", false));
        assertTrue(h.framesTo(1).isEmpty(), "the read must not overtake the pending create (FifoClientOrder)");
        h.persistAll();
        List<byte[]> frames = h.framesTo(1);
        assertEquals(2, frames.size());
        assertEquals(1, CoreHarness.header(frames.get(0)).getXid());
        ReplyHeader readHeader = CoreHarness.header(frames.get(1));
        assertEquals(2, readHeader.getXid());
        assertEquals(Err.OK, readHeader.getErr());
        assertArrayEquals(bytes("v"), CoreHarness.body(frames.get(1), new GetDataResponse()).getData());
    }

    @Test
    void anotherSessionReadsTheAppliedStateNotThePendingOne() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.connect(2, 0, null);
        h.framesTo(1);
        h.framesTo(2);
        h.send(1, 1, OpCode.CREATE, new CreateRequest("/a", bytes("v"), Acls.OPEN, 0));
        h.send(2, 1, OpCode.GET_DATA, new GetDataRequest("/a", false));
        List<byte[]> frames = h.framesTo(2);
        assertEquals(1, frames.size(), "a read of another session is answered at once");
        assertEquals(Err.NO_NODE, CoreHarness.header(frames.get(0)).getErr(), "it must not see the undurable create");
    }

    @Test
    void theWatchEventPrecedesTheReplyThatReflectsTheChange() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.send(1, 1, OpCode.CREATE, new CreateRequest("/a", bytes("v"), Acls.OPEN, 0));
        h.persistAll();
        h.send(1, 2, OpCode.GET_DATA, new GetDataRequest("/a", true));
        h.framesTo(1);
        h.send(1, 3, OpCode.SET_DATA, new SetDataRequest("/a", bytes("w"), 0));
        h.persistAll();
        List<byte[]> frames = h.framesTo(1);
        assertEquals(2, frames.size());
        ReplyHeader first = CoreHarness.header(frames.get(0));
        assertEquals(-1, first.getXid(), "the notification comes first");
        WatcherEvent event = CoreHarness.body(frames.get(0), new WatcherEvent());
        assertEquals(WatchKind.NODE_DATA_CHANGED, event.getType());
        assertEquals("/a", event.getPath());
        ReplyHeader second = CoreHarness.header(frames.get(1));
        assertEquals(3, second.getXid());
        assertEquals(first.getZxid(), second.getZxid(), "the event carries the zxid of the change");
    }

    @Test
    void aSyncIsAnsweredAtTheZxidItWaitedFor() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.connect(2, 0, null);
        h.framesTo(1);
        h.framesTo(2);
        h.send(2, 1, OpCode.CREATE, new CreateRequest("/other", new byte[0], Acls.OPEN, 0));
        long awaited = h.core.lastProposedZxid();
        h.send(1, 1, OpCode.SYNC, new SyncRequest("/"));
        h.send(1, 2, OpCode.CREATE, new CreateRequest("/mine", new byte[0], Acls.OPEN, 0));
        h.collect();
        h.core.persisted(awaited);
        h.collect();
        List<byte[]> frames = h.framesTo(1);
        assertEquals(1, frames.size(), "the sync is answered as soon as the write it waited for applies");
        assertEquals(awaited, CoreHarness.header(frames.get(0)).getZxid(),
                "its reply must not claim the session's own later write (FifoClientOrder)");
        h.persistAll();
        assertEquals(awaited + 1, CoreHarness.header(h.framesTo(1).get(0)).getZxid());
    }

    @Test
    void aFailedWriteStillTakesItsPlaceInTheHistory() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        long before = h.core.lastProposedZxid();
        h.send(1, 1, OpCode.DELETE, new DeleteRequest("/missing", -1));
        h.persistAll();
        assertEquals(before + 1, h.core.lastProposedZxid(), "an error txn gets a zxid, as in ZooKeeper");
        List<byte[]> frames = h.framesTo(1);
        ReplyHeader reply = CoreHarness.header(frames.get(frames.size() - 1));
        assertEquals(Err.NO_NODE, reply.getErr());
        assertEquals(before + 1, reply.getZxid());
    }

    @Test
    void aResumedSessionNeedsItsPassword() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        ConnectResponse first = CoreHarness.connectResponse(h.framesTo(1).get(0));
        h.connect(2, first.getSessionId(), first.getPasswd());
        ConnectResponse resumed = CoreHarness.connectResponse(h.framesTo(2).get(0));
        assertEquals(first.getSessionId(), resumed.getSessionId());
        assertTrue(h.closed.contains(1L), "the stale connection of a moved session is closed");
        h.connect(3, first.getSessionId(), new byte[16]);
        ConnectResponse refused = CoreHarness.connectResponse(h.framesTo(3).get(0));
        assertEquals(0, refused.getTimeOut(), "a wrong password looks like an expired session");
        assertTrue(h.closed.contains(3L));
    }

    @Test
    void garbageClosesOnlyItsOwnConnection() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.core.connect(2, "/127.0.0.1:9");
        h.core.receive(2, new byte[] {0x7f, 0, 0, 0, 1, 2, 3});
        h.collect();
        assertTrue(h.closed.contains(2L), "a length over jute.maxbuffer closes the connection");
        h.send(1, 1, OpCode.CREATE, new CreateRequest("/still", new byte[0], Acls.OPEN, 0));
        h.persistAll();
        assertEquals(Err.OK, CoreHarness.header(h.framesTo(1).get(1)).getErr());
    }

    @Test
    void writeLatencyRunsFromReceiptToTheReplyAfterDeliveryAndCountsWritesOnly() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.framesTo(1);
        String before = h.core.monitorReport();
        h.send(1, 1, OpCode.CREATE, new CreateRequest("/a", bytes("v"), Acls.OPEN, 0));
        h.core.tick(h.now += 7); // the log becomes durable 7 ms after the create arrived
        h.persistAll();
        h.send(1, 2, OpCode.GET_DATA, new GetDataRequest("/a", false)); // a read: not a write's latency
        h.send(1, 3, OpCode.SET_DATA, new SetDataRequest("/a", bytes("w"), -1));
        h.core.tick(h.now += 3);
        h.persistAll();
        assertEquals(3, h.framesTo(1).size());
        String after = h.core.monitorReport();
        assertEquals(mntr(before, "zabkit_write_latency_count") + 2, mntr(after, "zabkit_write_latency_count"), after);
        assertEquals(mntr(before, "zabkit_write_latency_sum_ms") + 10, mntr(after, "zabkit_write_latency_sum_ms"), after);
        h.core.connect(9, "/127.0.0.1:9");
        h.core.receive(9, bytes("srst")); // srst resets it with the other latency figures
        assertEquals(0, mntr(h.core.monitorReport(), "zabkit_write_latency_count"));
    }

    private static long mntr(String report, String key) {
        for (String line : report.split("\n")) {
            if (line.startsWith(key + "\t")) {
                return Long.parseLong(line.substring(key.length() + 1));
            }
        }
        throw new AssertionError("no " + key + " in mntr:\n" + report);
    }

    @Test
    void fourLetterWordsAnswerAndClose() {
        CoreHarness h = new CoreHarness();
        h.core.connect(5, "/127.0.0.1:5");
        h.core.receive(5, bytes("ruok"));
        h.collect();
        assertEquals("imok", new String(h.sent.get(0).bytes(), StandardCharsets.UTF_8));
        assertTrue(h.closed.contains(5L));
    }

    @Test
    void repliesQueuedBehindAWriteAreBuiltOnlyAsFastAsTheConnectionTakesThem() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.send(1, 1, OpCode.CREATE, new CreateRequest("/big", new byte[300 << 10], Acls.OPEN, 0));
        h.persistAll();
        h.framesTo(1);
        h.holdReplies = 1; // the client reads nothing from here on
        h.send(1, 2, OpCode.SET_DATA, new SetDataRequest("/big", new byte[300 << 10], -1));
        for (int xid = 3; xid < 23; xid++) {
            h.send(1, xid, OpCode.GET_DATA, new GetDataRequest("/big", false)); // queued behind the write
        }
        assertTrue(h.framesTo(1).isEmpty(), "nothing before the write is durable");
        h.persistAll();
        List<byte[]> frames = new java.util.ArrayList<>(h.framesTo(1));
        assertTrue(frames.size() <= 1 + (ServerCore.REPLY_BYTES_BEFORE_HOLD / (300 << 10)) + 1,
                "at most the bound's worth of 300 KiB replies is built: " + frames.size());
        assertTrue(h.core.heldConnections().contains(1L), "the rest is held");
        int rounds = 0;
        while (h.core.heldConnections().contains(1L)) {
            h.core.outputDrained(1); // the runtime sent them
            h.collect();
            frames.addAll(h.framesTo(1));
            assertTrue(++rounds < 20, "each drain makes progress");
        }
        assertEquals(21, frames.size(), "every request answered in the end");
        for (int i = 0; i < frames.size(); i++) {
            assertEquals(2 + i, CoreHarness.header(frames.get(i)).getXid(), "in the session's order");
        }
    }

    @Test
    void aHoldReachedByEarlierRepliesIsReportedEvenWhenTheDrainMakesNone() throws Exception {
        CoreHarness h = new CoreHarness();
        h.connect(1, 0, null);
        h.send(1, 1, OpCode.CREATE, new CreateRequest("/big", new byte[300 << 10], Acls.OPEN, 0));
        h.persistAll();
        h.framesTo(1);
        h.holdReplies = 1;
        for (int xid = 2; xid < 6; xid++) {
            h.send(1, xid, OpCode.GET_DATA, new GetDataRequest("/big", false)); // answered at once: 1.2 MiB
        }
        assertEquals(4, h.framesTo(1).size());
        assertTrue(h.core.heldConnections().isEmpty(), "nothing queued, nothing held");
        h.send(1, 6, OpCode.SET_DATA, new SetDataRequest("/big", bytes("v"), -1));
        h.persistAll(); // the write's reply would be the first of this drain: over the bound already
        assertTrue(h.framesTo(1).isEmpty());
        assertEquals(java.util.Set.of(1L), h.core.heldConnections(), "the runtime must learn of this hold");
        h.core.outputDrained(1);
        h.collect();
        assertEquals(6, CoreHarness.header(h.framesTo(1).get(0)).getXid());
        assertTrue(h.core.heldConnections().isEmpty());
    }
}
