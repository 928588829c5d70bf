package io.zabkit.config;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * TLS for clients on {@code secureClientPort}, with ZooKeeper's zoo.cfg keys and defaults (its
 * ClientX509Util): {@code serverCnxnFactory} must be NettyServerCnxnFactory, as ZooKeeper requires for a
 * secure port; {@code ssl.keyStore.location} is required; {@code ssl.clientAuth} is none, want or need
 * (default need); {@code ssl.protocol} defaults to TLSv1.3 and is the one enabled protocol unless
 * {@code ssl.enabledProtocols} lists others. Other ssl.* keys are refused ({@link SecurityKeys}).
 *
 * @param address            where TLS clients connect (secureClientPortAddress, else clientPortAddress, else any)
 * @param keyStore           the server's key and certificate
 * @param keyStorePassword   empty if none
 * @param keyStoreType       PKCS12 or JKS
 * @param trustStore         certificates the server trusts for client certificates; null: the JDK's
 * @param trustStorePassword empty if none
 * @param trustStoreType     PKCS12 or JKS; null without a trust store
 * @param clientAuth         none, want or need
 * @param protocol           the SSLContext protocol
 * @param enabledProtocols   the protocols the server accepts
 * @param cipherSuites       the cipher suites it accepts; empty: the JDK's defaults
 */
