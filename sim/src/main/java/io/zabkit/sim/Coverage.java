package io.zabkit.sim;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * How often a run reached the protocol branches that matter, counted from what the simulator sees
 * (messages delivered, faults placed, client sessions) and the state of the server it hits; never
 * from the core's own code, so that counting changes no trace. A branch no seed reaches is a branch
 * no seed tests: CI asserts every counter of a shape is above zero (EnsembleSimulationTest).
 */
final class Coverage {
    /** The branches, with the shapes that can reach them. */
    enum Branch {
        ACKEPOCH_MINUS_ONE("ACKEPOCH -1 (epoch already accepted) reaches a leader in discovery", Shape.ENSEMBLE),
        LEADERINFO_BELOW_ACCEPTED("LEADERINFO below the follower's acceptedEpoch (it refuses: a broken promise)",
                Shape.ENSEMBLE),
        DIFF("DIFF", Shape.ENSEMBLE),
        TRUNC("TRUNC", Shape.ENSEMBLE),
        SNAP("SNAP", Shape.ENSEMBLE),
        SNAP_BEHIND_APPLIED("SNAP older than the follower's applied state", Shape.ENSEMBLE),
        FOLLOWERINFO_FINALIZE_WAIT("FOLLOWERINFO reaches a server still looking (finalize wait)", Shape.ENSEMBLE),
        FOLLOWER_AHEAD_OF_LEADER("ACKEPOCH ahead of the leader (it steps down)", Shape.ENSEMBLE),
        FAST_PROPOSAL("fast PROPOSAL reaches a follower in broadcast", Shape.FAST),
        FAST_FALLBACK("classic PROPOSAL under a fast variant (fallback: not every server synced)", Shape.FAST),
        CLIENT_REFUSED_LAST_ZXID("client refused: server behind its lastZxidSeen", Shape.ENSEMBLE),
        SESSION_EXPIRED_VIA_FOLLOWER("session expired whose client last held it on a follower", Shape.ENSEMBLE),
        SESSION_EXPIRED("session expired", Shape.ANY),
        SESSION_ABANDONED("client died with its session open (targeted: it must expire)", Shape.ENSEMBLE),
        SESSION_ABANDONED_ON_FOLLOWER("... a session the client held on a follower", Shape.ENSEMBLE),
        CRASH_UNSYNCED_LOG("NodeCrash with logged entries not yet on disk (ACK/fsync window)", Shape.CLASSIC),
        LEADER_CRASH_IN_DISCOVERY("leader crashes after LEADERINFO, before the ACKEPOCH quorum", Shape.ENSEMBLE),
        POWER_LOSS("power loss of every server", Shape.ENSEMBLE),
        CRASH_DURABILITY_WINDOW("leader and followers without an acked write on disk crash, leader back last",
                Shape.CLASSIC_ENSEMBLE),
        LEADER_CUT_WITH_PROPOSALS("leader cut off with proposals in flight, healed as the next leads (targeted)",
                Shape.CLASSIC_ENSEMBLE),
        CRASH_NEWLEADER_WINDOW("a follower sent NEWLEADER, its synced history not on disk, crashes with its leader"
                + " (targeted)", Shape.CLASSIC_ENSEMBLE),
        REJOIN_RECOVERED_ENSEMBLE("a cut-off leader rejoins the others after their power loss (targeted)",
                Shape.ENSEMBLE),
        CRASH_AFTER_TRUNC("a server crashes soon after a TRUNC (targeted)", Shape.CLASSIC_ENSEMBLE),
        SNAP_CUT_BEFORE_NEWLEADER("a follower's link to its leader breaks right after a SNAP, before NEWLEADER"
                + " (targeted)", Shape.ENSEMBLE),
        SYNC_REPLY_AHEAD_OF_FOLLOWER("the leader's SyncReply names a zxid the follower has not applied yet", Shape.ENSEMBLE),
        SLOW_DISK("one server's disk slower than the others' (targeted)", Shape.ENSEMBLE),
        SYNC_ON_SERVER_BEHIND_WRITE("sync sent to a server behind a write just acknowledged", Shape.ENSEMBLE),
        PARTITION_SILENT("silent partition (links hold, timeouts must notice)", Shape.ENSEMBLE),
        NOTIFICATION_RESENT("election channel: a connection starts and an end re-sends its last notification",
                Shape.ELECTION_CHANNEL),
        STALE_SETTLED_VOTE("election channel: a FOLLOWING/LEADING notification arrives after its sender left that"
                + " role", Shape.ELECTION_CHANNEL),
        STRAY_PEER_REFUSED("stray connection on the quorum port refused (claimed id, no server line's address)",
                Shape.ENSEMBLE),
        STRAY_PEER_ACCEPTED("stray connection accepted as a member (only with PEER_SOURCE_UNCHECKED)", Shape.SOURCE_UNCHECKED),
        OBSERVER_SYNC("an observer synced by DIFF, TRUNC or SNAP", Shape.OBSERVERS),
        OBSERVER_INFORM("INFORM (a committed transaction) reaches a serving observer", Shape.OBSERVERS),
        OBSERVER_FORWARD("a client write relayed by an observer reaches the leader", Shape.OBSERVERS),
        OBSERVER_SYNC_REQUEST("a client sync relayed by an observer reaches the leader", Shape.OBSERVERS),
        KEEP_SYNC_WHILE_HOLDING("DIFF, TRUNC or SNAP reaches a server holding kept client connections",
                Shape.KEEP_CONNECTIONS),
        KEEP_SNAP_WHILE_HOLDING("... a SNAP (its watches fire from the state it replaces)", Shape.KEEP_CONNECTIONS),
        KEEP_RESUMED("a server synchronized again resumes kept client connections", Shape.KEEP_CONNECTIONS),
        KEEP_WRITE_REFORWARDED("... and forwards a held or unresolved write to the new leader", Shape.KEEP_CONNECTIONS);

