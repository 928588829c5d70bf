package io.zabkit.zab;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The ensemble settings of the core, from zoo.cfg (or from the simulator's seed).
 *
 * @param quorum              who votes (participants) and who only learns (observers): the quorum system
 * @param initLimitTicks      ticks a follower may take to connect to and sync with a leader
 * @param syncLimitTicks      ticks a follower may go without hearing from the leader (and vice versa)
 * @param finalizeWaitMs      how long election waits for more votes once it sees a quorum for a leader
 * @param variant             the broadcast phase (classic Zab unless configured)
 * @param coinTossProbability ZabCt/ZabCT: the probability that a follower ACKs a proposal at once
 * @param seed                seeds the coin toss; the core draws no randomness of its own
 * @param committedLogCount   applied transactions kept in memory so that a lagging follower gets a DIFF
 *                            rather than a SNAP (ZooKeeper's zookeeper.commitLogCount)
 * @param bugs                bug-zoo switches planted (test only; empty in production, see {@link Bug})
 */
public record ZabConfig(QuorumSystem quorum, int initLimitTicks, int syncLimitTicks, int finalizeWaitMs,
                        Variant variant, double coinTossProbability, long seed, int committedLogCount,
                        Set<Bug> bugs) {

    /** ZooKeeper's default for zookeeper.commitLogCount. */
    public static final int COMMITTED_LOG_COUNT = 500;

    public ZabConfig(List<Long> voters, int initLimitTicks, int syncLimitTicks, int finalizeWaitMs, Variant variant,
                     double coinTossProbability, long seed, int committedLogCount, Set<Bug> bugs) {
        this(QuorumSystem.of(voters), initLimitTicks, syncLimitTicks, finalizeWaitMs, variant, coinTossProbability, seed,
                committedLogCount, bugs);
    }

    public ZabConfig(List<Long> voters, int initLimitTicks, int syncLimitTicks, int finalizeWaitMs, Variant variant,
                     double coinTossProbability, long seed, int committedLogCount) {
        this(voters, initLimitTicks, syncLimitTicks, finalizeWaitMs, variant, coinTossProbability, seed,
                committedLogCount, Set.of());
    }

    public ZabConfig(List<Long> voters, int initLimitTicks, int syncLimitTicks, int finalizeWaitMs, Variant variant,
                     double coinTossProbability, long seed) {
        this(voters, initLimitTicks, syncLimitTicks, finalizeWaitMs, variant, coinTossProbability, seed,
                COMMITTED_LOG_COUNT);
    }

    public ZabConfig {
        bugs = bugs.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(bugs));
        if (!quorum.observers().isEmpty() && variant != Variant.Zab) {
            // The fast variants count followers' acks among themselves; an observer sends none.
            throw new IllegalArgumentException("observers run with the classic Zab broadcast only, not " + variant);
        }
        if (initLimitTicks <= 0 || syncLimitTicks <= 0 || finalizeWaitMs < 0) {
            throw new IllegalArgumentException("initLimit and syncLimit must be positive, the finalize wait not"
                    + " negative; got " + initLimitTicks + ", " + syncLimitTicks + ", " + finalizeWaitMs);
        }
        if (committedLogCount < 1) {
            throw new IllegalArgumentException("committedLogCount must be positive, got " + committedLogCount);
        }
        if (coinTossProbability <= 0 || coinTossProbability > 1) {
            throw new IllegalArgumentException("the coin-toss probability must be in (0, 1], got "
                    + coinTossProbability);
        }
    }

    /** The same settings with these bug-zoo switches on (test only). */
    public ZabConfig withBugs(Set<Bug> planted) {
        return new ZabConfig(quorum, initLimitTicks, syncLimitTicks, finalizeWaitMs, variant, coinTossProbability, seed,
                committedLogCount, planted);
    }

    /** The same settings with these observers beside the voters. */
    public ZabConfig withObservers(List<Long> observers) {
        return new ZabConfig(new QuorumSystem(quorum.voters(), observers), initLimitTicks, syncLimitTicks,
                finalizeWaitMs, variant, coinTossProbability, seed, committedLogCount, bugs);
    }

    /** The voting servers (participants), sorted. */
    public List<Long> voters() {
        return quorum.voters();
    }

    /** The observers, sorted; empty unless configured. */
    public List<Long> observers() {
        return quorum.observers();
    }

    /** Whether id is a server of this ensemble, voter or observer: one whose messages are heard. */
    public boolean isMember(long id) {
        return quorum.isMember(id);
    }

    /** Whether the bug-zoo switch is on: the one check every hook makes. */
    public boolean bug(Bug b) {
        return !bugs.isEmpty() && bugs.contains(b);
    }

    /** A server on its own: no election, every write commits once it is durable. */
    public static ZabConfig standalone(long serverId) {
        return new ZabConfig(List.of(serverId), 10, 5, 200, Variant.Zab, 1.0, 0);
    }

    public boolean standaloneFor(long serverId) {
        return quorum.members().size() == 1 && quorum.voters().get(0) == serverId;
    }

    /** More than half of the voters: a quorum of the majority quorum system; observers never count. */
    public boolean isQuorum(java.util.Collection<Long> ids) {
        return quorum.isQuorum(ids);
    }
}
