package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.ServerExtras;
import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;

/**
 * Seed 002 (Kalantari and Schiper, EPFL), section 5: the queue (Table 1, Fig 4, Fig 5), the herd
 * (Table 2) and the barrier (Table 3), with the paper's own recipes and Curator's beside them, on
 * 3-server ensembles of Apache ZooKeeper 3.9.4 and zabkit in one run.
 */
final class KalantariPaper {
    static final List<String> ORDER = List.of("table1", "fig4", "fig5", "table2", "table3");
    static final String HEADER = """
            # Kalantari and Schiper (seed 002), section 5, reproduced

            Written by `make papers-kalantari` (bench/papers.mk, io.zabkit.bench.papers.RecipesMain); regenerate
            rather than edit. Each section ran Apache ZooKeeper 3.9.4 and zabkit one after the other in one
            invocation, each as 3 servers on this machine (the paper: ZooKeeper 3.3.4 on 3 single-core 2.8 GHz
            machines with 1 GB, gigabit Ethernet, clients on other machines). Same zoo.cfg for both (tickTime
            1000 ms, forceSync=yes, -XX:+UseSerialGC, data on the disk under /tmp). Clients: real sessions of
            the official 3.9.4 Java client (or Curator 5.7.1 on it), one thread each, in the benchmark's JVM,
            spread round-robin over the 3 servers, sharing the 2 cores with the servers.

            Two recipes per system:
            - **paper**: the paper's own (sections 3.1-3.2 and 5.4 a). Queue: produce creates a sequential
              child; consume reads every child, sorts, reads and deletes the smallest (a lost race starts
              again), and, on an empty queue, watches the queue znode, so one element wakes every waiting
              consumer. Barrier: each client creates an ephemeral child and re-counts the children at every
              change until there are as many as clients.
            - **curator**: Curator 5.7.1's SimpleDistributedQueue (same layout; a lost race tries the next
              child of the list already read) and DistributedDoubleBarrier entered only (an arrival counts the
              children once; the one that completes the count creates "ready", which alone wakes the others).

            Every run is audited: no queue element lost, taken twice, invented or taken out of its producer's
            order by one consumer; no client past a barrier before all arrived ("violations" / "early"
            columns; 0 is required, and the unit test RecipesTest shows the audits catch planted faults).

            GESMAS, the paper's alternative, runs the whole operation sequence (a class's method, uploaded as
            byte code) on the server, deterministically, with server-side semaphores, so a consume is one
            request and a blocked consumer is woken alone. zabkit runs no client code on the server, so it is
            measured here with the same client-side recipes as ZooKeeper; what a server-side sequence would
            change is in ../ANALYSIS.md.
            """;

    enum Recipe {
        PAPER, CURATOR;

        String label() {
            return name().toLowerCase();
        }
    }

