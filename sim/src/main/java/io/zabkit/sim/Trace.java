package io.zabkit.sim;

import java.io.PrintStream;
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
    /** The last events, formatted only when a failure report asks for them. */
    private record Event(long tick, String kind, String detail) {
        String line() {
            return String.format("%6d %-14s %s", tick, kind, detail);
        }
    }

    private final Deque<Event> last = new ArrayDeque<>();
    private long hash = 0xcbf29ce484222325L;
    private long events;

    /** @param full where to print every line as it happens, or null */
    Trace(SimClock clock, int keepLines, PrintStream full) {
        this.clock = clock;
        this.keepLines = keepLines;
        this.full = full;
    }

    void event(String kind, String detail) {
        events++;
        hash = mix(hash, clock.tick());
        hash = mix(hash, kind.hashCode());
        hash = mix(hash, detail.hashCode());
        Event e = new Event(clock.tick(), kind, detail);
        if (full != null) {
            full.println(e.line());
        }
        if (keepLines > 0) {
            if (last.size() == keepLines) {
                last.removeFirst();
            }
            last.addLast(e);
        }
    }

    /** FNV-style folding; String.hashCode is specified by the JLS, so the hash is the same on every JVM. */
    private static long mix(long h, long v) {
        return (h ^ v) * 0x100000001b3L;
    }

    long hash() {
        return hash;
    }

    long events() {
        return events;
    }

    List<String> lastLines() {
        List<String> lines = new ArrayList<>(last.size());
        for (Event e : last) {
            lines.add(e.line());
        }
        return lines;
    }
}
