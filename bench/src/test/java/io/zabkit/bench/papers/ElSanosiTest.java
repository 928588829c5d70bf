package io.zabkit.bench.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.EnsembleConfig;
import io.zabkit.bench.ServerExtras;
import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 003's driver: the mntr figures it parses, its intervals, its command line, the headline verdicts
 * (that they can come out both ways), and one QUICK load on a real 3-server ZabAc ensemble whose servers
 * must count exactly the writes the clients saw acknowledged.
 */
class ElSanosiTest {
    @Test
    void mntrWriteLatencyIsParsedAndDifferenced() {
        String mntr = "zk_version\t3.9.4-zabkit\nzk_avg_latency\t0.5000\nzabkit_write_latency_count\t40\n"
                + "zabkit_write_latency_sum_ms\t100\nzabkit_txns_applied\t41\n";
        WriteLatencyProbe.Snapshot s = WriteLatencyProbe.parse(mntr);
        assertEquals(new WriteLatencyProbe.Snapshot(40, 100), s);
        assertEquals(2.5, s.meanMsSince(WriteLatencyProbe.Snapshot.ZERO));
        assertEquals(4.0, new WriteLatencyProbe.Snapshot(50, 140).meanMsSince(s), "(140 - 100) / (50 - 40)");
        assertTrue(Double.isNaN(s.meanMsSince(s)), "no write in between: no mean");
        assertThrows(IllegalStateException.class, () -> s.meanMsSince(new WriteLatencyProbe.Snapshot(41, 90)));
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> WriteLatencyProbe.parse("zk_version\t3.9.4\nzk_avg_latency\t0.5\n"));
        assertTrue(x.getMessage().contains("zabkit_write_latency_count"), x.getMessage());
    }

    @Test
    void intervalsUseStudentsT() {
        MeanInterval m = MeanInterval.of(List.of(1.0, 2.0, 3.0));
        assertEquals(2.0, m.mean(), 1e-9);
        assertEquals(4.303 / Math.sqrt(3), m.halfWidth(), 1e-9, "sd 1, t(0.975, 2) = 4.303");
        assertTrue(Double.isNaN(MeanInterval.of(List.of(5.0)).halfWidth()), "one value: no interval");
        assertEquals(1, MeanInterval.of(List.of(5.0, Double.NaN)).n(), "a window without writes is left out");
        assertTrue(m.overlaps(MeanInterval.of(List.of(4.0, 4.0, 4.0))));
        assertFalse(MeanInterval.of(List.of(1.0, 1.1, 0.9)).overlaps(MeanInterval.of(List.of(5.0, 5.1, 4.9))));
    }

    @Test
    void theCommandLineKnowsItsPartsAndVariants() {
        ElSanosiMain.Options quick = ElSanosiMain.Options.parse("--quick");
        assertEquals(List.of("net3", "disk", "headlines"), quick.parts());
        assertEquals(3, quick.protocols("net3").size(), "ZooKeeper, Zab, ZabAc");
        ElSanosiMain.Options full = ElSanosiMain.Options.parse();
        assertEquals(7, full.protocols("net3").size(), "ZooKeeper and all six");
        assertEquals(List.of("ZooKeeper", "Zab", "ZabAa", "ZabCt"),
                full.protocols("net57").stream().map(ElSanosiPaper.Protocol::label).toList(), "Fig 2's set for N >= 5");
        ElSanosiMain.Options o = ElSanosiMain.Options.parse("--parts", "net57", "--variants", "ZabAA",
                "--no-zookeeper", "--windows", "3");
        assertEquals(List.of("zabkit.broadcast=ZabCT", "zabkit.coinTossProbability=1"),
                o.protocols("net57").get(0).cfgLines(), "ZabAA is ZabCT with p = 1; --variants overrides the part's set");
        assertEquals(3, o.settings().windows());
        assertThrows(IllegalArgumentException.class, () -> ElSanosiMain.Options.parse("--parts", "fig9"));
        assertThrows(IllegalArgumentException.class, () -> ElSanosiMain.Options.parse("--variants", "ZabXY"));
        assertThrows(IllegalArgumentException.class, () -> ElSanosiMain.Options.parse("--windows", "1"));
        assertThrows(IllegalArgumentException.class, () -> ElSanosiMain.Options.parse("--clients"));
        assertFalse(ElSanosiPaper.zabkit("ZabAc").runsOn(5), "ZabAc is for 3 servers only");
    }

    @Test
    void headlinesAgreeOrDisagreeWithTheData(@TempDir Path dir) throws Exception {
        // Zab - ZabAc: 12 ms at 25%, 17 ms at 100% (the paper's); ZabCT slower than ZabAA at 50%
        List<String> net = new ArrayList<>(List.of(ElSanosiPaper.TSV_HEAD));
        for (int wr : ElSanosiPaper.WRITE_PERCENTS) {
            double zab = 20 + wr / 15.0;
            double ac = zab - (wr == 25 ? 12 : wr == 100 ? 17 : 14);
            net.add(row("Zab", 3, wr, zab));
            net.add(row("ZabAc", 3, wr, ac));
            net.add(row("ZabCt", 3, wr, wr == 100 ? ac + 0.4 : zab - 2)); // within ZabAc's half-width 0.5
            net.add(row("ZabCT", 3, wr, wr == 50 ? 15 : 10));
            net.add(row("ZabAA", 3, wr, 12));
        }
        Files.write(dir.resolve("net3.tsv"), net);
        ElSanosiReport.headlines(dir, s -> { });
        List<String> verdicts = Files.readAllLines(dir.resolve("headlines.tsv")).stream().skip(1)
                .map(l -> l.substring(l.lastIndexOf('\t') + 1)).toList();
        assertEquals(List.of("agrees", "agrees", "not measured", "disagrees", "agrees", "not measured"), verdicts,
                Files.readString(dir.resolve("headlines.md")));
        assertTrue(Files.exists(dir.resolve("net-fig3.png")) && Files.exists(dir.resolve("net-vs-disk.svg")));
    }

    private static String row(String variant, int n, int wr, double serverMs) {
        return String.join("\t", "net-only", "zabkit", variant, "" + n, "" + wr, "5", "1000", "" + serverMs, "0.5",
                "" + (serverMs + 1), "0.5", "1000.0", "10.0", "0.0", "0");
    }

    /** QUICK: 5 clients on a 3-server ZabAc ensemble, 100% writes; every acknowledged write counted at a server. */
    @Test
    void serversCountExactlyTheWritesTheClientsSawAcknowledged() throws Exception {
        EnsembleConfig config = EnsembleConfig.defaults(SystemUnderTest.ZABKIT).withForceSync(false);
        ServerExtras extras = new ServerExtras(Path.of("/dev/shm"), List.of(), List.of("zabkit.broadcast=ZabAc"));
        List<ZooKeeper> clients = new ArrayList<>();
        try (Ensemble e = Ensemble.start(config, extras)) {
            e.awaitQuorum(Systems.QUORUM_TIMEOUT);
            byte[] value = new byte[1024];
            Arrays.fill(value, (byte) 'q');
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ZooKeeper zk = Systems.session(e, e.ids().get(i % 3));
                clients.add(zk);
                keys.add(zk.create("/q" + i, value, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
            }
            AbcastLoad.Result r = AbcastLoad.run(clients, keys, value, 100, 50, 100, 2, () -> WriteLatencyProbe.read(e));
            assertEquals(0, r.errors());
            assertEquals(2, r.windows().size());
            for (AbcastLoad.Window w : r.windows()) {
                assertTrue(w.writes() >= 100 && w.reads() == 0, w.toString());
                // the server's interval lies inside the client's; each end is truncated to a ms at the server
                assertTrue(w.serverWriteMs() >= 0 && w.serverWriteMs() <= w.clientWriteMs() + 1, w.toString());
            }
            assertEquals(5 + 5 + r.totalWrites(), WriteLatencyProbe.read(e).writes(),
                    "the 5 sessions, the 5 creates and every acknowledged setData, each once, at the server its client used");
        } finally {
            clients.forEach(Systems::close);
        }
    }
}
