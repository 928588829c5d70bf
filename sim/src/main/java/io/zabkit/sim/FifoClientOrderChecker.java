package io.zabkit.sim;

import io.zabkit.txn.Txn;
import java.util.HashMap;
import java.util.Map;

/**
 * FifoClientOrder: a session's replies arrive in the order of its requests (each reply answers the
 * oldest outstanding request, pings included), and the zxids in its reply headers never go back,
 * across reconnects and server restarts alike.
 */
final class FifoClientOrderChecker {
    private final Map<Long, Long> lastZxidBySession = new HashMap<>();
    private long repliesChecked;

    long repliesChecked() {
        return repliesChecked;
    }

    void reply(int client, long session, long connId, int expectedXid, int xid, long zxid) {
        repliesChecked++;
        if (xid != expectedXid) {
            throw new Violation("FifoClientOrder", "client " + client + " conn " + connId
                    + " got the reply to xid " + xid + " while the oldest outstanding request is "
                    + (expectedXid == Integer.MIN_VALUE ? "none" : "xid " + expectedXid));
        }
        Long last = lastZxidBySession.get(session);
        if (last != null && zxid < last) {
            throw new Violation("FifoClientOrder", "client " + client + " session 0x"
                    + Long.toHexString(session) + " got a reply at zxid " + Txn.zxidString(zxid) + " after one at "
                    + Txn.zxidString(last) + ": its view went back in time");
        }
        lastZxidBySession.put(session, zxid);
    }
}
