package io.zabkit.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A one-server ensemble is the papers' "1 server" point (seed 001 Fig 2): its zoo.cfg has no server
 * lines, so each system runs its standalone server, and the bench must wait for it and use it as the
 * server that orders the writes.
 */
class EnsembleStandaloneTest {
    @ParameterizedTest
    @EnumSource(SystemUnderTest.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void oneServerRunsStandaloneAndServesWrites(SystemUnderTest system) throws Exception {
        try (Ensemble e = Ensemble.start(EnsembleConfig.defaults(system).withServers(1))) {
            assertEquals(1, e.awaitQuorum(Duration.ofSeconds(30)), "the standalone server is the one that leads");
            String cfg = Files.readString(e.logFile(1).resolveSibling("zoo.cfg"));
            assertFalse(cfg.contains("server.1="), "a standalone zoo.cfg has no server lines:\n" + cfg);
            assertEquals(Map.of(1, "standalone"), e.modes());
            assertEquals(OptionalInt.of(1), e.leader());
            ZooKeeper zk = Clients.pinned(e, 1);
            try {
                byte[] v = "standalone".getBytes(StandardCharsets.UTF_8);
                zk.create("/alone", v, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                assertArrayEquals(v, zk.getData("/alone", false, null));
            } finally {
                zk.close();
            }
        }
    }
}
