package io.zabkit.zab;

import io.zabkit.zab.Message.Notification;
import io.zabkit.zab.Message.ServerState;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Fast leader election, as ZooKeeper's FastLeaderElection does it: each LOOKING server proposes the
 * best vote it has seen, ordered by (peerEpoch, zxid, server id); a vote backed by a quorum in the
 * current round wins after a finalize wait in which no better vote arrives. A server that finds a
 * quorum of settled servers (FOLLOWING/LEADING) behind a leader that says it is LEADING joins them.
 *
 * <p>Observers take part as ZooKeeper's do: an observer votes for nobody ({@link #NOBODY}), adopts the
 * voters' best vote and settles once a quorum of voters backs it, but its notifications are never
 * counted: a voter answers one with its own vote and goes on, and no vote naming an observer is ever
 * better than another.
 *
 * <p>Pure: notifications go out through {@link Outbox}; time comes in through {@link #tick}.
 */
final class Election {

    /** A vote: who should lead, and what that server has (its currentEpoch and last zxid). */
    record Vote(long leader, long zxid, long peerEpoch) {
        /** ZooKeeper's totalOrderPredicate: epoch first, then zxid, then server id. */
        boolean betterThan(Vote other) {
            if (peerEpoch != other.peerEpoch) {
                return peerEpoch > other.peerEpoch;
            }
            if (zxid != other.zxid) {
                return zxid > other.zxid;
            }
            return leader > other.leader;
        }

        /** Bug.ELECTION_ID_BEFORE_ZXID: epoch, then server id, then zxid. */
        boolean betterByIdThan(Vote other) {
            if (peerEpoch != other.peerEpoch) {
                return peerEpoch > other.peerEpoch;
            }
            return leader != other.leader ? leader > other.leader : zxid > other.zxid;
        }
    }

    /** An observer's own vote: below every real vote, never backed by a voter. */
    static final Vote NOBODY = new Vote(-1, -1, -1);

    interface Outbox {
        void send(long to, Message m);
    }

    private static final long RESEND_MIN_MS = 100;
    private static final long RESEND_MAX_MS = 2_000;

    private final long self;
    private final ZabConfig config;
    private final Outbox out;

    /** The election round (ZooKeeper's logicalclock); survives across elections, not across restarts. */
    private long logicalClock;
    private Vote proposal;
    /** Votes of this round, by server, from LOOKING servers and settled servers of this round. */
    private final Map<Long, Vote> recvset = new TreeMap<>();
    /** Votes of settled servers, by server, with the round and state they reported. */
    private final Map<Long, Notification> outOfElection = new TreeMap<>();
    private long finalizeDeadlineMs = -1;
    /**
     * Servers whose link broke and that have not been heard from since: no vote can come from them, so
     * the finalize wait does not wait for theirs (a leader killed with -9 is in here the moment its
     * sockets close). Kept across rounds; anything heard from a server takes it out.
     */
    private final Set<Long> unreachable = new TreeSet<>();
    private long nextResendMs;
    private long resendIntervalMs = RESEND_MIN_MS;
    private boolean running;
    /** What this server has (last zxid, currentEpoch): the vote it falls back to in a newer round. */
    private long myZxid;
    private long myEpoch;

    Election(long self, ZabConfig config, Outbox out) {
        this.self = self;
        this.config = config;
        this.out = out;
    }

    long logicalClock() {
        return logicalClock;
    }

    /** Starts a new round voting for ourselves with what we have. */
    void start(long nowMs, long lastZxid, long currentEpoch) {
        running = true;
        logicalClock++;
        recvset.clear();
        outOfElection.clear();
        myZxid = lastZxid;
        myEpoch = currentEpoch;
        proposal = ownVote();
        finalizeDeadlineMs = -1;
        resendIntervalMs = RESEND_MIN_MS;
        broadcast(nowMs);
    }

    /** What this server votes for on its own: itself, or nobody when it is an observer. */
    private Vote ownVote() {
        return config.quorum().isVoter(self) ? new Vote(self, myZxid, myEpoch) : NOBODY;
    }

    void stop() {
        running = false;
        finalizeDeadlineMs = -1;
    }

    /**
     * A notification from another server while we look. Returns the leader we settle on, or -1.
     */
    long receive(long from, Notification n, long nowMs) {
        if (!running || !config.isMember(from)) {
            return -1;
        }
        boolean observer = !config.quorum().isVoter(self);
        if (!config.quorum().isVoter(from)) {
            // An observer looks for the leader: it gets our vote, and its own counts for nothing.
            if (!observer && n.state() == ServerState.LOOKING) {
                out.send(from, notification());
            }
            return -1;
        }
        Vote v = new Vote(n.leader(), n.zxid(), n.peerEpoch());
        if (n.state() == ServerState.LOOKING) {
            if (n.electionEpoch() > logicalClock) {
                logicalClock = n.electionEpoch();
                recvset.clear();
                Vote mine = ownVote();
                proposal = better(v, mine) ? v : mine;
                finalizeDeadlineMs = -1;
                broadcast(nowMs);
            } else if (n.electionEpoch() < logicalClock) {
                if (!observer) {
                    out.send(from, notification()); // help the straggler catch up with this round
                }
                return -1; // an observer's answer would be answered back by the voter, for ever
            } else if (better(v, proposal)) {
                proposal = v;
                finalizeDeadlineMs = -1;
                broadcast(nowMs);
            }
            recvset.put(from, v);
            recvset.put(self, proposal);
            if (agreeing(recvset, proposal)) {
                if (everyReachableVoterAgrees()) {
                    return settle(proposal); // no better vote can still come: nobody else could send one
                }
                if (finalizeDeadlineMs < 0) {
                    finalizeDeadlineMs = nowMs + config.finalizeWaitMs();
                }
                return maybeFinalize(nowMs);
            }
            return -1;
        }
        // A settled server tells us whom it follows.
        if (n.electionEpoch() == logicalClock) {
            recvset.put(from, v);
            if (agreeing(recvset, v) && leaderConfirmed(v.leader(), n.electionEpoch())) {
                return settle(v);
            }
        }
        outOfElection.put(from, n);
        Set<Long> backers = new HashSet<>();
        for (Map.Entry<Long, Notification> e : outOfElection.entrySet()) {
            Notification o = e.getValue();
            if (o.leader() == v.leader() && o.electionEpoch() == n.electionEpoch()) {
                backers.add(e.getKey());
            }
        }
        if (config.isQuorum(backers) && leaderConfirmed(v.leader(), n.electionEpoch())) {
            logicalClock = n.electionEpoch();
            return settle(v);
        }
        return -1;
    }

    /** The link to a server broke: until we hear from it again, no vote of its can arrive. */
    void peerDisconnected(long peer) {
        unreachable.add(peer);
    }

    /** Something arrived from a server: its link is up, a vote of its may come. */
    void heardFrom(long peer) {
        if (!unreachable.isEmpty()) {
            unreachable.remove(peer);
        }
    }

    /**
     * The finalize wait waits for a better vote; it can only come from a voter that has not yet voted
     * for our proposal in this round and can still reach us. When there is none, waiting changes nothing.
     * (ZooKeeper's finalize wait has the same purpose: the election's outcome is safe either way, since
     * every backer of a vote has a history no newer than the vote's.)
     */
    private boolean everyReachableVoterAgrees() {
        for (long peer : config.voters()) {
            if (peer != self && !unreachable.contains(peer) && !proposal.equals(recvset.get(peer))) {
                return false;
            }
        }
        assert agreeing(recvset, proposal) : "finalizing a vote without a quorum";
        return true;
    }

    /** Time passes: finalize a quorum vote after the wait, or re-send our vote if the round is quiet. */
    long tick(long nowMs) {
        if (!running) {
            return -1;
        }
        long decided = maybeFinalize(nowMs);
        if (decided >= 0) {
            return decided;
        }
        if (nowMs >= nextResendMs) {
            resendIntervalMs = Math.min(RESEND_MAX_MS, resendIntervalMs * 2);
            broadcast(nowMs);
        }
        return -1;
    }

    /** What this server answers a LOOKING server once it has settled. */
    Notification settledNotification(ServerState state, Vote vote) {
        return new Notification(logicalClock, state, vote.leader(), vote.zxid(), vote.peerEpoch());
    }

    private long maybeFinalize(long nowMs) {
        if (finalizeDeadlineMs < 0 || nowMs < finalizeDeadlineMs) {
            return -1;
        }
        if (!agreeing(recvset, proposal)) {
            finalizeDeadlineMs = -1;
            return -1;
        }
        return settle(proposal);
    }

    private long settle(Vote v) {
        assert config.quorum().isVoter(v.leader()) : "settling on " + v.leader() + ", who does not vote";
        proposal = v;
        running = false;
        finalizeDeadlineMs = -1;
        return v.leader();
    }

    Vote proposal() {
        return proposal;
    }

    /** The leader itself must have told us it leads (or be us, in this very round). */
    private boolean leaderConfirmed(long leader, long electionEpoch) {
        if (leader == self) {
            return electionEpoch == logicalClock;
        }
        Notification n = outOfElection.get(leader);
        return n != null && n.state() == ServerState.LEADING;
    }

    private boolean agreeing(Map<Long, Vote> votes, Vote v) {
        Set<Long> backers = new HashSet<>();
        for (Map.Entry<Long, Vote> e : votes.entrySet()) {
            if (e.getValue().equals(v)) {
                backers.add(e.getKey());
            }
        }
        return config.isQuorum(backers);
    }

    private Notification notification() {
        return new Notification(logicalClock, ServerState.LOOKING, proposal.leader(), proposal.zxid(),
                proposal.peerEpoch());
    }

    private void broadcast(long nowMs) {
        nextResendMs = nowMs + resendIntervalMs;
        Notification n = notification();
        for (long peer : config.voters()) {
            if (peer != self) {
                out.send(peer, n);
            }
        }
    }

    /** The vote order; a bug-zoo switch may plant a wrong one. */
    boolean better(Vote a, Vote b) {
        if (!config.quorum().isVoter(a.leader())) {
            return false; // ZooKeeper's totalOrderPredicate: a server of weight 0 never leads
        }
        return config.bug(Bug.ELECTION_ID_BEFORE_ZXID) ? a.betterByIdThan(b) : a.betterThan(b);
    }
}
