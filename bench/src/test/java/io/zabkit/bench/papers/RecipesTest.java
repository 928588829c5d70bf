package io.zabkit.bench.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue and barrier recipes of `make papers-kalantari` on a standalone Apache ZooKeeper 3.9.4 in
 * this JVM: the audits flag planted faults (an element twice, lost, invented or out of order; a
 * barrier left early, by a planted recipe bug) and pass both recipes' real runs. About 20 s.
 */
class RecipesTest {
    private static ZooKeeperServerEmbedded server;
    private static String connect;
    private static final List<ZooKeeper> sessions = new ArrayList<>();
    private static final List<CuratorFramework> curators = new ArrayList<>();
    private static final AtomicLong ops = new AtomicLong();

    @BeforeAll
    static void startServer() throws Exception {
        Path dir = Files.createTempDirectory("recipes-test");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Properties p = new Properties();
        p.setProperty("clientPort", Integer.toString(port));
        p.setProperty("clientPortAddress", "127.0.0.1");
        p.setProperty("tickTime", "1000");
        p.setProperty("admin.enableServer", "false");
        server = ZooKeeperServerEmbedded.builder().baseDir(dir).configuration(p).exitHandler(ExitHandler.LOG_ONLY).build();
        server.start(30_000);
        connect = "127.0.0.1:" + port;
        for (int i = 0; i < 12; i++) {
            sessions.add(session());
            curators.add(Curators.open(connect, ops));
        }
    }

    @AfterAll
    static void stopServer() {
        sessions.forEach(Systems::close);
        curators.forEach(CuratorFramework::close);
        if (server != null) {
            server.close();
        }
    }

