package io.zabkit.tree;

/** How ZooKeeper encodes node kinds in ephemeralOwner: a session id, or the container marker. */
public final class EphemeralType {
    private EphemeralType() {}

    /** ZooKeeper marks containers with the top bit of ephemeralOwner (EphemeralType.CONTAINER_EPHEMERAL_OWNER). */
    public static final long CONTAINER_OWNER = Long.MIN_VALUE;

    public static boolean isContainer(long ephemeralOwner) {
        return ephemeralOwner == CONTAINER_OWNER;
    }

    /** A real session owns this node: it is deleted when the session ends. */
    public static boolean isSessionOwned(long ephemeralOwner) {
        return ephemeralOwner != 0 && ephemeralOwner != CONTAINER_OWNER;
    }
}
