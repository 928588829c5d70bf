package io.zabkit.bench.avail;

import io.zabkit.bench.OrderedHostProvider;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * The same subscribers with the official Java client (3.9.4): one ZooKeeper handle each, with its
 * send and event threads, its own reconnect back-off and its automatic watch re-registration (which
 * it does not report, so rewatchMs stays NaN). The comparison with {@link LeanFleet} shows what the
 * client library adds to the window.
 */
final class JavaFleet implements WatchFleet {
    private final List<String> paths;
    private final List<ZooKeeper> handles = new ArrayList<>();
    private final int n;
    private final int[] home;
    private final AtomicIntegerArray watched;
    private final AtomicLongArray lostNs;
    private final AtomicLongArray sessionNs;
    private final AtomicLongArray freshNs;
    private final AtomicLongArray freshIssuedNs;
    private volatile long faultNs = Long.MAX_VALUE;

    JavaFleet(List<InetSocketAddress> servers, int n, List<String> paths, int timeoutMs, long seed) throws Exception {
        if (n < 1 || paths.isEmpty()) {
            throw new IllegalArgumentException("a fleet needs clients and topics");
        }
        this.paths = List.copyOf(paths);
        this.n = n;
        home = new int[n];
        watched = new AtomicIntegerArray(n);
        lostNs = new AtomicLongArray(n);
        sessionNs = new AtomicLongArray(n);
        freshNs = new AtomicLongArray(n);
        freshIssuedNs = new AtomicLongArray(n);
        String connect = String.join(",", servers.stream().map(a -> a.getHostString() + ":" + a.getPort()).toList());
        for (int i = 0; i < n; i++) {
            home[i] = i % servers.size();
            List<InetSocketAddress> order = new ArrayList<>(servers);
            InetSocketAddress first = order.remove(home[i]);
            Collections.shuffle(order, new Random(seed * 1_000_003L + i));
            order.add(0, first);
            Subscriber sub = new Subscriber(i);
            sub.zk = new ZooKeeper(connect, timeoutMs, sub, false, new OrderedHostProvider(order));
            handles.add(sub.zk);
        }
    }

    @Override public String kind() { return "java"; }

    @Override public int size() { return n; }

    private final class Subscriber implements Watcher, AsyncCallback.DataCallback {
        private final int i;
        private boolean started;
        /** Set right after the handle exists; its first event may come before that, so it waits. */
        private volatile ZooKeeper zk;

        Subscriber(int i) { this.i = i; }

        @Override
        public synchronized void process(WatchedEvent e) {
            long now = System.nanoTime();
            while (zk == null) {
                Thread.onSpinWait();
            }
            if (e.getType() == Event.EventType.None) {
                if (e.getState() == Event.KeeperState.Disconnected && now >= faultNs) {
                    lostNs.compareAndSet(i, 0, now);
                } else if (e.getState() == Event.KeeperState.SyncConnected) {
                    if (now >= faultNs && lostNs.get(i) != 0) {
                        sessionNs.compareAndSet(i, 0, now);
                    }
                    if (!started) { // first connection: read and watch every topic
                        started = true;
                        paths.forEach(p -> zk.getData(p, true, this, null));
                    }
                } else if (e.getState() == Event.KeeperState.Expired) {
                    throw new IllegalStateException("java client " + i + ": session expired");
                }
            } else if (e.getType() == Event.EventType.NodeDataChanged) {
                zk.getData(e.getPath(), true, this, null);
            }
        }

        @Override
        public void processResult(int rc, String path, Object ctx, byte[] data, org.apache.zookeeper.data.Stat stat) {
            if (rc != 0) {
                return; // connection loss: the watch comes back with the client's SetWatches
            }
            if (watched.get(i) < paths.size()) {
                watched.incrementAndGet(i);
            }
            long issued = Writer.issuedNs(data);
            if (issued >= faultNs && freshNs.compareAndSet(i, 0, System.nanoTime())) {
                freshIssuedNs.set(i, issued);
            }
        }
    }

    @Override
    public void awaitReady(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            int ready = 0;
            for (int i = 0; i < n; i++) {
                ready += handles.get(i).getState().isConnected() && watched.get(i) >= paths.size() ? 1 : 0;
            }
            if (ready == n) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("java clients: not every session watches all " + paths.size()
                + " topics within " + timeout);
    }

    @Override
    public void arm(long atNs) {
        faultNs = Long.MAX_VALUE; // no callback records against the old mark while the arrays are reset
        for (int i = 0; i < n; i++) {
            lostNs.set(i, 0);
            sessionNs.set(i, 0);
            freshNs.set(i, 0);
        }
        faultNs = atNs;
    }

    @Override
    public synchronized void rebase(long atNs) {
        faultNs = atNs;
        for (int i = 0; i < n; i++) {
            if (freshNs.get(i) != 0 && freshIssuedNs.get(i) < atNs) {
                freshNs.set(i, 0); // a race with a callback is harmless: it records a value issued after atNs
            }
        }
    }

    @Override
    public int closed() {
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += freshNs.get(i) != 0 ? 1 : 0;
        }
        return c;
    }

    @Override
    public List<ClientWindow> windows() {
        List<ClientWindow> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ClientWindow(i, home[i], lostNs.get(i) != 0, ms(freshNs.get(i)), ms(lostNs.get(i)),
                    ms(sessionNs.get(i)), Double.NaN, 0, false));
        }
        return out;
    }

    private double ms(long t) {
        return t == 0 ? Double.NaN : (t - faultNs) / 1e6;
    }

    @Override
    public void close() throws Exception {
        for (ZooKeeper zk : handles) {
            zk.close(500);
        }
    }
}
