package io.zabkit.zab;

import io.zabkit.txn.Txn;
import java.util.List;
import org.apache.zookeeper.data.Id;

/**
 * What servers of an ensemble say to each other. The names are the Zab paper's and the spec's
 * (spec/Zab.tla): FOLLOWERINFO, LEADERINFO, ACKEPOCH, DIFF/TRUNC/SNAP, NEWLEADER, ACK, UPTODATE,
 * PROPOSAL, COMMIT, and INFORM to observers; plus fast-leader-election notifications and the client traffic a follower relays
 * (forwarded writes, syncs, session pings).
 *
 * <p>Transport contract (both runtimes): messages between two servers travel over one link per pair,
 * FIFO while the link is up. A link that breaks may lose any suffix of what was in flight; both cores
 * then hear {@code peerDisconnected} before anything sent over the next link. Message loss without a
 * disconnect is not allowed, except for {@link Notification}s sent while no link is up, which the
 * runtime may drop (election re-sends them).
 */
public sealed interface Message {

    /** Server role, as fast leader election reports it. */
    enum ServerState { LOOKING, FOLLOWING, LEADING, OBSERVING }

    /**
     * A fast-leader-election vote: "I, in round electionEpoch and state, propose leader with its
     * (peerEpoch, zxid)". A server that has settled answers LOOKING servers with its settled vote.
     */
    record Notification(long electionEpoch, ServerState state, long leader, long zxid, long peerEpoch)
            implements Message {}

    /** Discovery: a follower introduces itself with its acceptedEpoch and the last zxid of its history. */
    record FollowerInfo(long acceptedEpoch, long lastZxid) implements Message {}

    /** Discovery: the leader's new epoch, larger than every acceptedEpoch of a quorum. */
    record LeaderInfo(long newEpoch) implements Message {}

    /**
     * Discovery: a follower accepted newEpoch; it reports currentEpoch and the last zxid of its history.
     * currentEpoch is -1 when newEpoch had already been accepted before (it may have been promised to
     * another leader): the leader syncs that follower but does not count it toward the epoch's quorum.
     */
    record AckEpoch(long currentEpoch, long lastZxid) implements Message {}

    /** Synchronization: the PROPOSALs that follow extend the follower's history after zxid. */
    record Diff(long zxid) implements Message {}

    /** Synchronization: drop every transaction after zxid, then the PROPOSALs that follow extend it. */
    record Trunc(long zxid) implements Message {}

    /** Synchronization: replace the state with this snapshot (taken at zxid); PROPOSALs follow. */
    record Snap(long zxid, byte[] snapshot) implements Message {}

    /**
     * A transaction for the follower's history: during synchronization, the leader's initial history;
     * in broadcast, a new proposal. {@code fast} says the leader runs the configured fast variant for it
     * (false means classic Zab: the variant's fault assumptions do not hold right now).
     */
    record Proposal(Txn txn, boolean fast) implements Message {}

    /** Synchronization is complete: the leader's history up to zxid is the initial history of its epoch. */
    record NewLeader(long zxid) implements Message {}

    /**
     * A follower logged its history up to zxid (cumulative). Sent for NEWLEADER (ACKLD) and PROPOSALs;
     * in the ack-to-all variants also to the other followers. {@code zab} is spec/Zab.tla's bit (seed 003
     * section 2.7): true when the follower acknowledged in Zab mode (classic Zab, a proposal the leader
     * made classic, or before UPTODATE), and then waits for the leader's COMMIT; false for a fast ACK.
     */
    record Ack(long epoch, long zxid, boolean zab) implements Message {
        /** A classic Zab ACK. */
        public Ack(long epoch, long zxid) {
            this(epoch, zxid, true);
        }
    }

    /** The follower may serve clients: everything up to the NEWLEADER zxid is committed. */
    record UpToDate(long zxid) implements Message {}

    /** Everything up to zxid is committed (cumulative). */
    record Commit(long zxid) implements Message {}

    /**
     * Leader to observer, ZooKeeper's INFORM: a committed transaction, proposal and commit in one, next in
     * zxid order after what the observer holds. An observer is sent no PROPOSAL in broadcast and ACKs none.
     */
    record Inform(Txn txn) implements Message {}

    /** Session activity: from the leader empty, from a follower the sessions touched since the last ping. */
    record Ping(List<SessionTouch> sessions) implements Message {
        public Ping {
            sessions = List.copyOf(sessions);
        }
    }

    /** A session seen alive on a follower, with the timeout it negotiated. */
    record SessionTouch(long sessionId, int timeoutMs) {}

    /**
     * A client write (or session create/close) that a follower relays to the leader. {@code packet} is
     * the request as the client sent it (header and body), empty for a session create.
     */
    record Forward(long sessionId, int cxid, int type, int timeoutMs, byte[] packet, List<Id> authIds)
            implements Message {
        public Forward {
            authIds = List.copyOf(authIds);
        }
    }

    /** A client's sync: follower to leader. */
    record SyncRequest(long sessionId, int cxid) implements Message {}

    /** Leader to follower: answer that sync once everything up to zxid is applied. */
    record SyncReply(long sessionId, int cxid, long zxid) implements Message {}
}
