package io.zabkit.bench;

import java.nio.file.Path;

/**
 * How to start an ensemble: which system, how many servers, and the zoo.cfg timing and fsync
 * settings both systems read. The defaults are the fault campaign's (tickTime 1000 ms, initLimit 10,
 * syncLimit 2) with forceSync=yes, so figures from the two tools are comparable.
 *
 * @param repoRoot the zabkit checkout (holds bin/zabkit-server)
 * @param zookeeperClasspath Apache ZooKeeper's server classpath, written by Maven at build time (ZOOKEEPER only)
 * @param assertions run zabkit's server with -ea (tests: yes; the benchmark: no, as ZooKeeper runs)
 * @param serverHeapMb -Xmx of every server JVM
 */
public record EnsembleConfig(SystemUnderTest system, int servers, boolean forceSync, int tickTimeMs, int initLimitTicks,
        int syncLimitTicks, Path repoRoot, String zookeeperClasspath, boolean assertions, int serverHeapMb) {

    public EnsembleConfig {
        if (servers < 1 || servers > 15) {
            throw new IllegalArgumentException("servers must be 1..15 (one 127.0.0.x address each), got " + servers);
        }
        if (tickTimeMs < 100 || initLimitTicks < 1 || syncLimitTicks < 1) {
            throw new IllegalArgumentException("tickTime >= 100 ms, initLimit >= 1 and syncLimit >= 1 required");
        }
    }

    /** Three servers, forceSync=yes, the campaign's timing, paths from system properties or found from the working dir. */
    public static EnsembleConfig defaults(SystemUnderTest system) {
        String zookeeperClasspath = system == SystemUnderTest.ZOOKEEPER ? BuildPaths.zookeeperClasspath() : "";
        return new EnsembleConfig(system, 3, true, 1000, 10, 2, BuildPaths.repoRoot(), zookeeperClasspath, true, 512);
    }

    public EnsembleConfig withServers(int n) {
        return new EnsembleConfig(system, n, forceSync, tickTimeMs, initLimitTicks, syncLimitTicks, repoRoot,
                zookeeperClasspath, assertions, serverHeapMb);
    }

    public EnsembleConfig withForceSync(boolean on) {
        return new EnsembleConfig(system, servers, on, tickTimeMs, initLimitTicks, syncLimitTicks, repoRoot,
                zookeeperClasspath, assertions, serverHeapMb);
    }

    public EnsembleConfig withAssertions(boolean on) {
        return new EnsembleConfig(system, servers, forceSync, tickTimeMs, initLimitTicks, syncLimitTicks, repoRoot,
                zookeeperClasspath, on, serverHeapMb);
    }

    /** The session timeout clients ask for: 10 ticks, inside ZooKeeper's default 2..20 ticks. */
    public int sessionTimeoutMs() {
        return 10 * tickTimeMs;
    }
}
