package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.core.CoreConfig;
import io.zabkit.storage.FileDisk;
import io.zabkit.storage.Storage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two event loops with scripted cores, joined by peer links on loopback: a core's peerOut reaches the
 * other core in order, on the loop thread, next to client traffic; a reset is one disconnect on the
 * other side only, and what follows it arrives after that disconnect.
 */
class EventLoopPeersTest {
    @TempDir
    Path dir;

    private final List<EventLoop> loops = new ArrayList<>();

    private static final class Server {
        final ScriptedCore core = new ScriptedCore();
        ServerSocketChannel clients;
        ServerSocketChannel quorum;
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (EventLoop loop : loops) {
            loop.requestStop();
        }
        for (EventLoop loop : loops) {
            assertEquals(null, loop.awaitStopped());
        }
    }

    private Server bind(int octet) throws IOException {
        Server s = new Server();
        s.clients = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0." + octet, 0));
        s.quorum = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0." + octet, 0));
        return s;
    }

    private void start(long id, Server s, Map<Long, InetSocketAddress> quorum) throws IOException {
        FileDisk disk = new FileDisk(dir.resolve("server" + id));
        Storage storage = new Storage(disk, disk, new Storage.Options(true, 3, CoreConfig.DEFAULT_MAX_BUFFER), w -> { });
        storage.recover();
        EventLoop loop = new EventLoop(s.core, s.clients, storage, 100, System::currentTimeMillis,
                new EventLoop.Peers(id, quorum, s.quorum, CoreConfig.DEFAULT_MAX_BUFFER));
        loops.add(loop);
        new Thread(loop, "zabkit-loop-" + id).start();
    }

    private static InetSocketAddress address(ServerSocketChannel ch) throws IOException {
        return (InetSocketAddress) ch.getLocalAddress();
    }

    private static void awaitEvents(ScriptedCore core, List<String> expected) throws InterruptedException {
        for (int i = 0; i < 1000 && core.events.size() < expected.size(); i++) {
            Thread.sleep(10);
        }
        assertEquals(expected, new ArrayList<>(core.events));
    }

    @Test
    void coresTalkThroughTheirLoopsAndAResetIsOneDisconnectOnTheOtherSide() throws Exception {
        Server one = bind(1);
        Server two = bind(2);
        Map<Long, InetSocketAddress> quorum = Map.of(1L, address(one.quorum), 2L, address(two.quorum));
        start(1, one, quorum);
        start(2, two, quorum);
        try (Socket c1 = new Socket(); Socket c2 = new Socket()) {
            c1.connect(address(one.clients));
            c2.connect(address(two.clients));
            OutputStream to1 = c1.getOutputStream();
            OutputStream to2 = c2.getOutputStream();
            // each loop has accepted its client before any peer traffic: a client's accept and a peer's
            // frames selected in the same pass come in no set order (CI ran into the other one)
            awaitEvents(one.core, List.of("connect 1"));
            awaitEvents(two.core, List.of("connect 1"));
            // server 2 (the larger id) sends first: its messages wait until server 1 connects
            to2.write("peer 1 1\npeer 1 2\n".getBytes(StandardCharsets.UTF_8));
            to1.write("peer 2 10\npeer 2 11\n".getBytes(StandardCharsets.UTF_8));
            awaitEvents(one.core, List.of("connect 1", "peer 2 Commit[zxid=1]", "peer 2 Commit[zxid=2]"));
            awaitEvents(two.core, List.of("connect 1", "peer 1 Commit[zxid=10]", "peer 1 Commit[zxid=11]"));
            // server 2 gives up its link to 1 and sends on: 1 hears of the break first, then the new message
            to2.write("reset 1\npeer 1 3\n".getBytes(StandardCharsets.UTF_8));
            awaitEvents(one.core, List.of("connect 1", "peer 2 Commit[zxid=1]", "peer 2 Commit[zxid=2]",
                    "peer-disconnected 2", "peer 2 Commit[zxid=3]"));
            to1.write("peer 2 12\n".getBytes(StandardCharsets.UTF_8));
            awaitEvents(two.core, List.of("connect 1", "peer 1 Commit[zxid=10]", "peer 1 Commit[zxid=11]",
                    "peer 1 Commit[zxid=12]"));
            assertTrue(one.core.ticks > 0 && two.core.ticks > 0);
        }
    }

    /** The bench ensembles' syncLimit (2 ticks of 1,000 ms) halved: silence a peer must never see. */
    private static final long SILENCE_MAX_MS = 1000;
    private static final int FLOOD_CLIENTS = 120;
    private static final int FLOOD_REQUEST_MS = 20;

    /**
     * A loop busy with its clients still ticks and talks to its peers, as ZooKeeper's leader pings from
     * a thread of its own: 120 clients each ask for 20 ms of server 1's loop (2.4 s in all) while its
     * core sends server 2 a heartbeat every 50 ms of ticks. When one pass handed every waiting request
     * before the loop ticked or flushed its peer links again, server 2 heard nothing for about 2.4 s,
     * which a real follower counts as its leader's silence (the Kalantari barrier at 200 clients).
     */
    @Test
    void aLoopFloodedByClientsStillHeartbeatsToItsPeers() throws Exception {
        Server one = bind(1);
        Server two = bind(2);
        Map<Long, InetSocketAddress> quorum = Map.of(1L, address(one.quorum), 2L, address(two.quorum));
        one.core.heartbeatTo = 2;
        start(1, one, quorum);
        start(2, two, quorum);
        List<Socket> clients = new ArrayList<>();
        try {
            for (int i = 0; i < FLOOD_CLIENTS; i++) {
                Socket c = new Socket();
                c.connect(address(one.clients));
                c.setSoTimeout(60_000);
                clients.add(c);
            }
            for (int i = 0; i < 1000 && (connects(one.core) < FLOOD_CLIENTS || two.core.peerMessageAtMs.isEmpty()); i++) {
                Thread.sleep(10);
            }
            assertEquals(FLOOD_CLIENTS, connects(one.core));
            long startMs = System.currentTimeMillis();
            for (Socket c : clients) {
                c.getOutputStream().write(("spin " + FLOOD_REQUEST_MS + "\n").getBytes(StandardCharsets.UTF_8));
            }
            for (Socket c : clients) {
                BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
                assertEquals("spun", in.readLine());
            }
            long endMs = System.currentTimeMillis();
            assertTrue(endMs - startMs >= (long) FLOOD_CLIENTS * FLOOD_REQUEST_MS, "the flood took the loop's time");
            long gapMs = longestSilenceMs(two.core, startMs, endMs);
            System.out.println("flooded loop: " + FLOOD_CLIENTS + " x " + FLOOD_REQUEST_MS + " ms requests in "
                    + (endMs - startMs) + " ms; its peer's longest silence " + gapMs + " ms");
            assertTrue(gapMs < SILENCE_MAX_MS, "server 2 heard nothing from server 1 for " + gapMs + " ms");
        } finally {
            for (Socket c : clients) {
                c.close();
            }
        }
    }

    private static long connects(ScriptedCore core) {
        return core.events.stream().filter(e -> e.startsWith("connect ")).count();
    }

    /** The longest time within [fromMs, toMs] in which the core received no peer message. */
    private static long longestSilenceMs(ScriptedCore core, long fromMs, long toMs) {
        long lastMs = fromMs;
        long longestMs = 0;
        for (long atMs : core.peerMessageAtMs) {
            if (atMs > fromMs && atMs <= toMs) {
                longestMs = Math.max(longestMs, atMs - lastMs);
                lastMs = atMs;
            }
        }
        return Math.max(longestMs, toMs - lastMs);
    }
}
