package io.zabkit.core;

import java.util.Set;

/**
 * How clients authenticate, from zoo.cfg: ZooKeeper's {@code authProvider.N} (whether the sasl ACL scheme
 * exists) and {@code enforce.auth.enabled} with {@code enforce.auth.schemes} (or
 * {@code sessionRequireClientSASLAuth}): a session must prove an identity of one of these schemes before
 * any request other than auth and SASL, or it is answered SessionClosedRequireAuth (-124) and its
 * connection closed. The SASL mechanism itself is the runtime's ({@link SaslServers}).
 *
 * @param enforcedSchemes schemes of which a session needs an identity; empty: no enforcement
 * @param saslAclScheme   whether ACLs may name the sasl scheme
 * @param x509AclScheme   whether the x509 scheme exists (authProvider.N names X509AuthenticationProvider): a
 *                        TLS client's certificate subject is then its identity, and ACLs may name it
 */
public record ClientAuth(Set<String> enforcedSchemes, boolean saslAclScheme, boolean x509AclScheme) {
    /** ZooKeeper's defaults: nothing enforced, neither scheme. */
    public static final ClientAuth NONE = new ClientAuth(Set.of(), false, false);

    public ClientAuth {
        enforcedSchemes = Set.copyOf(enforcedSchemes);
        assert !enforcedSchemes.contains("sasl") || saslAclScheme : "sasl enforced without the sasl provider";
        assert !enforcedSchemes.contains("x509") || x509AclScheme : "x509 enforced without the x509 provider";
    }

    /** The ACL schemes this configuration adds to world, auth, digest and ip. */
    public Set<String> providerSchemes() {
        Set<String> schemes = new java.util.TreeSet<>();
        if (saslAclScheme) {
            schemes.add("sasl");
        }
        if (x509AclScheme) {
            schemes.add("x509");
        }
        return schemes;
    }

    /** ZooKeeper answers a failed SASL exchange -124 instead of AuthFailed when SASL is enforced. */
    public boolean saslRequired() {
        return enforcedSchemes.contains("sasl");
    }
}