        final String description;
        final Shape shape;

        Branch(String description, Shape shape) {
            this.description = description;
            this.shape = shape;
        }
    }

    /** Which runs can reach a branch at all. */
    enum Shape {
        ANY, ENSEMBLE, FAST, CLASSIC, CLASSIC_ENSEMBLE,
        /** Only with observers beside the voters. */
        OBSERVERS,
        /** Only with the bug-zoo switch PEER_SOURCE_UNCHECKED planted. */
        SOURCE_UNCHECKED,
        /** Only where notifications travel on connections of their own (--election-channel). */
        ELECTION_CHANNEL,
        /** Only with keepConnections (--keep-connections, or a KEEP_ bug-zoo switch). */
        KEEP_CONNECTIONS;

        boolean reachableIn(SimOptions o) {
            return switch (this) {
                case ANY -> true;
                case ENSEMBLE -> o.ensemble();
                case FAST -> o.ensemble() && o.variant().acksFromMemory();
                // a fast variant that honours its assumption never crashes with unsynced entries
                case CLASSIC -> !o.variant().acksFromMemory() || !o.honourFaultAssumption();
                case CLASSIC_ENSEMBLE -> o.ensemble() && (!o.variant().acksFromMemory() || !o.honourFaultAssumption());
                case OBSERVERS -> o.observerCount() > 0;
                case SOURCE_UNCHECKED -> o.ensemble() && o.bugs().contains(io.zabkit.zab.Bug.PEER_SOURCE_UNCHECKED);
                case ELECTION_CHANNEL -> o.ensemble() && o.electionChannel() != null;
                case KEEP_CONNECTIONS -> o.ensemble() && o.keepConnections();
            };
        }
    }

    private final Map<Branch, Long> hits = new EnumMap<>(Branch.class);

    void hit(Branch b) {
        hits.merge(b, 1L, Long::sum);
    }

    long count(Branch b) {
        return hits.getOrDefault(b, 0L);
    }

    void add(Coverage other) {
        for (Map.Entry<Branch, Long> e : other.hits.entrySet()) {
            hits.merge(e.getKey(), e.getValue(), Long::sum);
        }
    }

    /** Counts of several runs: total hits and how many runs reached each branch. */
    static final class Tally {
        private final Coverage total = new Coverage();
        private final Coverage seeds = new Coverage();
        private long runs;
        private SimOptions shapeOf;

        void add(SimResult r) {
            runs++;
            shapeOf = r.options();
            total.add(r.coverage());
            for (Branch b : Branch.values()) {
                if (r.coverage().count(b) > 0) {
                    seeds.hit(b);
                }
            }
        }

        /** Branches this shape can reach that no run reached. */
        java.util.List<Branch> unreached() {
            java.util.List<Branch> out = new java.util.ArrayList<>();
            for (Branch b : Branch.values()) {
                if (shapeOf != null && b.shape.reachableIn(shapeOf) && total.count(b) == 0) {
                    out.add(b);
                }
            }
            return out;
        }

        long seedsReaching(Branch b) {
            return seeds.count(b);
        }

        long hits(Branch b) {
            return total.count(b);
        }

        /** Whether the shape these runs had can reach the branch (false before any run). */
        boolean reachable(Branch b) {
            return shapeOf != null && b.shape.reachableIn(shapeOf);
        }

        String table() {
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "coverage over %d seeds (hits, seeds reaching):%n",
                    runs));
            for (Branch b : Branch.values()) {
                if (shapeOf == null || !b.shape.reachableIn(shapeOf)) {
                    continue;
                }
                long n = total.count(b);
                s.append(String.format(Locale.ROOT, "  %-28s %8d %6d  %s%s%n", b.name(), n, seeds.count(b), b.description,
                        n == 0 ? "   <-- NOT REACHED" : ""));
            }
            return s.toString();
        }
    }
}
