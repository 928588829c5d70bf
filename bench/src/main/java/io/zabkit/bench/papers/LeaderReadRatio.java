package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.ServerExtras;
import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Seed 004 Fig 6: throughput vs read ratio when every client is connected to the leader, beside the
 * same clients spread over the servers (Fig 5's placement) in the same ensemble and run.
 */
final class LeaderReadRatio {
    private LeaderReadRatio() {}

    static void fig6(Path out, List<SystemUnderTest> systems, List<Integer> sizes, List<Integer> readPercents,
            int clients, int outstanding, double warmupS, double measureS, Consumer<String> log) throws Exception {
        Part part = new Part(out, "fig6", "Fig 6: throughput vs read ratio with every client on the leader (1 KB)",
                "system\tservers\tplacement\tread_percent\tops\tseconds\tops_per_s\terrors", log);
        Charts.Lines lines = new Charts.Lines();
        Map<String, String> cells = new TreeMap<>();
        byte[] value = new byte[1024];
        for (int n : sizes) {
            for (SystemUnderTest s : systems) {
                try (Ensemble e = Systems.start(s, n, n > 5 ? 256 : 512, ServerExtras.NONE)) { // Fig 5's heaps
                    int leader = e.leader().orElseThrow();
                    List<String> keys = ZooKeeperPaper.createKeys(e, leader, 1000, value);
                    for (ReadRatioLoad.Placement placement : List.of(ReadRatioLoad.Placement.LEADER,
                            ReadRatioLoad.Placement.SPREAD)) {
                        String where = placement.label();
                        for (ReadRatioLoad.Result res : ReadRatioLoad.sweep(e, leader, placement, clients, keys, value,
                                readPercents, outstanding, warmupS, measureS)) {
                            int r = res.readPercent();
                            part.row(s.label(), n, where, r, res.ops(), res.seconds(), res.opsPerSecond(),
                                    res.errors());
                            lines.add(s.label() + " " + n + " servers, " + where, r, res.opsPerSecond());
                            cells.put(String.format("%03d\t%d\t%s\t%s", r, n, s.label(), where),
                                    Part.f0(res.opsPerSecond()));
                        }
                    }
                }
            }
        }
        Charts.write(out, "fig6", "Throughput, every client on the leader (seed 004 Fig 6)", clients + " clients x "
                + outstanding + " outstanding, 1 KB; 'spread' = the same clients over all servers", "% reads", "ops/s",
                lines, false);
        part.text("The paper (Fig 6, lines 324-328): the Fig 5 workload with every client connected to the leader, "
                + "3 to 13 servers; its text gives no values, only that without reads spread over the followers "
                + "the throughput is lower. Here: " + clients + " sessions x " + outstanding + " asynchronous getData/"
                + "setData of 1 KB outstanding, all on the leader, and then the same sessions spread round-robin "
                + "over the servers, in the same ensemble; " + warmupS + " s warm-up and " + measureS
                + " s measured per point; servers " + sizes + ", Fig 5's sizes. What the 2-core machine changes: "
                + "the paper's leader had a machine of its own, so followers left idle by the clients cost it "
                + "nothing; here every follower still applies each write on the same 2 cores the leader serves "
                + "all the clients from, so 'leader' falls with N for writes as well as for reads.\n");
        StringBuilder head = new StringBuilder("| % reads |");
        StringBuilder rule = new StringBuilder("|---|");
        for (int n : sizes) {
            for (SystemUnderTest s : systems) {
                head.append(' ').append(s.label()).append(' ').append(n).append(" leader / spread |");
                rule.append("---|");
            }
        }
        part.text(head.toString()).text(rule.toString());
        for (int r : readPercents) {
            StringBuilder row = new StringBuilder("| " + r + " |");
            for (int n : sizes) {
                for (SystemUnderTest s : systems) {
                    String k = String.format("%03d\t%d\t%s\t", r, n, s.label());
                    row.append(' ').append(cells.getOrDefault(k + "leader", "-")).append(" / ")
                            .append(cells.getOrDefault(k + "spread", "-")).append(" |");
                }
            }
            part.text(row.toString());
        }
        part.text("\n![fig6](fig6.png)\n");
        part.finish(DoubleBarrierPaper.ORDER, ZooKeeperPaper.HEADER);
    }
}
