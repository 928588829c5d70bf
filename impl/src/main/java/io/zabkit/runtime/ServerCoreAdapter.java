package io.zabkit.runtime;

import io.zabkit.core.Ready;
import io.zabkit.core.ServerCore;
import io.zabkit.zab.Message;

/** The real deterministic core behind the loop's {@link Core} view. */
final class ServerCoreAdapter implements Core {
    private final ServerCore core;

    ServerCoreAdapter(ServerCore core) {
        this.core = core;
    }

    @Override
    public void tick(long nowMillis) {
        core.tick(nowMillis);
    }

    @Override
    public void connect(long connId, String remoteAddress) {
        core.connect(connId, remoteAddress);
    }

    @Override
    public void receive(long connId, byte[] bytes, int offset, int length) {
        core.receive(connId, bytes, offset, length);
    }

    @Override
    public void disconnect(long connId) {
        core.disconnect(connId);
    }

    @Override
    public void persisted(long zxid) {
        core.persisted(zxid);
    }

    @Override
    public void snapshotWritten(long zxid) {
        core.snapshotWritten(zxid);
    }

    // MERGE(lead): replace both bodies with core.peerMessage(from, m) and core.peerDisconnected(peer) once
    // ServerCore has them; these are the only call sites of the peer events.
    @Override
    public void peerMessage(long from, Message m) {
        throw new UnsupportedOperationException("ServerCore.peerMessage is not merged yet (message from server "
                + from + ": " + m.getClass().getSimpleName() + ")");
    }

    @Override
    public void peerDisconnected(long peer) {
        throw new UnsupportedOperationException("ServerCore.peerDisconnected is not merged yet (server " + peer + ")");
    }

    @Override
    public boolean hasReady() {
        return core.hasReady();
    }

    @Override
    public Ready ready() {
        return core.ready();
    }
}
