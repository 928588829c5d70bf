package io.zabkit.sim;

import io.zabkit.core.ServerCore;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * SessionExpiry: a session no client holds any more (its client went silent, moved to a new session,
 * or never learned it was created) is closed, with its ephemerals, within its timeout plus a bound
 * once nothing touches it. Checked at the end of the quiet phase on the serving leader, for sessions
 * orphaned long enough: since it was first seen, since its client last held it, since the current
 * leader began to serve (a new leader gives every session a full timeout), and since the last partition
 * healed (a silent one delivers the touches it held only then), whichever is latest.
 */
final class SessionExpiryChecker {
    private final Map<Long, Long> firstSeenTick = new HashMap<>();
    private final Map<Long, Long> lastHeldTick = new HashMap<>();
    private ServerCore leader;
    private long leaderEpoch = -1;
    private long leaderSinceTick;
    private long checks;
    private long linksReleasedTick;

    long checks() {
        return checks;
    }

    /** After every step: the serving leader (or null) and its sessions. */
    void afterStep(ServerCore servingLeader, long tick) {
        if (servingLeader == null) {
            return;
        }
        long epoch = servingLeader.zab().currentEpoch();
        if (servingLeader != leader || epoch != leaderEpoch) {
            leader = servingLeader;
            leaderEpoch = epoch;
            leaderSinceTick = tick;
        }
        for (long id : servingLeader.sessions().timeouts().keySet()) {
            firstSeenTick.putIfAbsent(id, tick);
        }
    }

    /**
     * A partition healed: a silent one held its links, and what they held (a follower's touches of its
     * clients' sessions, a forwarded request) reaches the leader only now, however old. A session is
     * judged from here at the earliest.
     */
    void linksReleased(long tick) {
        assert tick >= linksReleasedTick : "time runs forward";
        linksReleasedTick = tick;
    }

    /** A client holds this session at this tick (it started, resumed or ended it). */
    void held(long sessionId, long tick) {
        lastHeldTick.put(sessionId, tick);
    }

    /**
     * @param current   the sessions clients hold now
     * @param boundTicks what expiry may take beyond the timeout: the leader's expiry check, the closeSession's
     *                  commit round trip
     * @param lastOnFollower whether a session's client last held it on a follower (said in the violation:
     *                  the leader must expire those too)
     */
    void atEnd(ServerCore servingLeader, long tick, Collection<Long> current, long msPerTick, long boundTicks,
            java.util.function.LongPredicate lastOnFollower) {
        assert servingLeader == leader : "the serving leader at the end was not observed";
        for (Map.Entry<Long, Integer> e : servingLeader.sessions().timeouts().entrySet()) {
            long id = e.getKey();
            if (current.contains(id)) {
                continue;
            }
            long since = Math.max(Math.max(leaderSinceTick, linksReleasedTick),
                    Math.max(firstSeenTick.getOrDefault(id, tick), lastHeldTick.getOrDefault(id, 0L)));
            long allowed = (e.getValue() + msPerTick - 1) / msPerTick + boundTicks;
            if (tick - since <= allowed) {
                continue; // not orphaned long enough to tell
            }
            checks++;
            throw new Violation("SessionExpiry", "session 0x" + Long.toHexString(id) + " (timeout " + e.getValue()
                    + " ms) held by no client for " + (tick - since) + " ticks is still open on the leader (allowed "
                    + allowed + " ticks)" + (lastOnFollower.test(id) ? "; its client last held it on a follower" : ""));
        }
    }
}
