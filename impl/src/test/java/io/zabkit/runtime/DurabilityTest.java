package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 loses no acknowledged write. Starts bin/zabkit-server as its own process, writes under load
 * with the official ZooKeeper client (async creates, conditional setData, two-node multis), SIGKILLs
 * the server at a seeded random moment, restarts it on the same dataDir and checks every znode against
 * {@link WriteModel}. A small snapCount makes the rounds cross snapshots, log rolls and purges.
 * Replay a run with -Dzabkit.durability.seed=SEED (kill timing still depends on the machine).
 */
class DurabilityTest {
    static {
        // The client logs every reconnect attempt while the server is down; only errors are news here.
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.zookeeper", "error");
    }

    private static final int ROUNDS = 4;
    private static final int OUTSTANDING_MAX = 64;
    private static final int KILL_AFTER_MS_MIN = 300;
    private static final int KILL_AFTER_MS_MAX = 1500;
    private static final int SESSION_TIMEOUT_MS = 30_000;
    private static final Code[] INDEFINITE = {Code.CONNECTIONLOSS, Code.OPERATIONTIMEOUT, Code.SESSIONEXPIRED,
        Code.SESSIONMOVED};

    @TempDir
    Path dir;

    private final WriteModel model = new WriteModel();
    private final ConcurrentLinkedQueue<String> definiteErrors = new ConcurrentLinkedQueue<>();

    @Test
    void killNineLosesNoAcknowledgedWrite() throws Exception {
        long seed = Long.getLong("zabkit.durability.seed", System.nanoTime());
        System.out.println("DurabilityTest SEED=" + seed + " (rerun: mvn -pl impl test -Dtest=DurabilityTest"
                + " -Dzabkit.durability.seed=" + seed + ")");
        Random random = new Random(seed);
        int port = freeLoopbackPort();
        Path config = writeConfig(port);
        Path log = dir.resolve("server.log");
        for (int round = 1; round <= ROUNDS; round++) {
            try (ServerProcess server = ServerProcess.start(config, port, log)) {
                verify(port, "before round " + round);
                int killAfterMs = KILL_AFTER_MS_MIN + random.nextInt(KILL_AFTER_MS_MAX - KILL_AFTER_MS_MIN);
                int acked = runLoadThenKill(server, round, killAfterMs, random);
                System.out.println("round " + round + ": killed pid " + server.pid() + " after " + killAfterMs
                        + " ms of load; " + acked + " writes acknowledged this round, " + model.inFlight()
                        + " creates/setData in flight at the kill, " + model.size() + " znodes tracked");
            }
        }
        try (ServerProcess server = ServerProcess.start(config, port, log)) {
            verify(port, "after the last kill");
            assertEquals(0, server.terminate(), "a clean stop on SIGTERM is a success");
            String text = server.logText();
            assertTrue(text.contains("stopped cleanly"), text);
        }
        try (ServerProcess server = ServerProcess.start(config, port, log)) {
            verify(port, "after a clean stop on pid " + server.pid());
        }
        String text = Files.readString(log);
        assertFalse(text.contains("AssertionError") || text.contains("SEVERE") || text.contains(" ERROR "), "server log:\n" + text);
        assertTrue(model.ackedWrites >= ROUNDS * 10, "the load did too little to mean anything: " + model.ackedWrites);
        assertTrue(definiteErrors.isEmpty(), "definite errors: " + definiteErrors);
        System.out.println("DurabilityTest: " + model.ackedWrites + " acknowledged writes over " + ROUNDS
                + " kill -9 rounds, all present after restart; files now in the data dir: " + dataFiles());
    }

