package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.EnsembleConfig;
import io.zabkit.bench.ServerExtras;
import io.zabkit.bench.SystemUnderTest;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/** Ensembles and client sessions as the papers' experiments use them, the same for both systems. */
final class Systems {
    static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /** Session timeout the experiments ask for: ZooKeeper's largest default (20 ticks of 1000 ms). */
    static final int SESSION_TIMEOUT_MS = 20_000;

    private Systems() {}

    /**
     * A serving ensemble of n servers: forceSync=yes, no assertions in zabkit (ZooKeeper runs without
     * -ea too), heapMb per server JVM.
     */
    static Ensemble start(SystemUnderTest system, int n, int heapMb, ServerExtras extras)
            throws IOException, InterruptedException {
        EnsembleConfig d = EnsembleConfig.defaults(system);
        EnsembleConfig config = new EnsembleConfig(system, n, true, d.tickTimeMs(), d.initLimitTicks(),
                d.syncLimitTicks(), d.repoRoot(), d.zookeeperClasspath(), false, heapMb);
        Ensemble e = Ensemble.start(config, extras);
        try {
            e.awaitQuorum(QUORUM_TIMEOUT);
            return e;
        } catch (InterruptedException | RuntimeException x) {
            e.close();
            throw x;
        }
    }

    /** A session on server id only, with the client's jute.maxbuffer set to maxBuffer bytes. */
    static ZooKeeper session(Ensemble e, int id, int maxBuffer) throws IOException, InterruptedException {
        ZKClientConfig conf = new ZKClientConfig();
        conf.setProperty(ZKClientConfig.JUTE_MAXBUFFER, Integer.toString(maxBuffer));
        CountDownLatch connected = new CountDownLatch(1);
        Watcher w = event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        };
        ZooKeeper zk = new ZooKeeper(e.connectString(id), SESSION_TIMEOUT_MS, w, conf);
        if (!connected.await(CONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            zk.close(1000);
            throw new IllegalStateException("no session with server " + id + " of " + e.system().label() + " within "
                    + CONNECT_TIMEOUT);
        }
        return zk;
    }

    static ZooKeeper session(Ensemble e, int id) throws IOException, InterruptedException {
        return session(e, id, 0xfffff);
    }

    static void close(ZooKeeper zk) {
        if (zk != null) {
            try {
                zk.close(2000);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
