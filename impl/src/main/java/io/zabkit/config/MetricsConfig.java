package io.zabkit.config;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;

/**
 * The Prometheus endpoint, configured with ZooKeeper's own keys (its PrometheusMetricsProvider's), so a
 * zoo.cfg that scrapes ZooKeeper scrapes zabkit unchanged.
 *
 * @param httpAddress   where GET /metrics is served (metricsProvider.httpHost, httpPort: 0.0.0.0:7000)
 * @param exportJvmInfo whether the JVM's memory, threads and CPU time are exported too (default true)
 */
public record MetricsConfig(InetSocketAddress httpAddress, boolean exportJvmInfo) {
    static final String CLASS_NAME = "metricsProvider.className";
    static final String HTTP_HOST = "metricsProvider.httpHost";
    static final String HTTP_PORT = "metricsProvider.httpPort";
    static final String EXPORT_JVM_INFO = "metricsProvider.exportJvmInfo";
    /** The keys read here; other metricsProvider.* keys are ZooKeeper settings zabkit ignores, with a warning. */
    static final Set<String> KEYS = Set.of(CLASS_NAME, HTTP_HOST, HTTP_PORT, EXPORT_JVM_INFO);

    static final String PROMETHEUS = "org.apache.zookeeper.metrics.prometheus.PrometheusMetricsProvider";
    /** ZooKeeper's providers that export nothing over HTTP (the second is its default). */
    private static final Set<String> NO_ENDPOINT = Set.of("org.apache.zookeeper.metrics.impl.NullMetricsProvider",
            "org.apache.zookeeper.metrics.impl.DefaultMetricsProvider");
    static final int DEFAULT_HTTP_PORT = 7000;

    public MetricsConfig {
        assert httpAddress != null : "an endpoint needs an address";
    }

    /** The endpoint the config asks for, or null when it asks for none (no className, or one without HTTP). */
    static MetricsConfig read(CfgFile cfg, List<String> warnings) throws ConfigException {
        CfgFile.Entry className = cfg.get(CLASS_NAME);
        if (className == null || NO_ENDPOINT.contains(className.value().trim())) {
            for (String key : List.of(HTTP_HOST, HTTP_PORT, EXPORT_JVM_INFO)) {
                if (cfg.get(key) != null) {
                    warnings.add(cfg.get(key).where() + ": " + key + " has no effect without " + CLASS_NAME + "="
                            + PROMETHEUS);
                }
            }
            return null;
        }
        if (!className.value().trim().equals(PROMETHEUS)) {
            throw ConfigException.at(className, "zabkit exports metrics only as ZooKeeper's Prometheus provider"
                    + " does (" + PROMETHEUS + "); remove the key for no metrics endpoint");
        }
        CfgFile.Entry host = cfg.get(HTTP_HOST);
        String hostName = host == null ? "0.0.0.0" : host.value().trim();
        int port = DEFAULT_HTTP_PORT;
        CfgFile.Entry p = cfg.get(HTTP_PORT);
        if (p != null) {
            try {
                port = Integer.parseInt(p.value().trim());
            } catch (NumberFormatException e) {
                throw ConfigException.at(p, "not a port number");
            }
            if (port < 1 || port > 65_535) {
                throw ConfigException.at(p, "a port is 1 to 65535");
            }
        }
        CfgFile.Entry jvm = cfg.get(EXPORT_JVM_INFO);
        boolean exportJvm = jvm == null || Values.yesNo(jvm);
        InetSocketAddress address = new InetSocketAddress(hostName, port);
        if (address.isUnresolved()) {
            throw ConfigException.at(host, "cannot resolve host " + hostName);
        }
        return new MetricsConfig(address, exportJvm);
    }
}
