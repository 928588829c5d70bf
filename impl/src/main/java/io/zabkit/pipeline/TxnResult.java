package io.zabkit.pipeline;

import java.util.List;
import org.apache.zookeeper.data.Stat;

/**
 * The outcome of applying one transaction (or one op of a multi): what the reply to its request says.
 *
 * @param type  the txn (or op) type; {@link io.zabkit.wire.OpCode#ERROR} for a failed one
 * @param err   the error code (0 for success)
 * @param path  the created path for creates, else the path the op touched
 * @param stat  the node's Stat after the op (creates, setData, setACL), else null
 * @param multi per-op results of a multi, else null
 */
public record TxnResult(int type, int err, String path, Stat stat, List<TxnResult> multi) {
    public static TxnResult ok(int type, String path, Stat stat) {
        return new TxnResult(type, 0, path, stat, null);
    }

    public static TxnResult error(int code) {
        return new TxnResult(io.zabkit.wire.OpCode.ERROR, code, null, null, null);
    }
}