    /** The sizes of one run (full or QUICK). */
    record Settings(double produceS, List<Integer> producers, int consumePrefill, int consumeTake,
            List<Integer> consumers, List<Integer> fig4Sizes, int fig4Take, List<Integer> fig5Each,
            List<Integer> herdSizes, double herdSettleS, List<Integer> barrierClients, List<Integer> paperBarrierMarks,
            List<Integer> curatorBarrierMarks, double maxS) {
        static Settings of(boolean quick) {
            return quick
                    ? new Settings(1, List.of(1, 4), 200, 100, List.of(1, 4), List.of(100, 200), 50, List.of(25),
                            List.of(10, 20), 0.5, List.of(10, 20), List.of(1, 2), List.of(1, 2), 60)
                    : new Settings(2, List.of(1, 4, 16), 2000, 1000, List.of(1, 4),
                            List.of(1000, 4000, 8000, 16000), 1000, List.of(250, 500, 1000), List.of(50, 100, 200), 2,
                            List.of(50, 100, 200), PAPER_B, List.of(10, 20, 40, 80), 900);
        }

        /**
         * The b read off one run of each recipe: the paper's recipe runs the paper's own b (one run of
         * 1,600 barriers per client count, about 25 minutes for both systems here); Curator's, there to
         * show what a modern recipe changes, runs b / 20 to keep `make papers-kalantari` within an hour.
         */
        List<Integer> barrierMarks(Recipe r) {
            return r == Recipe.PAPER ? paperBarrierMarks : curatorBarrierMarks;
        }

        /**
         * Table 3 at one point (a client count, the paper recipe's b; Curator's runs b / 20): a short
         * run to reproduce one cell. Zero keeps this settings' own.
         */
        Settings barrierPoint(int clients, int b) {
            if (b != 0 && !PAPER_B.contains(b)) {
                throw new IllegalArgumentException("--barriers must be one of the paper's b " + PAPER_B + ": " + b);
            }
            if (clients < 0) {
                throw new IllegalArgumentException("--barrier-clients must be positive: " + clients);
            }
            return new Settings(produceS, producers, consumePrefill, consumeTake, consumers, fig4Sizes, fig4Take,
                    fig5Each, herdSizes, herdSettleS, clients == 0 ? barrierClients : List.of(clients),
                    b == 0 ? paperBarrierMarks : List.of(b), b == 0 ? curatorBarrierMarks : List.of(b / 20), maxS);
        }

        /** The paper's b over the recipe's: its b = 200, 400, 800, 1600 are the recipe's marks times this. */
        int barrierScale(Recipe r) {
            List<Integer> marks = barrierMarks(r);
            int scale = PAPER_B.get(0) / marks.get(0);
            assert marks.stream().allMatch(b -> b * scale <= 1600) : "marks within the paper's b";
            return scale;
        }

        /** The sessions of Table 1, Fig 4 and Fig 5 (Fig 5 needs 4). */
        int queueClients() {
            return Math.max(4, Math.max(Collections.max(producers), Collections.max(consumers)));
        }

        /** The sessions of Table 2 and 3 (the herd's first producer is one more). */
        int crowdClients(Set<String> parts) {
            int m = parts.contains("table2") ? Collections.max(herdSizes) + 1 : 1;
            return Math.max(m, parts.contains("table3") ? Collections.max(barrierClients) : 1);
        }
    }

    /** The clients of one recipe on one ensemble: plain sessions or Curator clients, and their request count. */
    private static final class Fleet implements AutoCloseable {
        final Recipe recipe;
        final AtomicLong zkOps = new AtomicLong();
        /** The paper's barrier's re-counts sent again after a lost connection. */
        final AtomicLong connectionLosses = new AtomicLong();
        final List<ZooKeeper> plain = new ArrayList<>();
        final List<CuratorFramework> curator = new ArrayList<>();

        Fleet(Ensemble e, Recipe recipe, int n) throws Exception {
            this.recipe = recipe;
            for (int i = 0; i < n; i++) {
                int server = i % e.size() + 1;
                if (recipe == Recipe.PAPER) {
                    plain.add(Systems.session(e, server));
                } else {
                    curator.add(Curators.open(e, server, zkOps));
                }
            }
        }

        QueueRecipe queue(int client, String path) {
            return recipe == Recipe.PAPER ? new NaiveQueue(plain.get(client), path, zkOps)
                    : new CuratorQueue(curator.get(client), path);
        }

        List<QueueRecipe> queues(int from, int n, String path) {
            List<QueueRecipe> out = new ArrayList<>();
            for (int i = from; i < from + n; i++) {
                out.add(queue(i, path));
            }
            return out;
        }

        List<BarrierRecipe> barriers(int n) {
            List<BarrierRecipe> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                out.add(recipe == Recipe.PAPER ? new NaiveBarrier(plain.get(i), zkOps, 0, connectionLosses) : new CuratorBarrier(curator.get(i)));
            }
            return out;
        }

        String prefix() {
            return recipe == Recipe.PAPER ? NaiveQueue.PREFIX : CuratorQueue.PREFIX;
        }

