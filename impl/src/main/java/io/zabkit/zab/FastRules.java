package io.zabkit.zab;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The fast variants' rules (ZabAc, ZabAa, ZabCt, ZabCT; see {@link Variant}) as EL-Sanosi and Ezhilchelvan
 * define them (papers seed 003, sections 2.4-2.7 and 4; spec/Zab.tla's FollowerQuorum, AckToFollowers,
 * FollowerCommitIndex): a follower logs m, then acknowledges it (to itself always, to the leader and maybe
 * to the other followers, after the coin of the coin-toss variants), and commits m to itself on acks from
 * enough followers. Stateless: the roles hold what was proposed, received and acknowledged.
 */
final class FastRules {
    private final ZabConfig config;

    FastRules(ZabConfig config) {
        this.config = config;
    }

    /**
     * The leader proposes fast only while every server follows it synced; otherwise the proposal is
     * classic and its followers acknowledge it in Zab mode (zab = 1, section 2.7's switch, here driven by
     * the leader, which knows a server is missing). Classic Zab never proposes fast.
     */
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

    /** 2.6 F2: the coin, tossed once per fast proposal received (Head: the ACK leaves); always Head otherwise. */
    boolean coinShowsHead(SplittableRandom coin) {
        return !config.variant().coinToss() || coin.nextDouble() < config.coinTossProbability();
    }

    /** Whether a fast ACK goes to the other followers too: 2.5 ZabAa F2, 2.6 F3 when N > 3, 4 F3. */
    boolean acksToFollowers() {
        Variant v = config.variant();
        return v == Variant.ZabAa || v == Variant.ZabCT || v == Variant.ZabCt && config.voters().size() > 3;
    }

    /**
     * How many followers' acks, its own included, let a follower commit m to itself: 1 (ZabAc, 2.5 F3),
     * f = floor(N/2) = ceil((N-1)/2) (ZabAa, ZabCt), f + 1 (ZabCT, section 4); 0 for classic Zab (COMMIT only).
     */
    int followerQuorum() {
        int f = config.voters().size() / 2;
        return switch (config.variant()) {
            case Zab -> 0;
            case ZabAc -> 1;
            case ZabAa, ZabCt -> f;
            case ZabCT -> f + 1;
        };
    }

    /**
     * spec/Zab.tla's FollowerCommitIndex: the highest zxid that followerQuorum() followers' cumulative
     * acks cover (explicit or implicit, 2.3), this follower's own durable ack included and the leader's
     * never counted; -1 when too few followers acknowledged anything or the variant has no such rule.
     */
    long followerCommitReach(long ownAck, Map<Long, Long> peerAcks, long leader) {
        int n = followerQuorum();
        if (n == 0) {
            return -1;
        }
        List<Long> acks = new ArrayList<>();
        acks.add(ownAck);
        for (Map.Entry<Long, Long> e : peerAcks.entrySet()) {
            if (e.getKey() != leader) {
                acks.add(e.getValue());
            }
        }
        acks.sort(java.util.Comparator.reverseOrder());
        assert n >= 1 && n <= config.voters().size() - 1 : "a follower quorum of " + n;
        return acks.size() < n ? -1 : acks.get(n - 1);
    }
}
