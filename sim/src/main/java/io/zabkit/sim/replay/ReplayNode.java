package io.zabkit.sim.replay;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import io.zabkit.zab.Effects;
import io.zabkit.zab.Message;
import io.zabkit.zab.Replica;
import io.zabkit.zab.Zab;
import io.zabkit.zab.ZabConfig;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One replayed server: the real {@link Zab} core over a replay disk and a replica that only records what
 * it applies. The disk is the spec's: an appended entry is durable only when the replay completes its
 * fsync ({@link #syncTo}), which it does when the behaviour's {@code durable} says so; a crash keeps
 * exactly the durable part. The replica applies nothing but zxids (Zab.tla's values are not observed).
 *
 * <p>Checks the atomicity of the spec's steps as the core emits its effects: an ACK leaves only once
 * what it acknowledges is durable here, and a new currentEpoch is stored only with the history it vouches
 * for durable (the spec logs, stores the epoch and ACKs in one step; spec/README.md, replay mapping).
 */
final class ReplayNode implements Effects, Replica, ReplayNetwork.Peer {
    static final int TICK_MS = 100;

    private final long id;
    private final ZabConfig config;
    private final ReplayNetwork net;
    private final List<String> violations;

    // ---- the disk: epochs, snapshot (zxids of the applied state it holds), log with a durable prefix ----
    private long diskAcceptedEpoch;
    private long diskCurrentEpoch;
    private List<Long> snapshotZxids = List.of();
    private final List<Txn> log = new ArrayList<>();
    private int synced;
    /** NEWLEADER's mark (Storage#markSyncTail): the log after this zxid waits for currentEpoch syncTailEpoch; -1 none. */
    private long syncTailAfter = -1;
    private long syncTailEpoch = -1;

    // ---- memory ----
    private Zab zab;
    private List<Long> applied = new ArrayList<>();
    /** How many applied entries the last start re-applied from the snapshot. */
    private int recoveredApplied;
    private long nowMs = 1_000;

    ReplayNode(long id, ZabConfig config, ReplayNetwork net, List<String> violations) {
        this.id = id;
        this.config = config;
        this.net = net;
        this.violations = violations;
    }

    /** NodeStart (and Init): a core built from what the disk kept, then its first tick (it looks for a leader). */
    void start() {
        assert zab == null : "start of a running server";
        applied = new ArrayList<>(snapshotZxids);
        recoveredApplied = applied.size();
        long floor = applied.isEmpty() ? 0 : applied.get(applied.size() - 1);
        List<Txn> unapplied = new ArrayList<>();
        for (Txn t : log) {
            assert t.zxid() > floor : "log entry at or below the snapshot";
            unapplied.add(t);
        }
        zab = new Zab(id, config, TICK_MS, this, this, diskAcceptedEpoch, diskCurrentEpoch, unapplied);
        zab.tick(nowMs);
    }

    /** NodeCrash: memory is lost; the disk keeps the durable prefix of the log. */
    void crash() {
        assert zab != null : "crash of a stopped server";
        zab = null;
        log.subList(synced, log.size()).clear();
        if (syncTailAfter >= 0 && diskCurrentEpoch < syncTailEpoch) {
            truncateLog(syncTailAfter); // recovery drops the tail currentEpoch does not vouch for
        }
        syncTailAfter = -1;
    }

    /** Time passes for this server only, past initLimit: a leader that never established its epoch gives up. */
    void timeOutInit() {
        nowMs += (long) (config.initLimitTicks() + 1) * TICK_MS;
        zab.tick(nowMs);
    }

    /** The fsync completes through the first durableCount entries of the history (snapshot included). */
    boolean syncTo(int durableCount) {
        int want = durableCount - snapshotZxids.size();
        if (want <= synced) {
            return true;
        }
        if (want > log.size()) {
            return false;
        }
        synced = want;
        zab.persisted(log.get(synced - 1).zxid());
        return true;
    }

    @Override
    public boolean isUp() {
        return zab != null;
    }

    Zab zab() {
        return zab;
    }

    long id() {
        return id;
    }

    long diskAcceptedEpoch() {
        return diskAcceptedEpoch;
    }

    long diskCurrentEpoch() {
        return diskCurrentEpoch;
    }

    /** The zxids on disk: the snapshot's, then the durable log (what a start recovers). */
    List<Long> diskHistory() {
        List<Long> z = new ArrayList<>(snapshotZxids);
        for (int k = 0; k < synced; k++) {
            z.add(log.get(k).zxid());
        }
        return z;
    }

    int durableCount() {
        return snapshotZxids.size() + synced;
    }

    /** The whole history as the spec has it: the applied prefix below the core's in-memory floor, then the rest. */
    List<Long> history() {
        long floor = zab.historyFloor();
        List<Long> z = new ArrayList<>();
        for (long a : applied) {
            if (a <= floor) {
                z.add(a);
            }
        }
        assert z.isEmpty() ? floor == 0 : z.get(z.size() - 1) == floor : "applied state does not reach the floor";
        for (Txn t : zab.historyAfter(floor)) {
            z.add(t.zxid());
        }
        return z;
    }

    int delivered() {
        return applied.size();
    }

    /** How many entries of the history the core knows committed (its lastCommitted, as a length). */
    int committedCount() {
        long c = zab.lastCommitted();
        int count = 0;
        for (long z : history()) {
            if (z <= c) {
                count++;
            }
        }
        return count;
    }

    int recoveredApplied() {
        return recoveredApplied;
    }

    long durableLastZxid() {
        if (synced > 0) {
            return log.get(synced - 1).zxid();
        }
        return snapshotZxids.isEmpty() ? 0 : snapshotZxids.get(snapshotZxids.size() - 1);
    }

    // ------------------------------------------------------------------ network

    @Override
    public void peerDisconnected(long peer) {
        zab.peerDisconnected(peer);
    }

    void receive(long from, Message m) {
        zab.receive(from, m);
    }

    // ------------------------------------------------------------------ Effects

    @Override
    public void truncateLog(long zxid) {
        int keep = 0;
        while (keep < log.size() && log.get(keep).zxid() <= zxid) {
            keep++;
        }
        log.subList(keep, log.size()).clear();
        synced = Math.min(synced, keep);
        if (syncTailAfter >= zxid) {
            syncTailAfter = -1;
        }
    }

    @Override
    public void installSnapshot(Snapshot snapshot) {
        snapshotZxids = decode(snapshot.data());
        log.clear();
        synced = 0;
    }

    @Override
    public void storeEpochs(long acceptedEpoch, long currentEpoch) {
        if (currentEpoch > diskCurrentEpoch && durableLastZxid() < zab.lastLoggedZxid()) {
            violations.add("server " + id + " stored currentEpoch " + currentEpoch + " while its history is durable only"
                    + " through " + Zxids.show(durableLastZxid()) + " of " + Zxids.show(zab.lastLoggedZxid()));
        }
        diskAcceptedEpoch = acceptedEpoch;
        diskCurrentEpoch = currentEpoch;
        if (currentEpoch >= syncTailEpoch) {
            syncTailAfter = -1;
        }
    }

    @Override
    public void markSyncTail(long afterZxid, long epoch) {
        assert log.isEmpty() || log.get(log.size() - 1).zxid() <= afterZxid : "the mark precedes its tail";
        if (epoch > diskCurrentEpoch) {
            syncTailAfter = afterZxid;
            syncTailEpoch = epoch;
        }
    }

    @Override
    public void log(Txn txn) {
        log.add(txn);
    }

    @Override
    public void send(long to, Message message) {
        if (message instanceof Message.Ack a && a.zxid() > durableLastZxid()) {
            violations.add("server " + id + " sent ACK of " + Zxids.show(a.zxid()) + " to " + to
                    + " while its log is durable only through " + Zxids.show(durableLastZxid()));
        }
        net.send(id, to, message);
    }

    @Override
    public void resetLink(long peer) {
        net.reset(id, peer);
    }

    // ------------------------------------------------------------------ Replica

    @Override
    public long lastProcessedZxid() {
        return applied.isEmpty() ? 0 : applied.get(applied.size() - 1);
    }

    @Override
    public void deliver(Txn txn) {
        assert txn.zxid() > lastProcessedZxid() : "delivery out of zxid order";
        applied.add(txn.zxid());
    }

    @Override
    public Snapshot snapshotOfAppliedState() {
        return new Snapshot(lastProcessedZxid(), encode(applied));
    }

    @Override
    public void install(Snapshot snapshot) {
        applied = new ArrayList<>(decode(snapshot.data()));
        assert lastProcessedZxid() == snapshot.zxid() : "snapshot zxid and content disagree";
    }

    @Override
    public void startServing(boolean leading) {
    }

    @Override
    public void stopServing(String why) {
    }

    @Override
    public Txn prepareForwarded(Message.Forward forward, long zxid) {
        throw new IllegalStateException("the replay has no clients");
    }

    @Override
    public void syncReplied(long sessionId, int cxid, long zxid) {
    }

    @Override
    public void sessionsAlive(List<Message.SessionTouch> touches) {
    }

    @Override
    public List<Message.SessionTouch> drainTouchedSessions() {
        return List.of();
    }

    /** The replay's snapshot format: the count of applied zxids, then the zxids. */
    static byte[] encode(List<Long> zxids) {
        ByteBuffer b = ByteBuffer.allocate(4 + 8 * zxids.size());
        b.putInt(zxids.size());
        zxids.forEach(b::putLong);
        return b.array();
    }

    static List<Long> decode(byte[] data) {
        ByteBuffer b = ByteBuffer.wrap(data);
        int n = b.getInt();
        assert b.remaining() == 8 * n : "a replay snapshot of " + n + " zxids has " + b.remaining() + " bytes";
        List<Long> z = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            z.add(b.getLong());
        }
        return z;
    }
}
