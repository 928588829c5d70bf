package io.zabkit.config;

import io.zabkit.core.ClientAuth;
import io.zabkit.core.CoreConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything one server reads from zoo.cfg and myid: the core's settings and the runtime's.
 *
 * @param core                   the deterministic core's settings (serverId is myid)
 * @param dataDir                snapshots and myid
 * @param dataLogDir             the transaction log (dataDir unless set)
 * @param clientAddress          where plaintext clients connect; null when only secureClientPort takes clients
 * @param initLimitTicks         ticks a follower may take to connect and sync to a leader (ensembles)
 * @param syncLimitTicks         ticks a follower may lag behind the leader (ensembles)
 * @param snapRetainCount        snapshots kept by purging (at least 3)
 * @param purgeIntervalHours     zoo.cfg autopurge.purgeInterval; zabkit purges after every snapshot instead
 * @param electionFinalizeWaitMs zabkit: how long election waits for more votes once it has a quorum
 * @param globalOutstandingLimit client requests in the server not yet answered, over all connections
 *                               (ZooKeeper's globalOutstandingLimit, default 1000)
 * @param handshakeTimeoutMs     a connection without a ConnectRequest this long is closed (ZooKeeper's
 *                               nio.sessionlessCnxnTimeout, default 10000)
 * @param metrics                the Prometheus endpoint (ZooKeeper's metricsProvider.* keys), or null for none
 * @param tls                    TLS on secureClientPort, or null for none
 * @param clientAuth             the sasl ACL scheme and enforced authentication (authProvider.N, enforce.auth.*)
 * @param servers                the server.N lines by id; empty for a standalone server
 * @param warnings               settings that were ignored, for the startup log
 * @param keepConnections        zabkit's keepConnections (issue 20 item 7): keep client connections across
 *                               the loss of the leader; false by default, ZooKeeper's behaviour
 */
public record ServerConfig(CoreConfig core, Path dataDir, Path dataLogDir, InetSocketAddress clientAddress,
                           int initLimitTicks, int syncLimitTicks, int snapRetainCount, int purgeIntervalHours,
                           int electionFinalizeWaitMs, int globalOutstandingLimit, int handshakeTimeoutMs,
                           MetricsConfig metrics, TlsConfig tls, ClientAuth clientAuth, Map<Long, ServerAddress> servers, List<String> warnings,
                           boolean keepConnections) {
    public ServerConfig {
        servers = Map.copyOf(servers);
        warnings = List.copyOf(warnings);
        assert servers.isEmpty() || servers.containsKey(core.serverId()) : "myid not among the servers";
        assert clientAddress != null || tls != null : "no client port at all";
    }

    public boolean standalone() {
        return servers.size() <= 1;
    }
}
