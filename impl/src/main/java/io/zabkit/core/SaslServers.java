package io.zabkit.core;

import javax.security.sasl.SaslException;

/**
 * The server side of SASL (op 102), one exchange per connection, made by the runtime (the JDK's
 * DIGEST-MD5 with a JAAS file's users). A mechanism draws nonces, so a core given one is no longer
 * reproducible from its inputs; the simulator gives none, and a core without one answers op 102 as
 * ZooKeeper without a JAAS {@code Server} section does.
 */
public interface SaslServers {
    /** A new exchange for one connection. */
    Exchange start();

    /** One connection's SASL negotiation. */
    interface Exchange {
        /** The server's token for the client's; throws when the client failed to authenticate. */
        byte[] evaluate(byte[] clientToken) throws SaslException;

        /** The identity the client proved (ZooKeeper's authorization id), once complete; null before. */
        String authorizedId();
    }
}
