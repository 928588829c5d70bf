package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's logging: bin/zabkit-server with {@code -Dlogback.configurationFile} pointing at their
 * own file logs every line, the core's included, through that file's appender and pattern, and every
 * line carries the server's myid.
 */
class LoggingTest {
    private static final long WAIT_MS = 30_000;

    @Test
    void aUserLogbackFileGetsEveryLineWithTheMyid(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("server.log");
        Path logback = dir.resolve("logback.xml");
        Files.writeString(logback, "<configuration>\n"
                + "  <appender name=\"F\" class=\"ch.qos.logback.core.FileAppender\">\n"
                + "    <file>" + log + "</file>\n"
                + "    <encoder><pattern>USER [myid:%X{myid}] %-5level [%logger] %msg%n</pattern></encoder>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"F\"/></root>\n"
                + "</configuration>\n");
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(data.resolve("myid"), "2\n");
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, String.join("\n", "tickTime=200", "initLimit=5", "syncLimit=2", "dataDir=" + data,
                "clientPort=" + freePort(), "clientPortAddress=127.0.0.1",
                "server.1=127.0.0.1:" + freePort() + ":" + freePort(),
                "server.2=127.0.0.1:" + freePort() + ":" + freePort(),
                "server.3=127.0.0.1:" + freePort() + ":" + freePort()) + "\n");

        ProcessBuilder pb = new ProcessBuilder(ServerProcess.repoRoot().resolve("bin/zabkit-server").toString(),
                cfg.toString());
        pb.environment().put("ZABKIT_SKIP_BUILD", "1");
        pb.environment().put("JAVA_OPTS", "-Dlogback.configurationFile=" + logback);
        pb.redirectErrorStream(true);
        Path console = dir.resolve("console.txt");
        pb.redirectOutput(console.toFile());
        Process server = pb.start();
        try {
            // one line from the runtime (main thread) and one from the core (event loop, via JUL)
            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (!(text(log).contains("serving on") && text(log).contains("LOOKING"))) {
                assertTrue(server.isAlive(), "server exited; console:\n" + text(console));
                assertTrue(System.currentTimeMillis() < deadline, "no lines in the user's log file:\n" + text(log));
                Thread.sleep(50);
            }
        } finally {
            server.destroy(); // SIGTERM to this process only
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "server ignored SIGTERM");
        }
        List<String> lines = Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
        assertTrue(lines.size() >= 3, String.join("\n", lines));
        for (String line : lines) {
            assertTrue(line.startsWith("USER [myid:2] "), "a line without the user's pattern or myid: " + line);
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("[zabkit.zab]")), "the core's lines: " + lines);
        assertEquals("", text(console).strip(), "the default stderr appender replaced by the user's file");
    }

    private static String text(Path p) throws java.io.IOException {
        return Files.exists(p) ? Files.readString(p) : "";
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
