package io.zabkit.wire;

/** ZooKeeper's request and transaction type codes, as on the wire (ZooDefs.OpCode). */
public final class OpCode {
    private OpCode() {}

    public static final int NOTIFICATION = 0;
    public static final int CREATE = 1;
    public static final int DELETE = 2;
    public static final int EXISTS = 3;
    public static final int GET_DATA = 4;
    public static final int SET_DATA = 5;
    public static final int GET_ACL = 6;
    public static final int SET_ACL = 7;
    public static final int GET_CHILDREN = 8;
    public static final int SYNC = 9;
    public static final int PING = 11;
    public static final int GET_CHILDREN2 = 12;
    public static final int CHECK = 13;
    public static final int MULTI = 14;
    public static final int CREATE2 = 15;
    public static final int RECONFIG = 16;
    public static final int CHECK_WATCHES = 17;
    public static final int REMOVE_WATCHES = 18;
    public static final int CREATE_CONTAINER = 19;
    public static final int DELETE_CONTAINER = 20;
    public static final int CREATE_TTL = 21;
    public static final int MULTI_READ = 22;
    public static final int AUTH = 100;
    public static final int SET_WATCHES = 101;
    public static final int SASL = 102;
    public static final int GET_EPHEMERALS = 103;
    public static final int GET_ALL_CHILDREN_NUMBER = 104;
    public static final int SET_WATCHES2 = 105;
    public static final int ADD_WATCH = 106;
    public static final int WHO_AM_I = 107;
    public static final int CREATE_SESSION = -10;
    public static final int CLOSE_SESSION = -11;
    public static final int ERROR = -1;

    /** Requests that change the tree go through a transaction; everything else is answered locally. */
    public static boolean isWrite(int type) {
        switch (type) {
            case CREATE: case CREATE2: case CREATE_CONTAINER: case CREATE_TTL:
            case DELETE: case DELETE_CONTAINER: case SET_DATA: case SET_ACL: case CHECK: case MULTI:
            case CREATE_SESSION: case CLOSE_SESSION: case RECONFIG:
                return true;
            default:
                return false;
        }
    }

    public static String name(int type) {
        switch (type) {
            case NOTIFICATION: return "notification";
            case CREATE: return "create";
            case DELETE: return "delete";
            case EXISTS: return "exists";
            case GET_DATA: return "getData";
            case SET_DATA: return "setData";
            case GET_ACL: return "getACL";
            case SET_ACL: return "setACL";
            case GET_CHILDREN: return "getChildren";
            case SYNC: return "sync";
            case PING: return "ping";
            case GET_CHILDREN2: return "getChildren2";
            case CHECK: return "check";
            case MULTI: return "multi";
            case CREATE2: return "create2";
            case RECONFIG: return "reconfig";
            case CHECK_WATCHES: return "checkWatches";
            case REMOVE_WATCHES: return "removeWatches";
            case CREATE_CONTAINER: return "createContainer";
            case DELETE_CONTAINER: return "deleteContainer";
            case CREATE_TTL: return "createTTL";
            case MULTI_READ: return "multiRead";
            case AUTH: return "auth";
            case SET_WATCHES: return "setWatches";
            case SASL: return "sasl";
            case GET_EPHEMERALS: return "getEphemerals";
            case GET_ALL_CHILDREN_NUMBER: return "getAllChildrenNumber";
            case SET_WATCHES2: return "setWatches2";
            case ADD_WATCH: return "addWatch";
            case WHO_AM_I: return "whoAmI";
            case CREATE_SESSION: return "createSession";
            case CLOSE_SESSION: return "closeSession";
            case ERROR: return "error";
            default: return "unknown(" + type + ")";
        }
    }
}
