package io.zabkit.runtime;

import io.zabkit.core.Ready;
import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.txn.CreateTxn;

/**
 * A line-protocol stand-in for the core, to test the loop on its own. "peer N Z" sends server N a
 * COMMIT of Z and "reset N" gives up the link to N; peer events are recorded. "w" logs a transaction and
 * answers "ok ZXID" only once persisted() covers it (the real core's contract); "r" answers at once;
 * "close" answers "bye" and asks for a close; "flood" sends more than a client may leave unread; "spin MS"
 * keeps the loop thread busy for MS ms of wall time (a costly request) and answers "spun". With
 * {@link #heartbeatTo} set, every tick at least HEARTBEAT_INTERVAL_MS after the last sends that server a
 * COMMIT (a leader's ping); peer messages' arrival times are recorded.
 */
final class ScriptedCore implements Core {
    final ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
    volatile long ticks;
    volatile long lastPersisted;
    private final Map<Long, StringBuilder> partial = new HashMap<>();
    private final TreeMap<Long, Long> waitingByZxid = new TreeMap<>();
    private final List<Txn> entries = new ArrayList<>();
    private final List<Ready.Outbound> sends = new ArrayList<>();
    private final List<Long> closes = new ArrayList<>();
    private final List<Ready.PeerOut> peerOut = new ArrayList<>();
    private long zxid;
    static final long HEARTBEAT_INTERVAL_MS = 50;
    /** The server each tick's heartbeat goes to; none if negative. */
    volatile long heartbeatTo = -1;
    private long heartbeatLastMs = Long.MIN_VALUE / 2;
    private long heartbeats;
    /** When each peer message arrived, in System.currentTimeMillis. */
    final ConcurrentLinkedQueue<Long> peerMessageAtMs = new ConcurrentLinkedQueue<>();

    @Override
    public void peerMessage(long from, io.zabkit.zab.Message m) {
        events.add("peer " + from + " " + m);
        peerMessageAtMs.add(System.currentTimeMillis());
    }

    @Override
    public void peerDisconnected(long peer) {
        events.add("peer-disconnected " + peer);
    }

    @Override
    public void tick(long nowMillis) {
        ticks++;
        if (heartbeatTo >= 0 && nowMillis - heartbeatLastMs >= HEARTBEAT_INTERVAL_MS) {
            heartbeatLastMs = nowMillis;
            peerOut.add(new Ready.PeerOut(heartbeatTo, new io.zabkit.zab.Message.Commit(++heartbeats)));
        }
    }

    @Override
    public void connect(long connId, String remoteAddress) {
        events.add("connect " + connId);
        partial.put(connId, new StringBuilder());
    }

    @Override
    public void receive(long connId, byte[] bytes, int offset, int length) {
        StringBuilder line = partial.get(connId);
        for (char c : new String(bytes, offset, length, StandardCharsets.UTF_8).toCharArray()) {
            if (c != '\n') {
                line.append(c);
                continue;
            }
            command(connId, line.toString());
            line.setLength(0);
        }
    }

    private void command(long connId, String command) {
        if (command.isEmpty()) {
            return; // padding: the loop hands the core nothing shorter than a packet's 4-byte length
        }
        String[] words = command.split(" ");
        if (words[0].equals("peer")) { // "peer N ZXID": a COMMIT to server N
            peerOut.add(new Ready.PeerOut(Long.parseLong(words[1]), new io.zabkit.zab.Message.Commit(
                    Long.parseLong(words[2]))));
            return;
        }
        if (words[0].equals("spin")) { // "spin MS": a request that costs MS ms of the loop's time
            long until = System.currentTimeMillis() + Long.parseLong(words[1]);
            while (System.currentTimeMillis() < until) {
                Thread.onSpinWait();
            }
            send(connId, "spun\n");
            return;
        }
        if (words[0].equals("reset")) { // "reset N": give up the link to server N
            peerOut.add(new Ready.PeerOut(Long.parseLong(words[1]), null));
            return;
        }
        switch (command) {
            case "w" -> {
                zxid++;
                entries.add(new Txn(Txn.zxid(1, zxid), 1, (int) zxid, 0, OpCode.CREATE,
                        new CreateTxn("/n" + zxid, new byte[0], List.of(new ACL(31, new Id("world", "anyone"))), false, 0)));
                waitingByZxid.put(Txn.zxid(1, zxid), connId);
            }
            case "r" -> send(connId, "r\n");
            case "oom" -> throw new OutOfMemoryError("scripted: Java heap space");
            case "close" -> {
                send(connId, "bye\n");
                closes.add(connId);
            }
            case "flood" -> {
                for (int i = 0; i < 80; i++) {
                    sends.add(new Ready.Outbound(connId, new byte[1 << 20]));
                }
            }
            default -> throw new AssertionError("unknown command " + command);
        }
    }

    private void send(long connId, String text) {
        sends.add(new Ready.Outbound(connId, text.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void disconnect(long connId) {
        events.add("disconnect " + connId);
    }

    @Override
    public void persisted(long persistedZxid) {
        assert persistedZxid > lastPersisted : "persisted went backwards";
        lastPersisted = persistedZxid;
        while (!waitingByZxid.isEmpty() && waitingByZxid.firstKey() <= persistedZxid) {
            Map.Entry<Long, Long> w = waitingByZxid.pollFirstEntry();
            send(w.getValue(), "ok " + Long.toHexString(w.getKey()) + "\n");
        }
    }

    @Override
    public void snapshotWritten(long zxid) {
        events.add("snapshot " + zxid);
    }

    @Override
    public boolean hasReady() {
        return !entries.isEmpty() || !sends.isEmpty() || !closes.isEmpty() || !peerOut.isEmpty();
    }

    @Override
    public Ready ready() {
        Ready r = new Ready(Ready.NO_TRUNCATE, null, null, null, List.copyOf(entries), !entries.isEmpty(), null,
                List.copyOf(sends), List.copyOf(closes), List.copyOf(peerOut));
        peerOut.clear();
        entries.clear();
        sends.clear();
        closes.clear();
        return r;
    }
}
