package io.zabkit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.session.Sessions;
import io.zabkit.storage.RecoveredState;
import io.zabkit.tree.DataTree;
import io.zabkit.tree.WatchKind;
import io.zabkit.txn.Txn;
import io.zabkit.wire.Err;
import io.zabkit.wire.Jute;
import io.zabkit.wire.OpCode;
import io.zabkit.zab.Message;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Variant;
import io.zabkit.zab.ZabConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.jute.Record;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.proto.ConnectRequest;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.RequestHeader;
import org.apache.zookeeper.proto.WatcherEvent;
import org.apache.zookeeper.txn.CreateSessionTxn;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.SetDataTxn;
import org.junit.jupiter.api.Test;

/**
 * keepConnections (issue 20 item 7) in the core: server 2 of {1,2,3} follows leader 1, played by hand, loses
 * it, and syncs with server 3 as the new leader. Each test fails without the switch's code: today's core closes
 * the connection when the leader goes (and asserts no SNAP reaches a connected client).
 */
class KeepConnectionsTest {
    private static final long CONN = 7;
    private static final int TIMEOUT_MS = 2_000;

    /** The follower and what it did: frames per connection, peer messages, closed connections. */
    private static final class Rig {
        final ServerCore core;
        final List<byte[]> frames = new ArrayList<>();
        final List<Message.Forward> forwards = new ArrayList<>();
        final List<Long> closed = new ArrayList<>();
        long now = 1_000_000;
        long sessionId;
        long lastZxid;

        Rig(boolean keep) {
            CoreConfig c = CoreConfig.defaults(2, 100, 7)
                    .withZab(new ZabConfig(List.of(1L, 2L, 3L), 10, 5, 0, Variant.Zab, 1.0, 1));
            core = new ServerCore(c, RecoveredState.empty());
            if (keep) {
                core.enableKeepConnections();
            }
            core.tick(now);
            pump();
        }

        /** Collects effects; everything logged is durable at once (the disk is not under test here). */
        void pump() {
            while (core.hasReady()) {
                Ready r = core.ready();
                for (Ready.Outbound o : r.sends()) {
                    if (o.connId() == CONN) {
                        frames.add(java.util.Arrays.copyOfRange(o.bytes(), 4, o.bytes().length));
                    }
                }
                closed.addAll(r.closes());
                for (Ready.PeerOut p : r.peerOut()) {
                    if (p.message() instanceof Message.Forward f) {
                        forwards.add(f);
                    }
                }
                if (!r.entries().isEmpty()) {
                    core.persisted(r.lastEntryZxid());
                }
                core.checkInvariants();
            }
        }

        void from(long peer, Message m) {
            core.peerMessage(peer, m);
            pump();
        }

        /** Follows leader 1 in epoch 1 with an empty history, then opens session CONN through it. */
        void followOneAndConnect() throws Exception {
            from(1, new Message.Notification(1, ServerState.LEADING, 1, 0, 0));
            from(3, new Message.Notification(1, ServerState.FOLLOWING, 1, 0, 0));
            assertEquals(ServerState.FOLLOWING, core.zab().state());
            from(1, new Message.LeaderInfo(1));
            from(1, new Message.Diff(0));
            from(1, new Message.NewLeader(0));
            from(1, new Message.UpToDate(0));
            assertTrue(core.zab().isServing(), "serving under leader 1");
            core.connect(CONN, "/127.0.0.1:40007");
            core.receive(CONN, Jute.frame(Jute.encode(new ConnectRequest(0, 0, TIMEOUT_MS, 0, new byte[16], false))));
            pump();
            Message.Forward create = forwards.remove(0);
            sessionId = create.sessionId();
            commit(1, new Txn(Txn.zxid(1, 1), sessionId, 0, now, OpCode.CREATE_SESSION, new CreateSessionTxn(TIMEOUT_MS)));
            assertEquals(sessionId, CoreHarness.connectResponse(frames.remove(0)).getSessionId());
        }

        void propose(long leader, Txn t) {
            from(leader, new Message.Proposal(t, false));
            lastZxid = t.zxid();
        }

        void commit(long leader, Txn t) {
            propose(leader, t);
            from(leader, new Message.Commit(t.zxid()));
        }

        void request(int xid, int type, Record body) {
            core.receive(CONN, Jute.frame(Jute.encode(new RequestHeader(xid, type), body)));
            pump();
        }

        /** Leader 1 is gone; server 3 (higher id, same history) wins the election and leads epoch 2. */
        void loseLeaderOne() {
            core.peerDisconnected(1);
            pump();
            assertEquals(ServerState.LOOKING, core.zab().state());
        }

        void electThree() {
            from(3, new Message.Notification(5, ServerState.LOOKING, 3, lastZxid, 1));
            now += 100;
            core.tick(now);
            pump();
            assertEquals(ServerState.FOLLOWING, core.zab().state(), "follows 3");
            from(3, new Message.LeaderInfo(2));
        }

