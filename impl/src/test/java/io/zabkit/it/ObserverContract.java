package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * Observers as ZooKeeper 3.9 defines them: 3 voters and one observer (server 4: a ":observer" server line,
 * and peerType=observer in its own zoo.cfg). A client of the observer writes and reads its own writes;
 * after a sync it sees a write made through a voter; srvr and mntr name the observer's mode, and the
 * leader counts it among its synced observers, not its followers; the ensemble commits with the
 * observer killed, and the observer, back, catches up.
 */
abstract class ObserverContract extends ProcessEnsembleContract {
    static final int OBSERVER = ProcessEnsemble.SIZE + 1;

    private ZooKeeper clientOf(int id) throws Exception {
        ZooKeeper zk = Clients.connect("127.0.0.1:" + ensemble.clientPort(id));
        clients.add(zk);
        return zk;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** mntr's lines as key to value. */
    private Map<String, String> mntr(int id) {
        Map<String, String> m = new TreeMap<>();
        for (String line : ensemble.fourLetterWord(id, "mntr").split("\n")) {
            String[] kv = line.split("\t", 2);
            if (kv.length == 2) {
                m.put(kv[0], kv[1].trim());
            }
        }
        return m;
    }

    /** The voter whose srvr says it leads, waiting for one. */
    private int leader() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(QUORUM_WAIT_S);
        while (System.nanoTime() < deadline) {
            for (int id = 1; id <= ProcessEnsemble.SIZE; id++) {
                if (ensemble.fourLetterWord(id, "srvr").contains("Mode: leader")) {
                    return id;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no leader within " + QUORUM_WAIT_S + " s; logs:\n" + ensemble.logs());
    }

    /** Waits until the leader's mntr says this many observers are synced with it. */
    private Map<String, String> awaitSyncedObservers(int leader, String expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(QUORUM_WAIT_S);
        Map<String, String> m = mntr(leader);
        while (System.nanoTime() < deadline && !expected.equals(m.get("zk_synced_observers"))) {
            Thread.sleep(100);
            m = mntr(leader);
        }
        return m;
    }

    private void startAll() throws Exception {
        ensemble = new ProcessEnsemble(kind(), dir, 1, List.of());
        for (int id = 1; id <= OBSERVER; id++) {
            ensemble.start(id);
        }
        for (int id = 1; id <= OBSERVER; id++) {
            ensemble.awaitIsro(id, "rw", QUORUM_WAIT_S);
        }
    }

    @Test
    void aClientOfTheObserverWritesAndReadsAndTheObserverReportsItsMode() throws Exception {
        startAll();
        ZooKeeper viaObserver = clientOf(OBSERVER);
        viaObserver.create("/obs", bytes("v1"), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertArrayEquals(bytes("v1"), viaObserver.getData("/obs", false, null), "the observer's client reads its write");
        viaObserver.setData("/obs", bytes("v2"), 0);
        assertArrayEquals(bytes("v2"), viaObserver.getData("/obs", false, null));
        assertEquals(List.of("obs", "zookeeper"), sorted(viaObserver.getChildren("/", false)));

        // A write through a voter; after a sync the observer's client sees it.
        ZooKeeper viaVoter = clientOf(1);
        viaVoter.setData("/obs", bytes("v3"), 1);
        CompletableFuture<Integer> synced = new CompletableFuture<>();
        viaObserver.sync("/obs", (rc, path, ctx) -> synced.complete(rc), null);
        assertEquals(KeeperException.Code.OK.intValue(), synced.get(Clients.WAIT_S, TimeUnit.SECONDS));
        assertArrayEquals(bytes("v3"), viaObserver.getData("/obs", false, null), "sync then read on the observer");

        // The observer's mode, as srvr and mntr say it.
        String srvr = ensemble.fourLetterWord(OBSERVER, "srvr");
        assertTrue(srvr.contains("Mode: observer"), srvr);
        Map<String, String> observer = mntr(OBSERVER);
        assertEquals("observer", observer.get("zk_server_state"), observer.toString());
        assertEquals("observing - broadcast", observer.get("zk_peer_state"), observer.toString());
        assertEquals(null, observer.get("zk_synced_observers"), "only the leader reports its learners");

        // The leader: two synced followers and one synced observer, three learners in all.
        int leader = leader();
        Map<String, String> lm = awaitSyncedObservers(leader, "1");
        assertEquals("leading - broadcast", lm.get("zk_peer_state"), lm.toString());
        assertEquals("1", lm.get("zk_synced_observers"), lm.toString());
        assertEquals("2", lm.get("zk_synced_followers"), lm.toString());
        assertEquals("0", lm.get("zk_synced_non_voting_followers"), lm.toString());
        assertEquals("3", lm.get("zk_learners"), lm.toString());
        for (int id = 1; id <= ProcessEnsemble.SIZE; id++) {
            String s = ensemble.fourLetterWord(id, "srvr");
            assertTrue(s.contains(id == leader ? "Mode: leader" : "Mode: follower"), s);
        }
    }

    @Test
    void killingTheObserverNeverStopsTheEnsembleFromCommittingAndItCatchesUp() throws Exception {
        startAll();
        int leader = leader();
        ZooKeeper viaVoter = clientOf(leader == 1 ? 2 : 1);
        viaVoter.create("/before", bytes("b"), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ensemble.stop(OBSERVER);
        for (int i = 0; i < 20; i++) {
            viaVoter.create("/while-" + i, bytes("w" + i), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        assertEquals(21, viaVoter.getChildren("/", false).size() - 1, "every write committed without the observer");
        assertEquals("0", awaitSyncedObservers(leader, "0").get("zk_synced_observers"));

        ensemble.start(OBSERVER);
        ensemble.awaitIsro(OBSERVER, "rw", QUORUM_WAIT_S);
        ZooKeeper viaObserver = clientOf(OBSERVER);
        CompletableFuture<Integer> synced = new CompletableFuture<>();
        viaObserver.sync("/", (rc, path, ctx) -> synced.complete(rc), null);
        assertEquals(KeeperException.Code.OK.intValue(), synced.get(Clients.WAIT_S, TimeUnit.SECONDS));
        assertArrayEquals(bytes("w19"), viaObserver.getData("/while-19", false, null), "the observer caught up");
        assertEquals(22, viaObserver.getChildren("/", false).size(), "/zookeeper, /before and the 20 writes");
        assertEquals("1", awaitSyncedObservers(leader, "1").get("zk_synced_observers"));
    }

    private static List<String> sorted(List<String> names) {
        return names.stream().sorted().toList();
    }
}
