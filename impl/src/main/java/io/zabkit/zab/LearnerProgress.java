package io.zabkit.zab;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What a leader knows of its learners, and the quorum arithmetic over it: who counts toward a quorum
 * (this leader and the learners that pass a test), and how far a quorum of cumulative ACKs reaches.
 */
final class LearnerProgress {
    /** What the leader knows of one learner. */
    static final class Learner {
        final long id;
        /** An observer: synced and informed, in no quorum; its ACKs are never counted. */
        final boolean observer;
        /** Observer: the last zxid sent to it (the synced history, then INFORMs); invariant: >= lastCommitted. */
        long informedZxid = -1;
        long acceptedEpoch = -1;
        /** Its ACKEPOCH arrived (with its last zxid); {@code fresh}: it promised our epoch (counts toward the quorum). */
        boolean ackedEpoch;
        boolean fresh;
        long lastZxid;
        /** Synced: in the forwarding set, receiving PROPOSALs and COMMITs. */
        boolean forwarding;
        /** The zxid its NEWLEADER carried, and whether the ACK for it arrived (ACKLD). */
        long newLeaderZxid = -1;
        boolean ackedNewLeader;
        /** Highest zxid it acknowledged as logged (cumulative); invariant: only grows. */
        long ackedZxid = -1;
        /** Its last ACK past NEWLEADER had zab = 1 (seed 003 2.7, Zab.tla's zabAckers): it waits for COMMITs. */
        boolean zabAcker;
        long lastHeardMs;

        Learner(long id, boolean observer, long nowMs) {
            this.id = id;
            this.observer = observer;
            this.lastHeardMs = nowMs;
        }
    }

    private final long self;
    private final ZabConfig config;
    private final Map<Long, Learner> learners = new TreeMap<>();

    LearnerProgress(long self, ZabConfig config) {
        this.self = self;
        this.config = config;
    }

    Learner get(long id) {
        return learners.get(id);
    }

    boolean contains(long id) {
        return learners.containsKey(id);
    }

    Learner add(long id, long nowMs) {
        assert id != self && !learners.containsKey(id) : "learner " + id + " registered twice or is the leader";
        Learner l = new Learner(id, config.quorum().isObserver(id), nowMs);
        learners.put(id, l);
        return l;
    }

    Learner remove(long id) {
        return learners.remove(id);
    }

    /** In id order. */
    Collection<Learner> all() {
        return learners.values();
    }

    /** This leader and the voting learners that pass the test, by id: what a quorum is made of. */
    List<Long> leaderAnd(Predicate<Learner> test) {
        List<Long> ids = new ArrayList<>();
        ids.add(self);
        for (Learner l : learners.values()) {
            if (!l.observer && test.test(l)) {
                ids.add(l.id);
            }
        }
        assert ids.stream().allMatch(config.quorum()::isVoter) : "an observer in a quorum set " + ids;
        return ids;
    }

    boolean isQuorum(Predicate<Learner> test) {
        return config.isQuorum(leaderAnd(test));
    }

    /** How far a quorum of ACKs reaches: this leader's own ACK and those of learners synced with it. */
    long commitReach(long selfAck) {
        List<Long> acks = new ArrayList<>();
        acks.add(selfAck);
        for (Learner l : learners.values()) {
            boolean counted = !l.observer || config.bug(Bug.OBSERVER_ACK_COUNTED);
            if (counted && l.forwarding && l.ackedNewLeader) {
                acks.add(l.ackedZxid); // an observer's zxid is never counted (but for the planted bug)
            }
        }
        return quorumReach(config, acks);
    }

    /** The highest zxid that a majority of these cumulative ACKs covers, or -1 when there are too few. */
    static long quorumReach(ZabConfig config, List<Long> acks) {
        acks.sort(Comparator.reverseOrder());
        int quorum = config.voters().size() / 2 + (config.bug(Bug.QUORUM_OFF_BY_ONE) ? 0 : 1);
        quorum = Math.max(1, quorum);
        assert quorum >= 1 && quorum <= config.voters().size();
        return acks.size() < quorum ? -1 : acks.get(quorum - 1);
    }
}
