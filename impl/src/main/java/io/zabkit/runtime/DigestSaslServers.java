package io.zabkit.runtime;

import io.zabkit.core.SaslServers;
import java.util.Map;
import java.util.TreeMap;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * Client SASL with the JDK's DIGEST-MD5, configured as ZooKeeper is: the JAAS file named by
 * {@code -Djava.security.auth.login.config} has a {@code Server} section (or the one
 * {@code -Dzookeeper.sasl.serverconfig} names) for ZooKeeper's DigestLoginModule, whose options
 * {@code user_<name>="<password>"} are the users. The exchange is ZooKeeper's: protocol "zookeeper",
 * server name "zk-sasl-md5", and the authorized id is the name the client authenticated as.
 */
final class DigestSaslServers implements SaslServers {
    static final String JAAS_FILE = "java.security.auth.login.config";
    static final String SECTION = "zookeeper.sasl.serverconfig";
    static final String DEFAULT_SECTION = "Server";
    static final String DIGEST_LOGIN_MODULE = "org.apache.zookeeper.server.auth.DigestLoginModule";
    private static final String USER_PREFIX = "user_";

    private final Map<String, char[]> passwords;

    private DigestSaslServers(Map<String, char[]> passwords) {
        this.passwords = passwords;
    }

    /**
     * The JAAS {@code Server} section's users, or null when the JVM has no JAAS file or the file no such
     * section (ZooKeeper then has no SASL either). Throws when the section asks for something zabkit does
     * not do (Kerberos, another module), or names a section that is missing, so the server refuses to start.
     */
    static DigestSaslServers fromJaas() throws IllegalArgumentException {
        String file = System.getProperty(JAAS_FILE);
        String namedSection = System.getProperty(SECTION);
        String section = namedSection == null ? DEFAULT_SECTION : namedSection;
        if (file == null && namedSection == null) {
            return null;
        }
        AppConfigurationEntry[] entries;
        try {
            entries = Configuration.getConfiguration().getAppConfigurationEntry(section);
        } catch (SecurityException e) {
            throw new IllegalArgumentException("cannot read the JAAS file " + file + ": " + e.getMessage(), e);
        }
        if (entries == null) {
            if (namedSection != null) {
                throw new IllegalArgumentException("no JAAS section '" + section + "' in " + file + ", but "
                        + SECTION + " names it");
            }
            return null;
        }
        Map<String, char[]> passwords = new TreeMap<>();
        for (AppConfigurationEntry entry : entries) {
            if (!entry.getLoginModuleName().equals(DIGEST_LOGIN_MODULE)) {
                throw new IllegalArgumentException("JAAS section '" + section + "' of " + file + " uses "
                        + entry.getLoginModuleName() + "; zabkit implements only DIGEST-MD5 with "
                        + DIGEST_LOGIN_MODULE + " (no Kerberos), so it refuses to start");
            }
            for (Map.Entry<String, ?> option : entry.getOptions().entrySet()) {
                if (option.getKey().startsWith(USER_PREFIX)) {
                    passwords.put(option.getKey().substring(USER_PREFIX.length()),
                            String.valueOf(option.getValue()).toCharArray());
                }
            }
        }
        return new DigestSaslServers(passwords);
    }

    int users() {
        return passwords.size();
    }

    @Override
    public Exchange start() {
        Users users = new Users();
        SaslServer server;
        try {
            server = Sasl.createSaslServer("DIGEST-MD5", "zookeeper", "zk-sasl-md5", null, users::handle);
        } catch (SaslException e) {
            throw new IllegalStateException("the JDK has no DIGEST-MD5 SASL server: " + e.getMessage(), e);
        }
        assert server != null : "the JDK's SunSASL provider makes DIGEST-MD5 servers";
        return new Exchange() {
            @Override
            public byte[] evaluate(byte[] clientToken) throws SaslException {
                return server.evaluateResponse(clientToken);
            }

            @Override
            public String authorizedId() {
                return server.isComplete() ? server.getAuthorizationID() : null;
            }
        };
    }

    /** The callbacks of one exchange, as ZooKeeper's SaslServerCallbackHandler answers them. */
    private final class Users {
        private String user;

        void handle(Callback[] callbacks) throws UnsupportedCallbackException {
            for (Callback c : callbacks) {
                if (c instanceof NameCallback nc) {
                    // an unknown user gets no password below, and the exchange fails
                    user = passwords.containsKey(nc.getDefaultName()) ? nc.getDefaultName() : null;
                    if (user != null) {
                        nc.setName(user);
                    }
                } else if (c instanceof PasswordCallback pc) {
                    if (user != null) {
                        pc.setPassword(passwords.get(user).clone());
                    }
                } else if (c instanceof RealmCallback rc) {
                    rc.setText(rc.getDefaultText());
                } else if (c instanceof AuthorizeCallback ac) {
                    // ZooKeeper authorizes the authenticated name (DIGEST-MD5 has no Kerberos parts to strip)
                    ac.setAuthorized(true);
                    ac.setAuthorizedID(ac.getAuthenticationID());
                } else {
                    throw new UnsupportedCallbackException(c);
                }
            }
        }
    }
}
