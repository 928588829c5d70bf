package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.ServerExtras;
import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/** Seed 004 (Hunt et al., USENIX ATC 2010), section 5: Table 2, Fig 5 and Fig 7. */
final class ZooKeeperPaper {
    static final List<String> ORDER = List.of("table2", "fig5", "fig7");
    /** The README's sections: these parts and those of `make papers-zookeeper-fig6` / `-table3` (RecipesMain). */
    static final List<String> README_ORDER = List.of("table2", "fig5", "fig6", "fig7", "table3");
    /** Fig 8 is an availability figure: it has its own folder (results/availability/fig8, `make avail-fig8`). */
    static final List<String> FIG8 = List.of("fig8");
    static final String HEADER = """
            # ZooKeeper paper (seed 004, Hunt et al. 2010), section 5, reproduced

            Written by `make papers-zookeeper` (bench/papers.mk, io.zabkit.bench.papers.PapersMain); regenerate
            rather than edit. Each section below ran Apache ZooKeeper 3.9.4 and zabkit one after the other in
            one invocation, on the same machine and zoo.cfg (tickTime 1000 ms, initLimit 10, syncLimit 2,
            forceSync=yes, every server a separate JVM with -XX:+UseSerialGC on 127.0.0.N, data on the disk
            under /tmp (ext4), zabkit without -ea). Clients: the official ZooKeeper 3.9.4 Java client in the
            benchmark's own JVM, so the clients share the 2 cores with the servers.

            What a 2-core machine changes, against the paper's 50 dual-core servers (seed 004, lines 295-300):
            every server of an ensemble, and every client, shares the same 2 cores and one disk, so
            adding servers adds CPU contention where the paper added machines (read throughput cannot grow
            with N here: it falls), loopback replaces gigabit Ethernet, and the other engineers' jobs on the
            machine move every figure by tens of percent between runs (compare systems within a run). The
            paper's own numbers are quoted only where its text prints them (its Tables 1-2 and Figs 5-7
            carry no values in seed 004's text).
            """;

    private ZooKeeperPaper() {}

    /** Table 2: create/wait/delete-async workers. */
    static void table2(Path out, List<SystemUnderTest> systems, List<Integer> sizes, List<Integer> workerCounts,
            int perWorker, double deadlineS, java.util.function.Consumer<String> log) throws Exception {
        Part part = new Part(out, "table2", "Table 2: create, wait, delete asynchronously (1 KB znodes)",
                "system\tservers\tworkers\tcreates\tseconds\tcreates_per_s\tmean_latency_ms\terrors", log);
        Charts.Lines lines = new Charts.Lines();
        Map<String, String> cells = new TreeMap<>();
        for (int n : sizes) {
            for (SystemUnderTest s : systems) {
                try (Ensemble e = Systems.start(s, n, n > 5 ? 256 : 512, ServerExtras.NONE)) {
                    for (int w : workerCounts) {
                        CreateDeleteWorkers.Result r = CreateDeleteWorkers.run(e, w, perWorker, deadlineS, "/t2-" + w);
                        part.row(s.label(), n, w, r.creates(), r.seconds(), r.createsPerSecond(), r.meanLatencyMs(),
                                r.errors());
                        lines.add(s.label() + " " + n + " servers", w, r.createsPerSecond());
                        cells.put(n + "\t" + w + "\t" + s.label(), Part.f0(r.createsPerSecond()) + " ops/s"
                                + (w == 1 ? " (" + Part.f2(r.meanLatencyMs()) + " ms)" : ""));
                    }
                }
            }
        }
        Charts.write(out, "table2", "Create + async delete workers (seed 004 Table 2)",
                "1 KB znodes, up to " + perWorker + " creates per worker or " + deadlineS + " s", "workers",
                "creates/s", lines, false);
        part.text("The paper: each worker creates 50,000 znodes; with one worker, the mean create latency is "
                + "1.2 ms on 3 servers and 1.4 ms on 9 (seed 004, lines 352-359). Here each worker stops at "
                + perWorker + " creates or " + deadlineS + " s, whichever comes first (so a point takes seconds, "
                + "not minutes); each worker is its own session, spread round-robin over the servers; "
                + "creates/s = creates of all workers / time until the last worker's last delete was answered.\n");
        part.text("| servers | workers | paper | zookeeper | zabkit |");
        part.text("|---|---|---|---|---|");
        for (int n : sizes) {
            for (int w : workerCounts) {
                String paper = w == 1 && n == 3 ? "1.2 ms" : w == 1 && n == 9 ? "1.4 ms" : "-";
                part.text("| " + n + " | " + w + " | " + paper + " | " + cells.getOrDefault(n + "\t" + w + "\tzookeeper", "-")
                        + " | " + cells.getOrDefault(n + "\t" + w + "\tzabkit", "-") + " |");
            }
        }
        part.text("\n![table2](table2.png)\n");
        part.finish(README_ORDER, HEADER);
    }

