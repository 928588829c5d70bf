package io.zabkit.bench;

import java.util.Locale;

/** The two server implementations an {@link Ensemble} can run; both read the same zoo.cfg and myid. */
public enum SystemUnderTest {
    /** Apache ZooKeeper 3.9 (QuorumPeerMain), resolved by Maven for this module. */
    ZOOKEEPER,
    /** zabkit's reference server, started as {@code bin/zabkit-server zoo.cfg} from the repository root. */
    ZABKIT;

    /** The lower-case name used on command lines, in tables and in file names. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SystemUnderTest parse(String text) {
        for (SystemUnderTest s : values()) {
            if (s.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown system '" + text + "': expected zookeeper or zabkit");
    }
}
