package io.zabkit.sim;

/**
 * Something the simulated network delivers to: a server node or a client. Callbacks run inside
 * {@link SimNetwork#deliver}; an endpoint may send or close from within them.
 */
interface Endpoint {
    /** A connection this endpoint accepts has been opened by the peer (the server side of a connect). */
    void accepted(long connId, int peer);

    /** The connection this endpoint asked for is established (the client side of a connect). */
    void connected(long connId);

    void received(long connId, byte[] bytes);

    /** The connection is gone: refused, closed by the peer, or broken. In-flight bytes are lost. */
    void closed(long connId);
}
