package io.zabkit.bench.avail;

import java.util.Locale;

/** The faults of System S's Fig 10: kill -9 of a follower (10a) or of the leader (10b-c). */
enum Fault {
    FOLLOWER_KILL("follower-kill"),
    LEADER_KILL("leader-kill");

    private final String label;

    Fault(String label) { this.label = label; }

    String label() { return label; }

    boolean hitsLeader() { return this == LEADER_KILL; }

    static Fault parse(String text) {
        for (Fault f : values()) {
            if (f.label.equals(text.strip().toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + text + "' (follower-kill, leader-kill)");
    }
}
