package io.zabkit.it;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.auth.ProviderRegistry;

/**
 * TLS against Apache ZooKeeper 3.9.4 in-process: a plaintext NIO factory on clientPort and a secure Netty
 * factory on secureClientPort, as its QuorumPeerMain/ZooKeeperServerMain make them; zoo.cfg's keys reach
 * it as zookeeper.* system properties, read while the factories and the x509 provider are made.
 */
class ZooKeeperTlsTest extends TlsContract {
    @Override
    Target start(Path dataDir, int port, int securePort, String clientAuth, boolean x509Provider) throws Exception {
        Map<String, String> properties = new java.util.HashMap<>(Map.of(
                "zookeeper.serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory",
                "zookeeper.ssl.keyStore.location", server.keyStore().toString(),
                "zookeeper.ssl.keyStore.password", PASSWORD,
                "zookeeper.ssl.trustStore.location", client.trustStore().toString(),
                "zookeeper.ssl.trustStore.password", PASSWORD,
                "zookeeper.ssl.clientAuth", clientAuth));
        if (x509Provider) {
            properties.put("zookeeper.authProvider.x509", "org.apache.zookeeper.server.auth.X509AuthenticationProvider");
        }
        properties.forEach(System::setProperty); // read lazily, at the first TLS connection: kept until close
        ProviderRegistry.reset();
        try {
            return new SecureZooKeeper(dataDir, port, securePort, properties);
        } catch (Exception | Error e) {
            forget(properties);
            throw e;
        }
    }

    private static void forget(Map<String, String> properties) {
        properties.keySet().forEach(System::clearProperty);
        ProviderRegistry.reset(); // the x509 provider was made with the properties above
    }

    /** ZooKeeper with both ports, the plaintext one {@link #port()}; or with the secure one only (port 0). */
    static final class SecureZooKeeper implements Target {
        private final Path dataDir;
        private final int port;
        private final int securePort;
        private final Map<String, String> properties;
        private ZooKeeperServer server;
        private ServerCnxnFactory plain;
        private ServerCnxnFactory secure;

        SecureZooKeeper(Path dataDir, int port, int securePort, Map<String, String> properties) throws Exception {
            this.dataDir = dataDir;
            this.port = port;
            this.securePort = securePort;
            this.properties = properties;
            startServer();
        }

        private void startServer() throws Exception {
            File dir = dataDir.resolve("zookeeper").toFile();
            Target.Settings s = Target.Settings.FAST;
            server = new ZooKeeperServer(dir, dir, s.tickTimeMs());
            server.setMinSessionTimeout(s.minSessionTimeoutMs());
            server.setMaxSessionTimeout(s.maxSessionTimeoutMs());
            secure = ServerCnxnFactory.createFactory();
            secure.configure(new InetSocketAddress("127.0.0.1", securePort), s.maxClientCnxns(), -1, true);
            if (port == 0) { // ZooKeeperServerMain without clientPort: the secure factory starts the server
                plain = null;
                secure.startup(server);
                return;
            }
            plain = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", port), s.maxClientCnxns());
            plain.startup(server);
            secure.startup(server, false);
        }

        @Override
        public String name() {
            return "zookeeper-tls";
        }

        @Override
        public int port() {
            return port == 0 ? securePort : port;
        }

        @Override
        public void restart() throws Exception {
            stopServer(); // the properties stay: the restarted factories read them again
            startServer();
        }

        @Override
        public void dropConnections() {
            if (plain != null) {
                plain.closeAll(org.apache.zookeeper.server.ServerCnxn.DisconnectReason.SERVER_SHUTDOWN);
            }
            secure.closeAll(org.apache.zookeeper.server.ServerCnxn.DisconnectReason.SERVER_SHUTDOWN);
        }

        @Override
        public void close() {
            stopServer();
            forget(properties);
        }

        private void stopServer() {
            secure.shutdown();
            if (plain != null) {
                plain.shutdown();
            }
            server.shutdown();
        }
    }
}
