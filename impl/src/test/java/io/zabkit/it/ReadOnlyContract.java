package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * Read-only mode as ZooKeeper 3.9 defines it ({@code -Dreadonlymode.enabled=true} on every server, and
 * {@code localSessionsEnabled=true} in zoo.cfg, which ZooKeeper needs since 3.7 (ZOOKEEPER-3863/3864: a
 * read-only server refuses to create a global session, and answers the connect with a bare NotReadOnly header
 * a client cannot read); zabkit ignores the key, its read-only sessions being local anyway): a
 * 3-server ensemble loses two servers, and the one left, once it has looked for a leader for its grace
 * period (max(2 s, tickTime)), serves clients that connect with canBeReadOnly: reads of what it had applied,
 * NotReadOnly (-119) for every state change and sync, with the connection kept; a client without
 * canBeReadOnly never connects. When a quorum is back, the read-only client moves to a read-write server by
 * itself (the Java client's isro probe, or the read-only server closing its connections) and writes again.
 */
abstract class ReadOnlyContract extends ProcessEnsembleContract {
    static final String READ_ONLY_FLAG = "-Dreadonlymode.enabled=true";
    static final byte[] DATA = "v1".getBytes(StandardCharsets.UTF_8);

    /** A client whose every connection-state event is recorded; {@code canBeReadOnly} as the API's flag. */
    private ZooKeeper client(String connectString, Clients.Events events, boolean canBeReadOnly) throws Exception {
        ZooKeeper zk = new ZooKeeper(connectString, Clients.SESSION_TIMEOUT_MS, events, canBeReadOnly);
        clients.add(zk);
        return zk;
    }

    private static void awaitState(Clients.Events events, Watcher.Event.KeeperState state, long timeoutS)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (System.nanoTime() < deadline) {
            WatchedEvent e = events.queue.poll(100, TimeUnit.MILLISECONDS);
            if (e != null && e.getType() == Watcher.Event.EventType.None && e.getState() == state) {
                return;
            }
        }
        throw new AssertionError("no " + state + " event within " + timeoutS + " s");
    }

    /** Starts the ensemble, writes /ro and /ro/child through the quorum, then stops servers 2 and 3. */
    private void partitionServerOne() throws Exception {
        ensemble = new ProcessEnsemble(kind(), dir, List.of(READ_ONLY_FLAG), "localSessionsEnabled=true");
        for (int id = 1; id <= ProcessEnsemble.SIZE; id++) {
            ensemble.start(id);
        }
        for (int id = 1; id <= ProcessEnsemble.SIZE; id++) {
            ensemble.awaitIsro(id, "rw", QUORUM_WAIT_S);
        }
        Clients.Events events = new Clients.Events();
        ZooKeeper writer = client("127.0.0.1:" + ensemble.clientPort(1), events, false);
        awaitState(events, Watcher.Event.KeeperState.SyncConnected, QUORUM_WAIT_S);
        writer.create("/ro", DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        writer.create("/ro/child", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        writer.close();
        clients.remove(writer);
        ensemble.stop(2);
        ensemble.stop(3);
        ensemble.awaitIsro(1, "ro", QUORUM_WAIT_S);
    }

    @Test
    void aServerWithoutQuorumServesReadOnlyClientsAndTheyMoveBackToAQuorum() throws Exception {
        partitionServerOne();
        Clients.Events roEvents = new Clients.Events();
        ZooKeeper ro = client(ensemble.connectString(), roEvents, true);
        awaitState(roEvents, Watcher.Event.KeeperState.ConnectedReadOnly, QUORUM_WAIT_S);
        assertEquals(ZooKeeper.States.CONNECTEDREADONLY, ro.getState());

        // Reads are served from what server 1 had applied.
        assertArrayEquals(DATA, ro.getData("/ro", false, null));
        assertEquals(List.of("child"), ro.getChildren("/ro", false));
        assertNull(ro.exists("/absent", false));

        // Every state change is NotReadOnly, and the connection stays.
        assertThrows(KeeperException.NotReadOnlyException.class,
                () -> ro.create("/ro/new", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
        assertThrows(KeeperException.NotReadOnlyException.class, () -> ro.setData("/ro", new byte[1], -1));
        assertThrows(KeeperException.NotReadOnlyException.class, () -> ro.delete("/ro/child", -1));
        assertThrows(KeeperException.NotReadOnlyException.class,
                () -> ro.multi(List.of(Op.check("/ro", 0), Op.setData("/ro", new byte[1], -1))));
        CompletableFuture<Integer> syncRc = new CompletableFuture<>();
        ro.sync("/ro", (rc, path, ctx) -> syncRc.complete(rc), null);
        assertEquals(KeeperException.Code.NOTREADONLY.intValue(), syncRc.get(Clients.WAIT_S, TimeUnit.SECONDS),
                "sync on a read-only server");
        assertArrayEquals(DATA, ro.getData("/ro", false, null));
        assertEquals(ZooKeeper.States.CONNECTEDREADONLY, ro.getState());

        // The server says what it is; a client that cannot be read-only is refused.
        assertEquals("ro", ensemble.fourLetterWord(1, "isro"));
        assertTrue(ensemble.fourLetterWord(1, "srvr").contains("Mode: read-only"), ensemble.fourLetterWord(1, "srvr"));
        Clients.Events rwEvents = new Clients.Events();
        ZooKeeper rwOnly = client("127.0.0.1:" + ensemble.clientPort(1), rwEvents, false);
        Thread.sleep(TlsContract.REFUSED_WAIT_MS);
        assertEquals(ZooKeeper.States.CONNECTING, rwOnly.getState(), "a not-read-only client on a read-only server");

        // A quorum again: the read-only client reaches a read-write server and writes.
        long roSession = ro.getSessionId();
        ensemble.start(2);
        awaitState(roEvents, Watcher.Event.KeeperState.SyncConnected, QUORUM_WAIT_S);
        assertEquals(ZooKeeper.States.CONNECTED, ro.getState());
        ro.create("/ro/after", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertNotEquals(roSession, ro.getSessionId(), "a session made read-only is not the ensemble's");
        awaitState(rwEvents, Watcher.Event.KeeperState.SyncConnected, QUORUM_WAIT_S);
        assertArrayEquals(new byte[0], rwOnly.getData("/ro/after", false, null));
    }
}
