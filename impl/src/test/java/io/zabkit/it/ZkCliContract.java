package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ZooKeeper's command-line client (zkCli, org.apache.zookeeper.ZooKeeperMain) as a separate JVM, fed a
 * script on stdin as an operator would type it: it creates, reads, changes, protects and deletes nodes.
 */
abstract class ZkCliContract {
    private static final long CLI_TIMEOUT_S = 60;

    abstract Target.Factory factory();

    @Test
    void zkCliCreatesReadsSecuresAndDeletesNodes(@TempDir Path dir) throws Exception {
        try (Target server = factory().start(dir, Clients.freePort(), Target.Settings.FAST)) {
            String out = zkCli(server, List.of(
                    "create /cli hello",
                    "create -e /cli/eph e",
                    "create -s /cli/seq- s",
                    "get /cli",
                    "ls /cli",
                    "set /cli world",
                    "get -s /cli",
                    "stat /cli/eph",
                    "addauth digest bob:pw",
                    "create /cli/sec x",
                    "setAcl /cli/sec auth::cdrwa",
                    "getAcl /cli/sec",
                    "delete /cli/seq-0000000001",
                    "ls /cli"));
            assertTrue(out.contains("Created /cli\n"), out);
            assertTrue(out.contains("Created /cli/seq-0000000001"), out);
            assertTrue(out.contains("\nhello\n"), out);
            assertTrue(out.contains("[eph, seq-0000000001]") || out.contains("[seq-0000000001, eph]"), out);
            assertTrue(out.contains("\nworld\n"), out);
            assertTrue(out.contains("dataVersion = 1"), out);
            assertTrue(out.contains("numChildren = 2"), out);
            assertTrue(out.contains("ephemeralOwner = 0x"), out);
            assertTrue(out.contains("'digest,'bob:"), out);
            assertTrue(out.contains(": cdrwa"), out);
            assertTrue(out.contains("[eph, sec]") || out.contains("[sec, eph]"), out);

            String stranger = zkCli(server, List.of("get /cli/sec", "get /cli"));
            assertTrue(stranger.contains("Insufficient permission : /cli/sec"), stranger);
            assertTrue(stranger.contains("\nworld\n"), stranger);

            String cleanup = zkCli(server, List.of("addauth digest bob:pw", "deleteall /cli", "ls /"));
            assertTrue(cleanup.contains("[zookeeper]"), cleanup);
            ZooKeeper zk = Clients.connect(server.connectString());
            try {
                assertNull(zk.exists("/cli", false));
            } finally {
                zk.close();
            }
        }
    }

    @Test
    void zkCliReconfigGetsAnErrorAndTheSessionStaysConnected(@TempDir Path dir) throws Exception {
        try (Target server = factory().start(dir, Clients.freePort(), Target.Settings.FAST)) {
            String out = zkCli(server, List.of(
                    "create /before b",
                    "reconfig -add server.9=127.0.0.1:2888:3888;2181",
                    "create /after a",
                    "get /after"));
            assertTrue(out.contains("Created /before\n"), out);
            assertTrue(out.contains("ReconfigDisabled") || out.contains("Reconfig is disabled"), out);
            assertTrue(out.contains("Created /after\n"), out);
            assertTrue(out.contains("\na\n"), out);
            assertFalse(out.contains("Disconnected") || out.contains("ConnectionLoss"), out);
        }
    }

    /** Runs zkCli with the commands on stdin, then quit; returns everything it printed. */
    private static String zkCli(Target server, List<String> commands) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                "-Dzookeeper.jline.disable=true",
                "org.apache.zookeeper.ZooKeeperMain", "-server", server.connectString());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write((String.join("\n", commands) + "\nquit\n").getBytes(StandardCharsets.UTF_8));
        }
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(CLI_TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("zkCli did not exit within " + CLI_TIMEOUT_S + " s");
        }
        String text = new String(output, StandardCharsets.UTF_8).replace("\r", "");
        assertFalse(text.contains("Exception in thread"), "zkCli crashed:\n" + text);
        assertEquals(0, p.exitValue(), text);
        return text;
    }
}
