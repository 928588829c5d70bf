package io.zabkit.zab;

/**
 * Model-based replay only (sim's io.zabkit.sim.replay, spec/ReplayZab.tla): Zab.tla's election is an
 * oracle, {@code ElectLeader(i, Q)}, so the replay imposes its outcome on the cores instead of running
 * fast leader election. Nothing in the server calls this.
 */
public final class ElectionOracle {
    private ElectionOracle() {
    }

    /** The looking server settles on leader (itself, to lead): what its election would have decided. */
    public static void settle(Zab zab, long leader) {
        if (zab.state() != Message.ServerState.LOOKING) {
            throw new IllegalStateException("server " + zab.self + " is " + zab.state() + ", not LOOKING");
        }
        if (!zab.config.voters().contains(leader)) {
            throw new IllegalArgumentException("leader " + leader + " is not a voter");
        }
        zab.election.stop();
        zab.settle(leader);
        assert zab.leader() == leader : "settled on " + zab.leader() + ", not " + leader;
    }

    /**
     * Whether this server's election ranks the vote (leader a, its zxid and epoch) above the vote (leader b, ...):
     * the order its fast leader election uses, bug-zoo switches included.
     */
    public static boolean prefers(Zab zab, long a, long zxidA, long epochA, long b, long zxidB, long epochB) {
        return zab.election.better(new Election.Vote(a, zxidA, epochA), new Election.Vote(b, zxidB, epochB));
    }
}