    private static ZooKeeper session() throws Exception {
        java.util.concurrent.CountDownLatch up = new java.util.concurrent.CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connect, 20_000, e -> {
            if (e.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                up.countDown();
            }
        });
        assertTrue(up.await(30, java.util.concurrent.TimeUnit.SECONDS), "a session with the standalone server");
        return zk;
    }

    private static List<QueueRecipe> queues(String kind, String path, int from, int n) {
        List<QueueRecipe> out = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            out.add(kind.equals("naive") ? new NaiveQueue(sessions.get(i), path, ops) : new CuratorQueue(curators.get(i), path));
        }
        return out;
    }

    @Test
    void theQueueAuditFlagsEachWayAQueueCanGoWrong() {
        List<String> made = List.of("1:0", "1:1", "1:2", "2:0");
        assertEquals(List.of(), QueueAudit.check(made, List.of(List.of("1:0", "2:0"), List.of("1:1")), List.of("1:2")));
        assertFalse(QueueAudit.check(made, List.of(List.of("1:0", "2:0"), List.of("1:0", "1:1")), List.of("1:2")).isEmpty(),
                "consumed twice");
        assertFalse(QueueAudit.check(made, List.of(List.of("1:0", "2:0"), List.of("1:1")), List.of("1:1", "1:2")).isEmpty(),
                "consumed and still in the queue");
        assertFalse(QueueAudit.check(made, List.of(List.of("1:0", "2:0")), List.of("1:2")).isEmpty(), "lost");
        assertFalse(QueueAudit.check(made, List.of(List.of("1:0", "2:0", "3:0"), List.of("1:1")), List.of("1:2")).isEmpty(),
                "invented");
        assertFalse(QueueAudit.check(made, List.of(List.of("1:1", "1:0", "2:0")), List.of("1:2")).isEmpty(),
                "one consumer took a producer's elements out of order");
    }

    @Test
    void theBarrierAuditFlagsAnEarlyPass() {
        BarrierAudit a = new BarrierAudit(2, 3);
        a.arrive(0);
        a.arrive(0);
        a.passed(0);
        assertEquals(1, a.early());
        a.arrive(0);
        a.passed(0);
        a.arrive(1);
        a.arrive(1);
        a.arrive(1);
        a.passed(1);
        assertEquals(1, a.early(), "passes after every arrival are not early");
    }

    @Test
    void bothQueuesDeliverEveryElementOnceInOrder() throws Exception {
        for (String kind : List.of("naive", "curator")) {
            String prefix = kind.equals("naive") ? NaiveQueue.PREFIX : CuratorQueue.PREFIX;
            String drainPath = "/drain-" + kind;
            QueueRuns.createQueue(sessions.get(0), drainPath);
            List<String> filled = QueueRuns.prefill(sessions.get(0), drainPath, prefix, 300);
            QueueRuns.Result d = QueueRuns.drain(sessions.get(0), drainPath, filled, queues(kind, drainPath, 0, 4), 200, 30);
            assertEquals(List.of(), d.violations(), kind + " drain");

            String mixedPath = "/mixed-" + kind;
            QueueRuns.createQueue(sessions.get(0), mixedPath);
            QueueRuns.Result m = QueueRuns.mixed(sessions.get(0), mixedPath, queues(kind, mixedPath, 0, 2),
                    queues(kind, mixedPath, 2, 2), 100, 30);
            assertEquals(List.of(), m.violations(), kind + " 2 producers + 2 consumers");
            assertEquals(400, m.ops());

            String herdPath = "/herd-" + kind;
            QueueRuns.createQueue(sessions.get(0), herdPath);
            QueueRuns.Result h = QueueRuns.herd(sessions.get(0), herdPath, queues(kind, herdPath, 11, 1).get(0),
                    queues(kind, herdPath, 0, 10), 0.5, 30);
            assertEquals(List.of(), h.violations(), kind + " herd");
            assertEquals(1, QueueRuns.remaining(sessions.get(0), herdPath).size(), "the last client's element is left");
        }
    }

    @Test
    void aQueueThatTakesTheNewestElementIsCaught() throws Exception {
        String path = "/planted-lifo";
        QueueRuns.createQueue(sessions.get(0), path);
        List<String> filled = QueueRuns.prefill(sessions.get(0), path, NaiveQueue.PREFIX, 30);
        QueueRuns.Result r = QueueRuns.drain(sessions.get(0), path, filled,
                List.of(new NaiveQueue(sessions.get(1), path, ops, true)), 20, 30);
        assertTrue(r.violations().stream().anyMatch(v -> v.contains("out of order")), r.violations().toString());
    }

    @Test
    void bothBarriersHoldEveryClientUntilAllArrive() throws Exception {
        IntFunction<BarrierRecipe> naive = i -> new NaiveBarrier(sessions.get(i), ops);
        IntFunction<BarrierRecipe> curator = i -> new CuratorBarrier(curators.get(i));
        int k = 0;
        for (IntFunction<BarrierRecipe> recipe : List.of(naive, curator)) {
            String root = "/barriers-" + k++;
            BarrierRuns.createBarriers(sessions.get(0), root, 5);
            List<BarrierRecipe> clients = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                clients.add(recipe.apply(i));
            }
            BarrierRuns.Sequence s = BarrierRuns.sequence(clients, root, 5, 30);
            assertEquals(0, s.early(), s.firstViolation());
            for (int i = 1; i < 5; i++) {
                assertTrue(s.secondsAfter()[i] >= s.secondsAfter()[i - 1], "barriers are passed in order");
            }
        }
        BarrierRuns.createBarriers(sessions.get(0), "/double", 3);
        BarrierRuns.Double d = BarrierRuns.doubleBarriers(curators.subList(0, 6), "/double", 3, 30);
        assertEquals(0, d.early());
        assertTrue(d.longestStepS() > 0 && d.longestStepS() <= d.seconds(), "one step lies within the run: " + d);
    }

    @Test
    void aBarrierThatPassesOneShortIsCaught() throws Exception {
        String root = "/planted-short";
        BarrierRuns.createBarriers(sessions.get(0), root, 1);
        BarrierAudit audit = new BarrierAudit(1, 4);
        long deadline = System.nanoTime() + 20_000_000_000L;
        ClientThreads.run(4, 30, c -> {
            if (c == 3) {
                Thread.sleep(1000); // the last client comes late: the others must still be waiting
            }
            audit.arrive(0);
            assertTrue(new NaiveBarrier(sessions.get(c), ops, 1).await(root + "/b-0", 4, deadline));
            audit.passed(0);
        });
        assertEquals(3, audit.early(), audit.firstViolation());
    }
}
