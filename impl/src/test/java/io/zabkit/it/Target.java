package io.zabkit.it;

import java.nio.file.Path;

/**
 * A standalone server the integration tests talk to over loopback: zabkit's, or Apache ZooKeeper's
 * as the oracle. The same test body runs against both, so every expected value is checked against
 * the reference implementation too.
 */
interface Target extends AutoCloseable {

    /**
     * Server settings, as zoo.cfg spells them. Short times keep the suite fast.
     *
     * @param tickTimeMs          zoo.cfg tickTime
     * @param minSessionTimeoutMs lower clamp of the negotiated session timeout
     * @param maxSessionTimeoutMs upper clamp of the negotiated session timeout
     * @param maxClientCnxns      connections allowed from one address (0 = unlimited)
     */
    record Settings(int tickTimeMs, int minSessionTimeoutMs, int maxSessionTimeoutMs, int maxClientCnxns) {
        static final Settings FAST = new Settings(100, 300, 4000, 0);

        Settings withMaxClientCnxns(int n) {
            return new Settings(tickTimeMs, minSessionTimeoutMs, maxSessionTimeoutMs, n);
        }
    }

    /** Starts a server of one kind. */
    interface Factory {
        Target start(Path dataDir, int port, Settings settings) throws Exception;
    }

    String name();

    int port();

    default String connectString() {
        return "127.0.0.1:" + port();
    }

    /** Stops the server and starts it again on the same data directory and port. */
    void restart() throws Exception;

    /** Closes every client connection from the server side; sessions live on. */
    void dropConnections() throws Exception;

    /** False for a server in another process, which has no hook to drop its connections. */
    default boolean canDropConnections() {
        return true;
    }

    @Override
    void close() throws Exception;
}
