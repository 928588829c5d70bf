package io.zabkit.zab;

import io.zabkit.txn.Txn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;

/**
 * The fast variants' rules (ZabAc, ZabAa, ZabCt, ZabCT; see {@link Variant}), apart from classic Zab's:
 * when a leader may propose fast, when a follower ACKs a fast proposal, and how far a follower may
 * commit fast proposals on its own. Stateless: the roles hold the proposals made or received fast.
 */
final class FastRules {
    private final ZabConfig config;

    FastRules(ZabConfig config) {
        this.config = config;
    }

    /** Fast variants run only while their fault assumption can hold: every server follows this leader. */
    boolean leaderProposesFast(LearnerProgress learners) {
        Variant v = config.variant();
        if (v == Variant.Zab || config.voters().size() == 1) {
            return false;
        }
        if (v == Variant.ZabAc && config.voters().size() != 3) {
            return false;
        }
        return learners.leaderAnd(l -> l.forwarding && l.ackedNewLeader).size() == config.voters().size();
    }

    /** A follower ACKs a fast proposal at once, except that the coin-toss variants toss a coin first. */
    boolean followerAcksAtOnce(SplittableRandom coin) {
        return !config.variant().coinToss() || coin.nextDouble() < config.coinTossProbability();
    }

    /** Coin toss: an ACK covering only fast proposals is left to the coin (and the idle fallback). */
    boolean leftToTheCoin(History history, NavigableMap<Long, Boolean> receivedFast, long from, long to) {
        return config.variant().coinToss() && onlyFastIn(history, receivedFast, from, to);
    }

    private static boolean onlyFastIn(History history, NavigableMap<Long, Boolean> receivedFast, long from, long to) {
        if (to <= from) {
            return false;
        }
        for (Txn t : history.range(from, to)) {
            if (!receivedFast.containsKey(t.zxid())) {
                return false;
            }
        }
        return true;
    }

    /**
     * How far a follower's own rule says fast proposals are committed, or -1 when the variant has no
     * such rule (classic Zab, coin toss): ZabAc, its own ACK plus the leader's PROPOSAL make two of three;
     * ack-to-all, a quorum of the leader (its PROPOSAL counts as its ACK), this server and the peers' ACKs.
     */
    long followerCommitReach(long lastZxid, long selfAck, long leader, Map<Long, Long> peerAcks) {
        if (config.variant() == Variant.ZabAc) {
            return lastZxid;
        }
        if (!config.variant().acksToAll()) {
            return -1;
        }
        List<Long> acks = new ArrayList<>();
        acks.add(lastZxid); // the leader proposed all of it
        acks.add(selfAck);
        for (Map.Entry<Long, Long> e : peerAcks.entrySet()) {
            if (e.getKey() != leader) {
                acks.add(e.getValue());
            }
        }
        return LearnerProgress.quorumReach(config, acks);
    }

    /** Commits up to z, but only across a run of fast proposals: a classic one waits for its COMMIT. */
    static long commitFastRun(History history, NavigableMap<Long, Boolean> receivedFast, long lastCommitted, long z) {
        long committed = lastCommitted;
        for (Txn t : history.range(lastCommitted, z)) {
            if (!receivedFast.containsKey(t.zxid())) {
                break;
            }
            committed = t.zxid();
        }
        assert committed >= lastCommitted;
        return committed;
    }
}
