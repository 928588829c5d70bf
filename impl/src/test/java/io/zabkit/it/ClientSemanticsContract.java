package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.it.Clients.Events;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The client-visible rules of ZooKeeper (operations, exact stat fields, exact error codes, watches,
 * multi, ACLs, four-letter words), each checked through the official Java client. Subclasses pick the
 * server: zabkit's, and Apache ZooKeeper's own, which keeps every expectation here honest.
 */
abstract class ClientSemanticsContract extends SharedServerContract {
    private static final byte[] DATA = "hello".getBytes(StandardCharsets.UTF_8);
    private static final List<ACL> OPEN = Ids.OPEN_ACL_UNSAFE;

    ZooKeeper zk;
    Events events;
    /** A fresh root per test, so tests share one server and never see each other's nodes. */
    String root;


    @BeforeEach
    void connect(TestInfo info) throws Exception {
        events = new Events();
        zk = Clients.connect(server.connectString(), Clients.SESSION_TIMEOUT_MS, events);
        root = "/" + info.getTestMethod().orElseThrow().getName();
        zk.create(root, new byte[0], OPEN, CreateMode.PERSISTENT);
    }

    @AfterEach
    void disconnect() throws Exception {
        zk.close();
    }

    private static Code codeOf(ThrowingCall call) {
        KeeperException e = assertThrows(KeeperException.class, call::run);
        return e.code();
    }

    /** A mutable list: the client's ACL check asks it for null, which List.of refuses. */
    private static List<ACL> acl(ACL... entries) {
        return new ArrayList<>(List.of(entries));
    }

    interface ThrowingCall {
        void run() throws Exception;
    }

    // ------------------------------------------------------------------ stat fields

    @Test
    void createAndSetDataSetExactStatFields() throws Exception {
        Stat created = new Stat();
        String p = root + "/n";
        assertEquals(p, zk.create(p, DATA, OPEN, CreateMode.PERSISTENT, created));
        assertEquals(created.getCzxid(), created.getMzxid());
        assertEquals(created.getCzxid(), created.getPzxid());
        assertEquals(created.getCtime(), created.getMtime());
        assertTrue(created.getCtime() > 0);
        assertEquals(0, created.getVersion());
        assertEquals(0, created.getCversion());
        assertEquals(0, created.getAversion());
        assertEquals(0, created.getEphemeralOwner());
        assertEquals(DATA.length, created.getDataLength());
        assertEquals(0, created.getNumChildren());
        assertEquals(created, zk.exists(p, false));

        Stat set = zk.setData(p, new byte[3], 0);
        assertEquals(1, set.getVersion());
        assertTrue(set.getMzxid() > created.getMzxid());
        assertEquals(created.getCzxid(), set.getCzxid());
        assertEquals(created.getPzxid(), set.getPzxid(), "setData leaves pzxid");
        assertTrue(set.getMtime() >= created.getMtime());
        assertEquals(3, set.getDataLength());
        assertEquals(0, set.getCversion());

        Stat read = new Stat();
        assertArrayEquals(new byte[3], zk.getData(p, false, read));
        assertEquals(set, read);
        // setData with version -1 matches any version
        assertEquals(2, zk.setData(p, DATA, -1).getVersion());
    }

    @Test
    void aSessionThatHasReadMegabytesIsStillAnswered() throws Exception {
        // zabkit holds a connection's replies past 1 MiB until its output has left (ServerCore's
        // REPLY_BYTES_BEFORE_HOLD); a client that reads them must never wait on that
        String p = root + "/big";
        byte[] data = new byte[256 << 10];
        zk.create(p, data, OPEN, CreateMode.PERSISTENT);
        for (int i = 0; i < 12; i++) { // 3 MiB of replies, one request at a time
            assertEquals(data.length, zk.getData(p, false, null).length);
        }
        zk.setData(p, DATA, -1); // a write, then reads queued behind it
        zk.getData(p, false, null);
        assertEquals(2, zk.exists(p, false).getVersion() + 1);
    }

