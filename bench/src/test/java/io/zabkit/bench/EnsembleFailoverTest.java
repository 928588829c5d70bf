package io.zabkit.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 3, item 6: a 3-server ensemble of real processes on 127.0.0.1..3. Writes go through every
 * server with the official Java client; kill -9 of the leader; a new leader must be elected, writes
 * must resume, no acknowledged write may be lost on any server, and the old leader, restarted, must
 * catch up. Runs for zabkit and, as the reference, for Apache ZooKeeper.
 */
class EnsembleFailoverTest {
    private static final Duration ELECTION_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration WRITE_RETRY_BUDGET = Duration.ofSeconds(20);
    private static final long RETRY_PAUSE_MS = 100;
    private static final int WRITES_PER_SERVER = 20;
    private static final String ROOT = "/failover";

    /** Every write a client saw acknowledged: path -> the bytes it wrote. */
    private final Map<String, byte[]> acknowledged = new LinkedHashMap<>();
    private long lastAcknowledgedZxid;

    @ParameterizedTest
    @EnumSource(SystemUnderTest.class)
    @Timeout(value = 100, unit = TimeUnit.SECONDS)
    void leaderCrashLosesNoAcknowledgedWriteAndTheOldLeaderCatchesUp(SystemUnderTest system) throws Exception {
        try (Ensemble e = Ensemble.start(EnsembleConfig.defaults(system))) {
            try {
                run(e);
            } catch (AssertionError | Exception x) {
                System.err.println(system.label() + " failover test failed; server logs:\n" + e.describeLogs());
                throw x;
            }
        }
    }

    private void run(Ensemble e) throws Exception {
        int oldLeader = e.awaitQuorum(Duration.ofSeconds(60));
        List<ZooKeeper> before = new ArrayList<>();
        try {
            for (int id : e.ids()) {
                before.add(Clients.pinned(e, id));
            }
            before.get(0).create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            for (int id : e.ids()) {
                for (int k = 0; k < WRITES_PER_SERVER; k++) {
                    writeWithRetry(before.get(id - 1), ROOT + "/before-via" + id + "-" + k);
                }
            }
        } finally {
            before.forEach(Clients::closeQuietly);
        }

        long pid = e.kill(oldLeader);
        int newLeader = e.awaitQuorum(ELECTION_TIMEOUT);
        assertNotEquals(oldLeader, newLeader, "server " + oldLeader + " (pid " + pid + ") was killed yet leads");

        for (int id : e.runningIds()) {
            ZooKeeper zk = Clients.pinned(e, id);
            try {
                for (int k = 0; k < WRITES_PER_SERVER; k++) {
                    writeWithRetry(zk, ROOT + "/after-via" + id + "-" + k);
                }
            } finally {
                Clients.closeQuietly(zk);
            }
        }

        e.restart(oldLeader);
        int leaderAfterRejoin = e.awaitQuorum(Duration.ofSeconds(60));
        assertEquals(e.size(), e.runningIds().size());
        assertTrue(e.modes().get(oldLeader).equals("follower") || oldLeader == leaderAfterRejoin,
                "the old leader should serve again: " + e.modes());

        for (int id : e.ids()) {
            assertEveryAcknowledgedWriteReadable(e, id);
        }
        assertLeaderReportsItsSyncedFollowers(e, leaderAfterRejoin);
        System.out.printf("%s: leader %d killed (pid %d), new leader %d, old leader rejoined; %d acknowledged writes "
                + "read back from all %d servers, last zxid 0x%x%n", e.system().label(), oldLeader, pid, newLeader,
                acknowledged.size(), e.size(), lastAcknowledgedZxid);
    }

    /** Creates path with its own name as data; a NODEEXISTS after a lost connection is our own earlier try. */
    private void writeWithRetry(ZooKeeper zk, String path) throws Exception {
        byte[] data = path.getBytes(StandardCharsets.UTF_8);
        long deadline = System.nanoTime() + WRITE_RETRY_BUDGET.toNanos();
        boolean triedBefore = false;
        for (int attempt = 1; ; attempt++) {
            Stat stat = new Stat();
            try {
                zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, stat);
                acknowledge(path, data, stat.getCzxid());
                return;
            } catch (KeeperException.NodeExistsException x) {
                assertTrue(triedBefore, path + " exists before its first create");
                byte[] stored = zk.getData(path, false, stat);
                assertArrayEquals(data, stored, path + " holds another write's data");
                acknowledge(path, data, stat.getCzxid());
                return;
            } catch (KeeperException.ConnectionLossException | KeeperException.OperationTimeoutException x) {
                triedBefore = true;
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no write through " + zk + " within " + WRITE_RETRY_BUDGET
                            + " (" + attempt + " attempts)", x);
                }
                Thread.sleep(RETRY_PAUSE_MS);
            }
        }
    }

    private void acknowledge(String path, byte[] data, long zxid) {
        acknowledged.put(path, data);
        lastAcknowledgedZxid = Math.max(lastAcknowledgedZxid, zxid);
    }

    /**
     * Operators read a leader's learners from mntr (ZooKeeper 3.9's zk_learners and zk_synced_followers;
     * only the leader reports them): with every server back, both must count the other two.
     */
    private static void assertLeaderReportsItsSyncedFollowers(Ensemble e, int leader) throws InterruptedException {
        String expected = "zk_synced_followers\t" + (e.size() - 1);
        String mntr = "";
        for (long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos(); System.nanoTime() < deadline; ) {
            mntr = FourLetterWord.send(e.clientAddress(leader), "mntr").orElse("");
            if (mntr.contains(expected) && mntr.contains("zk_learners\t" + (e.size() - 1))) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(e.system().label() + " leader " + leader + " mntr lacks '" + expected
                + "' and zk_learners " + (e.size() - 1) + ":\n" + mntr);
    }

    /** After sync, server id holds every acknowledged write, and its srvr zxid has reached the last one. */
    private void assertEveryAcknowledgedWriteReadable(Ensemble e, int id) throws Exception {
        ZooKeeper zk = Clients.pinned(e, id);
        try {
            zk.sync(ROOT);
            List<String> children = zk.getChildren(ROOT, false);
            assertEquals(acknowledged.size(), children.size(), "server " + id + " children of " + ROOT);
            for (Map.Entry<String, byte[]> w : acknowledged.entrySet()) {
                assertArrayEquals(w.getValue(), zk.getData(w.getKey(), false, null),
                        "server " + id + " lost or changed the acknowledged write " + w.getKey());
            }
        } finally {
            Clients.closeQuietly(zk);
        }
        long zxid = e.srvr(id).flatMap(FourLetterWord::zxid)
                .orElseThrow(() -> new AssertionError("server " + id + " does not answer srvr"));
        assertTrue(zxid >= lastAcknowledgedZxid, "server " + id + " srvr Zxid 0x" + Long.toHexString(zxid)
                + " is behind the last acknowledged write 0x" + Long.toHexString(lastAcknowledgedZxid));
    }
}
