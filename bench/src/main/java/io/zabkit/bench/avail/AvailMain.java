package io.zabkit.bench.avail;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.EnsembleConfig;
import io.zabkit.bench.SystemUnderTest;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * `make avail-systems`: System S's Fig 10a (follower kill) and 10b-c (leader kill) on both systems in
 * one run. Per system one ensemble of 5 servers on loopback; 1,000 topic znodes; for each client count
 * a round per fault with the lean clients, then one round per fault with the official Java client.
 * Writes rounds.tsv, windows.tsv, phases.tsv, the figures and summary.md into --out.
 */
public final class AvailMain {
    private static final int SERVERS = 5;
    private static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(90);

    private AvailMain() {}

    /** After a failed round: every server running again and serving, so the next client kind can go on. */
    private static void healEnsemble(Ensemble e) throws Exception {
        for (int id : e.ids()) {
            if (!e.isRunning(id)) {
                e.restart(id);
            }
        }
        e.awaitQuorum(QUORUM_TIMEOUT);
    }

    public static void main(String[] args) throws Exception {
        AvailOptions o;
        try {
            o = AvailOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("avail: " + e.getMessage());
            System.exit(2);
            return;
        }
        Files.createDirectories(o.out());
        List<Round> rounds = new ArrayList<>();
        List<ServerMilestones> milestones = new ArrayList<>();
        List<String> stops = new ArrayList<>();
        System.out.printf("avail: %s, clients %s (+%d official-client), faults %s, %d topics, %d writes/s, load %.2f%n",
                o.systems(), o.clients(), o.javaClients(), o.faults(), o.topics(), o.writesPerSecond(),
                WindowRun.loadAverage());
        for (SystemUnderTest system : o.systems()) {
            EnsembleConfig cfg = EnsembleConfig.defaults(system).withServers(SERVERS).withAssertions(false);
            // keepConnections is zabkit's alone (issue 20 item 7): ZooKeeper is measured as it is.
            io.zabkit.bench.ServerExtras extras = o.keepConnections() && system == SystemUnderTest.ZABKIT
                    ? new io.zabkit.bench.ServerExtras(null, List.of(), List.of("keepConnections=true"))
                    : io.zabkit.bench.ServerExtras.NONE;
            System.out.printf("avail: %s keepConnections=%b%n", system, !extras.cfgLines().isEmpty());
            try (Ensemble e = Ensemble.start(cfg, extras)) {
                e.awaitQuorum(QUORUM_TIMEOUT);
                List<String> topics = Topics.create(e, o.topics());
                WindowRun.Settings s = new WindowRun.Settings(topics, o.writesPerSecond(), cfg.sessionTimeoutMs(),
                        o.warmup(), o.maxWindow(), o.seed());
                List<String[]> plan = new ArrayList<>();
                for (int n : o.clients()) {
                    o.faults().forEach(f -> plan.add(new String[] {"lean", Integer.toString(n), f.label()}));
                }
                if (o.javaClients() > 0) {
                    o.faults().forEach(f -> plan.add(new String[] {"java", Integer.toString(o.javaClients()), f.label()}));
                }
                List<String> skip = new ArrayList<>();
                for (String[] p : plan) {
                    if (skip.contains(p[0])) {
                        continue;
                    }
                    try {
                        Round r = WindowRun.round(e, Fault.parse(p[2]), p[0], Integer.parseInt(p[1]), s);
                        rounds.add(r);
                        milestones.add(ServerMilestones.read(e, r));
                        System.out.println(Report.line(r));
                        Report.write(o, rounds, milestones); // after every round: a later failure loses nothing
                    } catch (IllegalStateException x) {
                        // The machine's limit (clients not ready, load too high): say where the sweep stopped.
                        String why = system.label() + " " + p[0] + " N=" + p[1] + " " + p[2] + ": " + x.getMessage();
                        System.out.println("avail: sweep stopped at " + why + "; larger N of this client skipped");
                        stops.add(why);
                        skip.add(p[0]);
                        healEnsemble(e);
                    }
                }
            }
        }
        Report.write(o, rounds, milestones);
        if (!stops.isEmpty()) {
            java.nio.file.Files.write(o.out().resolve("stops.txt"), stops);
        }
        AvailPlots.write(o, rounds, milestones);
        System.out.println("avail: wrote " + o.out().resolve("summary.md"));
        long bad = rounds.stream().mapToLong(Round::unmeasured).sum();
        if (bad > 0) {
            System.out.println("avail: " + bad + " client windows unmeasured (no change reached them within "
                    + o.maxWindow() + ")");
        }
        if (o.check()) {
            List<String> problems = new ArrayList<>(RoundCheck.problems(rounds, milestones));
            stops.forEach(x -> problems.add("round failed: " + x));
            problems.forEach(p -> System.out.println("avail check: " + p));
            System.out.println("avail check: " + rounds.size() + " rounds, "
                    + rounds.stream().mapToInt(r -> r.affected().size()).sum() + " client windows, "
                    + problems.size() + " problems");
            if (!problems.isEmpty()) {
                System.exit(1);
            }
        }
    }
}