    @Test
    void nullDataIsStoredAsNullAndReadBackAsNullNotEmpty() throws Exception {
        String p = root + "/null";
        Stat created = new Stat();
        zk.create(p, null, OPEN, CreateMode.PERSISTENT, created);
        assertEquals(0, created.getDataLength());
        Stat read = new Stat();
        assertNull(zk.getData(p, false, read), "create with null data");
        assertEquals(created, read);
        zk.setData(p, DATA, -1);
        assertArrayEquals(DATA, zk.getData(p, false, null));
        assertEquals(0, zk.setData(p, null, -1).getDataLength());
        assertNull(zk.getData(p, false, null), "setData with null data");

        String empty = root + "/empty";
        zk.create(empty, new byte[0], OPEN, CreateMode.PERSISTENT);
        assertArrayEquals(new byte[0], zk.getData(empty, false, null), "empty data is not null");

        String inMulti = root + "/multi";
        zk.multi(List.of(Op.create(inMulti, null, OPEN, CreateMode.PERSISTENT), Op.setData(empty, null, -1)));
        assertNull(zk.getData(inMulti, false, null), "multi create with null data");
        assertNull(zk.getData(empty, false, null), "multi setData with null data");
    }

    @Test
    void childCreateAndDeleteMoveParentPzxidAndCversionAsZooKeeperDoes() throws Exception {
        Stat parent0 = zk.exists(root, false);
        Stat child = new Stat();
        zk.create(root + "/c", DATA, OPEN, CreateMode.PERSISTENT, child);
        Stat parent1 = zk.exists(root, false);
        assertEquals(parent0.getCversion() + 1, parent1.getCversion());
        assertEquals(child.getCzxid(), parent1.getPzxid());
        assertEquals(1, parent1.getNumChildren());
        assertEquals(parent0.getMzxid(), parent1.getMzxid(), "a child does not change the parent's data");
        assertEquals(parent0.getVersion(), parent1.getVersion());

        zk.delete(root + "/c", 0);
        Stat parent2 = zk.exists(root, false);
        assertEquals(0, parent2.getNumChildren());
        assertTrue(parent2.getPzxid() > parent1.getPzxid(), "delete moves the parent's pzxid");
        // ZooKeeper stores a count of creations only (the sequence counter) and reports
        // cversion = 2 * creations - numChildren, so the visible cversion moves on delete too.
        assertEquals(parent1.getCversion() + 1, parent2.getCversion());
        // getChildren2 returns the parent's stat with the list
        Stat viaChildren = new Stat();
        assertEquals(List.of(), zk.getChildren(root, false, viaChildren));
        assertEquals(parent2, viaChildren);
    }

    @Test
    void ephemeralNodesCarryTheirOwnerAndTakeNoChildren() throws Exception {
        Stat s = new Stat();
        zk.create(root + "/e", DATA, OPEN, CreateMode.EPHEMERAL, s);
        assertEquals(zk.getSessionId(), s.getEphemeralOwner());
        assertEquals(Code.NOCHILDRENFOREPHEMERALS,
                codeOf(() -> zk.create(root + "/e/c", DATA, OPEN, CreateMode.PERSISTENT)));
        assertEquals(List.of(root + "/e"), zk.getEphemerals(root));
        assertTrue(zk.getEphemerals().contains(root + "/e"));
    }

    @Test
    void ephemeralsVanishWhenTheirSessionCloses() throws Exception {
        ZooKeeper other = Clients.connect(server.connectString());
        other.create(root + "/gone", DATA, OPEN, CreateMode.EPHEMERAL);
        other.create(root + "/gone-seq-", DATA, OPEN, CreateMode.EPHEMERAL_SEQUENTIAL);
        assertNotNull(zk.exists(root + "/gone", events));
        other.close();
        events.expect(EventType.NodeDeleted, root + "/gone");
        assertEquals(List.of(), zk.getChildren(root, false));
    }

    // ------------------------------------------------------------------ sequential naming

