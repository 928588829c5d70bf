package io.zabkit.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Official Java client sessions on an {@link Ensemble}, each connected before it is returned (bounded wait). */
final class Clients {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    private Clients() {}

    /** A session that only ever talks to server id (no failover): its operations measure that server. */
    static ZooKeeper pinned(Ensemble e, int id) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(e.connectString(id), e.config().sessionTimeoutMs(), connectedWatcher(connected));
        return awaitConnected(zk, connected, "server " + id);
    }

    /** A session that starts on server first and fails over to the others in id order. */
    static ZooKeeper startingOn(Ensemble e, int first) throws IOException, InterruptedException {
        List<InetSocketAddress> order = new ArrayList<>();
        order.add(e.clientAddress(first));
        e.ids().stream().filter(id -> id != first).forEach(id -> order.add(e.clientAddress(id)));
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(e.connectString(), e.config().sessionTimeoutMs(), connectedWatcher(connected),
                false, new OrderedHostProvider(order));
        return awaitConnected(zk, connected, "server " + first + " (then the others)");
    }

    private static Watcher connectedWatcher(CountDownLatch connected) {
        return event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        };
    }

    private static ZooKeeper awaitConnected(ZooKeeper zk, CountDownLatch connected, String where)
            throws InterruptedException {
        if (!connected.await(CONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            zk.close(1000);
            throw new IllegalStateException("no session with " + where + " within " + CONNECT_TIMEOUT);
        }
        return zk;
    }

    /** Closes without waiting long for a dead server to answer. */
    static void closeQuietly(ZooKeeper zk) {
        if (zk == null) {
            return;
        }
        try {
            zk.close(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