        Txn create(long zxid, int cxid, String path) {
            return new Txn(zxid, sessionId, cxid, now, OpCode.CREATE,
                    new CreateTxn(path, new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, false, 1));
        }
    }

    private static int xidOf(byte[] frame) throws Exception {
        return CoreHarness.header(frame).getXid();
    }

    @Test
    void aFollowerKeepsItsConnectionAcrossALeaderChangeAndHoldsReadsUntilSynced() throws Exception {
        Rig r = new Rig(true);
        r.followOneAndConnect();
        r.loseLeaderOne();
        assertFalse(r.closed.contains(CONN), "the connection is kept");
        r.request(-2, OpCode.PING, null);
        assertEquals(1, r.frames.size(), "a ping is answered while held");
        assertEquals(-2, xidOf(r.frames.remove(0)));
        r.request(1, OpCode.GET_DATA, new GetDataRequest("/", false));
        r.electThree();
        r.from(3, new Message.Diff(r.lastZxid));
        r.from(3, new Message.NewLeader(r.lastZxid));
        assertTrue(r.frames.isEmpty(), "nothing but pings is answered before UPTODATE");
        r.from(3, new Message.UpToDate(r.lastZxid));
        assertEquals(1, xidOf(r.frames.remove(0)), "the held read is answered once synchronized");
        assertFalse(r.closed.contains(CONN));
    }

    @Test
    void withTheSwitchOffTheConnectionIsClosedAsInZooKeeper() throws Exception {
        Rig r = new Rig(false);
        r.followOneAndConnect();
        r.loseLeaderOne();
        assertTrue(r.closed.contains(CONN), "today's behaviour: every connection closed");
    }

    @Test
    void aForwardedWriteTheNewHistoryHoldsIsAnsweredNotForwardedAgain() throws Exception {
        Rig r = new Rig(true);
        r.followOneAndConnect();
        r.request(1, OpCode.CREATE, new CreateRequest("/a", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, 0));
        assertEquals(1, r.forwards.size(), "relayed to leader 1");
        r.forwards.clear();
        r.propose(1, r.create(Txn.zxid(1, 2), 1, "/a")); // logged here, its COMMIT lost with leader 1
        r.loseLeaderOne();
        r.electThree();
        r.from(3, new Message.Diff(r.lastZxid));
        r.from(3, new Message.NewLeader(r.lastZxid));
        r.from(3, new Message.UpToDate(r.lastZxid));
        assertTrue(r.forwards.isEmpty(), "in the new history: not forwarded again");
        ReplyHeader h = CoreHarness.header(r.frames.remove(0));
        assertEquals(1, h.getXid());
        assertEquals(Txn.zxid(1, 2), h.getZxid(), "answered with the transaction the new leader kept");
        assertEquals(Err.OK, h.getErr());
    }

    @Test
    void rejoiningTheSameEpochAForwardedWriteThatMayStillCommitClosesTheConnection() throws Exception {
        Rig r = new Rig(true);
        r.followOneAndConnect();
        r.request(1, OpCode.CREATE, new CreateRequest("/a", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, 0));
        r.forwards.clear(); // in leader 1's pipeline, or lost with the link: this server cannot tell
        r.loseLeaderOne();
        // Leader 1 kept its quorum: this server finds it again, in the same epoch 1.
        r.from(1, new Message.Notification(1, ServerState.LEADING, 1, 0, 0));
        r.from(3, new Message.Notification(1, ServerState.FOLLOWING, 1, 0, 0));
        assertEquals(ServerState.FOLLOWING, r.core.zab().state());
        r.from(1, new Message.LeaderInfo(1));
        r.from(1, new Message.Diff(r.lastZxid));
        r.from(1, new Message.NewLeader(r.lastZxid));
        r.from(1, new Message.UpToDate(r.lastZxid));
        assertTrue(r.forwards.isEmpty(), "not forwarded again: leader 1 may still commit it (a second create)");
        assertTrue(r.closed.contains(CONN), "closed, as today: the write stays indeterminate for the client");
    }

    @Test
    void aForwardedWriteTheNewHistoryLacksIsForwardedOnceToTheNewLeader() throws Exception {
        Rig r = new Rig(true);
        r.followOneAndConnect();
        r.request(1, OpCode.CREATE, new CreateRequest("/a", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, 0));
        r.forwards.clear(); // leader 1 died before proposing it
        r.loseLeaderOne();
        r.request(2, OpCode.GET_DATA, new GetDataRequest("/", false));
        r.electThree();
        r.from(3, new Message.Diff(r.lastZxid));
        r.from(3, new Message.NewLeader(r.lastZxid));
        r.from(3, new Message.UpToDate(r.lastZxid));
        assertEquals(1, r.forwards.size(), "forwarded again, once");
        assertEquals(1, r.forwards.get(0).cxid());
        assertTrue(r.frames.isEmpty(), "the read waits behind the write (FIFO)");
        r.commit(3, r.create(Txn.zxid(2, 1), 1, "/a"));
        assertEquals(1, xidOf(r.frames.remove(0)));
        assertEquals(2, xidOf(r.frames.remove(0)));
        assertEquals(1, r.forwards.size(), "never a second time");
    }

