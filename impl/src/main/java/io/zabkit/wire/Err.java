package io.zabkit.wire;

/**
 * ZooKeeper's error codes (KeeperException.Code), as carried in a reply header.
 * A request the pipeline rejects throws {@link ZkException} with one of these.
 */
public final class Err {
    private Err() {}

    public static final int OK = 0;
    public static final int SYSTEM_ERROR = -1;
    public static final int RUNTIME_INCONSISTENCY = -2;
    public static final int DATA_INCONSISTENCY = -3;
    public static final int CONNECTION_LOSS = -4;
    public static final int MARSHALLING_ERROR = -5;
    public static final int UNIMPLEMENTED = -6;
    public static final int OPERATION_TIMEOUT = -7;
    public static final int BAD_ARGUMENTS = -8;
    public static final int UNKNOWN_SESSION = -12;
    public static final int NEW_CONFIG_NO_QUORUM = -13;
    public static final int RECONFIG_IN_PROGRESS = -14;
    public static final int API_ERROR = -100;
    public static final int NO_NODE = -101;
    public static final int NO_AUTH = -102;
    public static final int BAD_VERSION = -103;
    public static final int NO_CHILDREN_FOR_EPHEMERALS = -108;
    public static final int NODE_EXISTS = -110;
    public static final int NOT_EMPTY = -111;
    public static final int SESSION_EXPIRED = -112;
    public static final int INVALID_CALLBACK = -113;
    public static final int INVALID_ACL = -114;
    public static final int AUTH_FAILED = -115;
    public static final int SESSION_MOVED = -118;
    public static final int NOT_READ_ONLY = -119;
    public static final int EPHEMERAL_ON_LOCAL_SESSION = -120;
    public static final int NO_WATCHER = -121;
    public static final int REQUEST_TIMEOUT = -122;
    public static final int RECONFIG_DISABLED = -123;
    /** An op before the session proved an identity of an enforced scheme (enforce.auth.*); the connection closes. */
    public static final int SESSION_CLOSED_REQUIRE_SASL_AUTH = -124;
    public static final int QUOTA_EXCEEDED = -125;
    public static final int THROTTLED_OP = -127;

    public static String name(int code) {
        switch (code) {
            case OK: return "OK";
            case SYSTEM_ERROR: return "SystemError";
            case RUNTIME_INCONSISTENCY: return "RuntimeInconsistency";
            case DATA_INCONSISTENCY: return "DataInconsistency";
            case CONNECTION_LOSS: return "ConnectionLoss";
            case MARSHALLING_ERROR: return "MarshallingError";
            case UNIMPLEMENTED: return "Unimplemented";
            case OPERATION_TIMEOUT: return "OperationTimeout";
            case BAD_ARGUMENTS: return "BadArguments";
            case UNKNOWN_SESSION: return "UnknownSession";
            case NEW_CONFIG_NO_QUORUM: return "NewConfigNoQuorum";
            case RECONFIG_IN_PROGRESS: return "ReconfigInProgress";
            case API_ERROR: return "APIError";
            case NO_NODE: return "NoNode";
            case NO_AUTH: return "NoAuth";
            case BAD_VERSION: return "BadVersion";
            case NO_CHILDREN_FOR_EPHEMERALS: return "NoChildrenForEphemerals";
            case NODE_EXISTS: return "NodeExists";
            case NOT_EMPTY: return "NotEmpty";
            case SESSION_EXPIRED: return "SessionExpired";
            case INVALID_CALLBACK: return "InvalidCallback";
            case INVALID_ACL: return "InvalidACL";
            case AUTH_FAILED: return "AuthFailed";
            case SESSION_CLOSED_REQUIRE_SASL_AUTH: return "SessionClosedRequireAuth";
            case SESSION_MOVED: return "SessionMoved";
            case NOT_READ_ONLY: return "NotReadOnly";
            case EPHEMERAL_ON_LOCAL_SESSION: return "EphemeralOnLocalSession";
            case NO_WATCHER: return "NoWatcher";
            case REQUEST_TIMEOUT: return "RequestTimeout";
            case RECONFIG_DISABLED: return "ReconfigDisabled";
            case QUOTA_EXCEEDED: return "QuotaExceeded";
            case THROTTLED_OP: return "ThrottledOp";
            default: return "Error(" + code + ")";
        }
    }
}
