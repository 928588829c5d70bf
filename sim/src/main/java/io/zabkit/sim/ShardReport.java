package io.zabkit.sim;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The machine-readable result of a sweep or one shard of it (format zabkit-sim-shard/1, JSON): the
 * shape, the seed plan and the slice run, every Stats figure added up (a max* figure maximised), the
 * sum of the seeds' trace hashes (order-independent, so shards that merge to the unsharded sum ran the
 * very same simulations), the coverage counters (hits and seeds reaching, per branch the shape can
 * reach), the failures with their replay commands, and the wall time. bin/sim-merge
 * reads any set of these and gives one verdict.
 */
final class ShardReport {
    static final String FORMAT = "zabkit-sim-shard/1";

    private final SeedPlan plan;
    private final Map<String, Long> stats = new LinkedHashMap<>();
    private final List<SimResult> failures = new ArrayList<>();
    private final Coverage.Tally coverage = new Coverage.Tally();
    private long seedsRun;
    private long traceHashSum;
    private SimOptions sample;

    ShardReport(SeedPlan plan) {
        this.plan = plan;
        for (RecordComponent c : SimResult.Stats.class.getRecordComponents()) {
            stats.put(c.getName(), 0L);
        }
    }

    void add(SimResult r) {
        assert r.options().seed() >= plan.from() && r.options().seed() < plan.to() : "seed outside the shard";
        sample = sample == null ? r.options() : sample;
        seedsRun++;
        traceHashSum += r.traceHash();
        coverage.add(r);
        for (RecordComponent c : SimResult.Stats.class.getRecordComponents()) {
            long v = statValue(c, r.stats());
            stats.merge(c.getName(), v, c.getName().startsWith("max") ? Math::max : Long::sum);
        }
        if (!r.ok()) {
            failures.add(r);
        }
    }

    private static long statValue(RecordComponent c, SimResult.Stats s) {
        try {
            return ((Number) c.getAccessor().invoke(s)).longValue();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read Stats." + c.getName(), e);
        }
    }

    void write(Path file, double wallSeconds) throws IOException {
        assert seedsRun == plan.size() : "a shard report written before its seeds ran: " + seedsRun + " of " + plan.size();
        StringBuilder s = new StringBuilder("{\n");
        s.append("  \"format\": \"").append(FORMAT).append("\",\n");
        s.append("  \"shape\": {\"ticks\": ").append(sample.ticksMax()).append(", \"disk\": \"").append(sample.diskMode())
                .append("\", \"servers\": ").append(sample.serverCount()).append(", \"variant\": \"")
                .append(sample.ensemble() ? sample.variant() : "standalone").append("\", \"breakFaultAssumption\": ")
                .append(!sample.honourFaultAssumption()).append("},\n");
        s.append("  \"plan\": {\"first\": ").append(plan.first()).append(", \"count\": ").append(plan.count())
                .append(", \"shard\": ").append(plan.shard()).append(", \"shards\": ").append(plan.shards()).append("},\n");
        s.append("  \"seeds\": {\"from\": ").append(plan.from()).append(", \"to\": ").append(plan.to())
                .append(", \"run\": ").append(seedsRun).append("},\n");
        s.append(String.format(Locale.ROOT, "  \"wallSeconds\": %.3f,%n", wallSeconds));
        s.append("  \"traceHashSum\": \"").append(Long.toUnsignedString(traceHashSum, 16)).append("\",\n");
        s.append("  \"stats\": {");
        String sep = "";
        for (Map.Entry<String, Long> e : stats.entrySet()) {
            s.append(sep).append('"').append(e.getKey()).append("\": ").append(e.getValue());
            sep = ", ";
        }
        s.append("},\n  \"coverage\": {");
        sep = "";
        for (Coverage.Branch b : Coverage.Branch.values()) {
            if (coverage.reachable(b)) {
                s.append(sep).append('"').append(b.name()).append("\": {\"hits\": ").append(coverage.hits(b))
                        .append(", \"seeds\": ").append(coverage.seedsReaching(b)).append('}');
                sep = ", ";
            }
        }
        s.append("},\n  \"failures\": [");
        sep = "";
        for (SimResult f : failures) {
            s.append(sep).append("\n    {\"seed\": ").append(f.options().seed()).append(", \"property\": \"")
                    .append(json(f.violation().property())).append("\", \"replay\": \"").append(json(f.replayCommand()))
                    .append("\"}");
            sep = ",";
        }
        s.append(failures.isEmpty() ? "]\n}\n" : "\n  ]\n}\n");
        Files.writeString(file, s, StandardCharsets.UTF_8);
    }

    private static String json(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