    /**
     * The session watches /w (created at 1,2) and has a read held when leader 1 goes; leader 3 then syncs this
     * server by a SNAP of the tree `leaderTree` builds (at 1,3) and the session's table.
     */
    private static Rig snapUnderAWatch(java.util.function.Consumer<DataTree> leaderTree) throws Exception {
        Rig r = new Rig(true);
        r.followOneAndConnect();
        r.commit(1, r.create(Txn.zxid(1, 2), 0, "/w"));
        r.request(1, OpCode.GET_DATA, new GetDataRequest("/w", true));
        assertEquals(1, xidOf(r.frames.remove(0)));
        r.loseLeaderOne();
        r.request(2, OpCode.GET_DATA, new GetDataRequest("/w", false));
        r.electThree();
        DataTree tree = new DataTree();
        leaderTree.accept(tree);
        Sessions sessions = new Sessions(3, 7);
        sessions.applyCreate(r.sessionId, TIMEOUT_MS, r.now);
        r.from(3, new Message.Snap(Txn.zxid(1, 3), SnapshotCodec.encode(tree, sessions, Txn.zxid(1, 3)).data()));
        r.from(3, new Message.NewLeader(Txn.zxid(1, 3)));
        r.from(3, new Message.UpToDate(Txn.zxid(1, 3)));
        return r;
    }

    @Test
    void aWatchOnAZnodeASnapChangedClosesTheKeptConnection() throws Exception {
        // /w written again at 1,3 (a transaction this server never saw): the SNAP says /w changed but not how;
        // only a reconnect's SetWatches may report that, so the connection goes (K5's fallback).
        Rig r = snapUnderAWatch(tree -> {
            tree.create("/w", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, 0, 1, Txn.zxid(1, 2), 0);
            tree.setData("/w", new byte[] {2}, 1, Txn.zxid(1, 3), 0);
        });
        assertTrue(r.closed.contains(CONN), "closed: the SNAP changed a watched znode");
        assertTrue(r.frames.isEmpty(), "no coalesced event and no reply on a connection that stayed up: " + r.frames.size());
    }

    @Test
    void aSnapThatChangedNoWatchedZnodeKeepsTheConnection() throws Exception {
        // /w as this server knows it, and /other created at 1,3.
        Rig r = snapUnderAWatch(tree -> {
            tree.create("/w", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, 0, 1, Txn.zxid(1, 2), 0);
            tree.create("/other", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, 0, 1, Txn.zxid(1, 3), 0);
        });
        assertFalse(r.closed.contains(CONN), "kept: nothing it watches changed");
        assertEquals(1, r.frames.size(), "the held read's reply only: " + r.frames.size());
        assertEquals(2, xidOf(r.frames.remove(0)));
    }

    @Test
    void aForwardedWriteBehindASnapIsAnsweredFromTheSessionsLastReply() throws Exception {
        Rig r = new Rig(true);
        r.followOneAndConnect();
        r.request(1, OpCode.CREATE, new CreateRequest("/a", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, 0));
        r.forwards.clear();
        r.loseLeaderOne();
        r.electThree();
        // Leader 3 applied the write at 1,2 (this server never saw it) and sends a SNAP with the session's last reply.
        DataTree tree = new DataTree();
        tree.create("/a", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, 0, 1, Txn.zxid(1, 2), r.now);
        Sessions sessions = new Sessions(3, 7);
        sessions.applyCreate(r.sessionId, TIMEOUT_MS, r.now);
        byte[] reply = Replies.writeReply(1, Txn.zxid(1, 2), OpCode.CREATE,
                io.zabkit.pipeline.TxnResult.ok(OpCode.CREATE, "/a", tree.get("/a").stat()));
        sessions.recordApplied(r.sessionId, new Sessions.LastApplied(1, Txn.zxid(1, 2), reply));
        r.from(3, new Message.Snap(Txn.zxid(1, 2), SnapshotCodec.encode(tree, sessions, Txn.zxid(1, 2)).data()));
        r.from(3, new Message.NewLeader(Txn.zxid(1, 2)));
        r.from(3, new Message.UpToDate(Txn.zxid(1, 2)));
        assertTrue(r.forwards.isEmpty(), "the SNAP's table says it is applied: not forwarded again");
        ReplyHeader h = CoreHarness.header(r.frames.remove(0));
        assertEquals(1, h.getXid());
        assertEquals(Txn.zxid(1, 2), h.getZxid());
        assertEquals("/a", CoreHarness.body(java.util.Arrays.copyOfRange(reply, 4, reply.length),
                new org.apache.zookeeper.proto.CreateResponse()).getPath());
    }
}