public record TlsConfig(InetSocketAddress address, Path keyStore, String keyStorePassword, String keyStoreType,
                        Path trustStore, String trustStorePassword, String trustStoreType, String clientAuth,
                        String protocol, List<String> enabledProtocols, List<String> cipherSuites) {
    static final String NETTY_FACTORY = "org.apache.zookeeper.server.NettyServerCnxnFactory";
    static final String NIO_FACTORY = "org.apache.zookeeper.server.NIOServerCnxnFactory";
    /** The keys read here; every other ssl.* key is refused. */
    static final Set<String> KEYS = Set.of("secureClientPort", "secureClientPortAddress", "serverCnxnFactory",
            "ssl.keyStore.location", "ssl.keyStore.password", "ssl.keyStore.type", "ssl.trustStore.location",
            "ssl.trustStore.password", "ssl.trustStore.type", "ssl.clientAuth", "ssl.protocol",
            "ssl.enabledProtocols", "ssl.ciphersuites", "ssl.hostnameVerification", "ssl.clientHostnameVerification");
    private static final Set<String> CLIENT_AUTH = Set.of("none", "want", "need");
    private static final Map<String, String> TYPES_BY_EXTENSION = Map.of("p12", "PKCS12", "pfx", "PKCS12",
            "jks", "JKS");

    public TlsConfig {
        enabledProtocols = List.copyOf(enabledProtocols);
        cipherSuites = List.copyOf(cipherSuites);
        assert CLIENT_AUTH.contains(clientAuth) : clientAuth;
        assert (trustStore == null) == (trustStoreType == null) : "a trust store type without a trust store";
    }

    /** The TLS settings, or null when zoo.cfg has no secureClientPort (then no ssl.* key may be set either). */
    static TlsConfig read(CfgFile cfg, InetSocketAddress clientAddress) throws ConfigException {
        CfgFile.Entry factory = cfg.get("serverCnxnFactory");
        if (factory != null && !factory.value().equals(NETTY_FACTORY) && !factory.value().equals(NIO_FACTORY)) {
            throw ConfigException.at(factory, "names a connection factory zabkit does not have (it accepts "
                    + NIO_FACTORY + " and " + NETTY_FACTORY + ")");
        }
        CfgFile.Entry port = cfg.get("secureClientPort");
        if (port == null) {
            for (CfgFile.Entry e : cfg.all()) {
                if (KEYS.contains(e.key()) && !e.key().equals("serverCnxnFactory")) {
                    throw ConfigException.at(e, e.key() + " is set but secureClientPort is not: zabkit uses"
                            + " these keys only for the secure client port");
                }
            }
            return null;
        }
        if (factory == null || !factory.value().equals(NETTY_FACTORY)) {
            throw ConfigException.at(port, "secureClientPort needs serverCnxnFactory=" + NETTY_FACTORY
                    + ", as in ZooKeeper (its NIO factory has no TLS)");
        }
        CfgFile.Entry hostnames = cfg.get("ssl.clientHostnameVerification");
        if (hostnames != null && Values.yesNo(hostnames)
                && (cfg.get("ssl.hostnameVerification") == null || Values.yesNo(cfg.get("ssl.hostnameVerification")))) {
            throw ConfigException.at(hostnames, "asks to check client certificates' host names, which zabkit"
                    + " does not implement (ZooKeeper does not either on the client port by default)");
        }
        CfgFile.Entry keyStore = cfg.get("ssl.keyStore.location");
        if (keyStore == null || keyStore.value().isBlank()) {
            throw ConfigException.at(port, "a keystore is required for the secure client port: ssl.keyStore.location");
        }
        CfgFile.Entry address = cfg.get("secureClientPortAddress");
        int p = Values.port(port, port.value());
        InetSocketAddress bind = address != null ? new InetSocketAddress(Values.host(address, address.value()), p)
                : clientAddress == null ? new InetSocketAddress(p) : new InetSocketAddress(clientAddress.getAddress(), p);
        if (bind.equals(clientAddress)) {
            throw ConfigException.at(port, "is the clientPort too (zabkit has no port unification)");
        }
        CfgFile.Entry trustStore = cfg.get("ssl.trustStore.location");
        Path trust = trustStore == null || trustStore.value().isBlank() ? null : Path.of(trustStore.value());
        String protocol = valueOr(cfg, "ssl.protocol", "TLSv1.3");
        return new TlsConfig(bind, Path.of(keyStore.value()), valueOr(cfg, "ssl.keyStore.password", ""),
                storeType(cfg, "ssl.keyStore.type", keyStore), trust, valueOr(cfg, "ssl.trustStore.password", ""),
                trust == null ? null : storeType(cfg, "ssl.trustStore.type", trustStore), clientAuth(cfg), protocol,
                list(cfg, "ssl.enabledProtocols", List.of(protocol)), list(cfg, "ssl.ciphersuites", List.of()));
    }

    private static String clientAuth(CfgFile cfg) throws ConfigException {
        CfgFile.Entry e = cfg.get("ssl.clientAuth");
        String value = e == null ? "need" : e.value().strip().toLowerCase(Locale.ROOT);
        if (!CLIENT_AUTH.contains(value)) {
            throw ConfigException.at(e, "ssl.clientAuth must be none, want or need, got '" + e.value() + "'");
        }
        return value;
    }

    /** The store type as ZooKeeper infers it: the key, else the file's extension. */
    private static String storeType(CfgFile cfg, String key, CfgFile.Entry location) throws ConfigException {
        CfgFile.Entry e = cfg.get(key);
        String name = location.value();
        String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        String type = e != null ? e.value().strip().toUpperCase(Locale.ROOT) : TYPES_BY_EXTENSION.get(extension);
        if (type == null) {
            throw ConfigException.at(location, "cannot tell the store type of " + name + " from its extension;"
                    + " set " + key + " (PKCS12 or JKS)");
        }
        if (!type.equals("PKCS12") && !type.equals("JKS")) {
            throw ConfigException.at(e != null ? e : location, "store type " + type + " is not implemented by"
                    + " zabkit (PKCS12 or JKS; PEM and BCFKS are not)");
        }
        return type;
    }

    private static String valueOr(CfgFile cfg, String key, String otherwise) {
        return cfg.get(key) == null ? otherwise : cfg.get(key).value();
    }

    private static List<String> list(CfgFile cfg, String key, List<String> otherwise) {
        CfgFile.Entry e = cfg.get(key);
        if (e == null || e.value().isBlank()) {
            return otherwise;
        }
        return java.util.Arrays.stream(e.value().split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
