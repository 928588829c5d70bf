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
 * <p>Observed from outside after every step. A server's vote is what it had at its last LOOKING step
 * (while LOOKING its history does not change). Checked: every server that settles on a leader which is
 * still LOOKING at the end of that step, so that it cannot have joined an established leader (FLE lets a
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

    private record Settled(int follower, int leader, Vote vote) {}

    /** Each server's vote at its last LOOKING step; dropped when it settles or is down. */
    private final Map<Integer, Vote> looking = new HashMap<>();
    /** Followers that settled in this step, checked once every server of the step was observed. */
    private final Map<Integer, Settled> settled = new HashMap<>();
    private long checks;

    long checks() {
        return checks;
    }

    void down(int server) {
        looking.remove(server);
    }

    /** One up server after a step. */
    void observe(int server, ServerState state, long leader, long currentEpoch, long lastZxid) {
        if (state == ServerState.LOOKING) {
            looking.put(server, new Vote(currentEpoch, lastZxid));
            return;
        }
        Vote was = looking.remove(server);
        if (was != null && state == ServerState.FOLLOWING) {
            settled.put(server, new Settled(server, (int) leader, was));
        }
    }

    void endStep() {
        for (Settled s : settled.values()) {
            Vote leaderVote = looking.get(s.leader());
            if (leaderVote == null) {
                continue; // the leader settled already: the follower may have joined it out of election
            }
            checks++;
            assert s.follower() != s.leader();
            if (!leaderVote.atLeast(s.vote())) {
                throw new Violation("LeaderElectionOrder", "server " + s.follower() + " elected server " + s.leader()
                        + " whose vote " + leaderVote + " is below its own " + s.vote());
            }
        }
        settled.clear();
    }
}
