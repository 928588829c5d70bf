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
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooKeeper;
import org.jfree.data.category.DefaultCategoryDataset;

/** Seed 000 (Bagai, master's report, UNB 2014), chapters 4-5: creates by API and node type, log placement, snapshots. */
final class ThesisPaper {
    static final List<String> ORDER = List.of("creates", "snapshot");
    /** tmpfs on this machine (the thesis mounted a 4 GB tmpfs as its ramdisk, seed 000 lines 738-740). */
    static final Path RAMDISK = Path.of("/dev/shm");
    static final String HEADER = """
            # The performance thesis (seed 000, Bagai 2014), chapters 4-5, reproduced

            Written by `make papers-thesis` (bench/papers.mk, io.zabkit.bench.papers.PapersMain); regenerate
            rather than edit. Apache ZooKeeper 3.9.4 and zabkit ran one after the other in one invocation on
            the same machine and zoo.cfg (3 servers, tickTime 1000 ms, forceSync=yes, separate JVMs with
            -Xmx512m -XX:+UseSerialGC on 127.0.0.N, zabkit without -ea).

            What this 2-core machine changes: the thesis measured ZooKeeper 3.4.5, mostly one standalone
            server, on a 4-core i5 with a 4 GB tmpfs as ramdisk (seed 000, lines 405 and 770-790); here a
            3-server ensemble (every write is fsynced on a quorum of two) shares 2 cores with the client and
            other engineers' jobs, and the 'disk' is a virtual disk (ext4 on /dev/vda), whose fsync is far
            cheaper than a 2014 hard disk's. Its figures carry no values in the text; the numbers its prose
            gives are quoted below.
            """;

    private ThesisPaper() {}

    static void creates(Path out, List<SystemUnderTest> systems, boolean quick, Consumer<String> log) throws Exception {
        int count = quick ? 500 : 10_000;
        double syncDeadlineS = quick ? 5 : 15;
        Part part = new Part(out, "creates", "Creates by API, znode type and log placement (300-byte znodes)",
                "system\tlog_on\tapi\tmode\tcreated\tseconds\tcreates_per_s\tmean_ms\terrors", log);
        DefaultCategoryDataset bars = new DefaultCategoryDataset();
        Map<String, String> cells = new TreeMap<>();
        List<String> cases = List.of("sync EPHEMERAL", "async EPHEMERAL", "sync PERSISTENT", "sync PERSISTENT_SEQUENTIAL");
        int point = 0;
        for (String place : List.of("disk", "tmpfs")) {
            ServerExtras extras = new ServerExtras(place.equals("tmpfs") ? RAMDISK : null, List.of(), List.of());
            for (SystemUnderTest s : systems) {
                try (Ensemble e = Systems.start(s, 3, 512, extras)) {
                    int leader = e.leader().orElseThrow();
                    for (String c : cases) {
                        boolean async = c.startsWith("async");
                        CreateMode mode = CreateMode.valueOf(c.substring(c.indexOf(' ') + 1));
                        ZooKeeper zk = Systems.session(e, leader);
                        try {
                            CreateRun.Result r = CreateRun.run(zk, "/c" + point++, mode, async, count, 300, 1000,
                                    syncDeadlineS);
                            part.row(s.label(), place, r.api(), mode, r.created(), r.seconds(), r.createsPerSecond(),
                                    r.meanLatencyMs(), r.errors());
                            bars.addValue(r.createsPerSecond(), s.label() + " " + place, c.toLowerCase().replace('_', '-'));
                            cells.put(c + "\t" + s.label() + "\t" + place, Part.f0(r.createsPerSecond()) + "/s"
                                    + (async ? "" : ", " + Part.f2(r.meanLatencyMs()) + " ms")
                                    + (r.created() < count ? " (" + r.created() + " in " + syncDeadlineS + " s)" : ""));
                        } finally {
                            Systems.close(zk);
                        }
                    }
                }
            }
        }
        Charts.bars(out, "creates", "Creates/s by case (seed 000 sections 4.2, 5.2.2)",
                count + " creates of 300 B per case, one session on the leader, 3 servers", "creates/s", bars, true);
        part.text("The thesis: 10,000 ephemeral znodes of 300 bytes created with the synchronous and then the "
                + "asynchronous API, the data directory on a ramdisk and on a hard disk; the asynchronous API "
                + "is much faster; its unmodified ZooKeeper 3.4.5 reached about 2,500 ops/s with the synchronous "
                + "API on the ramdisk (an average latency above 4 s, which must be the whole run's, not one "
                + "request's); persistent znodes are faster than persistent-sequential ones; the ramdisk is faster "
                + "(seed 000, lines 486, 792-806). Here: one session on the leader; " + count + " creates per case "
                + "(the synchronous cases stop at " + syncDeadlineS + " s); async keeps up to 1,000 in flight; "
                + "'tmpfs' puts every server's dataDir (log and snapshots) under /dev/shm, 'disk' under /tmp "
                + "(ext4 on the virtual disk), forceSync=yes on both. Cells: creates/s and, for the synchronous "
                + "API, the mean latency of one create.\n");
        part.text("| case | log on | zookeeper | zabkit |");
        part.text("|---|---|---|---|");
        for (String c : cases) {
            for (String place : List.of("disk", "tmpfs")) {
                part.text("| " + c.toLowerCase().replace('_', '-') + " | " + place + " | "
                        + cells.getOrDefault(c + "\tzookeeper\t" + place, "-") + " | "
                        + cells.getOrDefault(c + "\tzabkit\t" + place, "-") + " |");
            }
        }
        part.text("\n![creates](creates.png)\n");
        part.finish(ORDER, HEADER);
    }

