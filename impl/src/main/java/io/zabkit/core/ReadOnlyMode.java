package io.zabkit.core;

import io.zabkit.wire.OpCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * ZooKeeper's read-only mode ({@code -Dreadonlymode.enabled=true}, ZooKeeper 3.9's QuorumPeer and
 * ReadOnlyZooKeeperServer): an ensemble member that has been looking for a leader for max(2 s, tickTime)
 * serves clients whose ConnectRequest says canBeReadOnly, from the state it last applied, and stops the
 * moment it leaves the election (its read-only connections are closed; the clients reconnect).
 *
 * <p>This class holds the mode's state: whether it is on, and the sessions made in it. Those sessions are
 * local to this server and never replicated (no transaction, no zxid), since there is no quorum to agree on
 * them; they end with the mode, by their timeout, or by closeSession.
 */
final class ReadOnlyMode {
    /** ZooKeeper's lower bound of the grace period before a looking server decides it is partitioned. */
    static final long MIN_GRACE_MS = 2_000;

    enum Change { NONE, STARTED, ENDED }

    private final boolean enabled;
    private final long graceMs;
    /** When the current stretch of looking began; -1 while not looking. */
    private long lookingSinceMs = -1;
    private boolean active;
    /** Read-only sessions: id to timeout (ms), and id to the deadline the last request from it set. */
    private final Map<Long, Integer> timeoutMs = new TreeMap<>();
    private final Map<Long, Long> deadlineMs = new TreeMap<>();

    private ReadOnlyMode(boolean enabled, long tickTimeMs) {
        this.enabled = enabled;
        this.graceMs = Math.max(MIN_GRACE_MS, tickTimeMs);
    }

    static ReadOnlyMode off() {
        return new ReadOnlyMode(false, 0);
    }

    static ReadOnlyMode enabled(long tickTimeMs) {
        return new ReadOnlyMode(true, tickTimeMs);
    }

    boolean isEnabled() {
        return enabled;
    }

    /** Serving read-only clients now. */
    boolean isActive() {
        return active;
    }

    /**
     * Follows the server's role: the mode starts once the server has been looking for the grace period and
     * ends as soon as it is not looking. Returns the change, if any, for the core to act on.
     */
    Change update(boolean looking, long nowMs) {
        if (!enabled) {
            return Change.NONE;
        }
        if (!looking) {
            lookingSinceMs = -1;
            if (!active) {
                return Change.NONE;
            }
            active = false;
            timeoutMs.clear();
            deadlineMs.clear();
            return Change.ENDED;
        }
        if (lookingSinceMs < 0) {
            lookingSinceMs = nowMs;
        }
        if (!active && nowMs - lookingSinceMs >= graceMs) {
            assert timeoutMs.isEmpty() : "read-only sessions outlived the mode";
            active = true;
            return Change.STARTED;
        }
        return Change.NONE;
    }

    void addSession(long sessionId, int timeout, long nowMs) {
        assert active : "a read-only session outside read-only mode";
        assert !timeoutMs.containsKey(sessionId) : "session id 0x" + Long.toHexString(sessionId) + " reused";
        timeoutMs.put(sessionId, timeout);
        deadlineMs.put(sessionId, nowMs + timeout);
    }

    boolean hasSession(long sessionId) {
        return timeoutMs.containsKey(sessionId);
    }

    int timeoutMs(long sessionId) {
        Integer t = timeoutMs.get(sessionId);
        return t == null ? 0 : t;
    }

    void touch(long sessionId, long nowMs) {
        Integer t = timeoutMs.get(sessionId);
        if (t != null) {
            deadlineMs.put(sessionId, nowMs + t);
        }
    }

    void removeSession(long sessionId) {
        timeoutMs.remove(sessionId);
        deadlineMs.remove(sessionId);
    }

    /** Removes and returns the sessions whose deadline has passed. */
    List<Long> expire(long nowMs) {
        List<Long> gone = new ArrayList<>();
        for (Map.Entry<Long, Long> e : deadlineMs.entrySet()) {
            if (e.getValue() < nowMs) {
                gone.add(e.getKey());
            }
        }
        for (long id : gone) {
            removeSession(id);
        }
        return gone;
    }

    int sessionCount() {
        return timeoutMs.size();
    }

    /**
     * The requests a read-only server answers with NotReadOnly instead of serving: ZooKeeper 3.9's
     * ReadOnlyRequestProcessor list (every state change, and sync, which needs a leader). closeSession is
     * not on it: it ends the read-only session.
     */
    static boolean refuses(int opCode) {
        switch (opCode) {
            case OpCode.SYNC: case OpCode.CREATE: case OpCode.CREATE2: case OpCode.CREATE_TTL:
            case OpCode.CREATE_CONTAINER: case OpCode.DELETE: case OpCode.DELETE_CONTAINER: case OpCode.SET_DATA:
            case OpCode.RECONFIG: case OpCode.SET_ACL: case OpCode.MULTI: case OpCode.CHECK:
                return true;
            default:
                return false;
        }
    }
}
