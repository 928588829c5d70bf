package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.EnsembleConfig;
import io.zabkit.bench.ServerExtras;
import io.zabkit.bench.SystemUnderTest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Seed 003 (EL-Sanosi and Ezhilchelvan, section 3 and 4.1): abdelivery latency and throughput of Zab and
 * its variants by write ratio, on real zabkit ensembles selected by zabkit.broadcast, with Apache ZooKeeper
 * 3.9.4 (classic Zab) in the same run. Parts: "net3" and "net57" (the paper's Net-Only: forceSync=no and
 * every dataDir on /dev/shm, for both systems; N = 3, then N = 5 and 7), "disk" (forceSync=yes on the disk,
 * N = 3); "headlines" holds the paper's claims against both modes, read back from the parts' .tsv files.
 */
final class ElSanosiPaper {
    static final List<String> ORDER = List.of("net3", "net57", "disk", "headlines");
    static final String HEADER = """
            # Seed 003: EL-Sanosi and Ezhilchelvan, Zab's variants (sections 3 and 4.1)

            Written by `make papers-el-sanosi` (io.zabkit.bench.papers.ElSanosiMain); the method, the paper's
            setup and what differs here are in [../ANALYSIS.md](../ANALYSIS.md), section "Seed 003".
            Latencies are means over each window's writes, then the mean of the windows with its 95%
            confidence interval (Student's t). zabkit's "server" latency is each server's own receipt to
            reply-after-abdelivery (mntr's zabkit_write_latency_*), the paper's measure; "client" is the
            latency the benchmark's client sees, the only one ZooKeeper offers.
            """;
    static final List<Integer> WRITE_PERCENTS = List.of(25, 50, 75, 100);
    static final String TSV_HEAD = "mode\tsystem\tvariant\tservers\twrite_percent\twindows\twrites_per_window\t"
            + "server_latency_ms\tserver_latency_ci\tclient_latency_ms\tclient_latency_ci\twrites_per_s\t"
            + "writes_per_s_ci\treads_per_s\terrors";

    /** One protocol as a server runs it: ZooKeeper's classic Zab, or zabkit with its zoo.cfg broadcast lines. */
    record Protocol(String label, SystemUnderTest system, List<String> cfgLines) {
        boolean isZooKeeper() {
            return system == SystemUnderTest.ZOOKEEPER;
        }

        /** The paper's variants where they apply: ZabAc is for exactly 3 servers (impl/README.md). */
        boolean runsOn(int servers) {
            return !label.equals("ZabAc") || servers == 3;
        }
    }

    static final Protocol ZOOKEEPER = new Protocol("ZooKeeper", SystemUnderTest.ZOOKEEPER, List.of());

    static Protocol zabkit(String variant) {
        // ZabAA is the paper's ZabCT with p = 1 (section 4): every follower acks every proposal to every server
        return switch (variant) {
            case "ZabAA" -> new Protocol("ZabAA", SystemUnderTest.ZABKIT,
                    List.of("zabkit.broadcast=ZabCT", "zabkit.coinTossProbability=1"));
            case "Zab", "ZabAc", "ZabAa", "ZabCt", "ZabCT" -> new Protocol(variant, SystemUnderTest.ZABKIT,
                    List.of("zabkit.broadcast=" + variant));
            default -> throw new IllegalArgumentException("unknown variant '" + variant
                    + "': Zab, ZabAc, ZabAa, ZabCt, ZabCT or ZabAA");
        };
    }

    /** How a part loads each ensemble. */
    record Settings(int clients, long warmupWrites, long windowWrites, int windows, List<Integer> writePercents) {
        Settings {
            if (clients < 1 || windowWrites < 1 || windows < 2 || writePercents.isEmpty()) {
                throw new IllegalArgumentException("clients >= 1, windows of >= 1 write, >= 2 windows (an interval)");
            }
        }
    }

    private ElSanosiPaper() {}