    /** Shows that the rounds crossed snapshots, log rolls and purges. */
    private List<String> dataFiles() throws IOException {
        try (var files = Files.list(dir.resolve("data").resolve(ServerMain.STORAGE_DIR))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private Path writeConfig(int port) throws IOException {
        Path config = dir.resolve("zoo.cfg");
        Files.writeString(config, String.join("\n",
                "tickTime=500",
                "dataDir=" + dir.resolve("data"),
                "clientPortAddress=127.0.0.1",
                "clientPort=" + port,
                "snapCount=300",
                "autopurge.snapRetainCount=3",
                "maxSessionTimeout=" + SESSION_TIMEOUT_MS,
                "4lw.commands.whitelist=ruok,srvr",
                ""));
        return config;
    }

    /** Async writes until the kill, then waits for the client to hear the outcome of what it can. */
    private int runLoadThenKill(ServerProcess server, int round, int killAfterMs, Random random) throws Exception {
        int ackedBefore = model.ackedWrites;
        ZooKeeper zk = connect(server.port);
        try {
            ensurePath(zk, "/d");
            ensurePath(zk, "/d/r" + round);
            Semaphore outstanding = new Semaphore(OUTSTANDING_MAX);
            long killAtMs = System.currentTimeMillis() + killAfterMs;
            for (int i = 0; System.currentTimeMillis() < killAtMs; i++) {
                if (!outstanding.tryAcquire(10, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                startWrite(zk, round, i, random.nextInt(100), outstanding);
            }
            server.kill9();
        } finally {
            zk.close(1000);
        }
        return model.ackedWrites - ackedBefore;
    }

    private void startWrite(ZooKeeper zk, int round, int i, int dice, Semaphore outstanding) {
        WriteModel.Key idle = dice < 45 ? model.idleKey(i) : null;
        if (idle != null) {
            int version = idle.acked.version() + 1;
            byte[] data = ("set-" + round + "-" + i).getBytes(StandardCharsets.UTF_8);
            model.beginWrite(idle, new WriteModel.State(version, data));
            zk.setData(idle.path, data, version - 1, (rc, path, ctx, stat) -> {
                settleWrite(idle, rc, stat == null ? -1 : stat.getVersion(), path);
                outstanding.release();
            }, null);
        } else if (dice < 85) {
            byte[] data = ("create-" + round + "-" + i).getBytes(StandardCharsets.UTF_8);
            WriteModel.Key k = model.newKey("/d/r" + round + "/k" + i, new WriteModel.State(0, data));
            zk.create(k.path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, (rc, path, ctx, name) -> {
                settleWrite(k, rc, 0, path);
                outstanding.release();
            }, null);
        } else {
            WriteModel.Pair pair = new WriteModel.Pair("/d/r" + round + "/ma" + i, "/d/r" + round + "/mb" + i);
            model.newPair(pair);
            List<Op> ops = List.of(Op.create(pair.a(), new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                    Op.create(pair.b(), new byte[] {2}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
            zk.multi(ops, (rc, path, ctx, results) -> {
                if (rc == Code.OK.intValue()) {
                    model.pairAcked(pair);
                } else if (!indefinite(rc)) {
                    definiteErrors.add("multi " + pair + ": " + Code.get(rc));
                }
                outstanding.release();
            }, null);
        }
    }

    private void settleWrite(WriteModel.Key k, int rc, int version, String path) {
        if (rc == Code.OK.intValue()) {
            model.acked(k, version);
        } else if (indefinite(rc)) {
            model.unknown(k);
        } else {
            model.unknown(k);
            definiteErrors.add(path + ": " + Code.get(rc));
        }
    }

    private static boolean indefinite(int rc) {
        for (Code c : INDEFINITE) {
            if (c.intValue() == rc) {
                return true;
            }
        }
        return false;
    }

    private void verify(int port, String when) throws Exception {
        ZooKeeper zk = connect(port);
        try {
            List<String> violations = model.violations(zk);
            assertTrue(violations.isEmpty(), when + ": " + violations.size() + " violations, first ones: "
                    + violations.subList(0, Math.min(10, violations.size())));
            model.settle(zk);
        } finally {
            zk.close(1000);
        }
    }

    private static ZooKeeper connect(int port) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper("127.0.0.1:" + port, SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(20, TimeUnit.SECONDS)) {
            zk.close(1000);
            throw new IOException("no session with 127.0.0.1:" + port + " within 20 s");
        }
        return zk;
    }

    private static void ensurePath(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        try {
            zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // an earlier round made it
        }
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

}