    static void snapshot(Path out, boolean quick, Consumer<String> log) throws Exception {
        int parents = quick ? 20 : 500;
        int perParent = 1000;
        int bytes = 100;
        int rounds = quick ? 2 : 5;
        Part part = new Part(out, "snapshot", "Snapshot serialization cost of a large tree",
                "system\tnodes\tsnapshot_bytes\twrite_ms\tread_ms", log);
        SnapshotCost.Result zk = SnapshotCost.zookeeper(parents, perParent, bytes, rounds);
        part.row(zk.system(), zk.nodes(), zk.snapshotBytes(), zk.writeMs(), zk.readMs());
        SnapshotCost.Result zb = SnapshotCost.zabkit(parents, perParent, bytes, rounds);
        part.row(zb.system(), zb.nodes(), zb.snapshotBytes(), zb.writeMs(), zb.readMs());
        DefaultCategoryDataset bars = new DefaultCategoryDataset();
        for (SnapshotCost.Result r : List.of(zk, zb)) {
            bars.addValue(r.writeMs(), r.system(), "write (serialize)");
            bars.addValue(r.readMs(), r.system(), "read back (deserialize)");
        }
        Charts.bars(out, "snapshot", "Snapshot of " + zk.nodes() + " znodes (seed 000 section 4.4.2)",
                "in memory, no disk; best of " + rounds, "ms", bars, false);
        part.text("The thesis: ZooKeeper writes its snapshots with Java serialization through jute; replacing "
                + "Java's default serialization by externalization made marshalling 3.1 times faster and "
                + "unmarshalling 1.52 times slower on a test object (seed 000, lines 709-716). Here the cost that "
                + "matters to a server: a snapshot of " + parents + " x " + perParent + " znodes of " + bytes
                + " bytes written into memory and read back, in this JVM, by ZooKeeper 3.9.4's own code "
                + "(SerializeUtils.serializeSnapshot/deserializeSnapshot over a jute archive) and by zabkit's "
                + "SnapshotCodec; best of " + rounds + " rounds; no disk is timed.\n");
        part.text("| system | znodes | snapshot MB | write ms | read ms | write us/znode | read us/znode |");
        part.text("|---|---|---|---|---|---|---|");
        for (SnapshotCost.Result r : List.of(zk, zb)) {
            part.text("| " + r.system() + " | " + r.nodes() + " | " + Part.f2(r.snapshotBytes() / 1e6) + " | "
                    + Part.f0(r.writeMs()) + " | " + Part.f0(r.readMs()) + " | " + Part.f2(r.writeMs() * 1000 / r.nodes())
                    + " | " + Part.f2(r.readMs() * 1000 / r.nodes()) + " |");
        }
        part.text("\n![snapshot](snapshot.png)\n");
        part.finish(ORDER, HEADER);
    }
}
