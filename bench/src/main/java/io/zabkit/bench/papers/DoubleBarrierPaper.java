package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.ServerExtras;
import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;

/**
 * Seed 004 (the ZooKeeper paper) Table 3: c clients enter b double barriers in a row, then leave them,
 * with Curator's DistributedDoubleBarrier (the algorithm of the paper's section 2.4), both systems.
 */
final class DoubleBarrierPaper {
    static final List<String> ORDER = ZooKeeperPaper.README_ORDER;

    private DoubleBarrierPaper() {}

    static void table3(Path out, List<SystemUnderTest> systems, List<Integer> clientCounts, List<Integer> barrierCounts,
            double maxS, Consumer<String> log) throws Exception {
        Part part = new Part(out, "table3", "Table 3: double barriers, entered then left in a row",
                "system\tclients\tbarriers\tseconds\tbarrier_ops_per_s\tzk_ops\tzk_ops_per_s\tearly\tlongest_step_s"
                + "\tsuspensions", log);
        Charts.Lines lines = new Charts.Lines();
        Map<String, String> cells = new TreeMap<>();
        int maxClients = clientCounts.stream().mapToInt(Integer::intValue).max().orElseThrow();
        for (SystemUnderTest s : systems) {
            try (Ensemble e = Systems.start(s, 3, 512, ServerExtras.NONE)) {
                ZooKeeper admin = Systems.session(e, e.leader().orElseThrow());
                AtomicLong zkOps = new AtomicLong();
                AtomicLong suspensions = new AtomicLong();
                List<CuratorFramework> clients = new ArrayList<>();
                try {
                    for (int i = 0; i < maxClients; i++) {
                        clients.add(Curators.open(e, i % e.size() + 1, zkOps, suspensions));
                    }
                    // the JIT of Curator, the clients and the servers, not reported: a few barriers with every client
                    BarrierRuns.createBarriers(admin, "/dbl-warmup", 3);
                    BarrierRuns.doubleBarriers(clients, "/dbl-warmup", 3, maxS);
                    int k = 0;
                    for (int c : clientCounts) {
                        for (int b : barrierCounts) {
                            String root = "/dbl-" + k++;
                            BarrierRuns.createBarriers(admin, root, b);
                            long ops0 = zkOps.get();
                            long suspended0 = suspensions.get();
                            BarrierRuns.Double r = BarrierRuns.doubleBarriers(clients.subList(0, c), root, b, maxS);
                            long ops = zkOps.get() - ops0;
                            if (r.early() > 0) {
                                part.log("   AUDIT FAILED: " + r.early() + " early passes");
                            }
                            part.row(s.label(), c, b, r.seconds(), r.barrierOpsPerSecond(), ops, ops / r.seconds(), r.early(),
                                    r.longestStepS(), suspensions.get() - suspended0);
                            lines.add(s.label() + " " + c + " clients", b, r.seconds());
                            cells.put(String.format("%04d\t%04d\t%s", b, c, s.label()), Part.f2(r.seconds()) + " s, "
                                    + Part.f0(r.barrierOpsPerSecond()) + " barrier ops/s, " + Part.f0(ops / r.seconds())
                                    + " zk ops/s" + (r.longestStepS() < 1 ? "" : ", one step " + Part.f2(r.longestStepS())
                                    + " s"));
                        }
                    }
                } finally {
                    clients.forEach(CuratorFramework::close);
                    Systems.close(admin);
                }
            }
        }
        Charts.write(out, "table3", "Double barriers in a row (seed 004 Table 3)",
                "Curator DistributedDoubleBarrier, 3 servers, clients spread over them", "barriers b", "seconds",
                lines, false);
        part.text("The paper (section 5, Table 3; lines 360-369): c = 50, 100, 200 clients each enter b = 200, 400, "
                + "800, 1,600 double barriers (section 2.4) in a row, then leave them all; the time grows about "
                + "linearly with b and with c, and barrier operations (an enter or a leave) ran at 1,950 to 3,100 "
                + "per second in every cell, 10,700 to 17,000 ZooKeeper operations per second (a 4:1 read:write "
                + "mix); its text gives no per-cell values. Here the recipe is Curator 5.7.1's "
                + "DistributedDoubleBarrier (section 2.4's algorithm: a ready child to enter; to leave, watch the "
                + "lowest or the highest child), b scaled down to " + barrierCounts + " (the paper's b / "
                + 200 / barrierCounts.get(0) + ", for the 2-core machine), c = " + clientCounts + ", each client its own session. Barrier ops/s = "
                + "2 b c / seconds; zk ops counts the requests Curator sent (its per-operation traces). Every run "
                + "is audited: no client finished an enter or a leave before all had begun it. Before the first cell, "
                + "every client passes 3 double barriers, unreported (the JIT). longest_step_s in table3.tsv is the longest "
                + "single enter or leave of any client in the cell, suspensions the clients' lost connections: a "
                + "cell slowed by one stall (a reconnect after the client's read timeout, two thirds of the 20 s "
                + "session, or a slow fsync on the shared disk) shows a step of seconds where its neighbours' are "
                + "tens of ms, and the cell says so (a step of 1 s or more).\n");
        part.text("| b | clients | zookeeper | zabkit |");
        part.text("|---|---|---|---|");
        for (int b : barrierCounts) {
            for (int c : clientCounts) {
                String key = String.format("%04d\t%04d\t", b, c);
                part.text("| " + b + " | " + c + " | " + cells.getOrDefault(key + "zookeeper", "-") + " | "
                        + cells.getOrDefault(key + "zabkit", "-") + " |");
            }
        }
        part.text("\nThe paper: 1,950-3,100 barrier ops/s, 10,700-17,000 ZooKeeper ops/s, in every cell.\n");
        part.text("\n![table3](table3.png)\n");
        part.finish(ORDER, ZooKeeperPaper.HEADER);
    }
}
