package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.jute.BinaryInputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.proto.ConnectResponse;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.GetDataResponse;
import org.apache.zookeeper.proto.GetSASLRequest;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.SetSASLResponse;
import org.junit.jupiter.api.Test;

/**
 * Requests a server may not support: ZooKeeper 3.9 answers each with an error reply (or, for SASL
 * without SASL, an empty one) rather than dropping the client, and so must zabkit. Only an op code
 * no server knows closes the connection, after its Unimplemented reply, and even then the session
 * lives on.
 */
abstract class UnsupportedRequestsContract extends SharedServerContract {
    private static final int READ_TIMEOUT_MS = 5000;

    @Test
    void reconfigIsAnsweredReconfigDisabledAndTheSessionStaysConnected() throws Exception {
        Clients.Events events = new Clients.Events();
        ZooKeeperAdmin admin = new ZooKeeperAdmin(server.connectString(), Clients.SESSION_TIMEOUT_MS, events);
        try {
            events.expectState(org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected);
            long session = admin.getSessionId();
            KeeperException e = assertThrows(KeeperException.class,
                    () -> admin.reconfigure("server.9=127.0.0.1:2888:3888;2181", null, null, -1, null));
            assertEquals(KeeperException.Code.RECONFIGDISABLED, e.code());
            assertNotNull(admin.exists("/", false), "the session answers after the reconfig");
            assertEquals(session, admin.getSessionId());
        } finally {
            admin.close();
        }
    }

    @Test
    void reconfigFailureIsATransactionWithItsOwnZxid() throws Exception {
        try (RawClient c = new RawClient(server.port(), READ_TIMEOUT_MS)) {
            connect(c);
            c.send(RawClient.requestFrame(1, ZooDefs.OpCode.reconfig,
                    new org.apache.zookeeper.proto.ReconfigRequest("", "", "server.9=127.0.0.1:2888:3888;2181", -1)));
            ReplyHeader failed = header(c.readFrame());
            assertEquals(1, failed.getXid());
            assertEquals(KeeperException.Code.RECONFIGDISABLED.intValue(), failed.getErr());
            assertTrue(failed.getZxid() > 0, "a failed write is an error txn with a zxid: " + failed);
            c.send(RawClient.requestFrame(2, ZooDefs.OpCode.getData, new GetDataRequest("/", false)));
            ReplyHeader read = header(c.readFrame());
            assertEquals(2, read.getXid());
            assertEquals(0, read.getErr());
        }
    }

    @Test
    void saslTokenWithoutSaslGetsAnOkReplyWithNoTokenAndTheConnectionStays() throws Exception {
        try (RawClient c = new RawClient(server.port(), READ_TIMEOUT_MS)) {
            connect(c);
            c.send(RawClient.requestFrame(1, ZooDefs.OpCode.sasl, new GetSASLRequest(new byte[0])));
            byte[] reply = c.readFrame();
            ReplyHeader h = header(reply);
            assertEquals(1, h.getXid());
            assertEquals(0, h.getErr());
            assertEquals(0, h.getZxid(), "ZooKeeper answers SASL outside the pipeline, with zxid 0");
            SetSASLResponse body = body(reply, new SetSASLResponse());
            assertEquals(null, body.getToken());
            c.send(RawClient.requestFrame(2, ZooDefs.OpCode.getData, new GetDataRequest("/", false)));
            byte[] data = c.readFrame();
            assertEquals(2, header(data).getXid());
            assertEquals(0, header(data).getErr());
            body(data, new GetDataResponse());
        }
    }

    @Test
    void unknownOpCodeGetsUnimplementedThenTheConnectionClosesButTheSessionLives() throws Exception {
        ConnectResponse session;
        try (RawClient c = new RawClient(server.port(), READ_TIMEOUT_MS)) {
            session = connect(c);
            c.send(RawClient.requestFrame(7, 250, null));
            ReplyHeader h = header(c.readFrame());
            assertEquals(7, h.getXid());
            assertEquals(-1, h.getZxid());
            assertEquals(KeeperException.Code.UNIMPLEMENTED.intValue(), h.getErr());
            assertEquals(0, c.framesUntilClosed(), "nothing after Unimplemented but the close");
        }
        try (RawClient c = new RawClient(server.port(), READ_TIMEOUT_MS)) {
            c.send(RawClient.connectFrame(session.getSessionId(), session.getPasswd(), 4000));
            ConnectResponse resumed = body(c.readFrame(), new ConnectResponse(), 0);
            assertEquals(session.getSessionId(), resumed.getSessionId());
            assertTrue(resumed.getTimeOut() > 0, "the session expired: " + resumed);
        }
    }

    private static ConnectResponse connect(RawClient c) throws IOException {
        c.send(RawClient.connectFrame(4000));
        ConnectResponse r = body(c.readFrame(), new ConnectResponse(), 0);
        assertTrue(r.getSessionId() != 0, "no session: " + r);
        return r;
    }

    private static ReplyHeader header(byte[] frame) throws IOException {
        assertNotNull(frame, "the server closed the connection instead of answering");
        ReplyHeader h = new ReplyHeader();
        h.deserialize(BinaryInputArchive.getArchive(new ByteArrayInputStream(frame)), "header");
        return h;
    }

    private static <T extends Record> T body(byte[] frame, T record) throws IOException {
        return body(frame, record, RawClient.REPLY_HEADER_BYTES);
    }

    private static <T extends Record> T body(byte[] frame, T record, int offset) throws IOException {
        assertNotNull(frame, "the server closed the connection instead of answering");
        ByteArrayInputStream in = new ByteArrayInputStream(frame, offset, frame.length - offset);
        record.deserialize(BinaryInputArchive.getArchive(in), "body");
        assertEquals(0, in.available(), "bytes left after the body");
        return record;
    }
}
