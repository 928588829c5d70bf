package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS for clients on {@code secureClientPort}, configured with ZooKeeper's keys on the server
 * ({@code serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory}, {@code ssl.keyStore.*},
 * {@code ssl.trustStore.*}, {@code ssl.clientAuth}) and its documented client properties
 * ({@code zookeeper.client.secure=true}, {@code zookeeper.clientCnxnSocket=...ClientCnxnSocketNetty},
 * {@code zookeeper.ssl.*}). The keystores are made for each run with the JDK's keytool; no key is committed.
 */
abstract class TlsContract {
    static final String PASSWORD = "test-only-password";
    /** How long a client that must not connect is given to try. */
    static final long REFUSED_WAIT_MS = 3_000;

    @TempDir
    static Path keys;
    static TestKeys.Pair server;
    static TestKeys.Pair client;
    static TestKeys.Pair stranger;

    @TempDir
    Path dir;
    Target target;

    /**
     * Starts a server of this kind with a plaintext {@code clientPort}, a TLS {@code secureClientPort},
     * the server key pair, a truststore holding the client's certificate, {@code ssl.clientAuth=clientAuth},
     * and with {@code x509Provider} ZooKeeper's {@code authProvider.x509} line, as its documentation has it.
     * The target's {@code port()} is the plaintext one; {@code port} 0 means no clientPort at all (TLS only),
     * and {@code port()} is then the secure one.
     */
    abstract Target start(Path dataDir, int port, int securePort, String clientAuth, boolean x509Provider)
            throws Exception;

    Target start(Path dataDir, int port, int securePort, String clientAuth) throws Exception {
        return start(dataDir, port, securePort, clientAuth, true);
    }

    @BeforeAll
    static void makeKeys() throws Exception {
        server = TestKeys.selfSigned(keys, "server", PASSWORD);
        client = TestKeys.selfSigned(keys, "client", PASSWORD);
        stranger = TestKeys.selfSigned(keys, "stranger", PASSWORD);
    }

    @AfterEach
    void stop() throws Exception {
        if (target != null) {
            target.close();
        }
    }

