package io.zabkit.bench.avail;

import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** Command-line options of `make avail-systems` (AvailMain). */
record AvailOptions(List<SystemUnderTest> systems, List<Integer> clients, int javaClients, List<Fault> faults,
        int topics, int writesPerSecond, Duration warmup, Duration maxWindow, long seed, Path out, boolean quick,
        boolean check, boolean keepConnections) {

    static final String USAGE = "options: --systems zookeeper,zabkit --clients 5,25,50,100 --java-clients 25 (0: no "
            + "official-client run) --faults follower-kill,leader-kill,leader-pause --topics 1000 --rate 100 (writes/s) "
            + "--warmup-s 2 --max-window-s 60 --seed 1 --out DIR --quick --check (exit 1 unless every window is measured "
            + "and consistent) --keep-connections (zabkit's servers run with keepConnections=true; issue 20 item 7)";

    AvailOptions {
        if (systems.isEmpty() || clients.isEmpty() || faults.isEmpty()) {
            throw new IllegalArgumentException("systems, clients and faults must each name at least one\n" + USAGE);
        }
        if (clients.stream().anyMatch(c -> c < 1 || c > 2000) || javaClients < 0 || javaClients > 500) {
            throw new IllegalArgumentException("--clients must be 1..2000 each, --java-clients 0..500\n" + USAGE);
        }
        if (topics < 1 || topics > 100_000 || writesPerSecond < 1 || writesPerSecond > 5000) {
            throw new IllegalArgumentException("--topics 1..100000, --rate 1..5000\n" + USAGE);
        }
    }

    static AvailOptions parse(String[] args) {
        List<SystemUnderTest> systems = List.of(SystemUnderTest.ZOOKEEPER, SystemUnderTest.ZABKIT);
        List<Integer> clients = List.of(5, 25, 50, 100);
        int javaClients = 25;
        List<Fault> faults = List.of(Fault.FOLLOWER_KILL, Fault.LEADER_KILL, Fault.LEADER_PAUSE);
        int topics = 1000;
        int rate = 100;
        Duration warmup = Duration.ofSeconds(2);
        Duration maxWindow = Duration.ofSeconds(60);
        long seed = 1;
        Path out = Path.of("results/availability");
        boolean quick = false;
        boolean check = false;
        boolean keep = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--keep-connections")) {
                keep = true;
                continue;
            }
            if (a.equals("--quick") || a.equals("--check")) {
                quick |= a.equals("--quick");
                check |= a.equals("--check");
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value\n" + USAGE);
            }
            String v = args[++i];
            switch (a) {
                case "--systems" -> systems = Arrays.stream(v.split(",")).map(SystemUnderTest::parse).toList();
                case "--clients" -> clients = Arrays.stream(v.split(",")).map(String::strip).map(Integer::parseInt).toList();
                case "--java-clients" -> javaClients = Integer.parseInt(v);
                case "--faults" -> faults = Arrays.stream(v.split(",")).map(Fault::parse).toList();
                case "--topics" -> topics = Integer.parseInt(v);
                case "--rate" -> rate = Integer.parseInt(v);
                case "--warmup-s" -> warmup = Duration.ofMillis((long) (Double.parseDouble(v) * 1000));
                case "--max-window-s" -> maxWindow = Duration.ofSeconds(Long.parseLong(v));
                case "--seed" -> seed = Long.parseLong(v);
                case "--out" -> out = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
            }
        }
        if (quick) { // the smoke run: 2 lean clients, 2 official ones, short warm-up
            clients = List.of(2);
            javaClients = Math.min(javaClients, 2);
            warmup = Duration.ofMillis(500);
        }
        return new AvailOptions(systems, clients, javaClients, faults, topics, rate, warmup, maxWindow, seed, out,
                quick, check, keep);
    }
}
