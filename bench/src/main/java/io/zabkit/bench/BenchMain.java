package io.zabkit.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * {@code make bench}: for each system in turn, on a fresh ensemble with the same zoo.cfg, the
 * throughput and latency points and then the leader-crash rounds; prints a side-by-side table and
 * writes bench.tsv, bench.png and README.md to the output directory.
 */
public final class BenchMain {
    private static final Duration FIRST_QUORUM_TIMEOUT = Duration.ofSeconds(90);
    private static final String KEYS = "/bench";
    private static final Duration KEYS_TIMEOUT = Duration.ofSeconds(60);

    private final BenchOptions options;
    private final List<PointResult> points = new ArrayList<>();
    private final List<CrashRound> crashes = new ArrayList<>();
    /** system -> why its run stopped early. */
    private final Map<SystemUnderTest, String> failures = new LinkedHashMap<>();
    private final long startNs = System.nanoTime();

    private BenchMain(BenchOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage() + "\n" + BenchOptions.USAGE);
            System.exit(2);
            return;
        }
        System.exit(new BenchMain(options).run());
    }

    private int run() throws Exception {
        Instant started = Instant.now();
        String load = Report.loadAverage();
        progress("bench: systems " + options.systems() + ", " + options.servers() + " servers, forceSync="
                + (options.forceSync() ? "yes" : "no") + ", " + options.load().clients() + " clients x "
                + options.load().outstanding() + " outstanding, " + options.load().valueBytes() + "-byte values, "
                + options.load().warmup().toSeconds() + " s warm-up + " + options.load().measure().toSeconds()
                + " s per point, driven by the " + options.client().label() + ", " + options.crashRounds()
                + " crash rounds; load average " + load);
        for (SystemUnderTest system : options.systems()) {
            runSystem(system);
        }
        Report report = new Report(options, points, crashes, failures, started, load);
        String table = report.table();
        System.out.println();
        System.out.println(table);
        report.write(table);
        progress("bench: wrote " + options.out().resolve("bench.tsv") + ", bench.png and README.md");
        failures.forEach((s, why) -> System.err.println("bench: " + s.label() + " did not finish: " + why));
        return failures.isEmpty() ? 0 : 1;
    }

    private void runSystem(SystemUnderTest system) {
        EnsembleConfig cfg = EnsembleConfig.defaults(system).withServers(options.servers())
                .withForceSync(options.forceSync()).withAssertions(false);
        progress(system.label() + ": starting " + cfg.servers() + " servers");
        try (Ensemble e = Ensemble.start(cfg)) {
            int leader = e.awaitQuorum(FIRST_QUORUM_TIMEOUT);
            progress(system.label() + ": serving, leader is server " + leader + " (" + e.modes() + ")");
            throughput(e);
            leaderCrashes(e);
        } catch (Exception | AssertionError x) {
            failures.put(system, x.getClass().getSimpleName() + ": " + x.getMessage());
            progress(system.label() + ": FAILED: " + x.getMessage());
        }
    }

    /** One throughput point of a load client, on the workload's keys. */
    private interface PointDriver {
        PointResult run(LoadSettings settings, int readPercent, Consumer<String> progress) throws Exception;
    }

    private void throughput(Ensemble e) throws Exception {
        if (options.client() == BenchOptions.LoadClient.LEAN) {
            throughputLean(e);
            return;
        }
        List<ZooKeeper> clients = new ArrayList<>();
        try {
            for (int i = 0; i < options.load().clients(); i++) {
                clients.add(Clients.pinned(e, e.ids().get(i % e.size())));
            }
            List<String> keys = createKeys(clients.get(0));
            measure(e, (settings, reads, progress) -> LoadPoint.run(e.system(), clients, keys, settings, reads,
                    e::serversCpu, progress));
        } finally {
            clients.forEach(Clients::closeQuietly);
        }
    }

    /** The same points driven by the lean client; the keys are created through one official session. */
    private void throughputLean(Ensemble e) throws Exception {
        List<String> keys;
        ZooKeeper creator = Clients.pinned(e, e.ids().get(0));
        try {
            keys = createKeys(creator);
        } finally {
            Clients.closeQuietly(creator);
        }
        List<java.net.InetSocketAddress> servers = e.ids().stream().map(e::clientAddress).toList();
        LoadSettings l = options.load();
        try (LeanLoad lean = new LeanLoad(servers, l.clients(), l.outstanding(), e.config().sessionTimeoutMs())) {
            measure(e, (settings, reads, progress) -> lean.run(e.system(), keys, settings, reads, e::serversCpu,
                    progress));
        }
    }

    /**
     * Unrecorded points at each read ratio of the run, in its order, splitting --jit-warmup-s, so that
     * neither system still JIT-compiles its hot paths while a point is measured (in a profile of
     * zabkit's servers 12 s after start-up, `perf record`, 0% reads, the first point, the C1 and C2
     * compiler threads had half of the servers' CPU samples; after 10 s at 50% reads, still 15%); then
     * the recorded points.
     */
    private void measure(Ensemble e, PointDriver driver) throws Exception {
        LoadSettings l = options.load();
        if (options.jitWarmupS() > 0) {
            long eachS = Math.max(1, Math.round((double) options.jitWarmupS() / options.readPercents().size()));
            progress(e.system().label() + ": JIT warm-up, " + eachS + " s at each read ratio (not recorded)");
            LoadSettings warm = new LoadSettings(l.clients(), l.outstanding(), l.valueBytes(), l.keys(),
                    Duration.ofSeconds(eachS), Duration.ofMillis(200), l.measuredOpsMax());
            for (int reads : options.readPercents()) {
                driver.run(warm, reads, s -> { });
            }
        }
        for (int reads : options.readPercents()) {
            PointResult p = driver.run(l, reads, this::progress);
            points.add(p);
            progress(String.format("%s reads=%d%%: %,.0f ops/s, p50 %.2f ms, p99 %.2f ms, %d errors, "
                    + "servers' CPU %.1f us/op, load client's %.1f us/op", e.system().label(), reads, p.opsPerSecond(),
                    p.p50Ms(), p.p99Ms(), p.errors(), p.serverCpuUsPerOp(), p.clientCpuUsPerOp()));
        }
    }

    /** The keys the workload reads and writes, created with up to the workload's window in flight. */
    private List<String> createKeys(ZooKeeper zk) throws KeeperException, InterruptedException {
        byte[] value = LoadPoint.value(options.load().valueBytes());
        zk.create(KEYS, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        List<String> keys = new ArrayList<>();
        Semaphore window = new Semaphore(options.load().outstanding());
        AtomicInteger failed = new AtomicInteger();
        for (int i = 0; i < options.load().keys(); i++) {
            String key = String.format("%s/k%05d", KEYS, i);
            keys.add(key);
            if (!window.tryAcquire(KEYS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("creating " + key + ": no reply within " + KEYS_TIMEOUT);
            }
            zk.create(key, value, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, (rc, path, ctx, name) -> {
                if (rc != KeeperException.Code.OK.intValue()) {
                    failed.incrementAndGet();
                }
                window.release();
            }, null);
        }
        if (!window.tryAcquire(options.load().outstanding(), KEYS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                || failed.get() > 0) {
            throw new IllegalStateException("creating the " + keys.size() + " keys: " + failed.get()
                    + " failed or unanswered after " + KEYS_TIMEOUT);
        }
        return keys;
    }

    private void leaderCrashes(Ensemble e) throws Exception {
        for (int round = 1; round <= options.crashRounds(); round++) {
            progress(e.system().label() + ": leader crash " + round + "/" + options.crashRounds());
            CrashRound r = LeaderCrash.round(e, round);
            crashes.add(r);
            progress(String.format("%s crash %d: killed leader %d; new leader %d serving after %.0f ms; first write "
                    + "via survivor %.0f ms, via the old leader's client %.0f ms", e.system().label(), round,
                    r.oldLeader(), r.newLeader(), r.leaderServingMs(), r.survivorWriteMs(), r.oldLeaderClientWriteMs()));
        }
    }

    private void progress(String line) {
        System.out.printf("[%6.1f s] %s%n", (System.nanoTime() - startNs) / 1e9, line);
        System.out.flush();
    }
}