        @Override
        public void close() {
            plain.forEach(Systems::close);
            curator.forEach(CuratorFramework::close);
        }
    }

    private KalantariPaper() {}

    /** Cells of a markdown table: row key, then column "system recipe", to the text shown. */
    private static final class Cells {
        final Map<String, Map<String, String>> rows = new LinkedHashMap<>();

        void put(String row, String column, String text) {
            rows.computeIfAbsent(row, r -> new LinkedHashMap<>()).put(column, text);
        }

        String get(String row, String column) {
            return rows.getOrDefault(row, Map.of()).getOrDefault(column, "-");
        }
    }

    static void run(Path out, List<SystemUnderTest> systems, Set<String> parts, Settings st, Consumer<String> log)
            throws Exception {
        Map<String, Part> p = new LinkedHashMap<>();
        if (parts.contains("table1")) {
            p.put("table1", new Part(out, "table1", "Table 1: the queue's maximum produce and consume rates",
                    "system\trecipe\top\tclients\tqueue_size\tops\tseconds\tops_per_s\tviolations", log));
        }
        if (parts.contains("fig4")) {
            p.put("fig4", new Part(out, "fig4", "Fig 4: the time of " + st.fig4Take() + " consumes vs the queue's size",
                    "system\trecipe\tqueue_size\tconsumes\tseconds\tms_per_consume\tviolations\tseconds_of_each_run", log));
        }
        if (parts.contains("fig5")) {
            p.put("fig5", new Part(out, "fig5", "Fig 5: 2 producers and 2 consumers, combined throughput",
                    "system\trecipe\tops_per_client\tops\tseconds\tops_per_s\tviolations", log));
        }
        if (parts.contains("table2")) {
            p.put("table2", new Part(out, "table2", "Table 2: the herd, time until all N blocked consumers are unblocked",
                    "system\trecipe\tclients\tms_until_all_unblocked\tzk_ops\tviolations", log));
        }
        if (parts.contains("table3")) {
            p.put("table3", new Part(out, "table3", "Table 3: b barriers in a row, each with every client",
                    "system\trecipe\tclients\tbarriers\tseconds\tzk_ops_per_s\tearly\tconnection_losses", log));
        }
        Map<String, Cells> cells = new LinkedHashMap<>();
        Map<String, Charts.Lines> charts = new LinkedHashMap<>();
        ORDER.forEach(n -> {
            cells.put(n, new Cells());
            charts.put(n, new Charts.Lines());
        });
        List<String> columns = new ArrayList<>();
        for (SystemUnderTest s : systems) {
            try (Ensemble e = Systems.start(s, 3, 512, ServerExtras.NONE)) {
                ZooKeeper admin = Systems.session(e, e.leader().orElseThrow());
                try {
                    for (Recipe r : Recipe.values()) {
                        columns.add(s.label() + " " + r.label());
                    }
                    if (p.containsKey("table1") || p.containsKey("fig4") || p.containsKey("fig5")) {
                        List<Fleet> fleets = new ArrayList<>();
                        try {
                            for (Recipe r : Recipe.values()) {
                                fleets.add(new Fleet(e, r, st.queueClients()));
                                warmUp(fleets.get(fleets.size() - 1), admin, st);
                            }
                            log.accept("-- " + s.label() + ", both recipes (load average " + Machine.loadAverage() + ")");
                            queueParts(p, cells, charts, s, fleets, admin, st);
                        } finally {
                            fleets.forEach(Fleet::close);
                        }
                    }
                    if (p.containsKey("table2") || p.containsKey("table3")) {
                        for (Recipe r : Recipe.values()) {
                            log.accept("-- " + s.label() + " " + r.label() + " (load average " + Machine.loadAverage()
                                    + ")");
                            try (Fleet f = new Fleet(e, r, st.crowdClients(parts))) {
                                warmUp(f, admin, st);
                                crowdParts(p, cells, charts, s, f, admin, st);
                            }
                        }
                    }
                } finally {
                    Systems.close(admin);
                }
            }
        }
        finish(out, p, cells, charts, columns, st);
    }

    private static int seq;

    private static String fresh(String what) {
        return "/k" + (seq++) + "-" + what;
    }

    private static String audit(List<String> violations, Consumer<String> log) {
        if (!violations.isEmpty()) {
            log.accept("   AUDIT FAILED: " + violations.subList(0, Math.min(5, violations.size())));
        }
        return Integer.toString(violations.size());
    }

    private static String col(SystemUnderTest s, Fleet f) {
        return s.label() + " " + f.recipe.label();
    }

    /** The JIT of the clients and servers, before anything is measured: a few produces and consumes. */
    private static void warmUp(Fleet f, ZooKeeper admin, Settings st) throws Exception {
        String warm = fresh("warmup");
        QueueRuns.createQueue(admin, warm);
        QueueRuns.produce(f.queues(0, 4, warm), st.produceS() / 2, 2_000);
        QueueRecipe consumer = f.queue(0, warm);
        for (int i = 0; i < 200 && consumer.consume(System.nanoTime() + 1_000_000_000L) != null; i++) {
            // takes a few hundred of what was just produced
        }
    }

    /**
     * The queue parts with few clients (Table 1, Fig 4, Fig 5): at every point both recipes run one after
     * the other, so a burst of the machine's other jobs falls on both rather than on one recipe's column.
     */
    private static void queueParts(Map<String, Part> p, Map<String, Cells> cells, Map<String, Charts.Lines> charts,
            SystemUnderTest s, List<Fleet> fleets, ZooKeeper admin, Settings st) throws Exception {
        String sys = s.label();
        if (p.containsKey("table1")) {
            Part part = p.get("table1");
            Map<String, Double> produce = new LinkedHashMap<>();
            Map<String, Double> consume = new LinkedHashMap<>();
            for (int n : st.producers()) {
                for (Fleet f : fleets) {
                    String path = fresh("produce");
                    QueueRuns.createQueue(admin, path);
                    QueueRuns.Result r = QueueRuns.produce(f.queues(0, n, path), st.produceS(), 200_000);
                    part.row(sys, f.recipe.label(), "produce", n, 0, r.ops(), r.seconds(), r.opsPerSecond(), 0);
                    charts.get("table1").add(col(s, f) + " produce", n, r.opsPerSecond());
                    produce.merge(col(s, f), r.opsPerSecond(), Math::max);
                }
            }
            for (int n : st.consumers()) {
                for (Fleet f : fleets) {
                    String path = fresh("consume");
                    QueueRuns.createQueue(admin, path);
                    List<String> filled = QueueRuns.prefill(admin, path, f.prefix(), st.consumePrefill());
                    QueueRuns.Result r = QueueRuns.drain(admin, path, filled, f.queues(0, n, path), st.consumeTake(),
                            st.maxS());
                    part.row(sys, f.recipe.label(), "consume", n, st.consumePrefill(), r.ops(), r.seconds(),
                            r.opsPerSecond(), audit(r.violations(), part::log));
                    charts.get("table1").add(col(s, f) + " consume", n, r.opsPerSecond());
                    consume.merge(col(s, f), r.opsPerSecond(), Math::max);
                }
            }
            produce.forEach((c, v) -> cells.get("table1").put("produce", c, Part.f0(v)));
            consume.forEach((c, v) -> cells.get("table1").put("consume", c, Part.f0(v)));
        }
        if (p.containsKey("fig4")) {
            Part part = p.get("fig4");
            for (int size : st.fig4Sizes()) {
                for (Fleet f : fleets) {
                    // the faster of two runs: a point lasts seconds, and the other jobs' bursts are as long
                    QueueRuns.Result r = null;
                    List<String> all = new ArrayList<>();
                    int violations = 0;
                    for (int rep = 0; rep < 2; rep++) {
                        String path = fresh("fig4");
                        QueueRuns.createQueue(admin, path);
                        List<String> filled = QueueRuns.prefill(admin, path, f.prefix(), size);
                        QueueRuns.Result one = QueueRuns.drain(admin, path, filled, f.queues(0, 1, path), st.fig4Take(),
                                st.maxS());
                        violations += Integer.parseInt(audit(one.violations(), part::log));
                        all.add(Part.f2(one.seconds()));
                        r = r == null || one.seconds() < r.seconds() ? one : r;
                    }
                    part.row(sys, f.recipe.label(), size, r.ops(), r.seconds(), r.seconds() * 1000 / r.ops(), violations,
                            String.join(" ", all));
                    charts.get("fig4").add(col(s, f), size, r.seconds());
                    cells.get("fig4").put(Integer.toString(size), col(s, f), Part.f2(r.seconds()) + " s");
                }
            }
        }
        if (p.containsKey("fig5")) {
            Part part = p.get("fig5");
            for (int each : st.fig5Each()) {
                for (Fleet f : fleets) {
                    String path = fresh("fig5");
                    QueueRuns.createQueue(admin, path);
                    QueueRuns.Result r = QueueRuns.mixed(admin, path, f.queues(0, 2, path), f.queues(2, 2, path), each,
                            st.maxS());
                    part.row(sys, f.recipe.label(), each, r.ops(), r.seconds(), r.opsPerSecond(),
                            audit(r.violations(), part::log));
                    charts.get("fig5").add(col(s, f), each, r.opsPerSecond());
                    cells.get("fig5").put(Integer.toString(each), col(s, f), Part.f0(r.opsPerSecond()));
                }
            }
        }
    }

    /** The parts with up to 200 clients (Table 2, Table 3): one recipe's fleet at a time. */
    private static void crowdParts(Map<String, Part> p, Map<String, Cells> cells, Map<String, Charts.Lines> charts,
            SystemUnderTest s, Fleet f, ZooKeeper admin, Settings st) throws Exception {
        String sys = s.label();
        String rec = f.recipe.label();
        String col = col(s, f);
        if (p.containsKey("table2")) {
            Part part = p.get("table2");
            for (int n : st.herdSizes()) {
                String path = fresh("herd");
                QueueRuns.createQueue(admin, path);
                long ops0 = f.zkOps.get();
                QueueRuns.Result r = QueueRuns.herd(admin, path, f.queue(n, path), f.queues(0, n, path), st.herdSettleS(),
                        st.maxS());
                long ops = f.zkOps.get() - ops0;
                part.row(sys, rec, n, r.seconds() * 1000, ops, audit(r.violations(), part::log));
                charts.get("table2").add(col, n, r.seconds() * 1000);
                cells.get("table2").put(Integer.toString(n), col, Part.f0(r.seconds() * 1000) + " ms");
            }
        }
        if (p.containsKey("table3")) {
            Part part = p.get("table3");
            List<Integer> marks = st.barrierMarks(f.recipe);
            int barriers = Collections.max(marks);
            int scale = st.barrierScale(f.recipe);
            for (int n : st.barrierClients()) {
                String root = fresh("barriers");
                BarrierRuns.createBarriers(admin, root, barriers);
                long ops0 = f.zkOps.get();
                long losses0 = f.connectionLosses.get();
                part.log("   " + sys + " " + rec + " " + n + " clients, " + barriers + " barriers (load average "
                        + Machine.loadAverage() + ")");
                BarrierRuns.Sequence r = BarrierRuns.sequence(f.barriers(n), root, barriers, st.maxS());
                double total = r.secondsAfter()[barriers - 1];
                double opsPerS = (f.zkOps.get() - ops0) / total;
                if (r.early() > 0) {
                    part.log("   AUDIT FAILED: " + r.firstViolation());
                }
                for (int b : marks) {
                    double sec = r.secondsAfter()[b - 1];
                    part.row(sys, rec, n, b, sec, opsPerS, r.early(), f.connectionLosses.get() - losses0);
                    // on the paper's b axis, so both recipes' lines share the plot: Curator's scaled back up
                    charts.get("table3").add(col + " " + n + " clients" + (scale == 1 ? "" : " (s x " + scale + ")"),
                            b * scale, sec * scale);
                    cells.get("table3").put(b * scale + "\t" + n, col, Part.f2(sec)
                            + (scale == 1 ? "" : " at b = " + b));
                }
            }
        }
    }

    /** Seed 002 Table 3's b. */
    static final List<Integer> PAPER_B = List.of(200, 400, 800, 1600);
    private static final Map<Integer, String> PAPER_HERD = Map.of(50, "498 ms", 100, "1,096 ms", 200, "4,144 ms");
    /** Seed 002 Table 3, ZooKeeper's columns: barriers -> {50, 100, 200 clients} seconds. */
    static final Map<Integer, double[]> PAPER_BARRIERS = Map.of(200, new double[] {12.6, 41.2, 138},
            400, new double[] {24.7, 78.1, 266.2}, 800, new double[] {42.2, 140.6, 497.1},
            1600, new double[] {89.9, 267.2, 951.3});

    private static String head(List<String> columns, String leading, int leadingColumns) {
        StringBuilder h = new StringBuilder(leading);
        StringBuilder rule = new StringBuilder("\n|" + "---|".repeat(leadingColumns));
        for (String c : columns) {
            h.append(' ').append(c).append(" |");
            rule.append("---|");
        }
        return h + rule.toString();
    }

    private static String row(Cells c, String key, List<String> columns, String leading) {
        StringBuilder b = new StringBuilder(leading);
        for (String col : columns) {
            b.append(' ').append(c.get(key, col)).append(" |");
        }
        return b.toString();
    }

    private static void finish(Path out, Map<String, Part> p, Map<String, Cells> cells, Map<String, Charts.Lines> charts,
            List<String> columns, Settings st) throws Exception {
        if (p.containsKey("table1")) {
            Part part = p.get("table1");
            Charts.write(out, "table1", "Queue produce / consume ops/s by clients (seed 002 Table 1)",
                    "3 servers; consume: a queue of " + st.consumePrefill() + ", " + st.consumeTake() + " consumes in all",
                    "clients", "ops/s", charts.get("table1"), true);
            part.text("The paper (its Table 1, lines 240-257): the highest produce rate as clients were added, "
                    + "ZooKeeper 1,260 ops/s (GESMAS 1,041); consume 270 ops/s for ZooKeeper, derived from Fig 5 "
                    + "because its consume slows with the queue's length (about 40 ops/s with 10,000 elements and 4 "
                    + "clients), GESMAS 1,265. Here: produce, " + st.producers() + " clients each producing one "
                    + "element at a time for " + st.produceS() + " s; consume, " + st.consumers() + " clients taking "
                    + st.consumeTake() + " elements in all from a queue prefilled with " + st.consumePrefill()
                    + " (so none blocks). The table gives the best over the client counts; every point is in "
                    + "table1.tsv and the plot.\n");
            part.text(head(columns, "| op | paper (ZooKeeper 3.3.4) |", 2));
            part.text(row(cells.get("table1"), "produce", columns, "| produce, max ops/s | 1,260 |"));
            part.text(row(cells.get("table1"), "consume", columns, "| consume, max ops/s | 270 |"));
            part.text("\n![table1](table1.png)\n");
            part.finish(ORDER, HEADER);
        }
        if (p.containsKey("fig4")) {
            Part part = p.get("fig4");
            Charts.write(out, "fig4", "Time of " + st.fig4Take() + " consumes vs queue size (seed 002 Fig 4)",
                    "one consumer, 3 servers", "elements in the queue at the start", "seconds", charts.get("fig4"), false);
            part.text("The paper (Fig 4, line 235): the time of 1,000 consumes by one client, starting from queues "
                    + "of 1,000 elements and more, grows linearly with the queue's size for ZooKeeper (every consume "
                    + "reads the whole list) and is flat for GESMAS; its text gives no values. Here: " + st.fig4Take()
                    + " consumes by one client from queues of " + st.fig4Sizes() + " elements; each point is the faster "
                    + "of two runs (both in fig4.tsv).\n");
            part.text(head(columns, "| queue size | paper |", 2));
            for (int size : st.fig4Sizes()) {
                part.text(row(cells.get("fig4"), Integer.toString(size), columns, "| " + size + " | linear (ZooKeeper) |"));
            }
            part.text("\n![fig4](fig4.png)\n");
            part.finish(ORDER, HEADER);
        }
        if (p.containsKey("fig5")) {
            Part part = p.get("fig5");
            Charts.write(out, "fig5", "2 producers + 2 consumers (seed 002 Fig 5)", "3 servers, an empty queue at the start",
                    "operations per client", "ops/s (produce + consume)", charts.get("fig5"), false);
            part.text("The paper (Fig 5, lines 253-259): two producers and two consumers start together on an empty "
                    + "queue, each doing k operations one at a time (k from 500 to 5,000); ZooKeeper peaks at 442 "
                    + "ops/s at k = 1,000, GESMAS at 1,141 at k = 4,000. Here k = " + st.fig5Each() + ".\n");
            part.text(head(columns, "| k per client | paper |", 2));
            for (int k : st.fig5Each()) {
                part.text(row(cells.get("fig5"), Integer.toString(k), columns, "| " + k + " | "
                        + (k == 1000 ? "442 ops/s (ZooKeeper)" : "-") + " |"));
            }
            part.text("\n![fig5](fig5.png)\n");
            part.finish(ORDER, HEADER);
        }
        if (p.containsKey("table2")) {
            Part part = p.get("table2");
            Charts.write(out, "table2", "The herd: time until N consumers are unblocked (seed 002 Table 2)",
                    "3 servers; each client consumes one element then produces one", "clients N", "ms",
                    charts.get("table2"), true);
            part.text("The paper (Table 2, lines 263-288): N clients in one JVM, each its own session, each consume "
                    + "then produce one element on an empty queue; after one element is produced, the time until all "
                    + "N are unblocked: ZooKeeper 498 / 1,096 / 4,144 ms at N = 50 / 100 / 200 (GESMAS 212 / 432 / "
                    + "810). Here the same, with " + st.herdSettleS() + " s for every client to block before the first "
                    + "element; zk_ops in table2.tsv counts the requests the clients sent.\n");
            part.text(head(columns, "| N | paper (ZooKeeper) |", 2));
            for (int n : st.herdSizes()) {
                part.text(row(cells.get("table2"), Integer.toString(n), columns, "| " + n + " | "
                        + PAPER_HERD.getOrDefault(n, "-") + " |"));
            }
            part.text("\n![table2](table2.png)\n");
            part.finish(ORDER, HEADER);
        }
        if (p.containsKey("table3")) {
            Part part = p.get("table3");
            Charts.write(out, "table3", "b barriers in a row (seed 002 Table 3)", "3 servers; threshold = clients",
                    "barriers b", "seconds", charts.get("table3"), true);
            int curatorScale = st.barrierScale(Recipe.CURATOR);
            part.text("The paper (Table 3, lines 304-316): c = 50, 100, 200 clients each pass b = 200, 400, 800, 1,600 "
                    + "barriers in a row, each with threshold c, every client on one session; the total seconds. "
                    + "Here the paper's recipe runs its own b: one run of " + Collections.max(st.barrierMarks(
                    Recipe.PAPER)) + " barriers per client count, the time after the b-th barrier read off it (b = "
                    + st.barrierMarks(Recipe.PAPER) + "). Curator's recipe, beside it to show what a modern recipe "
                    + "changes, runs b / " + curatorScale + " (b = " + st.barrierMarks(Recipe.CURATOR) + ", one run of "
                    + Collections.max(st.barrierMarks(Recipe.CURATOR)) + "): its cells give the seconds at that b, and "
                    + "the plot multiplies them by " + curatorScale + " to put them on the paper's b axis. "
                    + "zk_ops_per_s in table3.tsv: the requests the clients sent per second over the whole run; "
                    + "connection_losses: the paper's recipe's re-counts (reads) that lost their connection and were "
                    + "sent again once the client reconnected, as a ZooKeeper client must (a lost create still fails "
                    + "the run). What "
                    + "the 2-core machine changes: the paper's 3 servers had a core each and the clients their own "
                    + "machines; here the 3 servers and the 50 to 200 client sessions (one JVM) share 2 cores, so a "
                    + "barrier's cost is CPU time more than network round trips.\n");
            List<String> cols = new ArrayList<>(columns);
            part.text(head(cols, "| b | clients | paper's ZooKeeper 3.3.4 s |", 3));
            List<Integer> paperClients = List.of(50, 100, 200);
            for (int b : PAPER_B) {
                for (int c : st.barrierClients()) {
                    int ci = paperClients.indexOf(c);
                    double[] paper = ci < 0 ? null : PAPER_BARRIERS.get(b);
                    part.text(row(cells.get("table3"), b + "\t" + c, cols, "| " + b + " | " + c + " | "
                            + (paper == null ? "-" : Part.f2(paper[ci])) + " |"));
                }
            }
            part.text("\n![table3](table3.png)\n");
            part.finish(ORDER, HEADER);
        }
    }
}
