package io.zabkit.runtime;

import io.zabkit.config.ConfigException;
import io.zabkit.config.ConfigReader;
import io.zabkit.config.ServerAddress;
import io.zabkit.config.ServerConfig;
import io.zabkit.core.ServerCore;
import io.zabkit.storage.CorruptStorageException;
import io.zabkit.storage.Disk;
import io.zabkit.storage.FileDisk;
import io.zabkit.storage.RecoveredState;
import io.zabkit.storage.Storage;
import io.zabkit.txn.Txn;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code ServerMain CONFIG}: one server in the foreground, like {@code zkServer.sh start-foreground}.
 * Reads zoo.cfg, locks and recovers the data directories, builds the core and runs the event loop
 * until SIGTERM (clean stop) or a fatal error. Exit status: 0 after a clean stop (SIGTERM included), 2
 * for a bad config or command line, 3 for storage that cannot be recovered or used, 1 for a failure
 * while serving (an OutOfMemoryError or any error no thread handles included: it exits at once).
 */
public final class ServerMain {
    /** Log and snapshot files go in this subdirectory, versioned: they are not ZooKeeper's format. */
    static final String STORAGE_DIR = "zabkit-v1";
    /** The operator's explicit choice to drop a damaged last log record (see Storage.Options). */
    static final String DISCARD_CORRUPT_LOG_TAIL = "--discard-corrupt-log-tail";
    /** A signal's stop waits this long for queued disk writes before giving up (exit 1). */
    static final long STOP_TIMEOUT_S = 60;
    /** ZooKeeper's system property for read-only mode (QuorumPeer reads it with Boolean.getBoolean). */
    static final String READ_ONLY_MODE = "readonlymode.enabled";

    private ServerMain() {}

