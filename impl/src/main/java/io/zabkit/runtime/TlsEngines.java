package io.zabkit.runtime;

import io.zabkit.config.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;

/** The secure client port's SSLContext, from ZooKeeper's ssl.* keys, and one server engine per connection. */
final class TlsEngines {
    private final TlsConfig config;
    private final SSLContext context;
    /** Whether zoo.cfg names ZooKeeper's X509AuthenticationProvider: client certificates become identities. */
    private final boolean x509Provider;

    private TlsEngines(TlsConfig config, SSLContext context, boolean x509Provider) {
        this.config = config;
        this.context = context;
        this.x509Provider = x509Provider;
    }

    /** Loads the stores; the message names the key whose file or password is wrong. */
    static TlsEngines load(TlsConfig config, boolean x509Provider) throws IOException {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store(config.keyStore(), config.keyStorePassword(), config.keyStoreType(), "ssl.keyStore"),
                    config.keyStorePassword().toCharArray());
            TrustManagerFactory trust = null;
            if (config.trustStore() != null) {
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(store(config.trustStore(), config.trustStorePassword(), config.trustStoreType(),
                        "ssl.trustStore"));
            }
            SSLContext context = SSLContext.getInstance(config.protocol());
            context.init(keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
            TlsEngines engines = new TlsEngines(config, context, x509Provider);
            engines.engine(); // the protocols and cipher suites are checked now, not at the first client
            return engines;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IOException("cannot set up TLS (ssl.protocol " + config.protocol() + ", ssl.enabledProtocols "
                    + config.enabledProtocols() + ", ssl.ciphersuites " + config.cipherSuites() + "): " + e, e);
        }
    }

    private static KeyStore store(java.nio.file.Path file, String password, String type, String key)
            throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(type);
        if (!Files.isReadable(file)) {
            throw new IOException(key + ".location " + file + " does not exist or cannot be read");
        }
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password.toCharArray());
        } catch (IOException e) {
            throw new IOException("cannot read " + key + ".location " + file + " as " + type + " (wrong "
                    + key + ".password?): " + e, e);
        }
        return store;
    }

    /** A server engine with ssl.clientAuth, the enabled protocols and the cipher suites. */
    SSLEngine engine() {
        SSLEngine e = context.createSSLEngine();
        e.setUseClientMode(false);
        switch (config.clientAuth()) {
            case "need" -> e.setNeedClientAuth(true);
            case "want" -> e.setWantClientAuth(true);
            default -> e.setNeedClientAuth(false);
        }
        e.setEnabledProtocols(config.enabledProtocols().toArray(String[]::new));
        if (!config.cipherSuites().isEmpty()) {
            e.setEnabledCipherSuites(config.cipherSuites().toArray(String[]::new));
        }
        assert e.getNeedClientAuth() == config.clientAuth().equals("need") : "client auth not applied";
        return e;
    }

    boolean x509Provider() {
        return x509Provider;
    }

    TlsConfig config() {
        return config;
    }
}
