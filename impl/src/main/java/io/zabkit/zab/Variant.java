package io.zabkit.zab;

/**
 * The broadcast phase in use, named as in spec/Zab.tla and in EL-Sanosi and Ezhilchelvan, "Improving
 * ZooKeeper Atomic Broadcast Performance When a Server Quorum Never Crashes" (papers seed 003). In every
 * variant a follower logs m, then acknowledges it; the fast ones differ in whom it acknowledges to and
 * when it commits to itself ({@link FastRules}). They are safe only under their fault assumption; the
 * leader proposes fast only while every server follows it, and classic otherwise (its followers then
 * acknowledge in Zab mode, zab = 1, and wait for COMMIT: section 2.7's switch, driven by the leader).
 */
public enum Variant {
    /** Classic Zab: followers log, then ACK; the leader commits on a quorum and sends COMMIT. */
    Zab,
    /** 2.5, 3 servers: a follower logs m, acks to the leader and to itself, and delivers on its own ack. */
    ZabAc,
    /** 2.5: a follower logs m, acks to every server, and commits on acks from f followers (itself included). */
    ZabAa,
    /** 2.6: a follower logs m, acks to itself, tosses a coin: on Head to the leader (and, N > 3, the followers). */
    ZabCt,
    /** 4: as ZabCt, on Head to the leader and all followers whatever N; commits on f + 1 followers' acks. */
    ZabCT;

    /**
     * A fast variant, which relies on its fault assumption (A1.2: no crash while only a bare quorum is up).
     * The name is historical: no variant acknowledges from memory any more; every follower logs m, then
     * acknowledges it (seed 003 2.4). Kept under this name for sim/'s fault-assumption switch.
     */
    public boolean acksFromMemory() {
        return this != Zab;
    }

    /** Followers may skip an ACK; ACKs are cumulative. */
    public boolean coinToss() {
        return this == ZabCt || this == ZabCT;
    }


    public static Variant parse(String name) {
        for (Variant v : values()) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown broadcast variant '" + name
                + "'; expected one of Zab, ZabAc, ZabAa, ZabCt, ZabCT");
    }
}
