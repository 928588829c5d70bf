package io.zabkit.zab;

/**
 * The broadcast phase in use, named as in spec/Zab.tla and in EL-Sanosi and Ezhilchelvan, "Improving
 * ZooKeeper Atomic Broadcast Performance When a Server Quorum Never Crashes". The fast variants are
 * safe only while their fault assumption holds; the leader runs them only while every server of the
 * ensemble is following it, and falls back to classic Zab for each proposal made otherwise.
 */
public enum Variant {
    /** Classic Zab: followers log, then ACK; the leader commits on a quorum and sends COMMIT. */
    Zab,
    /** Ack-and-commit, 3 servers: a follower's own ACK plus the leader's PROPOSAL make a quorum. */
    ZabAc,
    /** Ack-to-all: followers send ACKs to every server, and every server commits on a quorum of them. */
    ZabAa,
    /** Coin toss: a follower ACKs with probability p, relying on cumulative ACKs; the leader COMMITs. */
    ZabCt,
    /** Coin toss with ack-to-all: no COMMIT; every server counts the (cumulative) ACKs. */
    ZabCT;

    /** Followers ACK on receipt and write the log later (the "quorum never crashes" assumption). */
    public boolean acksFromMemory() {
        return this != Zab;
    }

    /** Every server counts ACKs and no COMMIT is sent. */
    public boolean acksToAll() {
        return this == ZabAa || this == ZabCT;
    }

    /** Followers may skip an ACK; ACKs are cumulative. */
    public boolean coinToss() {
        return this == ZabCt || this == ZabCT;
    }

    /** The leader sends COMMIT. */
    public boolean sendsCommit() {
        return this == Zab || this == ZabCt;
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
