package io.zabkit.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * An ensemble of N servers of one system, each a separate OS process on its own loopback address
 * (server i on 127.0.0.i), with its own temporary dataDir and log file. Kills act only on the
 * processes this object started, by their PID; {@link #close()} (also run by a shutdown hook)
 * kills every one of them and deletes the temporary directory.
 */
public final class Ensemble implements AutoCloseable {
    private static final long POLL_MS = 200;
    private static final long KILL_WAIT_MS = 10_000;
    private static final int LOG_TAIL_LINES = 15;

    private final EnsembleConfig config;
    private final Path baseDir;
    private final List<Server> servers;
    private final Thread shutdownHook;
    private final ServerExtras extras;
    private boolean closed;

    /** One server: its fixed addresses and files, and the process currently running it (null when down). */
    private static final class Server {
        final int id;
        final String host;
        final int clientPort;
        final int quorumPort;
        final int electionPort;
        final Path dir;
        Process process;

        Server(int id, int clientPort, int quorumPort, int electionPort, Path dir) {
            this.id = id;
            this.host = "127.0.0." + id;
            this.clientPort = clientPort;
            this.quorumPort = quorumPort;
            this.electionPort = electionPort;
            this.dir = dir;
        }

        Path cfg() { return dir.resolve("zoo.cfg"); }
        Path dataDir() { return dir.resolve("data"); }
        Path log() { return dir.resolve("server.log"); }
        boolean running() { return process != null && process.isAlive(); }
    }

    private Ensemble(EnsembleConfig config, Path baseDir, List<Server> servers, ServerExtras extras) {
        this.config = config;
        this.extras = extras;
        this.baseDir = baseDir;
        this.servers = servers;
        this.shutdownHook = new Thread(this::killAll, "ensemble-shutdown-" + config.system().label());
    }

    /** Writes every server's zoo.cfg and myid and starts every process; does not wait for a quorum. */
    public static Ensemble start(EnsembleConfig config) throws IOException {
        return start(config, ServerExtras.NONE);
    }

    /** As {@link #start(EnsembleConfig)}, with an experiment's directory, JVM options and zoo.cfg lines. */
    public static Ensemble start(EnsembleConfig config, ServerExtras extras) throws IOException {
        String prefix = "zabkit-ensemble-" + config.system().label() + "-";
        Path base = extras.parentDir() == null ? Files.createTempDirectory(prefix)
                : Files.createTempDirectory(Files.createDirectories(extras.parentDir()), prefix);
        List<Server> servers = allocate(config.servers(), base);
        Ensemble e = new Ensemble(config, base, servers, extras);
        Runtime.getRuntime().addShutdownHook(e.shutdownHook);
        try {
            for (Server s : servers) {
                e.writeFiles(s);
            }
            for (Server s : servers) {
                e.launch(s);
            }
            return e;
        } catch (IOException | RuntimeException x) {
            e.close();
            throw x;
        }
    }

    /** Three free ports on each server's own address; all sockets are held until every port is chosen. */
    private static List<Server> allocate(int n, Path base) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        List<Server> out = new ArrayList<>();
        try {
            for (int id = 1; id <= n; id++) {
                InetAddress addr = InetAddress.getByName("127.0.0." + id);
                int[] ports = new int[3];
                for (int k = 0; k < 3; k++) {
                    ServerSocket s = new ServerSocket(0, 1, addr);
                    held.add(s);
                    ports[k] = s.getLocalPort();
                }
                out.add(new Server(id, ports[0], ports[1], ports[2], base.resolve("server" + id)));
            }
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
        return out;
    }

    private void writeFiles(Server s) throws IOException {
        Files.createDirectories(s.dataDir());
        Files.writeString(s.dataDir().resolve("myid"), s.id + "\n");
        Files.writeString(s.cfg(), zooCfg(s));
        // ZooKeeper logs through logback: to stdout, which goes to server.log like zabkit's output.
        Files.writeString(s.dir.resolve("logback.xml"), "<configuration><appender name=\"O\" "
                + "class=\"ch.qos.logback.core.ConsoleAppender\"><encoder><pattern>%d{HH:mm:ss.SSS} [%thread] %-5level "
                + "%logger{30} - %msg%n</pattern></encoder></appender><root level=\"INFO\"><appender-ref ref=\"O\"/>"
                + "</root></configuration>\n");
    }

    /** The one zoo.cfg format both systems read; only the client address differs between servers. */
    private String zooCfg(Server self) {
        StringBuilder b = new StringBuilder();
        b.append("# written by io.zabkit.bench.Ensemble for server ").append(self.id).append('\n');
        b.append("tickTime=").append(config.tickTimeMs()).append('\n');
        b.append("initLimit=").append(config.initLimitTicks()).append('\n');
        b.append("syncLimit=").append(config.syncLimitTicks()).append('\n');
        b.append("dataDir=").append(self.dataDir()).append('\n');
        b.append("clientPortAddress=").append(self.host).append('\n');
        b.append("clientPort=").append(self.clientPort).append('\n');
        b.append("forceSync=").append(config.forceSync() ? "yes" : "no").append('\n');
        b.append("maxClientCnxns=0\n");
        b.append("4lw.commands.whitelist=srvr,ruok,mntr\n");
        b.append("admin.enableServer=false\n");
        extras.cfgLines().forEach(line -> b.append(line).append('\n'));
        // One server: no server lines, so both systems run it standalone (ZooKeeper's ZooKeeperServerMain,
        // zabkit's one-voter core), as the papers' "1 server" points did.
        for (Server s : servers.size() > 1 ? servers : List.<Server>of()) {
            b.append("server.").append(s.id).append('=').append(s.host).append(':').append(s.quorumPort).append(':')
                    .append(s.electionPort).append(';').append(s.host).append(':').append(s.clientPort).append('\n');
        }
        return b.toString();
    }

    private List<String> argv(Server s) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return switch (config.system()) {
            case ZOOKEEPER -> Stream.of(Stream.of(java, "-Xmx" + config.serverHeapMb() + "m", "-XX:+UseSerialGC"),
                    serverJvmOptions(),
                    Stream.of("-Dlogback.configurationFile=" + s.dir.resolve("logback.xml"),
                            "-Dzookeeper.admin.enableServer=false", "-cp", config.zookeeperClasspath(),
                            "org.apache.zookeeper.server.quorum.QuorumPeerMain", s.cfg().toString()))
                    .flatMap(x -> x).toList();
            case ZABKIT -> List.of(config.repoRoot().resolve("bin/zabkit-server").toString(), s.cfg().toString());
        };
    }

    /**
     * The extras' JVM options, then those of -Dzabkit.serverJvmOptions (space-separated, e.g. "-Xlog:gc",
     * which lands in each server's log): diagnostics for one run without a code change.
     */
    private Stream<String> serverJvmOptions() {
        String more = System.getProperty("zabkit.serverJvmOptions", "").trim();
        return Stream.concat(extras.jvmOptions().stream(), more.isEmpty() ? Stream.of() : Stream.of(more.split("\\s+")));
    }

    private void launch(Server s) throws IOException {
        if (s.running()) {
            throw new IllegalStateException("server " + s.id + " is already running (pid " + s.process.pid() + ")");
        }
        ProcessBuilder pb = new ProcessBuilder(argv(s)).directory(config.repoRoot().toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(s.log().toFile()));
        if (config.system() == SystemUnderTest.ZABKIT) {
            // The caller built impl/ (make bench, or the Maven reactor); N servers must not race to rebuild it.
            pb.environment().put("ZABKIT_SKIP_BUILD", "1");
            pb.environment().put("ZABKIT_ASSERTIONS", config.assertions() ? "1" : "0");
            pb.environment().put("JAVA_OPTS", String.join(" ", Stream.concat(
                    Stream.of("-Xmx" + config.serverHeapMb() + "m", "-XX:+UseSerialGC"), serverJvmOptions()).toList()));
        }
        s.process = pb.start();
    }

    public SystemUnderTest system() { return config.system(); }

    public EnsembleConfig config() { return config; }

    public int size() { return servers.size(); }

    /** Server ids 1..N. */
    public List<Integer> ids() { return servers.stream().map(s -> s.id).toList(); }

    public InetSocketAddress clientAddress(int id) {
        Server s = server(id);
        return new InetSocketAddress(s.host, s.clientPort);
    }

    /** host:port of one server: a client given only this stays on that server. */
    public String connectString(int id) {
        Server s = server(id);
        return s.host + ":" + s.clientPort;
    }

    /** host:port of every server. */
    public String connectString() {
        return servers.stream().map(s -> s.host + ":" + s.clientPort).collect(Collectors.joining(","));
    }

    public boolean isRunning(int id) { return server(id).running(); }

    public OptionalLong pid(int id) {
        Server s = server(id);
        return s.running() ? OptionalLong.of(s.process.pid()) : OptionalLong.empty();
    }

    public Path logFile(int id) { return server(id).log(); }

    /**
     * CPU time (user + system) the running servers have used since they started, summed: with the ops
     * of a point, the servers' cost per operation, which the other jobs on a shared machine disturb far
     * less than throughput. bin/zabkit-server execs java, so each PID is the server JVM for both systems.
     */
    public Duration serversCpu() {
        Duration sum = Duration.ZERO;
        for (Server s : servers) {
            if (s.running()) {
                sum = sum.plus(s.process.info().totalCpuDuration().orElseThrow(() -> new IllegalStateException(
                        "the OS does not report the CPU time of server " + s.id + " (pid " + s.process.pid() + ")")));
            }
        }
        return sum;
    }

    /** The srvr reply of server id, or empty if it does not answer. */
    public Optional<String> srvr(int id) {
        return FourLetterWord.send(clientAddress(id), "srvr");
    }

    /**
     * Each server's mode as srvr reports it ("leader", "follower"); "-" when it runs but does not serve,
     * "down" after {@link #kill}, "exited(code)" when its process ended on its own.
     */
    public Map<Integer, String> modes() {
        Map<Integer, String> out = new TreeMap<>();
        for (Server s : servers) {
            out.put(s.id, s.running() ? srvr(s.id).flatMap(FourLetterWord::mode).orElse("-")
                    : s.process != null ? "exited(" + s.process.exitValue() + ")" : "down");
        }
        return out;
    }

    /** The server reporting Mode: leader, if exactly one does. */
    public OptionalInt leader() {
        int[] leaders = modes().entrySet().stream().filter(e -> leads(e.getValue()))
                .mapToInt(Map.Entry::getKey).toArray();
        return leaders.length == 1 ? OptionalInt.of(leaders[0]) : OptionalInt.empty();
    }

    /**
     * Waits until every running server serves, exactly one as leader and the others as followers, and
     * the running servers are a quorum. Returns the leader's id.
     */
    public int awaitQuorum(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<Integer, String> modes = Map.of();
        while (System.nanoTime() < deadline) {
            modes = modes();
            if (modes.values().stream().anyMatch(m -> m.startsWith("exited"))) {
                throw new IllegalStateException(config.system().label() + " ensemble: a server exited on its own; "
                        + "modes " + modes + "\n" + describeLogs());
            }
            OptionalInt leader = servingLeader(modes);
            if (leader.isPresent()) {
                return leader.getAsInt();
            }
            Thread.sleep(POLL_MS);
        }
        throw new IllegalStateException(config.system().label() + " ensemble: no quorum serving within " + timeout
                + "; modes " + modes + "\n" + describeLogs());
    }

    private OptionalInt servingLeader(Map<Integer, String> modes) {
        List<Integer> running = modes.entrySet().stream().filter(e -> !e.getValue().matches("down|exited.*"))
                .map(Map.Entry::getKey).toList();
        long leaders = running.stream().filter(id -> leads(modes.get(id))).count();
        boolean allServe = running.stream().allMatch(id -> leads(modes.get(id)) || modes.get(id).equals("follower"));
        if (leaders != 1 || !allServe || running.size() <= servers.size() / 2) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(running.stream().filter(id -> leads(modes.get(id))).findFirst().orElseThrow());
    }

    /** A leader, or the one server of a standalone ensemble (it orders every write, as a leader does). */
    private boolean leads(String mode) {
        return mode.equals("leader") || (servers.size() == 1 && mode.equals("standalone"));
    }

    /** kill -9 of server id's process (and of any child it started), by PID; returns the PID. */
    public long kill(int id) throws InterruptedException {
        Server s = server(id);
        if (!s.running()) {
            throw new IllegalStateException("server " + id + " is not running");
        }
        long pid = s.process.pid();
        killProcess(s.process);
        s.process = null;
        return pid;
    }

    /**
     * kill -9 like {@link #kill}, returning the System.nanoTime() taken right before the signal: the
     * walk over /proc for children that precedes it can take hundreds of ms on a loaded host, and a
     * caller timing a window from the crash must not count it.
     */
    public long killTimed(int id) throws InterruptedException {
        Server s = server(id);
        if (!s.running()) {
            throw new IllegalStateException("server " + id + " is not running");
        }
        List<ProcessHandle> children = s.process.descendants().toList();
        long signalledNs = System.nanoTime();
        s.process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        if (!s.process.waitFor(KILL_WAIT_MS, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("pid " + s.process.pid() + " survived SIGKILL for " + KILL_WAIT_MS + " ms");
        }
        s.process = null;
        return signalledNs;
    }

    /**
     * SIGSTOP of server id (kill -STOP by the PID this object started), returning System.nanoTime()
     * taken once kill(1) has exited, so the signal is in: anything issued later met a stopped server
     * (starting kill(1) takes ms, in which a server still works). {@link #resume} sends SIGCONT.
     */
    public long pauseTimed(int id) throws IOException, InterruptedException {
        return signal(id, "-STOP");
    }

    /** SIGCONT of a server paused with {@link #pauseTimed}. */
    public void resume(int id) throws IOException, InterruptedException {
        signal(id, "-CONT");
    }

    private long signal(int id, String sig) throws IOException, InterruptedException {
        Server s = server(id);
        if (!s.running()) {
            throw new IllegalStateException("server " + id + " is not running");
        }
        Process kill = new ProcessBuilder("kill", sig, Long.toString(s.process.pid())).inheritIO().start();
        if (!kill.waitFor(KILL_WAIT_MS, TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill " + sig + " " + s.process.pid() + " failed");
        }
        return System.nanoTime();
    }

    private static void killProcess(Process p) throws InterruptedException {
        List<ProcessHandle> children = p.descendants().toList();
        p.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        if (!p.waitFor(KILL_WAIT_MS, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("pid " + p.pid() + " survived SIGKILL for " + KILL_WAIT_MS + " ms");
        }
    }

    /** Starts server id again on its existing dataDir (it must be down); does not wait for it to serve. */
    public void restart(int id) throws IOException {
        launch(server(id));
    }

    /** The last lines of every server's log, for failure messages. */
    public String describeLogs() {
        StringBuilder b = new StringBuilder();
        for (Server s : servers) {
            b.append("--- ").append(s.log()).append(" (last ").append(LOG_TAIL_LINES).append(" lines)\n");
            try {
                List<String> lines = Files.exists(s.log()) ? Files.readAllLines(s.log(), StandardCharsets.UTF_8) : List.of();
                lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())
                        .forEach(l -> b.append(l).append('\n'));
            } catch (IOException | UncheckedIOException e) {
                b.append("(unreadable: ").append(e.getMessage()).append(")\n");
            }
        }
        return b.toString();
    }

    private Server server(int id) {
        if (id < 1 || id > servers.size()) {
            throw new IllegalArgumentException("no server " + id + " in an ensemble of " + servers.size());
        }
        return servers.get(id - 1);
    }

    private synchronized void killAll() {
        for (Server s : servers) {
            if (s.process != null) {
                try {
                    killProcess(s.process);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    System.err.println("ensemble: " + e.getMessage());
                }
                s.process = null;
            }
        }
    }

    /** Kills every process this ensemble started and deletes its directory, unless -Dzabkit.keepEnsembleDirs=true. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook itself is running
        }
        if (Boolean.getBoolean("zabkit.keepEnsembleDirs")) {
            System.err.println("ensemble: kept " + baseDir);
            return;
        }
        deleteTree(baseDir);
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("ensemble: could not delete " + root + ": " + e.getMessage());
        }
    }

    /** Ids of the servers that are running now. */
    public List<Integer> runningIds() {
        return IntStream.rangeClosed(1, servers.size()).filter(this::isRunning).boxed().toList();
    }
}
