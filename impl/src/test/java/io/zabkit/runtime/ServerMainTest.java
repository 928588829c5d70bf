package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ways ServerMain refuses to start, and their exit statuses. */
class ServerMainTest {
    @TempDir
    Path dir;

    private Path config(String... extra) throws IOException {
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, "dataDir=" + dir.resolve("data") + "\nclientPortAddress=127.0.0.1\nclientPort=1\n"
                + String.join("\n", extra) + "\n");
        return cfg;
    }

    @Test
    void badConfigExitsWithTwo() throws IOException {
        assertEquals(2, ServerMain.run(config("tickTime=soon")));
        assertEquals(2, ServerMain.run(dir.resolve("missing.cfg")));
    }

    /** A keystore that cannot be read, or a JAAS Server section zabkit cannot serve, stops the server at once. */
    @Test
    void unusableTlsOrSaslSettingsExitWithTwo() throws IOException {
        Path notAKeyStore = dir.resolve("server.p12");
        Files.writeString(notAKeyStore, "not a keystore");
        assertEquals(2, ServerMain.run(config("secureClientPort=2", "ssl.keyStore.location=" + notAKeyStore,
                "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory")));
        assertEquals(2, ServerMain.run(config("secureClientPort=2", "ssl.keyStore.location=" + dir.resolve("none.p12"),
                "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory")));
        Path jaas = dir.resolve("jaas.conf");
        Files.writeString(jaas, "Server {\n  com.sun.security.auth.module.Krb5LoginModule required\n"
                + "  useKeyTab=true\n  keyTab=\"/zk.keytab\"\n  principal=\"zookeeper/localhost\";\n};\n");
        System.setProperty("java.security.auth.login.config", jaas.toString());
        javax.security.auth.login.Configuration.setConfiguration(null);
        try {
            assertEquals(2, ServerMain.run(config()), "Kerberos is not implemented: refused, not ignored");
        } finally {
            System.clearProperty("java.security.auth.login.config");
            javax.security.auth.login.Configuration.setConfiguration(null);
        }
    }

    @Test
    void ensembleConfigsTheServerCannotRunExitWithTwo() throws IOException {
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/myid"), "1");
        String[] three = {"initLimit=5", "syncLimit=2", "server.1=127.0.0.1:2888:3888", "server.2=127.0.0.1:2889:3889",
            "server.3=127.0.0.1:2890:3890"};
        // observers run only with the classic broadcast; an unknown peerType is refused
        assertEquals(2, ServerMain.run(config(concat(three, "server.4=127.0.0.1:2891:3891:observer",
                "zabkit.broadcast=ZabAa"))));
        assertEquals(2, ServerMain.run(config(concat(three, "peerType=watcher"))));
        assertEquals(2, ServerMain.run(config(concat(three, "zabkit.broadcast=Paxos"))));
        assertEquals(2, ServerMain.run(config(concat(three, "server.4=127.0.0.1:2891:3891",
                "server.5=127.0.0.1:2892:3892", "zabkit.broadcast=ZabAc"))));
    }

    /** One server of a 3-server ensemble, as its own process: it serves, listens on its quorum port, stops cleanly. */
    @Test
    void anEnsembleConfigIsAcceptedAndTheQuorumPortListens() throws Exception {
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/myid"), "2");
        int clientPort = freeLoopbackPort();
        int quorumPort = freeLoopbackPort();
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, String.join("\n", "tickTime=500", "initLimit=5", "syncLimit=2",
                "dataDir=" + dir.resolve("data"), "clientPortAddress=127.0.0.1", "clientPort=" + clientPort,
                "4lw.commands.whitelist=ruok,srvr", "zabkit.broadcast=ZabAa",
                "server.1=127.0.0.1:" + freeLoopbackPort() + ":" + freeLoopbackPort(),
                "server.2=127.0.0.1:" + quorumPort + ":" + freeLoopbackPort(),
                "server.3=127.0.0.1:" + freeLoopbackPort() + ":" + freeLoopbackPort()) + "\n");
        Path log = dir.resolve("server.log");
        try (ServerProcess server = ServerProcess.start(cfg, clientPort, log)) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", quorumPort), 5_000);
            }
            assertEquals(0, server.terminate(), "a clean stop on SIGTERM is a success");
            String text = server.logText();
            assertTrue(text.contains("ensemble [1, 2, 3] with broadcast ZabAa, quorum port"), text);
            assertTrue(text.contains("stopped cleanly"), text);
        }
        assertFalse(Files.exists(dir.resolve("data").resolve(SessionSecret.FILE)),
                "an ensemble's session secret comes from the config, not from dataDir");
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** A loopback port nothing listens on now (the test servers of this package bind it next). */
    static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void unrecoverableStorageExitsWithThree() throws IOException {
        Path storage = dir.resolve("data").resolve(ServerMain.STORAGE_DIR);
        Files.createDirectories(storage);
        Files.write(storage.resolve("log.1"), new byte[] {1, 2, 3}); // torn, but not the newest file
        Files.write(storage.resolve("log.2"), new byte[] {1, 2, 3});
        assertEquals(3, ServerMain.run(config()));
    }

    @Test
    void aLockedDataDirExitsWithThree() throws IOException {
        Files.createDirectories(dir.resolve("data"));
        DataDirLock held = DataDirLock.acquire(dir.resolve("data"));
        try {
            assertEquals(3, ServerMain.run(config()));
        } finally {
            held.close();
        }
    }
}
