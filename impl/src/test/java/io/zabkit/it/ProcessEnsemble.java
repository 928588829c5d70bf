package io.zabkit.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A 3-server ensemble of one system (and any observers beside it, ids 4 on), each server in its own JVM on loopback with the test classpath:
 * zabkit's {@code ServerMain} (with -ea) or Apache ZooKeeper 3.9.4's {@code QuorumPeerMain}, from the same
 * zoo.cfg lines. Servers start and stop one by one, so a test can take a server's quorum away and give it
 * back. Each server's output goes to server-N.log in the directory.
 */
final class ProcessEnsemble implements AutoCloseable {
    enum Kind {
        ZABKIT("io.zabkit.runtime.ServerMain"),
        ZOOKEEPER("org.apache.zookeeper.server.quorum.QuorumPeerMain");

        final String mainClass;

        Kind(String mainClass) {
            this.mainClass = mainClass;
        }
    }

    /** The voting servers, ids 1 to SIZE. */
    static final int SIZE = 3;
    private static final long STOP_WAIT_S = 30;

    private final Kind kind;
    private final Path dir;
    /** Voters and observers. */
    private final int members;
    private final List<String> jvmFlags;
    private final Map<Integer, Integer> clientPorts = new TreeMap<>();
    private final Map<Integer, Process> running = new TreeMap<>();

    /** Writes each server's zoo.cfg and myid; starts none. {@code extraLines} go into every zoo.cfg. */
    ProcessEnsemble(Kind kind, Path dir, List<String> jvmFlags, String... extraLines) throws IOException {
        this(kind, dir, 0, jvmFlags, extraLines);
    }

    /**
     * With {@code observers} observers beside the SIZE voters (ids SIZE + 1 on): their server lines end in
     * ":observer", and their own zoo.cfg says peerType=observer, as ZooKeeper's observer guide configures them.
     */
    ProcessEnsemble(Kind kind, Path dir, int observers, List<String> jvmFlags, String... extraLines) throws IOException {
        this.kind = kind;
        this.dir = dir;
        this.members = SIZE + observers;
        this.jvmFlags = List.copyOf(jvmFlags);
        List<String> serverLines = new ArrayList<>();
        for (int id = 1; id <= members; id++) {
            int clientPort = Clients.freePort();
            clientPorts.put(id, clientPort);
            serverLines.add("server." + id + "=127.0.0.1:" + Clients.freePort() + ":" + Clients.freePort()
                    + (id > SIZE ? ":observer" : "") + ";127.0.0.1:" + clientPort);
        }
        for (int id = 1; id <= members; id++) {
            Path data = dir.resolve("data-" + id);
            Files.createDirectories(data);
            Files.writeString(data.resolve("myid"), id + "\n");
            Files.writeString(cfg(id), String.join("\n",
                    "tickTime=200", "initLimit=10", "syncLimit=5",
                    "dataDir=" + data,
                    "clientPortAddress=127.0.0.1",
                    "clientPort=" + clientPorts.get(id),
                    "forceSync=no",
                    "4lw.commands.whitelist=*",
                    "admin.enableServer=false",
                    id > SIZE ? "peerType=observer" : "",
                    String.join("\n", extraLines),
                    String.join("\n", serverLines), ""));
        }
    }

    private Path cfg(int id) {
        return dir.resolve("zoo-" + id + ".cfg");
    }

    Path log(int id) {
        return dir.resolve("server-" + id + ".log");
    }

    int clientPort(int id) {
        return clientPorts.get(id);
    }

    /** Every server's client address, as a client's connect string lists them. */
    String connectString() {
        StringBuilder b = new StringBuilder();
        for (int port : clientPorts.values()) {
            b.append(b.length() == 0 ? "" : ",").append("127.0.0.1:").append(port);
        }
        return b.toString();
    }

    void start(int id) throws IOException {
        if (running.containsKey(id)) {
            throw new IllegalStateException("server " + id + " is already running");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-ea", "-Xmx256m"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-Dzookeeper.admin.enableServer=false", "-cp", System.getProperty("java.class.path"),
                kind.mainClass, cfg(id).toString()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log(id).toFile()));
        running.put(id, pb.start());
    }

    /** SIGTERM, and waits for the server to exit. */
    void stop(int id) throws Exception {
        Process p = running.remove(id);
        if (p == null) {
            return;
        }
        p.destroy();
        if (!p.waitFor(STOP_WAIT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(kind + " server " + id + " ignored SIGTERM for " + STOP_WAIT_S + " s");
        }
    }

    /** The answer to a four-letter word, or "" while the server does not answer. */
    String fourLetterWord(int id, String word) {
        try {
            return Clients.fourLetterWord(clientPort(id), word).trim();
        } catch (IOException e) {
            return "";
        }
    }

    /** Waits until server id answers {@code isro} with {@code expected} ("rw", "ro"). */
    void awaitIsro(int id, String expected, long timeoutS) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        String last = "";
        while (System.nanoTime() < deadline) {
            last = fourLetterWord(id, "isro");
            if (last.equals(expected)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(kind + " server " + id + " answered isro '" + last + "', not '" + expected
                + "', for " + timeoutS + " s; logs:\n" + logs());
    }

    String logs() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int id = 1; id <= members; id++) {
            if (Files.exists(log(id))) {
                String text = Files.readString(log(id));
                b.append("--- server ").append(id).append(" (last 4000 chars)\n")
                        .append(text.substring(Math.max(0, text.length() - 4000)));
            }
        }
        return b.toString();
    }

    /** Stops every server; a zabkit server's failed assertion fails the test. */
    @Override
    public void close() throws Exception {
        for (int id : new ArrayList<>(running.keySet())) {
            stop(id);
        }
        for (int id = 1; id <= members; id++) {
            if (kind == Kind.ZABKIT && Files.exists(log(id)) && Files.readString(log(id)).contains("AssertionError")) {
                throw new AssertionError("a zabkit server assertion failed; logs:\n" + logs());
            }
        }
    }
}
