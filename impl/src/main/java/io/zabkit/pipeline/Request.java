package io.zabkit.pipeline;

import io.zabkit.wire.OpCode;
import java.util.List;
import org.apache.zookeeper.data.Id;

/**
 * A decoded client request as the pipeline sees it.
 *
 * @param connId    the connection it came on (where its reply goes)
 * @param sessionId the session it belongs to
 * @param xid       the client's request id, echoed in the reply header
 * @param type      an {@link OpCode}
 * @param body      the jute request record, a {@link io.zabkit.wire.MultiOps}, or null
 * @param authIds   the identities of the connection when the request arrived (ip plus addauth ones)
 * @param receivedMs the core's clock when it arrived, for latency statistics
 */
public record Request(long connId, long sessionId, int xid, int type, Object body, List<Id> authIds,
                      long receivedMs) {
    public boolean isWrite() {
        return OpCode.isWrite(type);
    }
}
