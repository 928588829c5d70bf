package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.zabkit.it.Clients.DisconnectableZooKeeper;
import io.zabkit.it.Clients.Events;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions as ZooKeeper defines them: timeout negotiation, expiry and its ephemerals, resuming a
 * session by id and password on a new connection, watches re-registered after a reconnect (with
 * events for changes missed meanwhile), restarts that keep the data, and maxClientCnxns. Each test
 * has its own server, since some restart it or change its settings.
 */
abstract class SessionsContract {
    private static final byte[] DATA = "v".getBytes(StandardCharsets.UTF_8);
    private static final List<ACL> OPEN = Ids.OPEN_ACL_UNSAFE;
    private static final Target.Settings SETTINGS = Target.Settings.FAST;

    @TempDir
    Path dir;
    Target server;

    abstract Target.Factory factory();

    @BeforeEach
    void start() throws Exception {
        server = factory().start(dir, Clients.freePort(), SETTINGS);
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void timeoutNegotiationClampsToMinAndMax() throws Exception {
        for (int[] askedAndGot : new int[][] {{50, 300}, {1000, 1000}, {100_000, 4000}}) {
            ZooKeeper zk = Clients.connect(server.connectString(), askedAndGot[0], new Events());
            try {
                assertEquals(askedAndGot[1], zk.getSessionTimeout(), "asked for " + askedAndGot[0] + " ms");
            } finally {
                zk.close();
            }
        }
    }

    @Test
    void expiryRemovesEphemeralsAndTheClientLearnsOnReconnect() throws Exception {
        Events doomedEvents = new Events();
        DisconnectableZooKeeper doomed = new DisconnectableZooKeeper(server.connectString(),
                SETTINGS.minSessionTimeoutMs(), doomedEvents);
        doomedEvents.expectState(KeeperState.SyncConnected);
        doomed.create("/lease", DATA, OPEN, CreateMode.EPHEMERAL);
        Events watching = new Events();
        ZooKeeper observer = Clients.connect(server.connectString(), Clients.SESSION_TIMEOUT_MS, watching);
        try {
            assertNotNull(observer.exists("/lease", true));
            long sessionId = doomed.getSessionId();
            byte[] password = doomed.getSessionPasswd();
            doomed.disconnect(); // no closeSession: only expiry can remove the ephemeral
            watching.expect(EventType.NodeDeleted, "/lease");
            assertNull(observer.exists("/lease", false));

            Events back = new Events();
            ZooKeeper late = new ZooKeeper(server.connectString(), SETTINGS.minSessionTimeoutMs(), back,
                    sessionId, password);
            try {
                back.expectState(KeeperState.Expired);
                assertEquals(KeeperException.Code.SESSIONEXPIRED, assertThrows(KeeperException.class,
                        () -> late.exists("/", false)).code());
            } finally {
                late.close();
            }
        } finally {
            observer.close();
        }
    }

    @Test
    void sessionResumesOnANewConnectionWithIdAndPassword() throws Exception {
        Events firstEvents = new Events();
        DisconnectableZooKeeper first = new DisconnectableZooKeeper(server.connectString(),
                Clients.SESSION_TIMEOUT_MS, firstEvents);
        firstEvents.expectState(KeeperState.SyncConnected);
        first.create("/mine", DATA, OPEN, CreateMode.EPHEMERAL);
        long sessionId = first.getSessionId();
        first.disconnect();

        Events events = new Events();
        ZooKeeper resumed = new ZooKeeper(server.connectString(), Clients.SESSION_TIMEOUT_MS, events, sessionId,
                first.getSessionPasswd());
        events.expectState(KeeperState.SyncConnected);
        assertEquals(sessionId, resumed.getSessionId());
        assertEquals(sessionId, resumed.exists("/mine", false).getEphemeralOwner());
        resumed.setData("/mine", new byte[] {7}, 0);
        ZooKeeper observer = Clients.connect(server.connectString());
        try {
            assertNotNull(observer.exists("/mine", true));
            resumed.close(); // closeSession removes the ephemerals at once
            assertNull(observer.exists("/mine", false));
        } finally {
            observer.close();
        }
    }

    @Test
    void wrongPasswordExpiresTheAttemptButNotTheSession() throws Exception {
        Events ownerEvents = new Events();
        ZooKeeper owner = Clients.connect(server.connectString(), Clients.SESSION_TIMEOUT_MS, ownerEvents);
        try {
            owner.create("/owned", DATA, OPEN, CreateMode.EPHEMERAL);
            byte[] wrong = owner.getSessionPasswd().clone();
            wrong[0] ^= 1;
            Events events = new Events();
            ZooKeeper thief = new ZooKeeper(server.connectString(), Clients.SESSION_TIMEOUT_MS, events,
                    owner.getSessionId(), wrong);
            try {
                events.expectState(KeeperState.Expired);
            } finally {
                thief.close();
            }
            // ZooKeeper closes the owner's connection before it checks the password (the owner then
            // reconnects); zabkit checks first and leaves it alone. Either way the session lives on.
            byte[] data;
            try {
                data = owner.getData("/owned", false, null);
            } catch (KeeperException.ConnectionLossException e) {
                ownerEvents.expectState(KeeperState.SyncConnected);
                data = owner.getData("/owned", false, null);
            }
            assertArrayEquals(DATA, data);
        } finally {
            owner.close();
        }
    }

    @Test
    void watchesAreReRegisteredAfterAReconnectAndFireForChangesMissedMeanwhile() throws Exception {
        Events writerEvents = new Events();
        ZooKeeper writer = Clients.connect(server.connectString(), Clients.SESSION_TIMEOUT_MS, writerEvents);
        writer.create("/w", DATA, OPEN, CreateMode.PERSISTENT);
        writer.create("/dir", DATA, OPEN, CreateMode.PERSISTENT);
        try (CutProxy proxy = new CutProxy(server.port())) {
            Events events = new Events();
            ZooKeeper watcher = Clients.connect(proxy.connectString(), Clients.SESSION_TIMEOUT_MS, events);
            try {
                watcher.getData("/w", true, null);
                assertNull(watcher.exists("/n", true));
                watcher.getChildren("/dir", true);
                proxy.cut();
                events.expectState(KeeperState.Disconnected);
                writer.setData("/w", new byte[] {1}, -1);
                writer.create("/n", DATA, OPEN, CreateMode.PERSISTENT);
                writer.create("/dir/c", DATA, OPEN, CreateMode.PERSISTENT);
                proxy.heal();
                events.expectState(KeeperState.SyncConnected);
                Set<String> fired = new HashSet<>();
                for (int i = 0; i < 3; i++) {
                    WatchedEvent e = events.nextNodeEvent();
                    fired.add(e.getType() + " " + e.getPath());
                }
                assertEquals(Set.of("NodeDataChanged /w", "NodeCreated /n", "NodeChildrenChanged /dir"), fired);
                writer.setData("/w", new byte[] {2}, -1); // the re-registered watch was one-shot too
                Clients.barrier(watcher);
                events.expectNoNodeEvent();
            } finally {
                watcher.close();
            }
        } finally {
            writer.close();
        }
    }

    @Test
    void watchesAndEphemeralsSurviveTheServerClosingTheConnection() throws Exception {
        Assumptions.assumeTrue(server.canDropConnections(), server.name() + " cannot drop connections on demand");
        Events events = new Events();
        ZooKeeper zk = Clients.connect(server.connectString(), Clients.SESSION_TIMEOUT_MS, events);
        try {
            zk.create("/eph", DATA, OPEN, CreateMode.EPHEMERAL);
            zk.getData("/eph", true, null);
            server.dropConnections();
            events.expectState(KeeperState.Disconnected);
            events.expectState(KeeperState.SyncConnected);
            ZooKeeper other = Clients.connect(server.connectString());
            try {
                other.setData("/eph", new byte[] {3}, -1);
            } finally {
                other.close();
            }
            events.expect(EventType.NodeDataChanged, "/eph");
            assertEquals(zk.getSessionId(), zk.exists("/eph", false).getEphemeralOwner());
        } finally {
            zk.close();
        }
    }

    @Test
    void aRestartOnTheSameDataKeepsDataSessionsAndWatches() throws Exception {
        Events events = new Events();
        ZooKeeper zk = Clients.connect(server.connectString(), Clients.SESSION_TIMEOUT_MS, events);
        try {
            zk.create("/kept", DATA, OPEN, CreateMode.PERSISTENT);
            zk.create("/kept/seq-", DATA, OPEN, CreateMode.PERSISTENT_SEQUENTIAL);
            zk.create("/eph", DATA, OPEN, CreateMode.EPHEMERAL);
            zk.getData("/kept", true, null);
            long zxidBefore = zk.exists("/eph", false).getCzxid();
            server.restart();
            events.expectState(KeeperState.Disconnected);
            events.expectState(KeeperState.SyncConnected);
            assertEquals(zk.getSessionId(), zk.exists("/eph", false).getEphemeralOwner());
            assertEquals(zxidBefore, zk.exists("/eph", false).getCzxid());
            assertEquals(List.of("seq-0000000000"), zk.getChildren("/kept", false));
            ZooKeeper other = Clients.connect(server.connectString());
            try {
                other.setData("/kept", new byte[] {4}, 0);
            } finally {
                other.close();
            }
            events.expect(EventType.NodeDataChanged, "/kept");
        } finally {
            zk.close();
        }
    }

    @Test
    void pingsKeepAnIdleShortSessionAlive() throws Exception {
        Events events = new Events();
        ZooKeeper zk = Clients.connect(server.connectString(), 1000, events);
        try {
            zk.create("/idle", DATA, OPEN, CreateMode.EPHEMERAL);
            long sessionId = zk.getSessionId();
            // Idling is the subject here, not a wait for something: three session timeouts with only pings.
            Thread.sleep(3 * zk.getSessionTimeout());
            assertEquals(sessionId, zk.exists("/idle", false).getEphemeralOwner());
            for (WatchedEvent e : events.queue) {
                assertEquals(KeeperState.SyncConnected, e.getState(), "an idle session lost its connection: " + e);
            }
        } finally {
            zk.close();
        }
    }

    @Test
    void aPacketOverJuteMaxbufferClosesTheConnectionAndLosesNothing() throws Exception {
        Events events = new Events();
        ZooKeeper zk = Clients.connect(server.connectString(), Clients.SESSION_TIMEOUT_MS, events);
        try {
            zk.create("/big", DATA, OPEN, CreateMode.PERSISTENT);
            long sessionId = zk.getSessionId();
            byte[] tooBig = new byte[0xfffff + 1];
            assertEquals(KeeperException.Code.CONNECTIONLOSS, assertThrows(KeeperException.class,
                    () -> zk.setData("/big", tooBig, -1)).code());
            events.expectState(KeeperState.SyncConnected);
            assertEquals(sessionId, zk.getSessionId());
            assertArrayEquals(DATA, zk.getData("/big", false, null));
            assertEquals(0, zk.exists("/big", false).getVersion());
        } finally {
            zk.close();
        }
    }

    @Test
    void maxClientCnxnsRefusesTheConnectionOverTheLimit() throws Exception {
        server.close();
        server = factory().start(dir, Clients.freePort(), SETTINGS.withMaxClientCnxns(3));
        RawClient[] allowed = new RawClient[3];
        try {
            for (int i = 0; i < allowed.length; i++) {
                allowed[i] = new RawClient(server.port(), 5000);
                allowed[i].send(RawClient.connectFrame(4000));
                assertNotNull(allowed[i].readFrame(), "connection " + (i + 1) + " of 3 must be served");
            }
            try (RawClient over = new RawClient(server.port(), 5000)) {
                try {
                    over.send(RawClient.connectFrame(4000));
                } catch (java.io.IOException e) {
                    // closed before the write: refused all the same
                }
                assertEquals(0, over.framesUntilClosed(), "the fourth connection gets no answer");
            }
        } finally {
            for (RawClient c : allowed) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }
}
