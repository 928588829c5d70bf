package io.zabkit.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The command line of {@link BenchMain}; every value is checked, and a bad one names the option and the rule. */
record BenchOptions(List<SystemUnderTest> systems, int servers, LoadSettings load, List<Integer> readPercents,
        int crashRounds, boolean forceSync, Path out, boolean quick, int jitWarmupS, LoadClient client) {

    /** What drives the throughput points: the lean jute-level client or the official Java client. */
    enum LoadClient {
        LEAN, JAVA;

        String label() {
            return this == LEAN ? "lean jute-level client (one selector thread)" : "official ZooKeeper 3.9.4 Java client (async API)";
        }
    }


    static final String USAGE = String.join("\n",
            "usage: BenchMain [--systems zookeeper,zabkit] [--servers 3] [--clients 8] [--outstanding 100]",
            "                 [--value-bytes 1024] [--keys 1000] [--reads 0,50,90,100] [--warmup-s 3] [--point-s 10]",
            "                 [--ops-max 3000000] [--jit-warmup-s 10] [--crash-rounds 20] [--force-sync yes|no] [--client lean|java]",
            "                 [--out results/bench] [--quick]",
            "  --client: what drives the throughput points: the lean jute-level client (default; one thread for every",
            "            session, so the servers and not the clients limit) or the official Java client (2 threads a session)",
            "  --jit-warmup-s: unrecorded points at each read ratio before the first, so no system JIT-compiles while measured",
            "  --quick: 1 s warm-up, 2 s JIT warm-up, 2 s points, 2 crash rounds (a smoke run; explicit options still win)");

    static BenchOptions parse(String[] args) {
        Map<String, String> given = new LinkedHashMap<>();
        boolean quick = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--quick")) {
                quick = true;
            } else if (a.startsWith("--") && i + 1 < args.length) {
                given.put(a.substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
        }
        Map<String, String> v = new LinkedHashMap<>(Map.of("systems", "zookeeper,zabkit", "servers", "3", "clients", "8",
                "outstanding", "100", "value-bytes", "1024", "keys", "1000", "reads", "0,50,90,100", "warmup-s", "3",
                "point-s", "10", "ops-max", "3000000"));
        v.putAll(Map.of("crash-rounds", "20", "force-sync", "yes", "out", "results/bench", "jit-warmup-s", "10",
                "client", "lean"));
        if (quick) {
            v.putAll(Map.of("warmup-s", "1", "point-s", "2", "crash-rounds", "2", "jit-warmup-s", "2"));
        }
        for (String k : given.keySet()) {
            if (!v.containsKey(k)) {
                throw new IllegalArgumentException("unknown option --" + k);
            }
        }
        v.putAll(given);
        List<SystemUnderTest> systems = Arrays.stream(v.get("systems").strip().split("[,\\s]+"))
                .map(SystemUnderTest::parse).distinct().toList();
        LoadSettings load = new LoadSettings(positive(v, "clients"), positive(v, "outstanding"),
                atLeast(v, "value-bytes", 0), positive(v, "keys"), Duration.ofSeconds(atLeast(v, "warmup-s", 0)),
                Duration.ofSeconds(positive(v, "point-s")), positive(v, "ops-max"));
        List<Integer> reads = new ArrayList<>();
        for (String r : v.get("reads").split(",")) {
            int p = parseInt("reads", r);
            if (p < 0 || p > 100) {
                throw new IllegalArgumentException("--reads: " + p + " is not a percentage 0..100");
            }
            reads.add(p);
        }
        String sync = v.get("force-sync");
        if (!sync.equals("yes") && !sync.equals("no")) {
            throw new IllegalArgumentException("--force-sync must be yes or no, got '" + sync + "'");
        }
        String client = v.get("client");
        if (!client.equals("lean") && !client.equals("java")) {
            throw new IllegalArgumentException("--client must be lean or java, got '" + client + "'");
        }
        return new BenchOptions(systems, positive(v, "servers"), load, List.copyOf(reads),
                atLeast(v, "crash-rounds", 0), sync.equals("yes"), Path.of(v.get("out")), quick,
                atLeast(v, "jit-warmup-s", 0), client.equals("lean") ? LoadClient.LEAN : LoadClient.JAVA);
    }

    private static int positive(Map<String, String> v, String key) {
        return atLeast(v, key, 1);
    }

    private static int atLeast(Map<String, String> v, String key, int min) {
        int n = parseInt(key, v.get(key));
        if (n < min) {
            throw new IllegalArgumentException("--" + key + " must be at least " + min + ", got " + n);
        }
        return n;
    }

    private static int parseInt(String key, String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + ": '" + text + "' is not an integer");
        }
    }
}
