package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Helpers for driving servers with the official ZooKeeper client; every wait is bounded. */
final class Clients {
    static final int SESSION_TIMEOUT_MS = 4000;
    static final long WAIT_S = 10;

    private Clients() {}

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    /** Records every event a watcher sees, in delivery order. */
    static final class Events implements Watcher {
        final BlockingQueue<WatchedEvent> queue = new LinkedBlockingQueue<>();

        @Override
        public void process(WatchedEvent event) {
            queue.add(event);
        }

        WatchedEvent next() throws InterruptedException {
            WatchedEvent e = queue.poll(WAIT_S, TimeUnit.SECONDS);
            assertNotNull(e, "no watch event within " + WAIT_S + " s");
            return e;
        }

        /** The next node event (skipping connection-state events). */
        WatchedEvent nextNodeEvent() throws InterruptedException {
            while (true) {
                WatchedEvent e = next();
                if (e.getType() != Event.EventType.None) {
                    return e;
                }
            }
        }

        void expect(Event.EventType type, String path) throws InterruptedException {
            WatchedEvent e = nextNodeEvent();
            assertEquals(type + " " + path, e.getType() + " " + e.getPath(), "watch event");
        }

        void expectState(Event.KeeperState state) throws InterruptedException {
            while (true) {
                WatchedEvent e = next();
                if (e.getType() == Event.EventType.None && e.getState() == state) {
                    return;
                }
            }
        }

        /** Asserts no node event is queued; call after {@link #barrier} so that any due event has arrived. */
        void expectNoNodeEvent() {
            for (WatchedEvent e : queue) {
                if (e.getType() != Event.EventType.None) {
                    fail("unexpected watch event " + e);
                }
            }
            queue.clear();
        }
    }

    /**
     * Waits until every event and callback delivered to this client before now has been processed:
     * an async round trip's callback runs on the same event thread, after them (and the server sends a
     * watch event before any reply that reflects its change).
     */
    static void barrier(ZooKeeper zk) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        zk.exists("/", false, (rc, path, ctx, stat) -> done.countDown(), null);
        assertTrue(done.await(WAIT_S, TimeUnit.SECONDS), "barrier round trip did not return");
    }

    static ZooKeeper connect(String connectString) throws Exception {
        return connect(connectString, SESSION_TIMEOUT_MS, new Events());
    }

    static ZooKeeper connect(String connectString, int timeoutMs, Events events) throws Exception {
        ZooKeeper zk = new ZooKeeper(connectString, timeoutMs, events);
        events.expectState(Watcher.Event.KeeperState.SyncConnected);
        return zk;
    }

    /** A client whose connection can be dropped without closing its session, as ZooKeeper's own tests do. */
    static final class DisconnectableZooKeeper extends ZooKeeper {
        DisconnectableZooKeeper(String connectString, int timeoutMs, Watcher watcher) throws IOException {
            super(connectString, timeoutMs, watcher);
        }

        /** Stops the client's threads and closes its socket; no closeSession reaches the server. */
        void disconnect() throws IOException {
            cnxn.disconnect();
        }
    }

    /** Sends a four-letter word on a fresh connection and returns the whole answer. */
    static String fourLetterWord(int port, String word) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_S));
            OutputStream out = s.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