    @Test
    void sequentialNamesUseTheParentsCversionFormattedTenDigits() throws Exception {
        assertEquals(root + "/s-0000000000", zk.create(root + "/s-", DATA, OPEN, CreateMode.PERSISTENT_SEQUENTIAL));
        assertEquals(root + "/s-0000000001", zk.create(root + "/s-", DATA, OPEN, CreateMode.PERSISTENT_SEQUENTIAL));
        zk.create(root + "/plain", DATA, OPEN, CreateMode.PERSISTENT);
        zk.delete(root + "/plain", -1);
        // The visible cversion counts creations and deletions, the sequence counter only creations.
        assertEquals(4, zk.exists(root, false).getCversion());
        assertEquals(root + "/e-0000000003",
                zk.create(root + "/e-", DATA, OPEN, CreateMode.EPHEMERAL_SEQUENTIAL));
        assertEquals(root + "/0000000004", zk.create(root + "/", DATA, OPEN, CreateMode.PERSISTENT_SEQUENTIAL));
        List<String> children = zk.getChildren(root, false);
        Collections.sort(children);
        assertEquals(List.of("0000000004", "e-0000000003", "s-0000000000", "s-0000000001"), children);
    }

    // ------------------------------------------------------------------ error codes

    @Test
    void errorCodesAreExact() throws Exception {
        String p = root + "/x";
        assertEquals(Code.NONODE, codeOf(() -> zk.getData(p, false, null)));
        assertEquals(Code.NONODE, codeOf(() -> zk.setData(p, DATA, -1)));
        assertEquals(Code.NONODE, codeOf(() -> zk.delete(p, -1)));
        assertEquals(Code.NONODE, codeOf(() -> zk.getChildren(p, false)));
        assertEquals(Code.NONODE, codeOf(() -> zk.create(p + "/y", DATA, OPEN, CreateMode.PERSISTENT)));
        assertEquals(Code.NONODE, codeOf(() -> zk.getACL(p, new Stat())));
        assertEquals(Code.NONODE, codeOf(() -> zk.getAllChildrenNumber(p)));
        assertNull(zk.exists(p, false));

        zk.create(p, DATA, OPEN, CreateMode.PERSISTENT);
        assertEquals(Code.NODEEXISTS, codeOf(() -> zk.create(p, DATA, OPEN, CreateMode.PERSISTENT)));
        assertEquals(Code.BADVERSION, codeOf(() -> zk.setData(p, DATA, 7)));
        assertEquals(Code.BADVERSION, codeOf(() -> zk.delete(p, 7)));
        assertEquals(Code.BADVERSION, codeOf(() -> zk.setACL(p, OPEN, 7)));
        zk.create(p + "/y", DATA, OPEN, CreateMode.PERSISTENT);
        assertEquals(Code.NOTEMPTY, codeOf(() -> zk.delete(p, -1)));
        assertEquals(Code.BADARGUMENTS, codeOf(() -> zk.delete("/", -1)));
        assertEquals(Code.INVALIDACL, codeOf(() -> zk.create(p + "/z", DATA,
                acl(new ACL(ZooDefs.Perms.ALL, new Id("digest", "no-colon"))), CreateMode.PERSISTENT)));
        assertEquals(Code.INVALIDACL, codeOf(() -> zk.create(p + "/z", DATA, Ids.CREATOR_ALL_ACL,
                CreateMode.PERSISTENT)), "auth scheme without any authenticated identity");
        assertEquals(Code.NOWATCHER, codeOf(() -> zk.removeWatches(p, e -> { }, Watcher.WatcherType.Data, false)));
        assertEquals(Code.BADVERSION, codeOf(() -> zk.multi(List.of(Op.check(p, 9)))));
    }

    // ------------------------------------------------------------------ reads

    @Test
    void childrenCountsEphemeralsAndSync() throws Exception {
        zk.create(root + "/a", DATA, OPEN, CreateMode.PERSISTENT);
        zk.create(root + "/a/b", DATA, OPEN, CreateMode.PERSISTENT);
        zk.create(root + "/a/b/c", DATA, OPEN, CreateMode.EPHEMERAL);
        zk.create(root + "/d", DATA, OPEN, CreateMode.EPHEMERAL);
        assertEquals(4, zk.getAllChildrenNumber(root));
        assertEquals(1, zk.getAllChildrenNumber(root + "/a/b"));
        List<String> eph = zk.getEphemerals(root);
        Collections.sort(eph);
        assertEquals(List.of(root + "/a/b/c", root + "/d"), eph);
        CountDownLatch synced = new CountDownLatch(1);
        int[] rc = {-1};
        zk.sync(root, (code, path, ctx) -> {
            rc[0] = code;
            synced.countDown();
        }, null);
        assertTrue(synced.await(Clients.WAIT_S, TimeUnit.SECONDS));
        assertEquals(0, rc[0]);
    }