    public static void main(String[] args) {
        Logging.configure();
        // An error no thread handles leaves the server in an unknown state: exit non-zero at once.
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            Logging.error("fatal: " + e + " in thread " + thread.getName() + "; exiting", e);
            Runtime.getRuntime().halt(1);
        });
        boolean discard = args.length == 2 && args[0].equals(DISCARD_CORRUPT_LOG_TAIL);
        if (args.length != (discard ? 2 : 1) || args[args.length - 1].startsWith("-")) {
            System.err.println("usage: zabkit-server [" + DISCARD_CORRUPT_LOG_TAIL + "] CONFIG    (a zoo.cfg; see"
                    + " conf/zoo-standalone.cfg)\n  " + DISCARD_CORRUPT_LOG_TAIL + ": drop a whole last log record"
                    + " that fails its checksum instead of refusing to start (the write it held is lost)");
            System.exit(2);
        }
        System.exit(run(Path.of(args[args.length - 1]), discard));
    }

    static int run(Path configFile) {
        return run(configFile, false);
    }

    static int run(Path configFile, boolean discardCorruptLogTail) {
        ServerConfig config;
        try {
            config = ConfigReader.read(configFile, 0); // the session secret comes from dataDir, below
        } catch (ConfigException e) {
            Logging.error("bad config: " + e.getMessage());
            return 2;
        }
        Logging.setMyId(config.core().standalone() ? "" : Long.toString(config.core().serverId()));
        config.warnings().forEach(Logging::warn);
        if (config.purgeIntervalHours() > 0) {
            Logging.info("autopurge.purgeInterval is not used: zabkit purges after every snapshot, keeping "
                    + config.snapRetainCount());
        }
        try {
            Files.createDirectories(config.dataDir());
            Files.createDirectories(config.dataLogDir());
            if (config.standalone()) { // an ensemble's secret comes from the config, the same on every server
                config = ConfigReader.read(configFile, SessionSecret.loadOrCreate(config.dataDir()));
            }
        } catch (IOException e) {
            Logging.error("cannot create the data directories or the session secret: " + e);
            return 3;
        } catch (ConfigException e) {
            Logging.error("bad config: " + e.getMessage());
            return 2;
        }
        try (DataDirLock lock = DataDirLock.acquire(config.dataLogDir())) {
            return serve(config, discardCorruptLogTail);
        } catch (IOException e) {
            Logging.error(e.getMessage());
            return 3;
        }
    }

    private static int serve(ServerConfig config, boolean discardCorruptLogTail) {
        DigestSaslServers sasl;
        try {
            sasl = DigestSaslServers.fromJaas();
        } catch (IllegalArgumentException e) {
            Logging.error("bad SASL configuration: " + e.getMessage());
            return 2;
        }
        logClientAuth(config, sasl);
        TlsEngines tls = null;
        if (config.tls() != null) {
            try {
                tls = TlsEngines.load(config.tls(), config.clientAuth().x509AclScheme());
            } catch (IOException e) {
                Logging.error("bad TLS configuration: " + e.getMessage());
                return 2;
            }
        }
        Storage storage;
        RecoveredState recovered;
        try {
            storage = openStorage(config, discardCorruptLogTail);
            long startNs = System.nanoTime();
            recovered = storage.recover();
            Logging.info("recovered " + (recovered.snapshot() == null ? "no snapshot" : "snapshot "
                    + Txn.zxidString(recovered.snapshot().zxid())) + " and " + recovered.txns().size()
                    + " logged transactions up to zxid " + Txn.zxidString(recovered.lastZxid()) + " in "
                    + (System.nanoTime() - startNs) / 1_000_000 + " ms");
        } catch (CorruptStorageException e) {
            Logging.error("cannot recover: " + e.getMessage());
            return 3;
        } catch (IOException e) {
            Logging.error("cannot read the data directories: " + e);
            return 3;
        }
        ServerCore serverCore = new ServerCore(config.core(), recovered);
        serverCore.useClientAuth(config.clientAuth(), sasl);
        if (Boolean.getBoolean(READ_ONLY_MODE)) {
            if (config.standalone()) {
                Logging.warn(READ_ONLY_MODE + " is ignored by a standalone server, as by ZooKeeper's");
            } else {
                Logging.info("read-only mode enabled (" + READ_ONLY_MODE + "): without a leader for max(2 s, tickTime)"
                        + " this server serves read-only clients");
                serverCore.enableReadOnlyMode();
            }
        }
        if (config.keepConnections()) {
            Logging.info("keepConnections=true: client connections are kept across the loss of the leader, their"
                    + " requests held until this server is synchronized with a new one (zabkit only; ZooKeeper closes them)");
            serverCore.enableKeepConnections();
        }
        Core core = new ServerCoreAdapter(serverCore);
        ServerSocketChannel listener = null; // TLS clients only: no plaintext port
        try {
            if (config.clientAddress() != null) {
                listener = ServerSocketChannel.open();
                listener.bind(config.clientAddress(), 1024);
            }
        } catch (BindException e) {
            Logging.error("cannot listen on " + config.clientAddress() + ": " + e.getMessage()
                    + " (is another server on that port? change clientPort)");
            return 2;
        } catch (IOException e) {
            Logging.error("cannot listen on " + config.clientAddress() + ": " + e);
            return 2;
        }
        EventLoop.Peers peers = null;
        if (!config.standalone()) {
            peers = bindQuorumPort(config);
            if (peers == null) {
                closeQuietly(listener);
                return 2;
            }
        }
        return runLoop(config, core, listener, storage, peers, tls);
    }

    private static void logClientAuth(ServerConfig config, DigestSaslServers sasl) {
        Logging.info(sasl == null ? "client SASL: none (no JAAS Server section)"
                : "client SASL: DIGEST-MD5 with " + sasl.users() + " user(s) from the JAAS file "
                        + System.getProperty(DigestSaslServers.JAAS_FILE));
        if (!config.clientAuth().enforcedSchemes().isEmpty()) {
            Logging.info("clients must authenticate with one of " + config.clientAuth().enforcedSchemes()
                    + " before any other request (enforce.auth)");
        }
        if (config.clientAuth().saslRequired() && sasl == null) {
            Logging.warn("sasl is enforced but there is no JAAS Server section: every client will be refused");
        }
    }

    /**
     * Listens on this server's quorum port (server.N=host:quorumPort:electionPort). Every message
     * between servers, election notifications included, travels on the quorum port: the election port
     * is not used.
     */
    private static EventLoop.Peers bindQuorumPort(ServerConfig config) {
        Map<Long, InetSocketAddress> quorum = new TreeMap<>();
        for (ServerAddress s : config.servers().values()) {
            String host = s.host().startsWith("[") ? s.host().substring(1, s.host().length() - 1) : s.host();
            quorum.put(s.id(), new InetSocketAddress(host, s.quorumPort()));
        }
        InetSocketAddress mine = quorum.get(config.core().serverId());
        try {
            ServerSocketChannel channel = ServerSocketChannel.open();
            try {
                channel.bind(mine, 64);
            } catch (IOException e) {
                closeQuietly(channel);
                throw e;
            }
            return new EventLoop.Peers(config.core().serverId(), quorum, channel, config.core().maxBufferBytes(),
                    !config.core().zab().bug(io.zabkit.zab.Bug.PEER_SOURCE_UNCHECKED));
        } catch (IOException e) {
            Logging.error("cannot listen on the quorum port " + mine + " of server." + config.core().serverId()
                    + ": " + e.getMessage() + " (is another server on that port? check its server line)");
            return null;
        }
    }

    private static void closeQuietly(ServerSocketChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    private static int runLoop(ServerConfig config, Core core, ServerSocketChannel listener, Storage storage,
                               EventLoop.Peers peers, TlsEngines tls) {
        EventLoop loop;
        try {
            loop = new EventLoop(core, listener, storage, config.core().tickTimeMs(), System::currentTimeMillis,
                    peers, new EventLoop.ClientLimits(config.globalOutstandingLimit(), config.handshakeTimeoutMs(),
                            config.core().maxBufferBytes()));
        } catch (IOException e) {
            Logging.error("cannot start the event loop: " + e);
            return 1;
        }
        if (tls != null) {
            try {
                ServerSocketChannel secure = ServerSocketChannel.open();
                secure.bind(tls.config().address(), 1024);
                loop.listenSecurely(secure, tls);
                Logging.info("TLS clients on " + hostPort(tls.config().address()) + " (secureClientPort), ssl.clientAuth "
                        + tls.config().clientAuth() + ", protocols " + tls.config().enabledProtocols());
            } catch (IOException e) {
                Logging.error("cannot listen on the secure client port " + tls.config().address() + ": " + e.getMessage()
                        + " (is another server on that port? change secureClientPort)");
                return 2;
            }
        }
        Thread loopThread = new Thread(loop, "zabkit-loop");
        CompletableFuture<Integer> exitStatus = new CompletableFuture<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (loop.isStopped()) {
                return; // exiting after a failure, which runLoop has logged
            }
            Logging.info("stopping (signal): finishing queued disk writes");
            loop.requestStop();
            int status;
            try {
                status = exitStatus.get(STOP_TIMEOUT_S, TimeUnit.SECONDS);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                Logging.error("did not stop within " + STOP_TIMEOUT_S + " s: " + e);
                status = 1;
            }
            if (status == 0) {
                Logging.info("stopped cleanly");
            }
            // A signal's exit status would be 128 + its number; a clean stop is a success (0).
            Runtime.getRuntime().halt(status);
        }, "zabkit-shutdown"));
        loopThread.start();
        MetricsEndpoint metrics = null;
        if (config.metrics() != null) {
            try {
                metrics = MetricsEndpoint.start(config.metrics(), loop::monitorReport);
                Logging.info("Prometheus metrics on http://" + hostPort(config.metrics().httpAddress()) + "/metrics");
            } catch (IOException e) {
                // as ZooKeeper, which does not start when its metrics provider cannot
                Logging.error("cannot serve metrics on " + config.metrics().httpAddress() + ": " + e.getMessage()
                        + " (is another server on that port? change metricsProvider.httpPort)");
                loop.requestStop();
                awaitLoop(loop, storage);
                exitStatus.complete(2);
                return 2;
            }
        }
        boolean assertions = false;
        assert assertions = true; // records whether -ea is on
        Logging.info("zabkit server " + config.core().serverId() + " serving on " + hostPort(config) + ", dataDir "
                + config.dataDir() + ", dataLogDir " + config.dataLogDir() + ", tickTime "
                + config.core().tickTimeMs() + " ms, forceSync " + (config.core().forceSync() ? "yes" : "no")
                + ", assertions " + (assertions ? "on" : "off") + (peers == null ? "" : ", ensemble "
                + config.core().zab().voters() + " with broadcast " + config.core().zab().variant()
                + ", quorum port " + peers.quorumAddresses().get(config.core().serverId())));
        int status = awaitLoop(loop, storage);
        if (metrics != null) {
            metrics.close();
        }
        exitStatus.complete(status);
        return status;
    }

    private static int awaitLoop(EventLoop loop, Storage storage) {
        try {
            Throwable failure = loop.awaitStopped();
            storage.close();
            if (failure != null) {
                Logging.error("stopped by a failure, exiting with status 1: " + failure, failure);
                return 1;
            }
            return 0; // the shutdown hook says "stopped cleanly" and exits 0
        } catch (InterruptedException | IOException e) {
            Logging.error("error while stopping: " + e);
            return 1;
        }
    }

    private static Storage openStorage(ServerConfig config, boolean discardCorruptLogTail) throws IOException {
        Disk snapshots = new FileDisk(config.dataDir().resolve(STORAGE_DIR));
        Disk logs = config.dataLogDir().equals(config.dataDir()) ? snapshots
                : new FileDisk(config.dataLogDir().resolve(STORAGE_DIR));
        Storage.Options options = new Storage.Options(config.core().forceSync(), config.snapRetainCount(),
                config.core().maxBufferBytes(), discardCorruptLogTail);
        return new Storage(logs, snapshots, options, Logging::warn);
    }

    private static String hostPort(ServerConfig config) {
        return config.clientAddress() == null ? hostPort(config.tls().address()) + " (TLS only)"
                : hostPort(config.clientAddress());
    }

    private static String hostPort(java.net.InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