    /** Fig 5: throughput vs read ratio; plus, per ensemble, 100% writes with every client on the leader (Fig 7's nearest). */
    static void fig5(Path out, List<SystemUnderTest> systems, List<Integer> sizes, List<Integer> readPercents,
            int clients, int outstanding, double warmupS, double measureS, java.util.function.Consumer<String> log)
            throws Exception {
        Part part = new Part(out, "fig5", "Fig 5: throughput of a saturated ensemble vs read ratio (1 KB)",
                "system\tservers\tplacement\tread_percent\tops\tseconds\tops_per_s\terrors", log);
        Charts.Lines lines = new Charts.Lines();
        Map<String, String> cells = new TreeMap<>();
        byte[] value = new byte[1024];
        for (int n : sizes) {
            for (SystemUnderTest s : systems) {
                try (Ensemble e = Systems.start(s, n, n > 5 ? 256 : 512, ServerExtras.NONE)) {
                    int leader = e.leader().orElseThrow();
                    List<String> keys = createKeys(e, leader, 1000, value);
                    for (ReadRatioLoad.Result res : ReadRatioLoad.sweep(e, leader, ReadRatioLoad.Placement.SPREAD,
                            clients, keys, value, readPercents, outstanding, warmupS, measureS)) {
                        part.row(s.label(), n, "spread", res.readPercent(), res.ops(), res.seconds(),
                                res.opsPerSecond(), res.errors());
                        lines.add(s.label() + " " + n + " servers", res.readPercent(), res.opsPerSecond());
                        cells.put(n + "\t" + String.format("%03d", res.readPercent()) + "\t" + s.label(),
                                Part.f0(res.opsPerSecond()));
                    }
                    ReadRatioLoad.Result w = ReadRatioLoad.sweep(e, leader, ReadRatioLoad.Placement.LEADER, clients,
                            keys, value, List.of(0), outstanding, warmupS, measureS).get(0);
                    part.row(s.label(), n, "leader", 0, w.ops(), w.seconds(), w.opsPerSecond(), w.errors());
                }
            }
        }
        Charts.write(out, "fig5", "Throughput vs read ratio (seed 004 Fig 5)", clients + " clients x " + outstanding
                + " outstanding, 1 KB getData/setData, " + measureS + " s per point", "% reads", "ops/s", lines, false);
        part.text("The paper: 250 clients, each with at least 100 asynchronous requests outstanding, 1 KB reads "
                + "(getData) or writes (setData), servers throttled to 2,000 requests in process; 3 to 13 servers; "
                + "the 3-server curve crosses the others near 60% reads, and the ensemble passes 40,000 ops/s at "
                + "80% reads (seed 004, lines 300-320 and 369). Here: " + clients + " sessions x " + outstanding
                + " outstanding (" + clients * outstanding + " in flight; the paper's servers admitted at most 2,000 in process) in one "
                + "JVM, spread round-robin over the servers; " + warmupS + " s warm-up, " + measureS
                + " s measured per point. Both systems' throttle is left at its default (globalOutstandingLimit "
                + "1,000: zabkit reads the same key with the same default). The 'leader' rows (100% writes, every client on the "
                + "leader) are used by Fig 7.\n");
        part.tableHead("| % reads | paper |", 2, sizes, systems);
        for (int r : readPercents) {
            StringBuilder row = new StringBuilder("| " + r + " | " + (r == 80 ? "over 40,000 ops/s" : "-")
                    + " |");
            for (int n : sizes) {
                for (SystemUnderTest s : systems) {
                    row.append(' ').append(cells.getOrDefault(n + "\t" + String.format("%03d", r) + "\t" + s.label(), "-"))
                            .append(" |");
                }
            }
            part.text(row.toString());
        }
        part.text("\n![fig5](fig5.png)\n");
        part.finish(README_ORDER, HEADER);
    }

