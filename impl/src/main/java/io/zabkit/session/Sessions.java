package io.zabkit.session;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The session table. Which sessions exist (and their negotiated timeouts) is replicated state,
 * changed only by applying createSession and closeSession transactions; when each one expires is
 * local bookkeeping of the server that owns expiry, driven by the clock the core is ticked with.
 */
public final class Sessions {
    /** Timeouts of live sessions, by id; sorted so snapshots and expiry order are deterministic. */
    private final Map<Long, Integer> timeoutMsById = new TreeMap<>();
    /** Local: the time after which a session with no sign of life expires. */
    private final Map<Long, Long> deadlineMsById = new TreeMap<>();
    /** Local: sessions whose closeSession is in the pipeline; they accept no more requests. */
    private final Set<Long> closing = new HashSet<>();
    /** Local: sessions whose createSession is in the pipeline; they may already queue requests. */
    private final Set<Long> creating = new HashSet<>();
    /**
     * Replicated, kept only with keepConnections: each live session's last applied transaction (its cxid,
     * zxid and the reply it got), so that a server that kept a connection across a leader change answers a
     * write the new history holds instead of forwarding it again (issue 20 item 7, K2), as Raft's client
     * session table keeps the last response. Empty with the switch off, and then absent from snapshots.
     */
    private final Map<Long, LastApplied> lastAppliedById = new TreeMap<>();
    private final long serverId;
    private final long secret;

    /** A session's last applied transaction: its client xid, zxid and the framed reply to it. */
    public record LastApplied(int cxid, long zxid, byte[] reply) {}
    private long nextSessionId;

    public Sessions(long serverId, long secret) {
        this.serverId = serverId;
        this.secret = secret;
    }

    /**
     * A fresh session id: the server id in the top byte and the clock below, as ZooKeeper does, so
     * ids do not repeat across restarts; never below an id this server already handed out.
     */
    public long newSessionId(long nowMs) {
        if (nextSessionId == 0) {
            nextSessionId = ((nowMs << 24) >>> 8) | (serverId << 56);
            for (long id : timeoutMsById.keySet()) {
                if ((id >>> 56) == serverId && id >= nextSessionId) {
                    nextSessionId = id + 1;
                }
            }
            if (nextSessionId == Long.MIN_VALUE || nextSessionId == 0) {
                nextSessionId++; // the container marker and 0 are not session ids
            }
        }
        return nextSessionId++;
    }

    /** The password a client must present to resume this session: derived, never stored. */
    public byte[] password(long sessionId) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(ByteBuffer.allocate(16).putLong(secret).putLong(sessionId).array());
            return Arrays.copyOf(sha.digest(), 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    public boolean passwordMatches(long sessionId, byte[] password) {
        return password != null && MessageDigest.isEqual(password(sessionId), password);
    }

    /** A createSession was prepared: the client may pipeline requests behind its connect. */
    public void beginCreate(long sessionId) {
        creating.add(sessionId);
    }

    // ---- replicated: applied from transactions ----

    public void applyCreate(long sessionId, int timeoutMs, long nowMs) {
        assert sessionId != 0 : "session id 0 is reserved";
        timeoutMsById.put(sessionId, timeoutMs);
        deadlineMsById.put(sessionId, nowMs + timeoutMs);
        creating.remove(sessionId);
    }

    public void applyClose(long sessionId) {
        timeoutMsById.remove(sessionId);
        lastAppliedById.remove(sessionId);
        deadlineMsById.remove(sessionId);
        closing.remove(sessionId);
    }

    public boolean exists(long sessionId) {
        return timeoutMsById.containsKey(sessionId);
    }

    /** Live and not being closed: may still issue requests. */
    public boolean isActive(long sessionId) {
        return (exists(sessionId) || creating.contains(sessionId)) && !closing.contains(sessionId);
    }

    public int timeoutMs(long sessionId) {
        Integer t = timeoutMsById.get(sessionId);
        return t == null ? 0 : t;
    }

    public Map<Long, Integer> timeouts() {
        return java.util.Collections.unmodifiableMap(timeoutMsById);
    }

    public int size() {
        return timeoutMsById.size();
    }

    /** Applied: the last transaction of a live session, with its reply (keepConnections only). */
    public void recordApplied(long sessionId, LastApplied last) {
        assert exists(sessionId) : "a reply kept for a session that does not exist";
        LastApplied before = lastAppliedById.put(sessionId, last);
        assert before == null || before.zxid() < last.zxid() : "the last applied transaction went back";
    }

    /** The session's last applied transaction, or null (none since the table started, or the switch is off). */
    public LastApplied lastApplied(long sessionId) {
        return lastAppliedById.get(sessionId);
    }

    public Map<Long, LastApplied> lastApplied() {
        return java.util.Collections.unmodifiableMap(lastAppliedById);
    }

    // ---- local expiry bookkeeping ----

    /** Any packet from the client, pings included, proves the session alive. */
    public void touch(long sessionId, long nowMs) {
        Integer timeout = timeoutMsById.get(sessionId);
        if (timeout != null) {
            deadlineMsById.put(sessionId, nowMs + timeout);
        }
    }

    /** After a restart or a change of leader every session gets a full timeout to reconnect. */
    public void touchAll(long nowMs) {
        for (Map.Entry<Long, Integer> e : timeoutMsById.entrySet()) {
            deadlineMsById.put(e.getKey(), nowMs + e.getValue());
        }
    }

    /**
     * A new term of serving: the createSession and closeSession transactions this server had in its
     * pipeline may never commit (a leader that lost its quorum, a truncated log), and those that do
     * are applied anyway. Kept, a session stuck in "closing" was never expired again by this server
     * as leader (simulator, 5 servers, seed 90004: an orphaned session open for good). ZooKeeper's
     * new leader likewise rebuilds its session tracker from the data tree.
     */
    public void forgetPipeline() {
        closing.clear();
        creating.clear();
        assert expiredIgnoresNothing() : "no session left out of expiry";
    }

    private boolean expiredIgnoresNothing() {
        return closing.isEmpty();
    }

    public void markClosing(long sessionId) {
        closing.add(sessionId);
    }

    public boolean isClosing(long sessionId) {
        return closing.contains(sessionId);
    }

    /** Sessions past their deadline and not yet closing, in id order. */
    public List<Long> expired(long nowMs) {
        List<Long> result = new ArrayList<>();
        for (Map.Entry<Long, Long> e : deadlineMsById.entrySet()) {
            if (e.getValue() <= nowMs && !closing.contains(e.getKey())) {
                result.add(e.getKey());
            }
        }
        return result;
    }
}
