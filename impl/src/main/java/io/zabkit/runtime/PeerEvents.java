package io.zabkit.runtime;

import io.zabkit.zab.Message;

/**
 * What the peer links tell the core ({@code ServerCore.peerMessage} and {@code peerDisconnected}).
 * A disconnect reaches the core before any message of the next link to the same server.
 */
public interface PeerEvents {
    void peerMessage(long from, Message m);

    void peerDisconnected(long peer);

    /**
     * Bytes of a frame not yet complete arrived from peer: it is alive and sending. A large
     * frame (a PROPOSAL of a 30 MB multi, a SNAP) holds back the pings queued behind it on the same
     * link, so a follower that counted only whole messages would take a leader streaming to it
     * for a silent one (ZooKeeper's learner times out on socket reads, which any bytes satisfy).
     */
    default void peerBytes(long from) {
    }
}
