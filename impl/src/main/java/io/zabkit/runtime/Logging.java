package io.zabkit.runtime;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * One line per event on stderr: {@code 2026-01-02T03:04:05.678Z INFO [zabkit.runtime] message}. The core
 * logs through System.Logger, which lands in java.util.logging; {@link #configure} gives it the same
 * format. The runtime prints directly: java.util.logging closes its handlers in a shutdown hook of its
 * own, which would swallow the lines written while stopping on SIGTERM.
 */
final class Logging {
    private static final String SOURCE = "zabkit.runtime";

    private Logging() {}

    static void configure() {
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        Handler stderr = new ConsoleHandler();
        stderr.setFormatter(new Formatter() {
            @Override
            public String format(LogRecord r) {
                String thrown = "";
                if (r.getThrown() != null) {
                    StringWriter trace = new StringWriter();
                    r.getThrown().printStackTrace(new PrintWriter(trace));
                    thrown = System.lineSeparator() + trace;
                }
                return r.getInstant().truncatedTo(ChronoUnit.MILLIS) + " " + r.getLevel() + " [" + r.getLoggerName() + "] " + formatMessage(r)
                        + thrown + System.lineSeparator();
            }
        });
        stderr.setLevel(Level.ALL);
        root.addHandler(stderr);
        root.setLevel(Level.INFO);
    }

    static void info(String message) {
        print("INFO", message, null);
    }

    static void warn(String message) {
        print("WARNING", message, null);
    }

    static void error(String message) {
        print("SEVERE", message, null);
    }

    static void error(String message, Throwable cause) {
        print("SEVERE", message, cause);
    }

    private static synchronized void print(String level, String message, Throwable cause) {
        PrintStream err = System.err;
        err.println(Instant.now().truncatedTo(ChronoUnit.MILLIS) + " " + level + " [" + SOURCE + "] " + message);
        if (cause != null) {
            cause.printStackTrace(err);
        }
        err.flush();
    }
}
