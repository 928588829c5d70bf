package io.zabkit.runtime;

import io.zabkit.core.Ready;

/**
 * What the event loop needs from the deterministic core ({@code io.zabkit.core.ServerCore}): events in,
 * {@link Ready} batches out. An interface so the loop can be tested with a scripted core. Only the loop
 * thread calls it: the core is single-threaded.
 */
public interface Core extends PeerEvents {
    void tick(long nowMillis);

    void connect(long connId, String remoteAddress);

    void receive(long connId, byte[] bytes, int offset, int length);

    /** The connection proved an identity outside the client protocol (a TLS client certificate: x509). */
    default void addIdentity(long connId, String scheme, String id) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " takes no identities");
    }

    void disconnect(long connId);

    void persisted(long zxid);

    void snapshotWritten(long zxid);

    boolean hasReady();

    /** Connections whose queued replies the core holds until {@link #outputDrained} (ServerCore.REPLY_BYTES_BEFORE_HOLD). */
    default java.util.Set<Long> heldConnections() {
        return java.util.Set.of();
    }

    /** connId's unsent output fell below the low-water mark: the core may answer what it held. */
    default void outputDrained(long connId) {
    }

    Ready ready();

    /**
     * The core's monitoring figures as mntr's lines ("key TAB value"), whatever 4lw.commands.whitelist says:
     * the metrics endpoint is configured on its own. Scripted test cores have none to give.
     */
    default String monitorReport() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no monitoring figures");
    }
}