    /** The Java client over TLS as ZooKeeper's documentation configures it; {@code identity} may be null. */
    static ZKClientConfig tlsConfig(TestKeys.Pair identity, Path trustStore) {
        ZKClientConfig c = new ZKClientConfig();
        c.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        c.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, "org.apache.zookeeper.ClientCnxnSocketNetty");
        // set even when empty: the client config starts from the JVM's zookeeper.ssl.* properties
        c.setProperty("zookeeper.ssl.keyStore.location", identity == null ? "" : identity.keyStore().toString());
        c.setProperty("zookeeper.ssl.keyStore.password", identity == null ? "" : PASSWORD);
        c.setProperty("zookeeper.ssl.trustStore.location", trustStore.toString());
        c.setProperty("zookeeper.ssl.trustStore.password", PASSWORD);
        return c;
    }

    static ZooKeeper connectTls(int port, ZKClientConfig config) throws Exception {
        Clients.Events events = new Clients.Events();
        ZooKeeper zk = new ZooKeeper("127.0.0.1:" + port, Clients.SESSION_TIMEOUT_MS, events, config);
        events.expectState(Watcher.Event.KeeperState.SyncConnected);
        return zk;
    }

    /** Whether a client with this config reaches SyncConnected on the port within {@link #REFUSED_WAIT_MS}. */
    static boolean connects(int port, ZKClientConfig config) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper("127.0.0.1:" + port, Clients.SESSION_TIMEOUT_MS, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, config);
        try {
            return connected.await(REFUSED_WAIT_MS, TimeUnit.MILLISECONDS);
        } finally {
            zk.close();
        }
    }

    @Test
    void aTlsClientWithATrustedCertificateCreatesAndReads() throws Exception {
        int securePort = Clients.freePort();
        target = start(dir, Clients.freePort(), securePort, "need");
        byte[] data = "over tls".getBytes(StandardCharsets.UTF_8);
        ZooKeeper tls = connectTls(securePort, tlsConfig(client, server.trustStore()));
        try {
            tls.create("/tls", data, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            assertArrayEquals(data, tls.getData("/tls", false, null));
            for (int i = 0; i < 20; i++) { // more than one TLS record each way
                tls.create("/tls/" + i, new byte[20_000], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            assertEquals(20, tls.getChildren("/tls", false).size());
        } finally {
            tls.close();
        }
        ZooKeeper plain = Clients.connect(target.connectString());
        try {
            assertArrayEquals(data, plain.getData("/tls", false, null), "the plaintext port serves the same tree");
        } finally {
            plain.close();
        }
    }

    /** secureClientPort without clientPort: ZooKeeper 3.9 takes TLS clients only; so does zabkit. */
    @Test
    void aServerWithOnlyASecurePortServesTlsClientsOnly() throws Exception {
        int securePort = Clients.freePort();
        target = start(dir, 0, securePort, "need");
        assertEquals(securePort, target.port());
        byte[] data = "tls only".getBytes(StandardCharsets.UTF_8);
        ZooKeeper tls = connectTls(securePort, tlsConfig(client, server.trustStore()));
        try {
            tls.create("/tls-only", data, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            assertArrayEquals(data, tls.getData("/tls-only", false, null));
        } finally {
            tls.close();
        }
        assertFalse(connects(securePort, new ZKClientConfig()), "a plaintext client connected to the TLS-only port");
        target.restart();
        ZooKeeper again = connectTls(securePort, tlsConfig(client, server.trustStore()));
        try {
            assertArrayEquals(data, again.getData("/tls-only", false, null), "the tree after a restart");
        } finally {
            again.close();
        }
    }

    @Test
    void aPlaintextClientOnTheSecurePortNeverConnects() throws Exception {
        int securePort = Clients.freePort();
        target = start(dir, Clients.freePort(), securePort, "need");
        assertFalse(connects(securePort, new ZKClientConfig()), "a plaintext client connected to the TLS port");
        assertTrue(connects(securePort, tlsConfig(client, server.trustStore())), "then a TLS client did not");
    }

    @Test
    void withClientAuthNeedAClientWithoutATrustedCertificateNeverConnects() throws Exception {
        int securePort = Clients.freePort();
        target = start(dir, Clients.freePort(), securePort, "need");
        assertFalse(connects(securePort, tlsConfig(stranger, server.trustStore())),
                "a client whose certificate the server does not trust connected");
        assertFalse(connects(securePort, tlsConfig(null, server.trustStore())),
                "a client without a certificate connected");
        assertFalse(connects(securePort, tlsConfig(client, stranger.trustStore())),
                "a client that does not trust the server's certificate connected");
        assertTrue(connects(securePort, tlsConfig(client, server.trustStore())), "then a trusted client did not");
    }

    /**
     * With the x509 provider (authProvider.x509, as ZooKeeper's documentation configures TLS), a client's
     * certificate subject is its identity: an ACL naming it admits that client only.
     */
    @Test
    void aClientCertificateSubjectIsAnX509IdentityForAcls() throws Exception {
        int securePort = Clients.freePort();
        target = start(dir, Clients.freePort(), securePort, "want");
        String subject = subjectOf(client.keyStore());
        List<ACL> onlyClient = java.util.Collections.singletonList(new ACL(Perms.ALL, new Id("x509", subject)));
        byte[] data = "certified".getBytes(StandardCharsets.UTF_8);
        ZooKeeper certified = connectTls(securePort, tlsConfig(client, server.trustStore()));
        ZooKeeper anonymous = connectTls(securePort, tlsConfig(null, server.trustStore()));
        ZooKeeper plain = Clients.connect(target.connectString());
        try {
            certified.create("/certified", data, onlyClient, CreateMode.PERSISTENT);
            assertArrayEquals(data, certified.getData("/certified", false, null));
            assertThrows(KeeperException.NoAuthException.class, () -> anonymous.getData("/certified", false, null));
            assertThrows(KeeperException.NoAuthException.class, () -> plain.getData("/certified", false, null));
            certified.create("/certified-auth", data, Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
            assertEquals(onlyClient, certified.getACL("/certified-auth", new Stat()), "the auth scheme takes x509");
        } finally {
            certified.close();
            anonymous.close();
            plain.close();
        }
    }

    private static String subjectOf(Path keyStore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = java.nio.file.Files.newInputStream(keyStore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        X509Certificate cert = (X509Certificate) store.getCertificate(store.aliases().nextElement());
        return cert.getSubjectX500Principal().getName();
    }

    /** ZooKeeper closes a TLS connection with a client certificate when it has no x509 provider to read it. */
    @Test
    void withoutTheX509ProviderAClientCertificateIsRefused() throws Exception {
        int securePort = Clients.freePort();
        target = start(dir, Clients.freePort(), securePort, "need", false);
        assertFalse(connects(securePort, tlsConfig(client, server.trustStore())),
                "a certificate was accepted without the x509 provider");
        ZooKeeper plain = Clients.connect(target.connectString());
        plain.close(); // the plaintext port serves on
    }

    @Test
    void withClientAuthNoneAClientWithoutACertificateConnects() throws Exception {
        int securePort = Clients.freePort();
        target = start(dir, Clients.freePort(), securePort, "none");
        ZooKeeper anonymous = connectTls(securePort, tlsConfig(null, server.trustStore()));
        try {
            anonymous.create("/anonymous-tls", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            assertEquals(List.of("anonymous-tls", "zookeeper"),
                    anonymous.getChildren("/", false).stream().sorted().toList());
        } finally {
            anonymous.close();
        }
    }
}