    // ------------------------------------------------------------------ multi

    @Test
    void multiIsAllOrNothingWithPerOpResults() throws Exception {
        String a = root + "/a";
        List<OpResult> ok = zk.multi(List.of(
                Op.create(a, DATA, OPEN, CreateMode.PERSISTENT),
                Op.create(a + "/s-", DATA, OPEN, CreateMode.PERSISTENT_SEQUENTIAL),
                Op.setData(a, new byte[1], 0),
                Op.check(a, 1)));
        assertEquals(a, ((OpResult.CreateResult) ok.get(0)).getPath());
        assertEquals(a + "/s-0000000000", ((OpResult.CreateResult) ok.get(1)).getPath());
        assertEquals(1, ((OpResult.SetDataResult) ok.get(2)).getStat().getVersion());
        assertInstanceOf(OpResult.CheckResult.class, ok.get(3));
        Stat before = zk.exists(a, false);

        KeeperException e = assertThrows(KeeperException.class, () -> zk.multi(List.of(
                Op.create(root + "/b", DATA, OPEN, CreateMode.PERSISTENT),
                Op.setData(a, DATA, 1),
                Op.create(a, DATA, OPEN, CreateMode.PERSISTENT),
                Op.delete(a + "/s-0000000000", -1))));
        assertEquals(Code.NODEEXISTS, e.code());
        List<Integer> codes = new ArrayList<>();
        for (OpResult r : e.getResults()) {
            codes.add(((OpResult.ErrorResult) r).getErr());
        }
        assertEquals(List.of(Code.OK.intValue(), Code.OK.intValue(), Code.NODEEXISTS.intValue(),
                Code.RUNTIMEINCONSISTENCY.intValue()), codes);
        assertNull(zk.exists(root + "/b", false), "nothing of a failed multi is applied");
        assertEquals(before, zk.exists(a, false));
        assertNotNull(zk.exists(a + "/s-0000000000", false));

        // a multi's ops see each other's effects: create then delete in one transaction
        List<OpResult> both = zk.multi(List.of(Op.create(root + "/t", DATA, OPEN, CreateMode.PERSISTENT),
                Op.delete(root + "/t", 0)));
        assertInstanceOf(OpResult.DeleteResult.class, both.get(1));
        assertNull(zk.exists(root + "/t", false));
    }

    @Test
    void multiReadAnswersEachOpOnItsOwn() throws Exception {
        zk.create(root + "/r", DATA, OPEN, CreateMode.PERSISTENT);
        zk.create(root + "/r/k", DATA, OPEN, CreateMode.PERSISTENT);
        List<OpResult> results = zk.multi(List.of(Op.getData(root + "/r"), Op.getChildren(root + "/r"),
                Op.getData(root + "/missing")));
        assertArrayEquals(DATA, ((OpResult.GetDataResult) results.get(0)).getData());
        assertEquals(zk.exists(root + "/r", false), ((OpResult.GetDataResult) results.get(0)).getStat());
        assertEquals(List.of("k"), ((OpResult.GetChildrenResult) results.get(1)).getChildren());
        assertEquals(Code.NONODE.intValue(), ((OpResult.ErrorResult) results.get(2)).getErr());
    }

    // ------------------------------------------------------------------ watches

    @Test
    void existsWatchFiresNodeCreatedOnce() throws Exception {
        String p = root + "/w";
        assertNull(zk.exists(p, true));
        zk.create(p, DATA, OPEN, CreateMode.PERSISTENT);
        events.expect(EventType.NodeCreated, p);
        zk.setData(p, DATA, -1);
        Clients.barrier(zk);
        events.expectNoNodeEvent();
    }

    @Test
    void dataWatchesAreOneShotAndSeparateFromChildWatches() throws Exception {
        String p = root + "/w";
        zk.create(p, DATA, OPEN, CreateMode.PERSISTENT);
        zk.getData(p, true, null);
        zk.getChildren(p, true);
        zk.create(p + "/c", DATA, OPEN, CreateMode.PERSISTENT);
        events.expect(EventType.NodeChildrenChanged, p);
        zk.setData(p + "/c", DATA, -1); // a child's data is not the parent's children
        zk.setData(p, DATA, -1);
        events.expect(EventType.NodeDataChanged, p);
        zk.setData(p, DATA, -1); // one-shot: no second event
        zk.create(p + "/d", DATA, OPEN, CreateMode.PERSISTENT);
        Clients.barrier(zk);
        events.expectNoNodeEvent();
    }

