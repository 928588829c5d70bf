package io.zabkit.tree;

/** ZooKeeper's watch event types (Watcher.Event.EventType), by their wire codes. */
public final class WatchKind {
    private WatchKind() {}

    public static final int NODE_CREATED = 1;
    public static final int NODE_DELETED = 2;
    public static final int NODE_DATA_CHANGED = 3;
    public static final int NODE_CHILDREN_CHANGED = 4;
    public static final int DATA_WATCH_REMOVED = 5;
    public static final int CHILD_WATCH_REMOVED = 6;
    public static final int PERSISTENT_WATCH_REMOVED = 7;

    /** KeeperState.SyncConnected: the state every notification of a live session carries. */
    public static final int SYNC_CONNECTED = 3;

    public static String name(int type) {
        switch (type) {
            case NODE_CREATED: return "NodeCreated";
            case NODE_DELETED: return "NodeDeleted";
            case NODE_DATA_CHANGED: return "NodeDataChanged";
            case NODE_CHILDREN_CHANGED: return "NodeChildrenChanged";
            case DATA_WATCH_REMOVED: return "DataWatchRemoved";
            case CHILD_WATCH_REMOVED: return "ChildWatchRemoved";
            case PERSISTENT_WATCH_REMOVED: return "PersistentWatchRemoved";
            default: return "None";
        }
    }
}
