package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.drivers.TracerDriver;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;

/** Curator clients for the recipe experiments: one session each, on one server, counting their ZooKeeper requests. */
final class Curators {
    private Curators() {}

    /**
     * A started client of server `connectString`, connected; every request its recipes send (Curator
     * traces each as "...BuilderImpl-Foreground/-Background") adds one to zkOps.
     */
    static CuratorFramework open(String connectString, AtomicLong zkOps) throws InterruptedException {
        return open(connectString, zkOps, new AtomicLong());
    }

    /**
     * The same, also counting in `suspensions` each time the client lost its connection (Curator's
     * SUSPENDED): a reconnect stalls every recipe waiting on that client, so a slow cell can be told from
     * a slow server.
     */
    static CuratorFramework open(String connectString, AtomicLong zkOps, AtomicLong suspensions)
            throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.newClient(connectString, Systems.SESSION_TIMEOUT_MS, 15_000,
                new RetryNTimes(3, 100));
        c.getZookeeperClient().setTracerDriver(new TracerDriver() {
            @Override
            public void addTrace(String name, long time, TimeUnit unit) {
                if (name.endsWith("-Foreground") || name.endsWith("-Background")) {
                    zkOps.incrementAndGet();
                }
            }

            @Override
            public void addCount(String name, int increment) {}
        });
        c.getConnectionStateListenable().addListener((client, state) -> {
            if (state == ConnectionState.SUSPENDED) {
                suspensions.incrementAndGet();
            }
        });
        c.start();
        if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
            c.close();
            throw new IllegalStateException("no Curator session with " + connectString + " within 30 s");
        }
        return c;
    }

    static CuratorFramework open(Ensemble e, int id, AtomicLong zkOps) throws InterruptedException {
        return open(e.connectString(id), zkOps);
    }

    static CuratorFramework open(Ensemble e, int id, AtomicLong zkOps, AtomicLong suspensions)
            throws InterruptedException {
        return open(e.connectString(id), zkOps, suspensions);
    }
}