    /** Runs every protocol on every server count of one mode and writes PART.{tsv,md,png,svg}. */
    static void part(Path out, String name, boolean netOnly, List<Integer> sizes, List<Protocol> protocols,
            Settings s, Consumer<String> log) throws IOException, InterruptedException {
        Part part = new Part(out, name, (netOnly ? "Net-Only: forceSync=no, dataDir on /dev/shm" :
                "With the disk: forceSync=yes, dataDir on the disk") + ", N = " + sizes + ", " + s.clients()
                + " closed-loop clients", TSV_HEAD, log);
        List<Row> rows = new ArrayList<>();
        for (int n : sizes) {
            for (Protocol p : protocols) {
                if (p.runsOn(n)) {
                    rows.addAll(runEnsemble(part, netOnly, n, p, s));
                }
            }
        }
        part.text("Setup: " + s.clients() + " clients (the paper's 250 scaled down for 2 cores), each with one "
                + "request in flight and pinned round-robin to the N servers (client i on server i mod N); 1 KB "
                + "setData (write) or getData (read) of the client's own znode; warm-up " + s.warmupWrites()
                + " writes at each write ratio (after " + 4 * s.windowWrites() + " at 50% on each fresh ensemble, "
                + "for the JIT), then " + s.windows() + " back-to-back windows of " + s.windowWrites()
                + " acknowledged writes each (the paper: 20 separate runs of 10,000). Both systems "
                + (netOnly ? "with forceSync=no and dataDir on /dev/shm (the paper's Net-Only)."
                        : "with forceSync=yes and dataDir on the disk (/tmp).") + "\n");
        ElSanosiReport.tables(part, rows, sizes);
        ElSanosiReport.charts(out, name, netOnly, rows.stream().map(ElSanosiReport.Point::of).toList(), sizes);
        part.finish(ORDER, HEADER);
    }

    /** A measured point: protocol, N, write ratio, and the windows' intervals. */
    record Row(String mode, Protocol protocol, int servers, int writePercent, int windows, long windowWrites,
            MeanInterval server, MeanInterval client, MeanInterval writesPerS, double readsPerS, long errors) {}

    private static List<Row> runEnsemble(Part part, boolean netOnly, int n, Protocol p, Settings s)
            throws InterruptedException {
        List<Row> rows = new ArrayList<>();
        EnsembleConfig config = EnsembleConfig.defaults(p.system()).withServers(n).withForceSync(!netOnly)
                .withAssertions(false);
        ServerExtras extras = new ServerExtras(netOnly ? Path.of("/dev/shm") : null, List.of(), p.cfgLines());
        part.log("-- " + p.label() + ", " + n + " servers (load average " + Machine.loadAverage() + ")");
        List<ZooKeeper> clients = new ArrayList<>();
        try (Ensemble e = Ensemble.start(config, extras)) {
            e.awaitQuorum(Systems.QUORUM_TIMEOUT);
            byte[] value = new byte[1024];
            Arrays.fill(value, (byte) 'v');
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < s.clients(); i++) {
                ZooKeeper zk = Systems.session(e, e.ids().get(i % n));
                clients.add(zk);
                String key = "/abcast-" + i;
                try {
                    zk.create(key, value, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                } catch (KeeperException.NodeExistsException x) {
                    // a second run on the same data: the node is there already
                }
                keys.add(key);
            }
            // a fresh ensemble's JVMs are cold: without this the first write ratio measured would pay the JIT
            AbcastLoad.run(clients, keys, value, 50, 3 * s.windowWrites(), s.windowWrites(), 2, null);
            for (int wr : s.writePercents()) {
                AbcastLoad.Result r = AbcastLoad.run(clients, keys, value, wr, s.warmupWrites(), s.windowWrites(),
                        s.windows(), p.isZooKeeper() ? null : () -> WriteLatencyProbe.read(e));
                List<AbcastLoad.Window> w = r.windows();
                double seconds = w.stream().mapToDouble(AbcastLoad.Window::seconds).sum();
                Row row = new Row(netOnly ? "net-only" : "disk", p, n, wr, w.size(), s.windowWrites(),
                        MeanInterval.of(w.stream().map(AbcastLoad.Window::serverWriteMs).toList()),
                        MeanInterval.of(w.stream().map(AbcastLoad.Window::clientWriteMs).toList()),
                        MeanInterval.of(w.stream().map(AbcastLoad.Window::writesPerSecond).toList()),
                        w.stream().mapToLong(AbcastLoad.Window::reads).sum() / seconds, r.errors());
                rows.add(row);
                part.row(row.mode(), p.system().label(), p.label(), n, wr, row.windows(), row.windowWrites(),
                        row.server().mean(), row.server().halfWidth(), row.client().mean(), row.client().halfWidth(),
                        row.writesPerS().mean(), row.writesPerS().halfWidth(), row.readsPerS(), row.errors());
            }
        } catch (IOException | KeeperException | RuntimeException x) {
            part.log("!! " + p.label() + " on " + n + " servers failed: " + x);
            part.text("- " + p.label() + ", " + n + " servers: **failed** (" + x.getMessage() + ")");
        } finally {
            clients.forEach(Systems::close);
        }
        return rows;
    }
}
