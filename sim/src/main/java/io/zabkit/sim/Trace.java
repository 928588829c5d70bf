package io.zabkit.sim;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The run's event trace: one short line per event (tick, kind, details). Keeps the last lines for a
 * failure report, optionally prints every line (replay), and folds every line into a hash so two runs
 * of one seed can be compared exactly.
 */
final class Trace {
    private final SimClock clock;
    private final int keepLines;
    private final PrintStream full;
    private final Deque<String> last = new ArrayDeque<>();
    private long hash = 0xcbf29ce484222325L;
    private long events;

    /** @param full where to print every line as it happens, or null */
    Trace(SimClock clock, int keepLines, PrintStream full) {
        this.clock = clock;
        this.keepLines = keepLines;
        this.full = full;
    }

    void event(String kind, String detail) {
        String line = String.format("%6d %-14s %s", clock.tick(), kind, detail);
        events++;
        for (byte b : line.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
        }
        hash = (hash ^ '\n') * 0x100000001b3L;
        if (full != null) {
            full.println(line);
        }
        if (keepLines > 0) {
            if (last.size() == keepLines) {
                last.removeFirst();
            }
            last.addLast(line);
        }
    }

    long hash() {
        return hash;
    }

    long events() {
        return events;
    }

    List<String> lastLines() {
        return new ArrayList<>(last);
    }
}
