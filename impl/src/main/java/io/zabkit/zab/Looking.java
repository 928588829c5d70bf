package io.zabkit.zab;

import io.zabkit.zab.Message.FollowerInfo;
import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Zab.ZabState;
import java.util.Map;
import java.util.TreeMap;

/** LOOKING: the election runs; FOLLOWERINFOs that arrive during the finalize wait are kept. */
final class Looking extends Role {
    /** FOLLOWERINFOs that arrived while this server was still looking, by sender. */
    private final Map<Long, FollowerInfo> earlyFollowerInfo = new TreeMap<>();

    Looking(Zab zab) {
        super(zab, ZabState.ELECTION);
    }

    @Override
    ServerState state() {
        return ServerState.LOOKING;
    }

    @Override
    long leaderId() {
        return -1;
    }

    @Override
    void tick() {
        long decided = zab.election.tick(zab.nowMs);
        if (decided >= 0) {
            zab.settle(decided);
        }
    }

    @Override
    void receive(long from, Message m) {
        if (m instanceof FollowerInfo fi) {
            // A follower settled on us while we still wait out the finalize wait: keep its FOLLOWERINFO
            // for when we lead, rather than let it wait for a re-send.
            earlyFollowerInfo.put(from, fi);
            return;
        }
        zab.discardStale(from, m);
    }

    @Override
    void peerDisconnected(long peer) {
        earlyFollowerInfo.remove(peer); // links were reset: a follower that still wants us says so again
    }

    /** The FOLLOWERINFOs kept for the leader this server becomes, by sender. */
    Map<Long, FollowerInfo> takeEarlyFollowerInfo() {
        Map<Long, FollowerInfo> early = new TreeMap<>(earlyFollowerInfo);
        earlyFollowerInfo.clear();
        return early;
    }
}
