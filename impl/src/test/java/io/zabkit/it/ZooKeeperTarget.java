package io.zabkit.it;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxn;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/** Apache ZooKeeper 3.9.4's standalone server in-process: the oracle the semantics tests also run against. */
final class ZooKeeperTarget implements Target {
    static final Target.Factory FACTORY = ZooKeeperTarget::start;

    static {
        // Four-letter words are off by default since 3.5; the tests use them on both servers.
        System.setProperty("zookeeper.4lw.commands.whitelist", "*");
        System.setProperty("zookeeper.admin.enableServer", "false");
    }

    private final Path dataDir;
    private final int port;
    private final Settings settings;
    private ZooKeeperServer server;
    private ServerCnxnFactory factory;

    private ZooKeeperTarget(Path dataDir, int port, Settings settings) {
        this.dataDir = dataDir;
        this.port = port;
        this.settings = settings;
    }

    static ZooKeeperTarget start(Path dataDir, int port, Settings settings) throws Exception {
        ZooKeeperTarget t = new ZooKeeperTarget(dataDir, port, settings);
        t.startServer();
        return t;
    }

    private void startServer() throws Exception {
        File dir = dataDir.resolve("zookeeper").toFile();
        server = new ZooKeeperServer(dir, dir, settings.tickTimeMs());
        server.setMinSessionTimeout(settings.minSessionTimeoutMs());
        server.setMaxSessionTimeout(settings.maxSessionTimeoutMs());
        factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", port),
                settings.maxClientCnxns());
        factory.startup(server);
    }

    @Override
    public String name() {
        return "zookeeper";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void restart() throws Exception {
        close();
        startServer();
    }

    @Override
    public void dropConnections() {
        factory.closeAll(ServerCnxn.DisconnectReason.SERVER_SHUTDOWN);
    }

    @Override
    public void close() {
        factory.shutdown();
        server.shutdown();
    }
}
