package io.zabkit.bench.avail;

import java.util.Locale;

/** The faults of System S's Fig 10, kill -9 of a follower (10a) or of the leader (10b-c), and a SIGSTOP of the leader. */
enum Fault {
    FOLLOWER_KILL("follower-kill"),
    LEADER_KILL("leader-kill"),
    /** SIGSTOP of the leader, held until every window closed (or the round's bound), then SIGCONT. */
    LEADER_PAUSE("leader-pause");

    private final String label;

    Fault(String label) { this.label = label; }

    String label() { return label; }

    boolean hitsLeader() { return this != FOLLOWER_KILL; }

    boolean pauses() { return this == LEADER_PAUSE; }

    static Fault parse(String text) {
        for (Fault f : values()) {
            if (f.label.equals(text.strip().toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + text + "' (follower-kill, leader-kill, leader-pause)");
    }
}
