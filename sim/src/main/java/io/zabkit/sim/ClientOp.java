package io.zabkit.sim;

import io.zabkit.wire.Err;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.zookeeper.data.Stat;

/**
 * One client operation of the workload: what was asked (kind, path, data, expected version, mode,
 * watch, the ops of a multi) and, once complete, what came back. Mutable only by its client.
 */
final class ClientOp {
    enum Kind {
        CREATE("create"), DELETE("delete"), SET_DATA("set-data"), CHECK("check"), GET_DATA("get-data"),
        EXISTS("exists"), GET_CHILDREN("get-children"), SYNC("sync"), MULTI("multi"), CLOSE_SESSION("close-session"),
        ADD_WATCH("add-watch");

        final String edn;

        Kind(String edn) {
            this.edn = edn;
        }

        boolean isWrite() {
            return this == CREATE || this == DELETE || this == SET_DATA || this == MULTI || this == CLOSE_SESSION
                    || this == CHECK;
        }
    }

    /** Create modes with ZooKeeper's flag values. */
    enum Mode {
        PERSISTENT(0, "persistent"), EPHEMERAL(1, "ephemeral"), PERSISTENT_SEQUENTIAL(2, "persistent-sequential"),
        EPHEMERAL_SEQUENTIAL(3, "ephemeral-sequential");

        final int flags;
        final String edn;

        Mode(int flags, String edn) {
            this.flags = flags;
            this.edn = edn;
        }

        boolean ephemeral() {
            return this == EPHEMERAL || this == EPHEMERAL_SEQUENTIAL;
        }

        boolean sequential() {
            return this == PERSISTENT_SEQUENTIAL || this == EPHEMERAL_SEQUENTIAL;
        }
    }

    enum Outcome { OK, FAIL, INFO }

    final Kind kind;
    final String path;
    final byte[] data;
    /** Expected version for setData, delete and check; -1 matches any. */
    final int version;
    final Mode mode;
    final boolean watch;
    final List<ClientOp> ops;
    /** For addWatch: PERSISTENT_RECURSIVE (true) or PERSISTENT (false). */
    boolean recursive;

    // Set when invoked.
    int process;
    int slot;
    long connId;
    long session;
    int xid;
    long invokeTick;

    // Set when complete.
    Outcome outcome;
    int err;
    long zxid = -1;
    long completeTick;
    byte[] readData;
    Stat stat;
    List<String> children;
    String createdPath;
    /** For a multi: the per-op error codes (0 = ok), and for creates the created path. */
    List<ClientCodec.MultiResult> results;

    ClientOp(Kind kind, String path, byte[] data, int version, Mode mode, boolean watch, List<ClientOp> ops) {
        this.kind = kind;
        this.path = path;
        this.data = data;
        this.version = version;
        this.mode = mode;
        this.watch = watch;
        this.ops = ops;
    }

    static ClientOp of(Kind kind, String path) {
        return new ClientOp(kind, path, null, -1, null, false, List.of());
    }

    static ClientOp addWatch(String path, boolean recursive) {
        ClientOp op = of(Kind.ADD_WATCH, path);
        op.recursive = recursive;
        return op;
    }

    boolean isOk() {
        return outcome == Outcome.OK;
    }

    String dataString() {
        return data == null ? "" : new String(data, StandardCharsets.UTF_8);
    }

    /** A short description for the trace: kind, path and the arguments that matter. */
    String describe() {
        StringBuilder s = new StringBuilder(kind.edn);
        if (path != null) {
            s.append(' ').append(path);
        }
        if (mode != null) {
            s.append(" ").append(mode.edn);
        }
        if (kind == Kind.SET_DATA || kind == Kind.DELETE || kind == Kind.CHECK) {
            s.append(" v=").append(version);
        }
        if (watch) {
            s.append(" watch");
        }
        if (kind == Kind.ADD_WATCH) {
            s.append(recursive ? " persistent-recursive" : " persistent");
        }
        if (!ops.isEmpty()) {
            s.append(" [");
            for (int i = 0; i < ops.size(); i++) {
                s.append(i == 0 ? "" : ", ").append(ops.get(i).describe());
            }
            s.append(']');
        }
        return s.toString();
    }

    String describeOutcome() {
        String z = zxid >= 0 ? " zxid=0x" + Long.toHexString(zxid) : "";
        String e = err == 0 ? "" : " " + Err.name(err);
        String created = createdPath == null ? "" : " -> " + createdPath;
        return outcome.name().toLowerCase(java.util.Locale.ROOT) + e + z + created;
    }
}
