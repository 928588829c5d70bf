package io.zabkit.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A zabkit server started with bin/zabkit-server as a separate process; stopped only by its own PID. */
final class ServerProcess implements AutoCloseable {
    static final long START_TIMEOUT_MS = 60_000;

    private final Process process;
    private final Path log;
    final int port;

    private ServerProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    static Path repoRoot() {
        Path impl = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
        return impl.getFileName().toString().equals("impl") ? impl.getParent() : impl;
    }

    /** Starts the server and waits until it answers ruok. Maven built impl already: no build in the script. */
    static ServerProcess start(Path config, int port, Path log) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(repoRoot().resolve("bin/zabkit-server").toString(), config.toString());
        pb.environment().put("ZABKIT_SKIP_BUILD", "1");
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        ServerProcess server = new ServerProcess(pb.start(), log, port);
        server.awaitServing();
        return server;
    }

    long pid() {
        return process.pid();
    }

    private void awaitServing() throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("server exited with " + process.exitValue() + " while starting; log:\n" + logText());
            }
            if ("imok".equals(fourLetterWord("ruok"))) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IOException("server did not answer ruok within " + START_TIMEOUT_MS + " ms; log:\n" + logText());
    }

    String fourLetterWord(String word) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return null;
        }
    }

    /** SIGKILL to this process only. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("server " + pid() + " survived SIGKILL for 30 s");
        }
    }

    /** SIGTERM and wait: the clean stop. Returns the exit status. */
    int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("server " + pid() + " did not stop within 30 s of SIGTERM");
        }
        return process.exitValue();
    }

    String logText() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill9();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
