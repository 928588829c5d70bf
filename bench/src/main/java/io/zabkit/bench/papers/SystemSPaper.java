package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.ServerExtras;
import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/** Seed 001 (Pham et al., System S, ICPE 2014): Fig 2 (section 3.1) and Fig 6, the limits of multi (section 5). */
final class SystemSPaper {
    static final List<String> ORDER = List.of("fig2", "fig6");
    /** The paper's raised message size limit, 45 MB (seed 001, line 223). */
    static final int MAX_BUFFER = 45 << 20;
    static final String HEADER = """
            # System S paper (seed 001, Pham et al. 2014), sections 3.1 and 5, reproduced

            Written by `make papers-system-s` (bench/papers.mk, io.zabkit.bench.papers.PapersMain); regenerate
            rather than edit. Apache ZooKeeper 3.9.4 and zabkit ran one after the other in one invocation, on
            the same machine and zoo.cfg (tickTime 1000 ms, forceSync=yes, separate JVMs with
            -XX:+UseSerialGC on 127.0.0.N, -Xmx1024m for Fig 6's 3 servers, 512m for Fig 2's (256m above 5
            servers), data under /tmp on ext4, zabkit without -ea).

            What a 2-core machine changes: the paper's servers had their own machines; here the three servers,
            the client and other engineers' jobs share 2 cores and one disk, so the CPU-bound growth the paper
            saw sets in at the same request sizes but costs more wall time, and the figures move between runs.
            The figure's curves carry no values in seed 001's text; its prose gives the numbers quoted below.
            """;

    /** Fig 2's most requests in flight per client. */
    static final int FIG2_WINDOW = 1_000;

    private SystemSPaper() {}

    /** One Fig 2 point on its chart; a one-server ensemble is the standalone server, named so on the legend. */
    private static void addFig2Point(Charts.Lines writes, Charts.Lines reads, String system, int servers, int clients,
            PrimitiveOps.Kind kind, double opsPerSecond) {
        assert servers >= 1 && clients >= 1 : servers + " servers, " + clients + " clients";
        String size = servers == 1 ? "standalone" : servers + " servers";
        (kind == PrimitiveOps.Kind.GET ? reads : writes).add(system + " " + size + " " + kind.name().toLowerCase(),
                clients, opsPerSecond);
    }

    private static void writeFig2Charts(Path out, int requestsPerClient, int window, Charts.Lines writes,
            Charts.Lines reads) throws java.io.IOException {
        Charts.write(out, "fig2-writes", "Create, set, delete throughput (seed 001 Fig 2)", requestsPerClient
                + " async requests per client, 1 KB, at most " + window + " in flight", "clients", "ops/s", writes, true);
        Charts.write(out, "fig2-reads", "Get throughput (seed 001 Fig 2)", requestsPerClient
                + " async requests per client, 1 KB", "clients", "ops/s", reads, true);
    }

