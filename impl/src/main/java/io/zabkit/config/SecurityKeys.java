package io.zabkit.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * zoo.cfg keys that bear on security and that zabkit does not implement. Ignoring one would serve
 * clients or peers less protected than the operator asked (issue 23, finding 4: with
 * enforce.auth.enabled=true zabkit warned "a typo?" and served unauthenticated sessions), so the server
 * refuses to start instead, naming every such key. A key that turns its feature off ({@code false},
 * {@code no}) is harmless and only warned about as unused.
 *
 * <p>zabkit implements the ACL schemes world, auth, digest, ip, sasl and x509, client SASL (DIGEST-MD5) and
 * authentication enforcement ({@link ClientAuthKeys}), the four-letter-word whitelist and maxClientCnxns;
 * TLS on secureClientPort with the keys {@link TlsConfig} reads; it has no quorum SASL, no quorum TLS, no
 * other ssl.* setting, and no super user.
 */
final class SecurityKeys {
    /** Features switched on by {@code true}/{@code yes}; {@code false}/{@code no} leaves them off. */
    private static final Set<String> SWITCHES = Set.of("sslQuorum", "portUnification", "client.portUnification", "sslQuorumReloadCertFiles", "client.certReload",
            "quorum.auth.enableSasl", "quorum.auth.learnerRequireSasl", "quorum.auth.serverRequireSasl", "skipACL",
            "zookeeper.sslQuorum", "zookeeper.enforce.auth.enabled");
    /** Keys whose presence asks for something zabkit does not do. */
    private static final Set<String> SETTINGS = Set.of("DigestAuthenticationProvider.superDigest", "superUser",
            "X509AuthenticationProvider.superUser", "ssl.authProvider", "ssl.quorum.authProvider");
    private static final List<String> SETTING_PREFIXES = List.of("quorum.auth.", "ssl.", "ssl.quorum.",
            "zookeeper.ssl.", "zookeeper.authProvider.", "zookeeper.DigestAuthenticationProvider.");
    /** authProvider.N naming a provider zabkit has built in is harmless. */
    private static final Set<String> BUILT_IN_PROVIDERS = Set.of(
            "org.apache.zookeeper.server.auth.DigestAuthenticationProvider",
            "org.apache.zookeeper.server.auth.IPAuthenticationProvider", ClientAuthKeys.SASL_PROVIDER,
            ClientAuthKeys.X509_PROVIDER);
    /** DigestAuthenticationProvider.digestAlg naming the one zabkit uses (ZooKeeper's default). */
    private static final Set<String> BUILT_IN_DIGESTS = Set.of("SHA1", "SHA-1");

    private SecurityKeys() {}

    /** Throws naming every security key the config sets that zabkit would otherwise ignore. */
    static void refuseUnimplemented(CfgFile cfg) throws ConfigException {
        List<String> refused = new ArrayList<>();
        for (CfgFile.Entry e : cfg.all()) {
            String why = why(e);
            if (why != null) {
                refused.add(e.where() + ": " + e.key() + "=" + e.value() + " " + why);
            }
        }
        if (!refused.isEmpty()) {
            throw new ConfigException(String.join("; ", refused) + ". zabkit refuses to start rather than run"
                    + " with less protection than the config asks for; remove the key"
                    + (refused.size() > 1 ? "s" : "") + " or use Apache ZooKeeper");
        }
    }

    /** Why the entry is refused, or null if it is harmless. */
    private static String why(CfgFile.Entry e) {
        String key = e.key();
        if (TlsConfig.KEYS.contains(key)) {
            return null; // implemented (TlsConfig), or refused there with its own reason
        }
        String value = e.value().strip().toLowerCase(Locale.ROOT);
        if (SWITCHES.contains(key)) {
            boolean off = value.equals("false") || value.equals("no");
            return off ? null : "asks for " + feature(key) + ", which zabkit does not implement";
        }
        if (key.startsWith("authProvider.")) {
            return BUILT_IN_PROVIDERS.contains(e.value().strip()) ? null
                    : "names an authentication provider zabkit does not have (it has digest, ip, sasl and x509)";
        }
        if (key.equals("DigestAuthenticationProvider.digestAlg")) {
            return BUILT_IN_DIGESTS.contains(e.value().strip().toUpperCase(Locale.ROOT)) ? null
                    : "asks for a digest algorithm zabkit does not implement (it has SHA1)";
        }
        if (SETTINGS.contains(key) || SETTING_PREFIXES.stream().anyMatch(key::startsWith)) {
            return "configures " + feature(key) + ", which zabkit does not implement";
        }
        return null;
    }

    private static String feature(String key) {
        if (key.contains("ssl") || key.contains("Ssl") || key.startsWith("secureClientPort")
                || key.contains("portUnification") || key.contains("certReload")) {
            return "TLS";
        }
        if (key.startsWith("quorum.auth.")) {
            return "quorum authentication (SASL)";
        }
        if (key.contains("enforce.auth") || key.equals("sessionRequireClientSASLAuth")) {
            return "enforced client authentication";
        }
        if (key.contains("superDigest") || key.contains("superUser")) {
            return "a super user";
        }
        if (key.equals("skipACL")) {
            return "skipping ACL checks";
        }
        return "a security feature";
    }
}
