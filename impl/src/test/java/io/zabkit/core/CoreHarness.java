package io.zabkit.core;

import io.zabkit.storage.RecoveredState;
import io.zabkit.txn.Txn;
import io.zabkit.wire.Jute;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.jute.BinaryInputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.proto.ConnectRequest;
import org.apache.zookeeper.proto.ConnectResponse;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.RequestHeader;

/**
 * Drives a {@link ServerCore} directly with wire bytes, holding back durability so tests can see
 * exactly what the core answers before and after {@code persisted}.
 */
final class CoreHarness {
    final ServerCore core;
    final List<Txn> logged = new ArrayList<>();
    final List<Ready.Outbound> sent = new ArrayList<>();
    final List<Long> closed = new ArrayList<>();
    final List<io.zabkit.storage.Snapshot> snapshots = new ArrayList<>();
    long now = 1_000_000;

    CoreHarness() {
        this(CoreConfig.defaults(1, 100, 7));
    }

    CoreHarness(CoreConfig config) {
        core = new ServerCore(config, RecoveredState.empty());
        core.tick(now);
    }

    /** Collects the core's effects without making anything durable. */
    void collect() {
        Ready r = core.ready();
        logged.addAll(r.entries());
        sent.addAll(r.sends());
        closed.addAll(r.closes());
        if (r.snapshot() != null) {
            snapshots.add(r.snapshot());
        }
        core.checkInvariants();
        // a test's client reads every reply at once: replies the core held for it are sent
        for (long connId : holdReplies == 0 ? List.copyOf(core.heldConnections()) : List.<Long>of()) {
            core.outputDrained(connId);
            collect();
        }
    }

    /** While non-zero, the test's clients read nothing: held replies stay held. */
    int holdReplies;

    /** Makes everything logged durable and collects until quiet. */
    void persistAll() {
        collect();
        while (!logged.isEmpty() && core.lastProcessedZxid() < logged.get(logged.size() - 1).zxid()) {
            core.persisted(logged.get(logged.size() - 1).zxid());
            collect();
        }
    }

    long connect(long connId, long sessionId, byte[] password) {
        core.connect(connId, "/127.0.0.1:" + (40000 + connId));
        core.receive(connId, Jute.frame(Jute.encode(new ConnectRequest(0, 0, 3000, sessionId,
                password == null ? new byte[16] : password, false))));
        persistAll();
        return connId;
    }

    void send(long connId, int xid, int type, Record body) {
        core.receive(connId, Jute.frame(Jute.encode(new RequestHeader(xid, type), body)));
        collect();
    }

    /** Frames sent to a connection so far, length prefix stripped, and forgets them. */
    List<byte[]> framesTo(long connId) {
        List<byte[]> frames = new ArrayList<>();
        List<Ready.Outbound> rest = new ArrayList<>();
        for (Ready.Outbound o : sent) {
            if (o.connId() == connId) {
                frames.add(java.util.Arrays.copyOfRange(o.bytes(), 4, o.bytes().length));
            } else {
                rest.add(o);
            }
        }
        sent.clear();
        sent.addAll(rest);
        return frames;
    }

    static ConnectResponse connectResponse(byte[] frame) throws IOException {
        return Jute.decode(frame, new ConnectResponse(), 1 << 20);
    }

    static ReplyHeader header(byte[] frame) throws IOException {
        return Jute.decode(frame, new ReplyHeader(), 1 << 20);
    }

    static <R extends Record> R body(byte[] frame, R into) throws IOException {
        BinaryInputArchive in = Jute.reader(frame, 1 << 20);
        new ReplyHeader().deserialize(in, "h");
        into.deserialize(in, "b");
        return into;
    }
}
