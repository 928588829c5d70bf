package io.zabkit.bench.papers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The machine a run measured on: cores, memory, load average (a shared 2-core box moves every figure). */
final class Machine {
    private Machine() {}

    /** The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them; "?" where it is unreadable. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    static String describe() {
        return String.format("%d cores, Linux %s, Java %s", cores(), System.getProperty("os.version"),
                System.getProperty("java.version"));
    }

    static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