    /** Fig 7: zabkit's Zab cores alone, in this JVM, transactions generated at the leader. */
    static void fig7(Path out, List<Integer> sizes, long txns, int window, java.util.function.Consumer<String> log)
            throws Exception {
        Part part = new Part(out, "fig7", "Fig 7: the atomic broadcast alone (transactions generated at the leader)",
                "servers\ttxns\tseconds\ttxns_per_s\tcpu_us_per_txn\tmessages", log);
        Charts.Lines lines = new Charts.Lines();
        BroadcastCore.run(3, Math.min(txns, 20_000), window, 1024); // JIT warm-up, not reported
        List<String> rows = new ArrayList<>();
        for (int n : sizes) {
            BroadcastCore.Result r = BroadcastCore.run(n, txns, window, 1024);
            part.row(n, r.txns(), r.seconds(), r.txnsPerSecond(), r.cpuMicrosPerTxn(), r.messages());
            lines.add("zabkit Zab cores alone, per CPU-second of its thread", n, 1e6 / r.cpuMicrosPerTxn());
            lines.add("zabkit Zab cores alone, wall clock (one thread on the shared machine)", n, r.txnsPerSecond());
            rows.add("| " + n + " | " + Part.f0(r.txnsPerSecond()) + " | " + Part.f2(r.cpuMicrosPerTxn()) + " | "
                    + Part.f0(1e6 / r.cpuMicrosPerTxn()) + " |");
        }
        List<String> ensembleRows = new ArrayList<>();
        Path fig5 = out.resolve("fig5.tsv");
        if (java.nio.file.Files.exists(fig5)) {
            for (String line : java.nio.file.Files.readAllLines(fig5)) {
                String[] f = line.split("\t");
                if (f.length == 8 && f[2].equals("leader")) {
                    double ops = Double.parseDouble(f[6]);
                    lines.add(f[0] + " ensemble, 100% writes, clients on the leader", Integer.parseInt(f[1]), ops);
                    ensembleRows.add("| " + f[0] + " | " + f[1] + " | " + Part.f0(ops) + " |");
                }
            }
        }
        Charts.write(out, "fig7", "Atomic broadcast throughput (seed 004 Fig 7)", "1 KB create txns, " + window
                + " proposals outstanding; ensembles: fig5.tsv's leader rows", "servers", "txns/s", lines, true);
        part.text("The paper: the broadcast alone, benchmarked by generating transactions at the leader with no client "
                + "connections, requests or replies (seed 004, lines 329-331); its text gives no values. zabkit: its "
                + "deterministic Zab cores (impl/ zab.Zab) for N servers run in one thread, wired by an in-memory "
                + "network that encodes and decodes every message with the peer links' MessageCodec; the log is "
                + "durable at once (no disk, no fsync); " + txns + " 1 KB create transactions, " + window
                + " outstanding at the leader; every server must deliver every one, in order (asserted). Throughput "
                + "is therefore the whole ensemble's protocol work on one core, and 'CPU us/txn' is that work per "
                + "transaction summed over all N servers; 'txns per CPU-second' (its inverse) is what one core "
                + "would do undisturbed, the wall-clock rate is what this shared machine gave the thread.\n");
        part.text("| servers | zabkit cores alone: txns/s (wall) | CPU us per txn, all servers | txns per CPU-second |");
        part.text("|---|---|---|---|");
        rows.forEach(part::text);
        part.text("\nApache ZooKeeper 3.9.4's server has no setting that generates transactions at its leader "
                + "without clients, so the closest measurable equivalent is the "
                + "ensemble at 100% writes with every client connected to the leader (the 0%-reads point of Fig 6). "
                + "Those rows come from fig5.tsv (the same make target, the same run of Fig 5), for both systems; "
                + "they include client connections, request parsing, the data tree and fsync, which the zabkit "
                + "core figure leaves out.\n");
        if (!ensembleRows.isEmpty()) {
            part.text("| system | servers | 100% writes, all clients on the leader: ops/s |");
            part.text("|---|---|---|");
            ensembleRows.forEach(part::text);
        } else {
            part.text("(fig5.tsv is absent: run the fig5 part for the ensemble rows.)");
        }
        part.text("\n![fig7](fig7.png)\n");
        part.finish(README_ORDER, HEADER);
    }

