package io.zabkit.zab;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Who votes and who only learns: ZooKeeper's QuorumMaj. A quorum is more than half of the voters
 * (participants); observers receive the committed history but are in no quorum, of election,
 * discovery, NEWLEADER or a proposal. An object rather than a count, so that a reconfiguration can
 * later check a proposal against the old and the new system at once.
 *
 * @param voters    the participants' ids, sorted and distinct; never empty, and at least 2 beside observers
 * @param observers the observers' ids, sorted and distinct; disjoint from the voters
 */
public record QuorumSystem(List<Long> voters, List<Long> observers) {

    public QuorumSystem {
        voters = voters.stream().sorted().distinct().toList();
        observers = observers.stream().sorted().distinct().toList();
        if (voters.isEmpty()) {
            throw new IllegalArgumentException(observers.isEmpty() ? "an ensemble needs at least one server"
                    : "observers without participants: an ensemble needs at least one voting server");
        }
        if (!observers.isEmpty() && voters.size() < 2) {
            // one voter runs standalone, with no election or learners to sync an observer
            throw new IllegalArgumentException("observers " + observers + " need at least 2 participants; one"
                    + " participant runs as a standalone server");
        }
        for (long o : observers) {
            if (voters.contains(o)) {
                throw new IllegalArgumentException("server " + o + " is both a participant and an observer");
            }
        }
    }

    /** Every id votes. */
    public static QuorumSystem of(List<Long> voters) {
        return new QuorumSystem(voters, List.of());
    }

    public boolean isVoter(long id) {
        return voters.contains(id);
    }

    public boolean isObserver(long id) {
        return observers.contains(id);
    }

    /** A voter or an observer: a server of this ensemble. */
    public boolean isMember(long id) {
        return isVoter(id) || isObserver(id);
    }

    /** Voters, then observers. */
    public List<Long> members() {
        List<Long> all = new ArrayList<>(voters);
        all.addAll(observers);
        return all;
    }

    /** How many voters make a quorum: more than half. */
    public int quorumSize() {
        return voters.size() / 2 + 1;
    }

    /** Whether these servers hold more than half of the voters; observers among them count for nothing. */
    public boolean isQuorum(Collection<Long> ids) {
        int n = 0;
        for (long id : ids) {
            if (voters.contains(id)) {
                n++;
            }
        }
        assert n <= voters.size() : "more voters counted than there are: " + ids;
        return 2 * n > voters.size();
    }
}
