package io.zabkit.config;

import io.zabkit.core.ClientAuth;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * zoo.cfg's client authentication keys, read as ZooKeeper 3.9 reads them (its AuthenticationHelper and
 * ProviderRegistry): {@code authProvider.N} may add ZooKeeper's SASLAuthenticationProvider (the sasl ACL
 * scheme) and X509AuthenticationProvider (x509: a TLS client's certificate subject); {@code enforce.auth.enabled=true} needs {@code enforce.auth.schemes}, each a scheme the server
 * has (ip, digest, and sasl with its provider); {@code sessionRequireClientSASLAuth=true} enforces sasl.
 * Anything else is refused, so the server never runs with less protection than asked for.
 */
final class ClientAuthKeys {
    static final String SASL_PROVIDER = "org.apache.zookeeper.server.auth.SASLAuthenticationProvider";
    static final String X509_PROVIDER = "org.apache.zookeeper.server.auth.X509AuthenticationProvider";
    static final String ENFORCE = "enforce.auth.enabled";
    static final String SCHEMES = "enforce.auth.schemes";
    static final String REQUIRE_SASL = "sessionRequireClientSASLAuth";
    /** The keys this class reads, besides authProvider.N. */
    static final Set<String> KEYS = Set.of(ENFORCE, SCHEMES, REQUIRE_SASL);
    /** Schemes every ZooKeeper server has (IPAuthenticationProvider, DigestAuthenticationProvider). */
    private static final Set<String> BUILT_IN_SCHEMES = Set.of("ip", "digest");

    private ClientAuthKeys() {}

    static ClientAuth read(CfgFile cfg) throws ConfigException {
        boolean saslProvider = false;
        boolean x509Provider = false;
        for (CfgFile.Entry e : cfg.all()) {
            if (e.key().startsWith("authProvider.")) {
                saslProvider |= e.value().strip().equals(SASL_PROVIDER);
                x509Provider |= e.value().strip().equals(X509_PROVIDER);
            }
        }
        Set<String> available = new LinkedHashSet<>(BUILT_IN_SCHEMES);
        if (saslProvider) {
            available.add("sasl");
        }
        if (x509Provider) {
            available.add("x509");
        }
        Set<String> enforced = new LinkedHashSet<>();
        CfgFile.Entry requireSasl = cfg.get(REQUIRE_SASL);
        CfgFile.Entry enforce = cfg.get(ENFORCE);
        CfgFile.Entry schemes = cfg.get(SCHEMES);
        if (requireSasl != null && isOn(requireSasl)) {
            // ZooKeeper: sessionRequireClientSASLAuth=true means enforce.auth with sasl, whatever those say
            enforced.add("sasl");
            requireScheme(requireSasl, "sasl", available);
        } else if (enforce != null && isOn(enforce)) {
            if (schemes == null || schemes.value().isBlank()) {
                throw ConfigException.at(enforce, ENFORCE + " is true, so " + SCHEMES + " must name the schemes"
                        + " a session must authenticate with (as in ZooKeeper)");
            }
            for (String s : schemes.value().split(",")) {
                String scheme = s.strip();
                requireScheme(schemes, scheme, available);
                enforced.add(scheme);
            }
        }
        return new ClientAuth(enforced, saslProvider, x509Provider);
    }

    private static void requireScheme(CfgFile.Entry e, String scheme, Set<String> available) throws ConfigException {
        if (!available.contains(scheme)) {
            String hint = scheme.equals("sasl") ? "; add authProvider.1=" + SASL_PROVIDER
                    : scheme.equals("x509") ? "; add authProvider.x509=" + X509_PROVIDER : "";
            throw ConfigException.at(e, "authentication scheme " + scheme + " is not available (this server has "
                    + available + ")" + hint);
        }
    }

    /** A switch: true/yes on, false/no off, anything else an error (ZooKeeper reads true or not). */
    private static boolean isOn(CfgFile.Entry e) throws ConfigException {
        String v = e.value().strip().toLowerCase(Locale.ROOT);
        if (v.equals("true") || v.equals("yes")) {
            return true;
        }
        if (v.equals("false") || v.equals("no")) {
            return false;
        }
        throw ConfigException.at(e, e.key() + " must be true or false, got '" + e.value() + "'");
    }
}
