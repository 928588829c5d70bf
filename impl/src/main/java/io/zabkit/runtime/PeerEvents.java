package io.zabkit.runtime;

import io.zabkit.zab.Message;

/**
 * What the peer links tell the core ({@code ServerCore.peerMessage} and {@code peerDisconnected}).
 * A disconnect reaches the core before any message of the next link to the same server.
 */
public interface PeerEvents {
    void peerMessage(long from, Message m);

    void peerDisconnected(long peer);
}
