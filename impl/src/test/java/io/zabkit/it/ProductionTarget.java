package io.zabkit.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * zabkit's production server, {@code io.zabkit.runtime.ServerMain zoo.cfg}, in its own JVM (with -ea),
 * so the client tests also cover the real event loop, disk writer and sockets. Restart is SIGTERM and
 * a new process on the same data and port. The server's output goes to server.log in the data dir.
 */
final class ProductionTarget implements Target {
    static final Target.Factory FACTORY = ProductionTarget::start;
    private static final long START_TIMEOUT_S = 30;

    private final Path dataDir;
    private final int port;
    private final Path config;
    /** JVM options of the server process (a JAAS file, say), before the main class. */
    private final List<String> jvmFlags;
    private Process process;
    private Thread logPump;

    private ProductionTarget(Path dataDir, int port, Path config, List<String> jvmFlags) {
        this.dataDir = dataDir;
        this.port = port;
        this.config = config;
        this.jvmFlags = List.copyOf(jvmFlags);
    }

    static ProductionTarget start(Path dataDir, int port, Settings settings) throws Exception {
        return start(dataDir, port, settings, List.of(), List.of());
    }

    /** A factory whose zoo.cfg also has {@code extraLines} (key=value). */
    static Target.Factory factoryWith(String... extraLines) {
        return (dataDir, port, settings) -> start(dataDir, port, settings, List.of(), List.of(extraLines));
    }

    /** A factory whose server JVM gets {@code jvmFlags} and whose zoo.cfg also has {@code extraLines}. */
    static Target.Factory factoryWith(List<String> jvmFlags, String... extraLines) {
        return (dataDir, port, settings) -> start(dataDir, port, settings, jvmFlags, List.of(extraLines));
    }

    /**
     * A factory whose zoo.cfg has no clientPort: {@code secureClientPort=port} (with {@code extraLines}, which
     * must configure TLS) takes every client.
     */
    static Target.Factory tlsOnlyFactoryWith(String... extraLines) {
        return (dataDir, port, settings) -> start(dataDir, port, settings, List.of(), List.of(extraLines),
                List.of("secureClientPortAddress=127.0.0.1", "secureClientPort=" + port));
    }

    private static ProductionTarget start(Path dataDir, int port, Settings settings, List<String> jvmFlags,
                                          List<String> extraLines) throws Exception {
        return start(dataDir, port, settings, jvmFlags, extraLines,
                List.of("clientPortAddress=127.0.0.1", "clientPort=" + port));
    }

    private static ProductionTarget start(Path dataDir, int port, Settings settings, List<String> jvmFlags,
                                          List<String> extraLines, List<String> portLines) throws Exception {
        Files.createDirectories(dataDir);
        Path config = dataDir.resolve("zoo.cfg");
        Files.writeString(config, String.join("\n",
                "tickTime=" + settings.tickTimeMs(),
                "minSessionTimeout=" + settings.minSessionTimeoutMs(),
                "maxSessionTimeout=" + settings.maxSessionTimeoutMs(),
                "maxClientCnxns=" + settings.maxClientCnxns(),
                "dataDir=" + dataDir.resolve("data"),
                String.join("\n", portLines),
                "forceSync=no",
                "4lw.commands.whitelist=*",
                String.join("\n", extraLines),
                ""));
        ProductionTarget t = new ProductionTarget(dataDir, port, config, jvmFlags);
        t.launch();
        return t;
    }

    private void launch() throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-ea", "-Xmx256m"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.zabkit.runtime.ServerMain",
                config.toString()));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectErrorStream(true);
        process = pb.start();
        CompletableFuture<Void> serving = new CompletableFuture<>();
        Path log = dataDir.resolve("server.log");
        Process p = process;
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    Files.writeString(log, line + "\n", StandardCharsets.UTF_8,
                            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                    if (line.contains("serving on")) {
                        serving.complete(null);
                    }
                }
            } catch (IOException e) {
                serving.completeExceptionally(e);
            }
            serving.completeExceptionally(new IllegalStateException("the server exited before serving"));
        }, "zabkit-server-log-" + port);
        pump.setDaemon(true);
        pump.start();
        logPump = pump;
        try {
            serving.get(START_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            process.destroyForcibly();
            throw new AssertionError("zabkit server did not start; its log:\n" + readLog(), e);
        }
    }

    String readLog() throws IOException {
        Path log = dataDir.resolve("server.log");
        return Files.exists(log) ? Files.readString(log) : "(no output)";
    }

    @Override
    public String name() {
        return "zabkit-process";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void restart() throws Exception {
        stopProcess();
        launch();
    }

    @Override
    public boolean canDropConnections() {
        return false;
    }

    @Override
    public void dropConnections() {
        throw new UnsupportedOperationException("a separate server process cannot be told to drop connections");
    }

    @Override
    public void close() throws Exception {
        boolean wasAlive = process.isAlive();
        int status = stopProcess();
        String log = readLog();
        if (log.contains("AssertionError")) {
            throw new AssertionError("a server assertion failed; its log:\n" + log);
        }
        if (!wasAlive) {
            throw new AssertionError("the zabkit server died during the test (exit status " + status
                    + "); its log:\n" + log);
        }
        if (status != 0) {
            throw new AssertionError("the zabkit server exited " + status + " on SIGTERM, not 0; its log:\n" + log);
        }
    }

    /** SIGTERM, then the exit status. */
    private int stopProcess() throws Exception {
        process.destroy(); // SIGTERM: the server finishes queued disk writes and exits
        if (!process.waitFor(START_TIMEOUT_S, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("zabkit server ignored SIGTERM for " + START_TIMEOUT_S + " s");
        }
        logPump.join(TimeUnit.SECONDS.toMillis(START_TIMEOUT_S)); // every line is in server.log now
        return process.exitValue();
    }
}