    /** Redraws Fig 2's charts from out/fig2.tsv, without running anything (after a change of labels or style). */
    static void replotFig2(Path out, Consumer<String> log) throws java.io.IOException {
        List<String> lines = java.nio.file.Files.readAllLines(out.resolve("fig2.tsv"));
        if (lines.isEmpty() || !lines.get(0).equals("system\tservers\tclients\tkind\trequests\tops_per_s\terrors")) {
            throw new IllegalArgumentException(out.resolve("fig2.tsv") + " is not a Fig 2 table (header differs)");
        }
        Charts.Lines writes = new Charts.Lines();
        Charts.Lines reads = new Charts.Lines();
        int requestsPerClient = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            int clients = Integer.parseInt(f[2]);
            requestsPerClient = Integer.parseInt(f[4]) / clients;
            addFig2Point(writes, reads, f[0], Integer.parseInt(f[1]), clients, PrimitiveOps.Kind.valueOf(f[3]),
                    Double.parseDouble(f[5]));
        }
        assert !writes.isEmpty() && !reads.isEmpty() : "Fig 2 table without rows";
        writeFig2Charts(out, requestsPerClient, FIG2_WINDOW, writes, reads);
        log.accept("redrew " + out.resolve("fig2-writes.png") + " and fig2-reads.png from fig2.tsv ("
                + (lines.size() - 1) + " rows)");
    }

    /** Fig 2: the primitive operations' throughput by ensemble size and number of clients. */
    static void fig2(Path out, List<SystemUnderTest> systems, boolean quick, Consumer<String> log) throws Exception {
        // 1 to 9 servers as the paper ran them, 1 the standalone server; its clients ran from 1 to 20, and it
        // says the sizes tie up to 4 clients, so 4 is a point of its own.
        List<Integer> sizes = quick ? List.of(1, 3) : List.of(1, 3, 5, 7, 9);
        List<Integer> clientCounts = quick ? List.of(1, 4) : List.of(1, 4, 10, 20);
        int requests = quick ? 300 : 2_000;
        int window = FIG2_WINDOW;
        Part part = new Part(out, "fig2", "Fig 2: throughput of the primitive operations (1 KB)",
                "system\tservers\tclients\tkind\trequests\tops_per_s\terrors", log);
        Charts.Lines writes = new Charts.Lines();
        Charts.Lines reads = new Charts.Lines();
        Map<String, String> cells = new TreeMap<>();
        int point = 0;
        for (int n : sizes) {
            for (SystemUnderTest s : systems) {
                try (Ensemble e = Systems.start(s, n, n > 5 ? 256 : 512, ServerExtras.NONE)) {
                    for (int c : clientCounts) {
                        for (PrimitiveOps.Result r : PrimitiveOps.run(e, c, requests, window, 1024, "/f2-" + point++)) {
                            part.row(s.label(), n, c, r.kind(), r.requests(), r.opsPerSecond(), r.errors());
                            addFig2Point(writes, reads, s.label(), n, c, r.kind(), r.opsPerSecond());
                            cells.put(r.kind() + "\t" + n + "\t" + c + "\t" + s.label(), Part.f0(r.opsPerSecond()));
                        }
                    }
                }
            }
        }
        writeFig2Charts(out, requests, window, writes, reads);
        part.text("The paper: 1 to 20 clients, each issuing 100,000 asynchronous requests of one kind and waiting "
                + "for them; a client's throughput is its own, the ensemble's the sum; 1 to 9 servers; writes "
                + "(create, set, delete) are faster with fewer servers (standalone excepted), reads are an order "
                + "of magnitude faster than writes and grow with the servers once the clients load them, and 1 to "
                + "9 servers tie with 1 to 4 clients (seed 001, lines 128-136). Here: servers " + sizes + ", 1 being "
                + "a standalone server (a zoo.cfg with no server lines, which both systems run standalone), "
                + "clients " + clientCounts + ", " + requests + " requests per client (not 100,000) with at most "
                + window + " in flight, clients spread round-robin over the servers, 1 KB data, the kinds in the "
                + "order create, set, get, delete on the same znodes. On this machine every server of an ensemble "
                + "shares the same 2 cores with the client, so a larger ensemble adds CPU work without adding CPU: "
                + "reads cannot grow with the servers here as they did on the paper's one-machine-per-server "
                + "cluster, and writes lose more per added server than the network alone would cost.\n");
        part.tableHead("| kind | clients |", 2, sizes, systems);
        for (PrimitiveOps.Kind k : PrimitiveOps.Kind.values()) {
            for (int c : clientCounts) {
                StringBuilder row = new StringBuilder("| " + k.name().toLowerCase() + " | " + c + " |");
                for (int n : sizes) {
                    for (SystemUnderTest s : systems) {
                        row.append(' ').append(cells.getOrDefault(k + "\t" + n + "\t" + c + "\t" + s.label(), "-"))
                                .append(" |");
                    }
                }
                part.text(row.toString());
            }
        }
        part.text("\n![fig2-writes](fig2-writes.png) ![fig2-reads](fig2-reads.png)\n");
        part.finish(ORDER, HEADER);
    }

    static void fig6(Path out, List<SystemUnderTest> systems, boolean quick, Consumer<String> log) throws Exception {
        List<Integer> counts = quick ? List.of(100, 2_000) : List.of(1_000, 10_000, 20_000, 30_000, 40_000, 50_000,
                66_000, 80_000, 100_000);
        int plantedCount = quick ? 1_000 : 10_000;
        int splitTotal = quick ? 200 : 5_000;
        List<Integer> perMulti = quick ? List.of(1, 200) : List.of(1, 10, 100, 1_000, 5_000);
        Part part = new Part(out, "fig6", "Fig 6: the limits of multi (3 servers, jute.maxbuffer 45 MB, 30 s timeout)",
                "system\tkind\tnode_bytes\tcreates_per_multi\toutcome\tcode\tseconds\tchildren_per_server\tatomic", log);
        ServerExtras extras = new ServerExtras(null, List.of("-Djute.maxbuffer=" + MAX_BUFFER),
                List.of("jute.maxbuffer=" + MAX_BUFFER));
        Charts.Lines lines = new Charts.Lines();
        Charts.Lines split = new Charts.Lines();
        Map<String, String> limits = new TreeMap<>();
        List<String> violations = new ArrayList<>();
        List<String> splitRows = new ArrayList<>();
        int point = 0;
        for (SystemUnderTest s : systems) {
            try (Ensemble e = Systems.start(s, 3, 1024, extras)) {
                int leader = e.leader().orElseThrow();
                for (int bytes : List.of(512, 1024)) {
                    String limit = "no failure up to " + counts.get(counts.size() - 1);
                    for (int count : counts) {
                        MultiLimits.Result r = MultiLimits.run(e, leader, MAX_BUFFER, "/m" + point++, bytes, count,
                                false);
                        record(part, s, "one multi", r, violations);
                        if (r.outcome() == MultiLimits.Outcome.OK) {
                            lines.add(s.label() + " " + bytes + " B", count, r.seconds());
                        }
                        if (r.applied() > 0) {
                            MultiLimits.clean(e, leader, MAX_BUFFER, "/m" + (point - 1), r.applied());
                        }
                        requireAllRunning(e, s);
                        if (r.outcome() != MultiLimits.Outcome.OK) {
                            limit = "fails at " + count + " (" + r.outcome() + " " + r.code() + " after "
                                    + Part.f2(r.seconds()) + " s; " + (r.applied() == 0 ? "nothing applied"
                                    : "then applied whole on every server") + ")";
                            break;
                        }
                    }
                    limits.put(s.label() + "\t" + bytes, limit);
                }
                MultiLimits.Result planted = MultiLimits.run(e, leader, MAX_BUFFER, "/m" + point++, 1024, plantedCount,
                        true);
                record(part, s, "planted failing last op", planted, violations);
                if (planted.outcome() != MultiLimits.Outcome.FAILED || planted.applied() != 0) {
                    violations.add(s.label() + ": a multi whose last op fails was not rejected whole: " + planted);
                }
                for (int k : perMulti) {
                    String parent = "/s" + point++;
                    double seconds = MultiLimits.splitJob(e, leader, MAX_BUFFER, parent, 1024, splitTotal, k);
                    part.row(s.label(), "split job", 1024, k, "OK", "-", seconds, "-", "-");
                    split.add(s.label() + " " + splitTotal + " creates", k, seconds);
                    splitRows.add("| " + s.label() + " | " + k + " | " + Part.f2(seconds) + " |");
                    MultiLimits.clean(e, leader, MAX_BUFFER, parent, splitTotal);
                }
                requireAllRunning(e, s);
            }
        }
        Charts.write(out, "fig6", "Time of one multi vs creates per multi (seed 001 Fig 6)",
                "3 servers, jute.maxbuffer 45 MB; successful multis only", "creates per multi", "seconds", lines, false);
        Charts.write(out, "fig6-split", "A job split into several multis (seed 001 Fig 6, blue lines)",
                splitTotal + " creates of 1 KB, multis issued one after another", "creates per multi", "seconds", split,
                true);
        part.text("The paper: 3 and 5 servers, 512 B and 1 KB znodes, the message size limit raised to 45 MB and the "
                + "operation timeout to 30 s; with 1 KB znodes the time of one multi grows fast past about 50,000 "
                + "creates (CPU-bound) and times out at 66,000; with 512 B znodes the buffer size is the limit; a job "
                + "split over several multis takes about 3 times longer than its one-node-per-multi extreme (seed 001, "
                + "lines 221-234). Here: 3 servers; one multi per point, issued to the leader with the async API and "
                + "a 30 s client-side wait; each point's parent is fresh, and after it every server's child count of "
                + "that parent, read after a sync (and, after a timeout or a lost connection, re-read for up to 60 s "
                + "until it settles), must be 0 or all of them on every server ('atomic'). Then a planted multi of "
                + plantedCount + " creates whose last op creates the first path again must fail with NodeExists and "
                + "leave nothing. The request sizes: about (path + data + 60) bytes per create, so 45 MB holds about "
                + "77,000 creates of 512 B and 43,000 of 1 KB.\n");
        part.text("| node size | paper | zookeeper | zabkit |");
        part.text("|---|---|---|---|");
        part.text("| 512 B | the 45 MB buffer is the limit | " + limits.getOrDefault("zookeeper\t512", "-") + " | "
                + limits.getOrDefault("zabkit\t512", "-") + " |");
        part.text("| 1 KB | slow past ~50,000; timeouts at 66,000 | " + limits.getOrDefault("zookeeper\t1024", "-")
                + " | " + limits.getOrDefault("zabkit\t1024", "-") + " |");
        part.text("\nAtomicity (nothing half-applied, on every server): "
                + (violations.isEmpty() ? "held at every point of both systems, the planted failure included."
                        : "VIOLATED: " + String.join("; ", violations)) + "\n");
        part.text("\n![fig6](fig6.png)\n");
        part.text("A job of " + splitTotal + " creates of 1 KB split into multis of k creates each, issued one after "
                + "another (the paper's blue lines):\n");
        part.text("| system | creates per multi | seconds for the job |");
        part.text("|---|---|---|");
        splitRows.forEach(part::text);
        part.text("\n![fig6-split](fig6-split.png)\n");
        part.finish(ORDER, HEADER);
    }

    private static void record(Part part, SystemUnderTest s, String kind, MultiLimits.Result r, List<String> violations) {
        part.row(s.label(), kind, r.nodeBytes(), r.count(), r.outcome(), r.code(), r.seconds(), r.childrenPerServer(),
                r.atomic());
        if (!r.atomic()) {
            violations.add(s.label() + " " + kind + " " + r.count() + " x " + r.nodeBytes() + " B: children per server "
                    + r.childrenPerServer());
        }
    }

    private static void requireAllRunning(Ensemble e, SystemUnderTest s) {
        if (e.runningIds().size() != e.size()) {
            throw new IllegalStateException(s.label() + ": a server exited during the multi sweep; modes "
                    + e.modes() + "\n" + e.describeLogs());
        }
    }
}