    /**
     * Fig 8: throughput over time of a saturated 5-server ensemble at 30% writes while servers fail and
     * recover (seed 004, lines 332-350), both systems on one figure, drawn at the paper's sampling (6 s
     * samples of the clients' counts) and at 100 ms.
     */
    static void fig8(Path out, List<SystemUnderTest> systems, int clients, int outstanding, double gapS, double warmupS,
            java.util.function.Consumer<String> log) throws Exception {
        Part part = new Part(out, "fig8", "Fig 8: throughput over time with failures (5 servers, 30% writes)",
                "system\tt_s\tops_per_s\terrors_per_s", log);
        byte[] value = new byte[1024];
        List<FailureTimeline.Run> runs = new ArrayList<>();
        for (SystemUnderTest s : systems) {
            try (Ensemble e = Systems.start(s, 5, 512, ServerExtras.NONE)) {
                List<String> keys = createKeys(e, e.leader().orElseThrow(), 1000, value);
                FailureTimeline.Run r = FailureTimeline.run(e, keys, value, clients, outstanding, 30, gapS, warmupS, log);
                runs.add(r);
                for (int i = 0; i < r.ops().length; i++) {
                    part.rowQuiet(r.system(), (i + 1) * FailureTimeline.BUCKET_S, r.ops()[i] / FailureTimeline.BUCKET_S,
                            r.errors()[i] / FailureTimeline.BUCKET_S);
                }
            }
        }
        Charts.Lines fine = new Charts.Lines();
        Charts.Lines sampled = new Charts.Lines();
        double sampleS = 6;
        for (FailureTimeline.Run r : runs) {
            for (int i = 0; i < r.ops().length; i++) {
                fine.add(r.system(), (i + 1) * FailureTimeline.BUCKET_S, r.ops()[i] / FailureTimeline.BUCKET_S);
            }
            for (double t = 0; t + sampleS <= r.seconds() + 1e-9; t += sampleS) {
                sampled.add(r.system(), t + sampleS, r.rate(t, t + sampleS));
            }
        }
        List<Charts.Marker> markers = new ArrayList<>();
        for (FailureTimeline.Mark m : runs.get(0).marks()) {
            if (m.what().equals("kill -9") || m.label().equals("4c")) {
                if (markers.stream().noneMatch(x -> x.label().equals(m.label()))) {
                    markers.add(new Charts.Marker(m.atS(), m.label()));
                }
            }
        }
        String sub = clients + " clients x " + outstanding + " outstanding, 1 KB getData/setData at 30% writes; marks "
                + "as scheduled (both systems ran the same schedule, one after the other)";
        Charts.timeline(out, "fig8", "Throughput with failures, the paper's sampling (seed 004 Fig 8)",
                sub + "; one point per 6 s", "seconds", "ops/s", sampled, markers);
        Charts.timeline(out, "fig8-100ms", "Throughput with failures at 100 ms (seed 004 Fig 8)",
                sub + "; one point per 100 ms", "seconds", "ops/s", fine, markers);
        part.text("The paper: 5 servers, the saturation benchmark of Fig 5 at a constant 30% writes, servers "
                + "killed periodically; marks (1) a follower fails and recovers, (2) a different follower does, (3) "
                + "the leader fails, (4) two followers fail at a and b and recover at c, (5) the leader fails. It "
                + "reports a new leader in under 200 ms, no zero-throughput point because its sampling period is "
                + "of seconds (clients report every 300 ms, samples every 6 s), and throughput that does not "
                + "return to its full level after 1, 2 and 4 because clients move only when their connection "
                + "breaks (seed 004, lines 332-350). Here: " + clients + " sessions x " + outstanding
                + " outstanding in the benchmark's JVM, client i starting on server i mod 5 and failing over to the "
                + "next ids in turn; one mark every " + gapS + " s after a baseline of " + 2 * gapS + " s; a failed "
                + "leader is restarted two gaps later (the paper does not say when), failed followers at their "
                + "recovery mark; the load ran " + warmupS + " s before the clock's zero (JIT warm-up, not plotted). The 100 ms "
                + "figure shows what the 6 s samples hide.\n");
        part.text("| mark | event | system | at s | ops/s in the 6 s before | 6 s sample holding the mark | "
                + "lowest 100 ms in the next " + gapS + " s | longest stall (no op completed) in the next " + gapS
                + " s | errors in the next " + gapS + " s |");
        part.text("|---|---|---|---|---|---|---|---|---|");
        for (FailureTimeline.Run r : runs) {
            for (FailureTimeline.Mark m : r.marks()) {
                double sampleStart = Math.floor(m.atS() / sampleS) * sampleS;
                long errs = 0;
                for (int i = (int) (m.atS() / FailureTimeline.BUCKET_S);
                        i < Math.min(r.errors().length, (int) ((m.atS() + gapS) / FailureTimeline.BUCKET_S)); i++) {
                    errs += r.errors()[i];
                }
                part.text("| " + m.label() + " | " + m.what() + " of server " + m.server() + " | " + r.system() + " | "
                        + Part.f2(m.atS()) + " | " + Part.f0(r.rate(m.atS() - 6, m.atS())) + " | "
                        + Part.f0(r.rate(sampleStart, sampleStart + sampleS)) + " | "
                        + Part.f0(r.lowest(m.atS(), m.atS() + gapS)) + " | "
                        + Part.f2(r.longestStall(m.atS(), m.atS() + gapS)) + " s | " + errs + " |");
            }
        }
        part.text("\n![fig8](fig8.png)\n\n![fig8 at 100 ms](fig8-100ms.png)\n");
        part.finish(FIG8, HEADER);
    }

    /** `count` keys under /load holding `value`, created pipelined through the leader. */
    static List<String> createKeys(Ensemble e, int leader, int count, byte[] value) throws Exception {
        ZooKeeper zk = Systems.session(e, leader);
        try {
            zk.create("/load", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            Semaphore window = new Semaphore(200);
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String k = "/load/k" + i;
                keys.add(k);
                if (!window.tryAcquire(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("key creates unanswered for 30 s");
                }
                zk.create(k, value, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, (rc, p, c, name) -> {
                    if (rc != 0) {
                        System.err.println("creating " + p + ": rc " + rc);
                    }
                    window.release();
                }, null);
            }
            if (!window.tryAcquire(200, 30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("key creates unanswered for 30 s");
            }
            return keys;
        } finally {
            Systems.close(zk);
        }
    }
}
