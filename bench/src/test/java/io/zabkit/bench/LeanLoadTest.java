package io.zabkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lean load client against one real zabkit server: a point completes operations without errors,
 * and a read that returns other bytes than the workload writes is counted as an error (so an empty
 * or wrong reply cannot pass as throughput).
 */
class LeanLoadTest {
    private static final LoadSettings POINT = new LoadSettings(2, 10, 64, 4, Duration.ofMillis(200),
            Duration.ofMillis(800), 1_000_000);

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aPointCompletesOperationsAndCountsWrongValuesAsErrors() throws Exception {
        try (Ensemble e = Ensemble.start(EnsembleConfig.defaults(SystemUnderTest.ZABKIT).withServers(1))) {
            List<String> keys = new ArrayList<>();
            ZooKeeper zk = Clients.pinned(e, e.ids().get(0));
            try {
                zk.create("/lean", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                for (int i = 0; i < POINT.keys(); i++) {
                    keys.add(zk.create("/lean/k" + i, LoadPoint.value(POINT.valueBytes()), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                            CreateMode.PERSISTENT));
                }
                List<InetSocketAddress> servers = List.of(e.clientAddress(e.ids().get(0)));
                try (LeanLoad lean = new LeanLoad(servers, POINT.clients(), POINT.outstanding(),
                        e.config().sessionTimeoutMs())) {
                    PointResult mixed = lean.run(SystemUnderTest.ZABKIT, keys, POINT, 50, () -> Duration.ZERO, s -> { });
                    assertTrue(mixed.ops() > 100, "a point of 0.8 s completes operations: " + mixed.ops());
                    assertEquals(0, mixed.errors(), "errors in an honest point");

                    zk.setData(keys.get(0), new byte[] {1, 2, 3}, -1); // a value the workload never writes
                    PointResult reads = lean.run(SystemUnderTest.ZABKIT, keys.subList(0, 1), POINT, 100,
                            () -> Duration.ZERO, s -> { });
                    assertTrue(reads.errors() > 100, "every read of the planted value is an error: " + reads.errors());
                    assertEquals(0, reads.ops(), "no read of the planted value counts as throughput");
                }
            } finally {
                Clients.closeQuietly(zk);
            }
        }
    }
}
