package io.zabkit.sim;

import io.zabkit.txn.Txn;
import io.zabkit.zab.Message.ServerState;
import java.util.HashMap;
import java.util.Map;

/**
 * LeaderElectionOrder: the elected leader's vote (currentEpoch, last zxid) is at least the vote of every
 * server of the quorum that elected it (fast leader election's total order; recovery relies on the
 * leader having the best history of its quorum).
 *
 * <p>The leader's vote is the better of its own (currentEpoch, last zxid) and the vote for itself its
 * election holds: a restarted server may win on a vote for itself that a peer still carried from before
 * its crash, claiming a zxid its log lost (simulator seeds 663 of 3 servers and 503 of 5). ZooKeeper's
 * FLE does the same (totalOrderPredicate compares a notification with the server's own proposal,
 * whoever it names), and discovery catches the gap: the leader gives up when an ACKEPOCH is ahead of
 * it (Leader.waitForEpochAck, "Follower is ahead of the leader"). For the same reason the vote for the
 * leader that the settling follower itself held counts: its peers may have carried the restarted
 * leader's pre-crash vote to it while the leader, still LOOKING, already votes with what its log kept
 * (5-server seeds 20588, 20815 and 20896). An election that ranks wrongly still fails: the follower's
 * own vote is then better than the vote it settled on.
 *
 * <p>Observed from outside after every step. A server's vote is what it had at its last LOOKING step
 * (while LOOKING its history does not change). Checked: every server that settles on a leader which is
 * LOOKING at the end of that step and not settled for longer than a peer message takes, so that it cannot have joined an established leader (FLE lets a
 * server follow a quorum of settled servers behind a LEADING one without comparing votes; that
 * leader's TRUNC then cuts the follower's tail, and is not this property's business).
 */
final class ElectionChecker {
    private record Vote(long epoch, long zxid) {
        boolean atLeast(Vote o) {
            return epoch != o.epoch ? epoch > o.epoch : zxid >= o.zxid;
        }

        @Override
        public String toString() {
            return "(epoch " + epoch + ", zxid " + Txn.zxidString(zxid) + ")";
        }
    }

    /** {@code forLeader}: the vote for the leader the follower held at its last LOOKING step, or null. */
    private record Settled(int follower, int leader, Vote vote, Vote forLeader, long oldestSettledVoteStep) {}

    /** Each server's vote at its last LOOKING step; dropped when it settles or is down. */
    private final Map<Integer, Vote> looking = new HashMap<>();
    /** The vote for itself a LOOKING server's election holds, when it names itself; dropped with looking. */
    private final Map<Integer, Vote> claims = new HashMap<>();
    /** The proposal (leader, and its vote) each LOOKING server's election holds; dropped with looking. */
    private final Map<Integer, Long> proposedLeader = new HashMap<>();
    private final Map<Integer, Vote> proposal = new HashMap<>();
    /**
     * The last step at which each server was settled (not LOOKING). FLE lets a server follow on
     * notifications a leader and its followers sent while settled, and a peer link delivers those up to
     * {@code staleSteps} steps later: a leader settled that recently may have been joined out of election.
     */
    private final Map<Integer, Long> lastSettledStep = new HashMap<>();
    private final long staleSteps;
    /**
     * Per LOOKING server, the step at which the oldest settled (FOLLOWING/LEADING) notification it was
     * handed was made: an election channel may hold one far longer than a link's delay (a send queue
     * behind a connect timeout, a stalled connection), and FLE acts on it whatever its age.
     */
    private final Map<Integer, Long> oldestSettledVoteStep = new HashMap<>();
    private long step;

    /** With a peer network that delivers within one step. */
    ElectionChecker() {
        this(1);
    }

    /** @param staleSteps the most steps a peer message may take (the peer links' maximum delay, plus one) */
    ElectionChecker(long staleSteps) {
        assert staleSteps >= 1 : "a message takes at least a step";
        this.staleSteps = staleSteps;
    }
    /** Followers that settled in this step, checked once every server of the step was observed. */
    private final Map<Integer, Settled> settled = new HashMap<>();
    private long checks;

    long checks() {
        return checks;
    }

    /** A settled notification made ageSteps ago reached server. */
    void heardSettledVote(int server, long ageSteps) {
        oldestSettledVoteStep.merge(server, step - ageSteps, Math::min);
    }

    void down(int server) {
        oldestSettledVoteStep.remove(server);
        looking.remove(server);
        claims.remove(server);
        proposedLeader.remove(server);
        proposal.remove(server);
    }

    /** One up server after a step. */
    void observe(int server, ServerState state, long leader, long currentEpoch, long lastZxid) {
        observe(server, state, leader, currentEpoch, lastZxid, -1, -1, -1);
    }

    /** With the vote the server's election holds (voteLeader -1: none). */
    void observe(int server, ServerState state, long leader, long currentEpoch, long lastZxid, long voteLeader,
            long voteEpoch, long voteZxid) {
        if (state == ServerState.LOOKING) {
            looking.put(server, new Vote(currentEpoch, lastZxid));
            if (voteLeader == server) {
                claims.put(server, new Vote(voteEpoch, voteZxid));
            } else {
                claims.remove(server);
            }
            if (voteLeader >= 0) {
                proposedLeader.put(server, voteLeader);
                proposal.put(server, new Vote(voteEpoch, voteZxid));
            } else {
                proposedLeader.remove(server);
                proposal.remove(server);
            }
            return;
        }
        lastSettledStep.put(server, step);
        Long oldest = oldestSettledVoteStep.remove(server);
        claims.remove(server);
        Vote was = looking.remove(server);
        Long named = proposedLeader.remove(server);
        Vote held = proposal.remove(server);
        if (was != null && state == ServerState.FOLLOWING) {
            settled.put(server, new Settled(server, (int) leader, was,
                    named != null && named == leader ? held : null, oldest == null ? Long.MAX_VALUE : oldest));
        }
    }

    void endStep() {
        for (Settled s : settled.values()) {
            Vote leaderVote = looking.get(s.leader());
            Long settledAt = lastSettledStep.get(s.leader());
            if (leaderVote == null || settledAt != null && (step - settledAt <= staleSteps
                    || settledAt >= s.oldestSettledVoteStep())) {
                // the leader settled already, or was settled (LEADING) so recently that notifications it
                // sent then may still arrive, or since the oldest settled vote the follower was handed: the
                // follower may have joined it out of election
                continue;
            }
            Vote claim = claims.get(s.leader());
            if (claim != null && claim.atLeast(leaderVote)) {
                leaderVote = claim;
            }
            if (s.forLeader() != null && s.forLeader().atLeast(leaderVote)) {
                leaderVote = s.forLeader();
            }
            checks++;
            assert s.follower() != s.leader();
            if (!leaderVote.atLeast(s.vote())) {
                throw new Violation("LeaderElectionOrder", "server " + s.follower() + " elected server " + s.leader()
                        + " whose vote " + leaderVote + " is below its own " + s.vote());
            }
        }
        settled.clear();
        step++;
    }
}
