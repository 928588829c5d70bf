package io.zabkit.sim;

import io.zabkit.core.ServerCore;
import io.zabkit.tree.Znode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An acknowledged ephemeral disappears with its session: once a client's closeSession is
 * acknowledged (durably: its reply waited for the disk), and, by the end of the run, once a client was
 * told its session expired, the server holds neither the session nor any of its ephemerals.
 */
final class EphemeralChecker {
    private final Map<Long, List<String>> ackedEphemerals = new HashMap<>();
    /** Sessions that ended, with whether the client closed them (true) or was told they expired (false). */
    private final Map<Long, Boolean> ended = new TreeMap<>();
    private long sessionsChecked;

    long sessionsChecked() {
        return sessionsChecked;
    }

    void completed(ClientOp op) {
        if (op.isOk() && op.kind == ClientOp.Kind.CREATE && op.mode.ephemeral()) {
            ackedEphemerals.computeIfAbsent(op.session, s -> new ArrayList<>()).add(op.createdPath);
        }
    }

    void sessionEnded(long sessionId, boolean expired, ServerCore core) {
        ended.put(sessionId, !expired);
        if (!expired && core != null) {
            checkGone(sessionId, core, "right after its closeSession was acknowledged");
        }
    }

    /** After a restart: closes that were acknowledged are durable. */
    void afterRestart(ServerCore core) {
        for (Map.Entry<Long, Boolean> e : ended.entrySet()) {
            if (e.getValue()) {
                checkGone(e.getKey(), core, "after a restart, although its closeSession was acknowledged");
            }
        }
    }

    /** At the end of the quiet phase every ended session has been gone for a while. */
    void atEnd(ServerCore core) {
        for (long sessionId : ended.keySet()) {
            checkGone(sessionId, core, "at the end of the run, after the client was told it " +
                    (ended.get(sessionId) ? "closed" : "expired"));
        }
    }

    boolean allEndedSessionsGone(ServerCore core) {
        for (long sessionId : ended.keySet()) {
            if (core.sessions().exists(sessionId)) {
                return false;
            }
        }
        return true;
    }

    private void checkGone(long sessionId, ServerCore core, String when) {
        sessionsChecked++;
        String s = "session 0x" + Long.toHexString(sessionId);
        if (core.sessions().exists(sessionId)) {
            throw new Violation("EphemeralLifetime", s + " still exists " + when);
        }
        for (String path : ackedEphemerals.getOrDefault(sessionId, List.of())) {
            Znode n = core.tree().get(path);
            if (n != null && n.ephemeralOwner() == sessionId) {
                throw new Violation("EphemeralLifetime", "ephemeral " + path + " of " + s + " still exists " + when);
            }
        }
    }
}
