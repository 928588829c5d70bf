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
 */
public record ClientAuth(Set<String> enforcedSchemes, boolean saslAclScheme) {
    /** ZooKeeper's defaults: nothing enforced, no sasl scheme. */
    public static final ClientAuth NONE = new ClientAuth(Set.of(), false);

    public ClientAuth {
        enforcedSchemes = Set.copyOf(enforcedSchemes);
        assert !enforcedSchemes.contains("sasl") || saslAclScheme : "sasl enforced without the sasl provider";
    }

    /** ZooKeeper answers a failed SASL exchange -124 instead of AuthFailed when SASL is enforced. */
    public boolean saslRequired() {
        return enforcedSchemes.contains("sasl");
    }
}
