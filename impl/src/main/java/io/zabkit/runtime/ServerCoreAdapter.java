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
    public void addIdentity(long connId, String scheme, String id) {
        core.addIdentity(connId, new org.apache.zookeeper.data.Id(scheme, id));
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

    @Override
    public void peerMessage(long from, Message m) {
        core.peerMessage(from, m);
    }

    @Override
    public void peerDisconnected(long peer) {
        core.peerDisconnected(peer);
    }

    @Override
    public void peerBytes(long from) {
        core.peerBytes(from);
    }

    @Override
    public java.util.Set<Long> heldConnections() {
        return core.heldConnections();
    }

    @Override
    public void outputDrained(long connId) {
        core.outputDrained(connId);
    }

    @Override
    public boolean hasReady() {
        return core.hasReady();
    }

    @Override
    public Ready ready() {
        return core.ready();
    }

    @Override
    public String monitorReport() {
        return core.monitorReport();
    }
}
