package io.zabkit.sim;

import io.zabkit.txn.Txn;
import java.util.HashMap;
import java.util.Map;

/**
 * FifoClientOrder: a session's replies arrive in the order of its requests (each reply answers the
 * oldest outstanding request, pings included), and the zxids in its reply headers never go back,
 * across reconnects and server restarts alike. A ping's zxid is left out of the second rule, as
 * ZooKeeper's client leaves it out of the last zxid it reports on reconnect: a client may see zxid z
 * on a ping and then be taken by a follower that has not applied z yet, which no operation can tell.
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
        if (xid == ClientCodec.PING_XID) {
            return;
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