    @Test
    void deleteFiresNodeDeletedForDataAndChildWatchesAndChildrenChangedOnParent() throws Exception {
        String p = root + "/w";
        zk.create(p, DATA, OPEN, CreateMode.PERSISTENT);
        Events dataW = new Events();
        Events childW = new Events();
        Events parentW = new Events();
        zk.getData(p, dataW, null);
        zk.getChildren(p, childW);
        zk.getChildren(root, parentW);
        zk.delete(p, -1);
        dataW.expect(EventType.NodeDeleted, p);
        childW.expect(EventType.NodeDeleted, p);
        parentW.expect(EventType.NodeChildrenChanged, root);
    }

    @Test
    void aReadOfAMissingNodeLeavesNoWatchButExistsDoes() throws Exception {
        String p = root + "/later";
        assertEquals(Code.NONODE, codeOf(() -> zk.getData(p, true, null)));
        assertEquals(Code.NONODE, codeOf(() -> zk.getChildren(p, true)));
        zk.create(p, DATA, OPEN, CreateMode.PERSISTENT);
        Clients.barrier(zk);
        events.expectNoNodeEvent();
        assertNotNull(zk.exists(p, true));
        zk.delete(p, -1);
        events.expect(EventType.NodeDeleted, p);
    }

    @Test
    void watchEventArrivesBeforeTheReplyThatReflectsTheChange() throws Exception {
        String p = root + "/o";
        zk.create(p, DATA, OPEN, CreateMode.PERSISTENT);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch replied = new CountDownLatch(2);
        zk.getData(p, e -> order.add("event " + e.getType()), null);
        ZooKeeper writer = Clients.connect(server.connectString());
        try {
            writer.setData(p, new byte[] {1}, -1);
            // the watching client's next read reflects the change, so the event must precede it
            zk.getData(p, false, (rc, path, ctx, data, stat) -> {
                order.add("read version " + stat.getVersion());
                replied.countDown();
            }, null);
            zk.setData(p, new byte[] {2}, -1, (rc, path, ctx, stat) -> {
                order.add("write version " + stat.getVersion());
                replied.countDown();
            }, null);
            assertTrue(replied.await(Clients.WAIT_S, TimeUnit.SECONDS));
        } finally {
            writer.close();
        }
        assertEquals(List.of("event NodeDataChanged", "read version 1", "write version 2"), order);
    }

    @Test
    void removeWatchesStopsDeliveryAndNotifiesTheWatcher() throws Exception {
        String p = root + "/rw";
        zk.create(p, DATA, OPEN, CreateMode.PERSISTENT);
        Events w = new Events();
        zk.getData(p, w, null);
        zk.getChildren(p, w);
        zk.removeWatches(p, w, Watcher.WatcherType.Data, false);
        w.expect(EventType.DataWatchRemoved, p);
        zk.setData(p, DATA, -1);
        zk.create(p + "/c", DATA, OPEN, CreateMode.PERSISTENT);
        w.expect(EventType.NodeChildrenChanged, p);
        Clients.barrier(zk);
        w.expectNoNodeEvent();
    }

    @Test
    void persistentRecursiveWatchSeesEveryChangeBelow() throws Exception {
        Events w = new Events();
        zk.addWatch(root, w, AddWatchMode.PERSISTENT_RECURSIVE);
        zk.create(root + "/a", DATA, OPEN, CreateMode.PERSISTENT);
        w.expect(EventType.NodeCreated, root + "/a");
        zk.setData(root + "/a", DATA, -1);
        w.expect(EventType.NodeDataChanged, root + "/a");
        zk.delete(root + "/a", -1);
        w.expect(EventType.NodeDeleted, root + "/a");
    }

    // ------------------------------------------------------------------ ACLs

