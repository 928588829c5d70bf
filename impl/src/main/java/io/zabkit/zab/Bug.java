package io.zabkit.zab;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The bug zoo: switches that plant one known bug each in the server, for measuring what the
 * verification layers catch (issue 13). Test-only: {@link io.zabkit.config.ConfigReader} refuses
 * {@code zabkit.bugzoo} unless {@code zabkit.bugzoo.allow=true}; the simulator turns one on with
 * {@code --bug NAME}. Each hook in the code is one named check, {@code config.bug(Bug.X)}; with no
 * switch on, no code path changes.
 *
 * <p>Each constant says the mechanism it re-enacts: a real ZooKeeper bug (its JIRA) whose mechanism
 * exists in this code, or a planted class of bug from issue 13.
 */
public enum Bug {
    /** ZOOKEEPER-3911: during a DIFF sync the follower logs the synced proposals only on UPTODATE, but ACKs NEWLEADER before. */
    ZK3911_DIFF_LOGGED_AT_UPTODATE,
    /** ZOOKEEPER-4643: the follower stores the new currentEpoch on NEWLEADER, before the synced history is on disk. */
    ZK4643_EPOCH_BEFORE_HISTORY,
    /** ZOOKEEPER-4646: the follower ACKs NEWLEADER while the log writes of the synced history are still in flight. */
    ZK4646_NEWLEADER_ACK_BEFORE_FSYNC,
    /**
     * ZOOKEEPER-2354 class (and zabkit's D17 before its fix): the follower logs the synced proposals as they
     * arrive, before NEWLEADER, so a crash during synchronization keeps on disk a history its currentEpoch never vouched for.
     */
    ZK2354_SYNC_LOGGED_BEFORE_NEWLEADER,
    /** ZOOKEEPER-4712 class: a log write issued under one role completes after a role change and is credited to the next. */
    ZK4712_WRITE_OUTLIVES_ROLE,
    /** ZOOKEEPER-1675 (sync is not a quorum operation), planted as its extreme: a follower answers sync at once. */
    ZK1675_FOLLOWER_SYNC_AT_ONCE,
    /** Planted: a follower ACKs a PROPOSAL on receipt, before its fsync (classic Zab). */
    ACK_BEFORE_FSYNC,
    /** Planted: a follower applies what it has logged without waiting for the leader's COMMIT. */
    APPLY_BEFORE_COMMIT,
    /** Planted: the leader expires only sessions it created; sessions created through a follower never expire. */
    LEADER_EXPIRES_OWN_SESSIONS_ONLY,
    /** Planted: an ACKEPOCH for an epoch already accepted (-1) counts toward the discovery quorum (the two leaders TLC found). */
    STALE_ACKEPOCH_COUNTED,
    /** Planted: a server takes a client whose lastZxidSeen is ahead of what it applied. */
    RECONNECT_BEHIND_LAST_ZXID_SEEN,
    /** Planted: a follower truncates its history in memory on TRUNC but not its log on disk. */
    TRUNC_NOT_APPLIED_ON_DISK,
    /** Planted: election ranks votes by server id before last zxid. */
    ELECTION_ID_BEFORE_ZXID,
    /** Planted: the leader commits with half of the ensemble (quorum off by one). */
    QUORUM_OFF_BY_ONE,
    /** Planted: the fix of issue 13 item 6 undone: a follower installs a SNAP behind its own applied state. */
    SNAP_BEHIND_APPLIED_INSTALLED,
    /**
     * ZOOKEEPER-3642: a follower that leaves synchronization after a SNAP and before NEWLEADER keeps the
     * SNAP in its in-memory database (and votes and syncs with its zxid) while the disk still holds the old
     * snapshot and log; the next leader's DIFF is logged after that old log, so a restart replays a log
     * with the SNAP's transactions missing (fixed in ZooKeeper by reloading the database on leaving, PR 1224).
     */
    ZK3642_SNAP_KEPT_ON_LEAVE,
    /** Planted: a follower accepts a LEADERINFO epoch below the epoch it already accepted (breaks its promise). */
    STALE_LEADERINFO_ACCEPTED,
    /**
     * Planted (in place of SYNC_REPLY_LAST_COMMITTED, an equivalent mutant under classic Zab: sim/README.md):
     * a follower answers a sync as soon as the leader's SyncReply arrives, without first applying up to
     * the zxid the leader named (the COMMITs before it may still wait for this follower's disk).
     */
    SYNC_REPLY_NOT_AWAITED,
    /**
     * Issue 23's finding 1 re-planted (the class of CVE-2018-8012): the quorum port takes a link's claimed
     * server id without checking its source address, so a stray can displace a member and speak for it.
     */
    PEER_SOURCE_UNCHECKED,
    /**
     * Planted: an observer acknowledges PROPOSALs as a follower does, and the leader counts its ACK toward
     * the commit quorum (ZooKeeper counts only participants): a commit quorum that need not meet the
     * voters that elect the next leader. Only an ensemble with observers is affected.
     */
    OBSERVER_ACK_COUNTED,
    /**
     * Planted in keepConnections (issue 20 item 7, K2): after the sync every write forwarded under the lost
     * leader is forwarded again, without asking whether the new history holds it: a write applied twice. The
     * simulator turns keepConnections on with any KEEP_ switch.
     */
    KEEP_REFORWARD_WITHOUT_CHECK,
    /** Planted in keepConnections (K1): a server without a leader answers held reads from its state at once. */
    KEEP_READS_BEFORE_SYNC,
    /** Planted in keepConnections (K3): the watches a SNAP changed are carried over unfired. */
    KEEP_SNAP_WATCHES_NOT_FIRED;

    /** The switch named on a command line or in a config, in any case, with - or _. */
    public static Bug parse(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (Bug b : values()) {
            if (b.name().equals(n)) {
                return b;
            }
        }
        throw new IllegalArgumentException("unknown bug-zoo switch '" + name + "'; known: "
                + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", ")));
    }

    /** A comma-separated list of switches ("" for none). */
    public static Set<Bug> parseList(String names) {
        Set<Bug> bugs = EnumSet.noneOf(Bug.class);
        for (String n : names.split(",")) {
            if (!n.isBlank()) {
                bugs.add(parse(n));
            }
        }
        return bugs;
    }
}
