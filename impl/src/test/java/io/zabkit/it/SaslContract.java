package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.security.auth.login.Configuration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SASL DIGEST-MD5 for clients, configured as ZooKeeper's documentation shows: one JAAS file
 * ({@code -Djava.security.auth.login.config}) whose {@code Server} section lists
 * {@code user_<name>="<password>"} for DigestLoginModule and whose client sections carry a name and a
 * password; zoo.cfg names ZooKeeper's SASLAuthenticationProvider so the {@code sasl} ACL scheme exists.
 * The official Java client authenticates with op 102 right after its ConnectRequest.
 */
abstract class SaslContract {
    static final String JAAS_PROPERTY = "java.security.auth.login.config";
    static final String SASL_PROVIDER = "org.apache.zookeeper.server.auth.SASLAuthenticationProvider";
    static final String LOGIN_MODULE = "org.apache.zookeeper.server.auth.DigestLoginModule";
    static final String ALICE = "alice";
    static final byte[] SECRET_DATA = "alice's".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path jaasDir;
    static Path jaas;

    @TempDir
    Path dir;
    Target server;

    /**
     * Starts a server of this kind with the JAAS file {@link #jaas} and the SASL provider; with
     * {@code enforceSasl} also {@code enforce.auth.enabled=true} and {@code enforce.auth.schemes=sasl}.
     */
    abstract Target start(Path dataDir, int port, boolean enforceSasl) throws Exception;

    @BeforeAll
    static void writeJaasFile() throws Exception {
        jaas = jaasDir.resolve("jaas.conf");
        Files.writeString(jaas, String.join("\n",
                "Server {",
                "  " + LOGIN_MODULE + " required",
                "  user_alice=\"alice-secret\"",
                "  user_bob=\"bob-secret\";",
                "};",
                clientSection("Client", ALICE, "alice-secret"),
                clientSection("ClientBob", "bob", "bob-secret"),
                clientSection("ClientWrongPassword", ALICE, "not-alice-secret"),
                clientSection("ClientUnknownUser", "mallory", "alice-secret"),
                ""));
        System.setProperty(JAAS_PROPERTY, jaas.toString());
        Configuration.setConfiguration(null); // read the file anew: the JDK caches the JAAS configuration
    }

    private static String clientSection(String name, String user, String password) {
        return name + " {\n  " + LOGIN_MODULE + " required\n  username=\"" + user + "\"\n  password=\"" + password
                + "\";\n};";
    }

    @AfterAll
    static void forgetJaasFile() {
        System.clearProperty(JAAS_PROPERTY); // the other test classes' clients must not try SASL
        Configuration.setConfiguration(null);
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** A client that authenticates with the JAAS section {@code section}, or without SASL when it is null. */
    static ZooKeeper client(Target server, String section, Clients.Events events) throws Exception {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, String.valueOf(section != null));
        if (section != null) {
            config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, section);
            // ZooKeeper 3.9's client refuses DIGEST-MD5 in FIPS mode, which is on by default
            config.setProperty("zookeeper.fips-mode", "false");
        }
        return new ZooKeeper(server.connectString(), Clients.SESSION_TIMEOUT_MS, events, config);
    }

    static ZooKeeper authenticated(Target server, String section) throws Exception {
        Clients.Events events = new Clients.Events();
        ZooKeeper zk = client(server, section, events);
        events.expectState(KeeperState.SaslAuthenticated);
        return zk;
    }

    static ZooKeeper withoutSasl(Target server) throws Exception {
        Clients.Events events = new Clients.Events();
        ZooKeeper zk = client(server, null, events);
        events.expectState(KeeperState.SyncConnected);
        return zk;
    }

    @Test
    void theRightPasswordAuthenticatesAndASaslAclAdmitsOnlyThatUser() throws Exception {
        server = start(dir, Clients.freePort(), false);
        ZooKeeper alice = authenticated(server, "Client");
        ZooKeeper bob = authenticated(server, "ClientBob");
        ZooKeeper anonymous = withoutSasl(server);
        try {
            List<ACL> onlyAlice = java.util.Collections.singletonList(new ACL(Perms.ALL, new Id("sasl", ALICE)));
            alice.create("/alice", SECRET_DATA, onlyAlice, CreateMode.PERSISTENT);
            assertArrayEquals(SECRET_DATA, alice.getData("/alice", false, null));
            assertEquals(onlyAlice, alice.getACL("/alice", new Stat()));
            assertThrows(KeeperException.NoAuthException.class, () -> bob.getData("/alice", false, null));
            assertThrows(KeeperException.NoAuthException.class, () -> anonymous.getData("/alice", false, null));
            assertThrows(KeeperException.NoAuthException.class, () -> anonymous.setData("/alice", new byte[0], -1));
            // the auth scheme stores the caller's SASL identity
            alice.create("/alice-auth", SECRET_DATA, Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
            assertEquals(onlyAlice, alice.getACL("/alice-auth", new Stat()));
            assertThrows(KeeperException.NoAuthException.class, () -> bob.getData("/alice-auth", false, null));
        } finally {
            alice.close();
            bob.close();
            anonymous.close();
        }
    }

    @Test
    void aWrongPasswordOrAnUnknownUserFailsAuthenticationAndTheServerServesOthers() throws Exception {
        server = start(dir, Clients.freePort(), false);
        for (String section : List.of("ClientWrongPassword", "ClientUnknownUser")) {
            Clients.Events events = new Clients.Events();
            ZooKeeper wrong = client(server, section, events);
            try {
                events.expectState(KeeperState.AuthFailed);
                KeeperException e = assertThrows(KeeperException.class, () -> wrong.exists("/", false));
                assertEquals(KeeperException.Code.AUTHFAILED, e.code(), section);
            } finally {
                wrong.close();
            }
        }
        ZooKeeper alice = authenticated(server, "Client");
        try {
            alice.create("/after", SECRET_DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } finally {
            alice.close();
        }
    }

    @Test
    void enforcedSaslRefusesAnUnauthenticatedClientAndServesAnAuthenticatedOne() throws Exception {
        server = start(dir, Clients.freePort(), true);
        ZooKeeper anonymous = withoutSasl(server);
        try {
            KeeperException e = assertThrows(KeeperException.class,
                    () -> anonymous.create("/anonymous", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
            assertEquals(KeeperException.Code.SESSIONCLOSEDREQUIRESASLAUTH, e.code());
        } finally {
            anonymous.close();
        }
        ZooKeeper alice = authenticated(server, "Client");
        try {
            alice.create("/alice", SECRET_DATA, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            assertArrayEquals(SECRET_DATA, alice.getData("/alice", false, null));
            assertEquals(null, alice.exists("/anonymous", false), "the refused create happened");
        } finally {
            alice.close();
        }
    }
}