    /**
     * CVE-2024-23944 (fixed in ZooKeeper 3.9.2): a watch event is delivered only to a session that may
     * READ the node it is about (the node itself; its parent for NodeChildrenChanged), so a recursive
     * watch on a public parent does not leak the names under a private node.
     */
    @Test
    void watchEventsAreDeliveredOnlyForNodesTheSessionMayRead() throws Exception {
        String digest = DigestAuthenticationProvider.generateDigest("alice:secret");
        List<ACL> aliceOnly = acl(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest)));
        zk.addAuthInfo("digest", "alice:secret".getBytes(StandardCharsets.UTF_8));
        String vault = root + "/vault";
        Events recursive = new Events();
        Events persistent = new Events();
        Events oneShot = new Events();
        ZooKeeper stranger = Clients.connect(server.connectString());
        try {
            stranger.addWatch(root, recursive, AddWatchMode.PERSISTENT_RECURSIVE);
            stranger.addWatch(vault, persistent, AddWatchMode.PERSISTENT);
            assertNull(stranger.exists(vault, oneShot));
            zk.create(vault, DATA, aliceOnly, CreateMode.PERSISTENT);
            zk.create(vault + "/customer-4711-credit-card", DATA, aliceOnly, CreateMode.PERSISTENT);
            zk.setData(vault + "/customer-4711-credit-card", DATA, -1);
            zk.delete(vault + "/customer-4711-credit-card", -1);
            zk.setData(vault, DATA, -1);
            zk.create(root + "/public", DATA, OPEN, CreateMode.PERSISTENT);
            recursive.expect(EventType.NodeCreated, root + "/public"); // the first event it may see
            Clients.barrier(stranger);
            recursive.expectNoNodeEvent();
            persistent.expectNoNodeEvent();
            oneShot.expectNoNodeEvent();
            zk.setACL(vault, OPEN, -1); // readable now: events about the vault flow again
            zk.setData(vault, DATA, -1);
            recursive.expect(EventType.NodeDataChanged, vault);
            persistent.expect(EventType.NodeDataChanged, vault);
        } finally {
            stranger.close();
        }
    }

    /**
     * CVE-2019-0201 (fixed in ZooKeeper 3.4.14 and 3.5.5): getACL showed every digest ACL's password hash
     * to any session. Now it needs READ or ADMIN, and without ADMIN the hashes are masked to "user:x".
     */
    @Test
    void getAclShowsDigestHashesOnlyToAnAdmin() throws Exception {
        String digest = DigestAuthenticationProvider.generateDigest("alice:secret");
        String user = digest.substring(0, digest.indexOf(':'));
        String readable = root + "/readable";
        String sealed = root + "/sealed";
        zk.create(readable, DATA, acl(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest)),
                new ACL(ZooDefs.Perms.READ, new Id("world", "anyone"))), CreateMode.PERSISTENT);
        zk.create(sealed, DATA, acl(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest))), CreateMode.PERSISTENT);
        ZooKeeper stranger = Clients.connect(server.connectString());
        try {
            assertEquals(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", user + ":x")),
                    new ACL(ZooDefs.Perms.READ, new Id("world", "anyone"))), stranger.getACL(readable, null),
                    "READ without ADMIN sees the ACL with the hash masked");
            assertEquals(Code.NOAUTH, codeOf(() -> stranger.getACL(sealed, null)), "neither READ nor ADMIN");
            stranger.addAuthInfo("digest", "alice:secret".getBytes(StandardCharsets.UTF_8));
            assertEquals(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest))), stranger.getACL(sealed, null),
                    "the admin sees the hash");
        } finally {
            stranger.close();
        }
    }

    @Test
    void authSchemeWithANullIdStandsForTheCallersIdentities() throws Exception {
        // kazoo's CREATOR_ALL_ACL sends the id "" as jute's null string; the auth scheme ignores it
        zk.addAuthInfo("digest", "carol:pw".getBytes(StandardCharsets.UTF_8));
        String p = root + "/mine";
        zk.create(p, DATA, acl(new ACL(ZooDefs.Perms.ALL, new Id("auth", null))), CreateMode.PERSISTENT);
        assertEquals(List.of(new ACL(ZooDefs.Perms.ALL,
                new Id("digest", DigestAuthenticationProvider.generateDigest("carol:pw")))), zk.getACL(p, null));
        // any other scheme without an id fails ZooKeeper's validation with an exception: MarshallingError
        assertEquals(Code.MARSHALLINGERROR, codeOf(() -> zk.create(root + "/bad", DATA,
                acl(new ACL(ZooDefs.Perms.ALL, new Id("digest", null))), CreateMode.PERSISTENT)));
    }

    @Test
    void aclsAreEnforcedOnEveryOperation() throws Exception {
        String digest = DigestAuthenticationProvider.generateDigest("alice:secret");
        String p = root + "/private";
        List<ACL> aliceOnly = acl(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest)));
        zk.create(p, DATA, aliceOnly, CreateMode.PERSISTENT);
        zk.create(root + "/ro", DATA, Ids.READ_ACL_UNSAFE, CreateMode.PERSISTENT);

        assertEquals(Code.NOAUTH, codeOf(() -> zk.getData(p, false, null)));
        assertEquals(Code.NOAUTH, codeOf(() -> zk.setData(p, DATA, -1)));
        assertEquals(Code.NOAUTH, codeOf(() -> zk.getChildren(p, false)));
        assertEquals(Code.NOAUTH, codeOf(() -> zk.create(p + "/c", DATA, OPEN, CreateMode.PERSISTENT)));
        assertEquals(Code.NOAUTH, codeOf(() -> zk.setACL(p, OPEN, -1)));
        assertEquals(Code.NOAUTH, codeOf(() -> zk.multi(List.of(Op.setData(p, DATA, -1)))));
        assertEquals(Code.NOAUTH, codeOf(() -> zk.exists(p, false)), "exists needs READ too");
        assertEquals(Code.NOAUTH, codeOf(() -> zk.setData(root + "/ro", DATA, -1)));
        assertArrayEquals(DATA, zk.getData(root + "/ro", false, null));

        zk.addAuthInfo("digest", "alice:secret".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(DATA, zk.getData(p, false, null));
        zk.create(p + "/mine", DATA, Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
        Stat aclStat = new Stat();
        assertEquals(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest))), zk.getACL(p + "/mine", aclStat));
        assertEquals(0, aclStat.getAversion());
        zk.setACL(p + "/mine", OPEN, 0);
        assertEquals(1, zk.exists(p + "/mine", false).getAversion());

        ZooKeeper stranger = Clients.connect(server.connectString());
        try {
            stranger.addAuthInfo("digest", "alice:wrong".getBytes(StandardCharsets.UTF_8));
            assertEquals(Code.NOAUTH, codeOf(() -> stranger.getData(p, false, null)));
            assertArrayEquals(DATA, stranger.getData(p + "/mine", false, null));
            assertEquals(Code.NOAUTH, codeOf(() -> stranger.delete(p + "/mine", -1)), "delete needs DELETE on the parent");
        } finally {
            stranger.close();
        }
        zk.delete(p + "/mine", -1);
    }

    // ------------------------------------------------------------------ four-letter words

    @Test
    void fourLetterWordsAnswerOnTheClientPort() throws Exception {
        zk.getData(root, true, null); // one watch for wchs
        assertEquals("imok", Clients.fourLetterWord(server.port(), "ruok"));
        String srvr = Clients.fourLetterWord(server.port(), "srvr");
        assertTrue(srvr.contains("Mode: standalone"), srvr);
        assertTrue(srvr.contains("Zxid: 0x"), srvr);
        String stat = Clients.fourLetterWord(server.port(), "stat");
        assertTrue(stat.contains("Clients:") && stat.contains("/127.0.0.1:"), stat);
        String mntr = Clients.fourLetterWord(server.port(), "mntr");
        assertTrue(mntr.contains("zk_server_state\tstandalone"), mntr);
        assertTrue(mntr.contains("zk_znode_count\t"), mntr);
        String conf = Clients.fourLetterWord(server.port(), "conf");
        assertTrue(conf.contains("clientPort=" + server.port()), conf);
        assertTrue(conf.contains("tickTime=100"), conf);
        String cons = Clients.fourLetterWord(server.port(), "cons");
        assertTrue(cons.contains("/127.0.0.1:"), cons);
        String wchs = Clients.fourLetterWord(server.port(), "wchs");
        assertTrue(wchs.contains("Total watches:"), wchs);
        assertFalse(wchs.contains("Total watches:0"), wchs);
    }
}
