package io.zabkit.runtime;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.Marker;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The production server's logging: SLF4J with logback, as ZooKeeper 3.9 logs. The default
 * configuration is the classpath resource {@value #DEFAULT_CONFIG} (one line per event on stderr);
 * {@code -Dlogback.configurationFile=FILE} replaces it, with ZooKeeper's own logback.xml too. The core
 * logs through System.Logger, which lands in java.util.logging and is bridged to SLF4J here. Every
 * event carries the server's myid in the MDC key {@value #MYID_KEY} (ZooKeeper's pattern prints it
 * with {@code %X{myid}}) and in the logger context's property of that name.
 *
 * <p>The runtime logs through SLF4J directly, not java.util.logging: JUL closes its handlers in a
 * shutdown hook of its own, which would swallow the lines written while stopping on SIGTERM.
 */
final class Logging {
    static final String CONFIG_PROPERTY = "logback.configurationFile";
    static final String DEFAULT_CONFIG = "zabkit-logback.xml";
    static final String MYID_KEY = "myid";

    private static final MyIdFilter MYID = new MyIdFilter();

    private Logging() {}

    /** Before anything logs: picks the configuration, bridges java.util.logging, tags events with myid. */
    static void configure() {
        if (System.getProperty(CONFIG_PROPERTY) == null) {
            System.setProperty(CONFIG_PROPERTY, DEFAULT_CONFIG);
        }
        java.util.logging.LogManager.getLogManager().reset();
        SLF4JBridgeHandler.install();
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.addTurboFilter(MYID);
        }
        assert SLF4JBridgeHandler.isInstalled() : "java.util.logging is not bridged";
    }

    /** From now on every line carries this myid (empty for a standalone server, as ZooKeeper prints it). */
    static void setMyId(String myid) {
        MYID.myid = myid;
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.putProperty(MYID_KEY, myid);
        }
    }

    static void info(String message) {
        Holder.RUNTIME.info(message);
    }

    static void warn(String message) {
        Holder.RUNTIME.warn(message);
    }

    static void error(String message) {
        Holder.RUNTIME.error(message);
    }

    static void error(String message, Throwable cause) {
        Holder.RUNTIME.error(message, cause);
    }

    /** Created on first use, after {@link #configure} chose the configuration file. */
    private static final class Holder {
        static final Logger RUNTIME = LoggerFactory.getLogger("zabkit.runtime");
    }

    /**
     * Puts the myid into the MDC of whichever thread logs, before logback builds the event: the
     * runtime's threads (event loop, disk, peer links, JUL's bridge callers) need no setup of their own.
     */
    private static final class MyIdFilter extends TurboFilter {
        volatile String myid = "";

        @Override
        public FilterReply decide(Marker marker, ch.qos.logback.classic.Logger logger, Level level, String format,
                                  Object[] params, Throwable t) {
            String id = myid;
            if (!id.equals(MDC.get(MYID_KEY))) {
                MDC.put(MYID_KEY, id);
            }
            return FilterReply.NEUTRAL;
        }
    }
}
