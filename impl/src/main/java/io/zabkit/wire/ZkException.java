package io.zabkit.wire;

/** A request that fails with a ZooKeeper error code; the code goes back to the client in the reply header. */
public final class ZkException extends Exception {
    private final int code;

    public ZkException(int code, String detail) {
        super(Err.name(code) + (detail == null ? "" : " for " + detail), null, false, false);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
