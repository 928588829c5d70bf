package io.zabkit.zab;

import io.zabkit.zab.Message.ServerState;
import io.zabkit.zab.Zab.ZabState;

/**
 * What one role (looking, leading, following, observing) does with the messages and ticks {@link Zab} hands it,
 * etcd raft's {@code step} per role. A role object lives exactly as long as the role: a role change
 * makes a new one, so no leader or follower state survives into the next role by accident.
 */
abstract sealed class Role permits Looking, Leading, Following {
    // (Observing extends Following: a learner that syncs as a follower does)
    final Zab zab;
    /** The phase within this role (spec: zabState). */
    ZabState zabState;

    Role(Zab zab, ZabState zabState) {
        this.zab = zab;
        this.zabState = zabState;
    }

    abstract ServerState state();

    /** The leader this server follows, itself when leading, -1 when looking. */
    abstract long leaderId();

    abstract void tick();

    /** A message other than an election notification, from a voter. */
    abstract void receive(long from, Message m);

    /** The link to peer broke. */
    abstract void peerDisconnected(long peer);

    /**
     * This server was not running for stalledMs (SIGSTOP, a long GC pause, a starved host): it could
     * not hear its peers then, so silence it measures must not count that time. ZooKeeper's leader
     * counts learner silence in ticks of its own loop, which a stall does not advance; its learners
     * time out on socket reads and so do notice a stall of their leader (their default here).
     */
    void afterOwnStall(long stalledMs) {
    }

    /** This role ends (Zab#lookForLeader): what it held for itself alone goes with it. */
    void leave() {
    }

    /** Part of a message from peer arrived (Zab#heardFrom): for silence timers only. */
    void heardFrom(long peer) {
    }

    /** zab.lastPersisted moved forward. */
    void persisted() {
    }

    /**
     * Whether memory holds a synchronization the disk does not have yet (a SNAP or a log cut waiting for
     * NEWLEADER): the disk still holds the old log, so a write of it issued before may still complete.
     */
    boolean holdsSyncInMemory() {
        return false;
    }

    /** Leaving the role: close the links it holds so that the other ends notice at once. */
    void resetLinks() {
    }
}
