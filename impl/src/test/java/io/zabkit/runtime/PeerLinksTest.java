package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.core.CoreConfig;
import io.zabkit.zab.Message;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Peer links between endpoints in one JVM on loopback, each endpoint a thread with its own selector
 * driving a {@link PeerLinks} the way the event loop does. Events are "from N: MESSAGE" and "disconnected N".
 */
class PeerLinksTest {
    private static final long WAIT_MS = 10_000;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** One server's links, run on their own thread. */
    private static final class Endpoint implements AutoCloseable, PeerLinks.Listener {
        final long id;
        final LinkedBlockingQueue<String> events = new LinkedBlockingQueue<>();
        /** peerBytes calls per sender: reads that brought part of a frame and no whole one. */
        final java.util.concurrent.ConcurrentHashMap<Long, Integer> partialReads = new java.util.concurrent.ConcurrentHashMap<>();
        private final ConcurrentLinkedQueue<Consumer<PeerLinks>> commands = new ConcurrentLinkedQueue<>();
        private final Selector selector;
        private final PeerLinks links;
        private final Thread thread;
        private volatile boolean stop;

        Endpoint(long id, Map<Long, InetSocketAddress> peers, ServerSocketChannel listener) throws IOException {
            this.id = id;
            this.selector = Selector.open();
            this.links = new PeerLinks(id, peers, listener, selector, CoreConfig.DEFAULT_MAX_BUFFER, this,
                    System.currentTimeMillis());
            this.thread = new Thread(this::run, "peer-endpoint-" + id);
            thread.start();
        }

        private void run() {
            try {
                while (!stop) {
                    selector.select(10);
                    links.tick(System.currentTimeMillis());
                    for (Consumer<PeerLinks> c; (c = commands.poll()) != null; ) {
                        c.accept(links);
                    }
                    disconnectsPending(); // what sends and resets queued, as the loop's drain does
                    for (SelectionKey key : selector.selectedKeys()) {
                        if (key.isValid()) {
                            links.handle(key);
                        }
                    }
                    selector.selectedKeys().clear();
                    links.flush();
                }
            } catch (IOException | RuntimeException e) {
                events.add("failure " + e);
            } finally {
                links.close();
                try {
                    selector.close();
                } catch (IOException e) {
                    events.add("failure " + e);
                }
            }
        }

        @Override
        public void peerMessage(long from, Message m) {
            events.add("from " + from + ": " + m);
        }

        @Override
        public void peerBytes(long from) {
            partialReads.merge(from, 1, Integer::sum); // counted apart: the message order tests stay exact
        }

        @Override
        public void disconnectsPending() {
            while (links.hasDisconnect()) {
                events.add("disconnected " + links.takeDisconnect());
            }
        }

        void send(long to, Message... ms) {
            commands.add(l -> {
                for (Message m : ms) {
                    l.send(to, m);
                }
            });
            selector.wakeup();
        }

        void reset(long peer) {
            commands.add(l -> l.reset(peer));
            selector.wakeup();
        }

        String next() throws InterruptedException {
            String e = events.poll(WAIT_MS, TimeUnit.MILLISECONDS);
            assertTrue(e != null, "server " + id + ": no event within " + WAIT_MS + " ms");
            return e;
        }

        /** Nothing more arrives for a while (the absence of an event can only be checked by waiting). */
        void expectQuiet(long ms) throws InterruptedException {
            assertNull(events.poll(ms, TimeUnit.MILLISECONDS), "server " + id + ": unexpected event");
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            selector.wakeup();
            thread.join();
        }
    }

    /** A relay between two loopback ports that the test can cut, closing both sides of what it carries. */
    private static final class Relay implements AutoCloseable {
        final ServerSocket listener = new ServerSocket();
        private final List<Socket> open = new ArrayList<>();

        Relay(InetSocketAddress target) throws IOException {
            listener.bind(new InetSocketAddress("127.0.0.1", 0));
            Thread t = new Thread(() -> {
                while (!listener.isClosed()) {
                    try {
                        Socket in = listener.accept();
                        Socket out = new Socket(target.getAddress(), target.getPort());
                        synchronized (open) {
                            open.add(in);
                            open.add(out);
                        }
                        pump(in, out);
                        pump(out, in);
                    } catch (IOException e) {
                        // listener closed or target down: the connector sees a closed link and retries
                    }
                }
            }, "relay");
            t.setDaemon(true);
            t.start();
        }

        InetSocketAddress address() {
            return new InetSocketAddress("127.0.0.1", listener.getLocalPort());
        }

        private static void pump(Socket from, Socket to) {
            Thread t = new Thread(() -> {
                byte[] buf = new byte[16 << 10];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    for (int n; (n = in.read(buf)) >= 0; ) {
                        out.write(buf, 0, n);
                    }
                } catch (IOException e) {
                    // one side closed
                } finally {
                    closeQuietly(from);
                    closeQuietly(to);
                }
            }, "relay-pump");
            t.setDaemon(true);
            t.start();
        }

        void cut() {
            synchronized (open) {
                open.forEach(Relay::closeQuietly);
                open.clear();
            }
        }

        private static void closeQuietly(Socket s) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
            cut();
        }
    }

    private ServerSocketChannel listen(int lastOctet) throws IOException {
        ServerSocketChannel ch = ServerSocketChannel.open();
        ch.bind(new InetSocketAddress("127.0.0." + lastOctet, 0));
        return ch;
    }

    private static InetSocketAddress addressOf(ServerSocketChannel ch) throws IOException {
        return (InetSocketAddress) ch.getLocalAddress();
    }

    private Endpoint endpoint(long id, Map<Long, InetSocketAddress> peers, ServerSocketChannel listener)
            throws IOException {
        Endpoint e = new Endpoint(id, peers, listener);
        toClose.add(e);
        return e;
    }

    private static Message[] commits(int from, int to) {
        Message[] ms = new Message[to - from + 1];
        for (int i = from; i <= to; i++) {
            ms[i - from] = new Message.Commit(i);
        }
        return ms;
    }

    private static void expectCommits(Endpoint at, long from, int first, int last) throws InterruptedException {
        for (int i = first; i <= last; i++) {
            assertEquals("from " + from + ": " + new Message.Commit(i), at.next());
        }
    }

    @Test
    void threeServersExchangeMessagesFifoInEveryDirection() throws Exception {
        ServerSocketChannel l1 = listen(1);
        ServerSocketChannel l2 = listen(2);
        ServerSocketChannel l3 = listen(3);
        Map<Long, InetSocketAddress> all = Map.of(1L, addressOf(l1), 2L, addressOf(l2), 3L, addressOf(l3));
        Endpoint s1 = endpoint(1, all, l1);
        Endpoint s2 = endpoint(2, all, l2);
        Endpoint s3 = endpoint(3, all, l3);
        // 3 and 2 send to 1 before 1 has connected to them: their messages wait for the link
        s3.send(1, commits(1, 500));
        s2.send(3, commits(1, 500));
        s1.send(2, commits(1, 500));
        s2.send(1, new Message.Snap(7, new byte[3 << 20])); // larger than jute.maxbuffer: SNAP frames may be
        expectCommits(s1, 3, 1, 500);
        String snap = s1.next();
        assertTrue(snap.startsWith("from 2: Snap[zxid=7"), snap);
        expectCommits(s3, 2, 1, 500);
        expectCommits(s2, 1, 1, 500);
        for (Endpoint e : List.of(s1, s2, s3)) {
            e.expectQuiet(300);
        }
    }

    @Test
    void aFrameStillArrivingIsReportedAsBytesFromItsSenderBeforeTheWholeMessage() throws Exception {
        ServerSocketChannel l1 = listen(1);
        ServerSocketChannel l2 = listen(2);
        Map<Long, InetSocketAddress> all = Map.of(1L, addressOf(l1), 2L, addressOf(l2));
        Endpoint s1 = endpoint(1, all, l1);
        Endpoint s2 = endpoint(2, all, l2);
        s1.send(2, commits(1, 1));
        expectCommits(s2, 1, 1, 1);
        assertEquals(null, s2.partialReads.get(1L), "a small frame comes whole");
        s1.send(2, new Message.Snap(9, new byte[8 << 20])); // 128 passes of 64 KiB at least
        String snap = s2.next();
        assertTrue(snap.startsWith("from 1: Snap[zxid=9"), snap);
        assertTrue(s2.partialReads.getOrDefault(1L, 0) > 0, "the leader was heard while its frame streamed in");
        assertEquals(null, s2.partialReads.get(2L));
        assertEquals(null, s1.partialReads.get(2L), "nothing large went the other way");
    }

    @Test
    void aCutLinkIsOneDisconnectOnEachSideThenReconnectsAndFlows() throws Exception {
        ServerSocketChannel l1 = listen(1);
        ServerSocketChannel l2 = listen(2);
        Relay relay = new Relay(addressOf(l2));
        toClose.add(relay);
        Endpoint s1 = endpoint(1, Map.of(1L, addressOf(l1), 2L, relay.address()), l1);
        Endpoint s2 = endpoint(2, Map.of(1L, addressOf(l1), 2L, addressOf(l2)), l2);
        s1.send(2, commits(1, 3));
        expectCommits(s2, 1, 1, 3);
        s2.send(1, commits(1, 3));
        expectCommits(s1, 2, 1, 3);
        relay.cut();
        assertEquals("disconnected 2", s1.next());
        assertEquals("disconnected 1", s2.next());
        // 1 reconnects within its reconnect interval; what each side sends now flows on the new link
        s2.send(1, commits(4, 6));
        s1.send(2, commits(4, 6));
        expectCommits(s1, 2, 4, 6);
        expectCommits(s2, 1, 4, 6);
        s1.expectQuiet(500);
        s2.expectQuiet(0);
    }

    @Test
    void aResetClosesTheLinkReportingOnlyOnTheOtherSide() throws Exception {
        ServerSocketChannel l1 = listen(1);
        ServerSocketChannel l2 = listen(2);
        Map<Long, InetSocketAddress> all = Map.of(1L, addressOf(l1), 2L, addressOf(l2));
        Endpoint s1 = endpoint(1, all, l1);
        Endpoint s2 = endpoint(2, all, l2);
        s1.send(2, commits(1, 1));
        expectCommits(s2, 1, 1, 1);
        s2.reset(1);
        assertEquals("disconnected 2", s1.next());
        s2.send(1, commits(2, 2)); // waits for 1 to connect again
        expectCommits(s1, 2, 2, 2);
        s2.expectQuiet(300);
    }

    @Test
    void aRestartedPeerReplacesItsOldLinkAfterOneDisconnect() throws Exception {
        ServerSocketChannel l1 = listen(1);
        ServerSocketChannel l2 = listen(2);
        int port1 = addressOf(l1).getPort();
        Map<Long, InetSocketAddress> all = Map.of(1L, addressOf(l1), 2L, addressOf(l2));
        Endpoint s1 = endpoint(1, all, l1);
        Endpoint s2 = endpoint(2, all, l2);
        s1.send(2, commits(1, 1));
        expectCommits(s2, 1, 1, 1);
        s1.close(); // a crash: its link ends with it
        assertEquals("disconnected 1", s2.next());
        ServerSocketChannel again = ServerSocketChannel.open();
        again.bind(new InetSocketAddress("127.0.0.1", port1));
        Endpoint restarted = endpoint(1, all, again);
        restarted.send(2, commits(2, 2));
        expectCommits(s2, 1, 2, 2);
        s2.expectQuiet(300);
    }

    @Test
    void anUnreachablePeerCostsNotificationsSilentlyAndOtherMessagesOneDisconnect() throws Exception {
        ServerSocketChannel l1 = listen(1);
        ServerSocket dead = new ServerSocket();
        dead.bind(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress deadAddress = new InetSocketAddress("127.0.0.1", dead.getLocalPort());
        dead.close(); // connects are refused
        Map<Long, InetSocketAddress> all = new HashMap<>(Map.of(1L, addressOf(l1), 2L, deadAddress));
        Endpoint s1 = endpoint(1, all, l1);
        s1.send(2, new Message.Notification(1, Message.ServerState.LOOKING, 1, 0, 0));
        s1.expectQuiet(600); // several refused connects, no report: a vote may be lost
        s1.send(2, new Message.Notification(1, Message.ServerState.LOOKING, 1, 0, 0), new Message.Ack(1, 5));
        assertEquals("disconnected 2", s1.next());
        s1.expectQuiet(600);
    }

    @Test
    void theLargerIdWaitsForTheSmallerToConnectThenGivesUpWithOneDisconnect() throws Exception {
        ServerSocketChannel l2 = listen(2);
        ServerSocket absent = new ServerSocket();
        absent.bind(new InetSocketAddress("127.0.0.1", 0)); // server 1's port, never served
        Map<Long, InetSocketAddress> all = Map.of(1L, new InetSocketAddress("127.0.0.1", absent.getLocalPort()),
                2L, addressOf(l2));
        Endpoint s2 = endpoint(2, all, l2);
        s2.send(1, new Message.Notification(1, Message.ServerState.LOOKING, 2, 0, 0), new Message.Commit(1));
        long start = System.currentTimeMillis();
        assertEquals("disconnected 1", s2.next());
        long waitedMs = System.currentTimeMillis() - start;
        assertTrue(waitedMs >= PeerLinks.CONNECT_TIMEOUT_MS - 100, "gave up after " + waitedMs + " ms");
        s2.expectQuiet(300);
        absent.close();
    }

    /** A raw socket that plays server 1 towards server 2. */
    private static Socket impersonate(InetSocketAddress server2, int magic, int version, long id) throws IOException {
        Socket s = new Socket(server2.getAddress(), server2.getPort());
        java.io.DataOutputStream out = new java.io.DataOutputStream(s.getOutputStream());
        out.writeInt(magic);
        out.writeInt(version);
        out.writeLong(id);
        out.flush();
        return s;
    }

    @Test
    void badPeersAreRefusedAndAMalformedFrameIsOneDisconnect() throws Exception {
        ServerSocketChannel l2 = listen(2);
        ServerSocketChannel l3 = listen(3);
        Map<Long, InetSocketAddress> all = Map.of(1L, new InetSocketAddress("127.0.0.1", 1), 2L, addressOf(l2),
                3L, addressOf(l3));
        Endpoint s2 = endpoint(2, all, l2);
        InetSocketAddress to2 = addressOf(l2);
        int version = io.zabkit.zab.MessageCodec.VERSION;
        // not a zabkit server, another codec version, an unknown id, a larger id (2 connects to 3 itself)
        for (Socket bad : List.of(impersonate(to2, 0x47455420, version, 1), impersonate(to2, PeerLink.MAGIC,
                version + 1, 1), impersonate(to2, PeerLink.MAGIC, version, 9), impersonate(to2, PeerLink.MAGIC,
                version, 3))) {
            bad.setSoTimeout(5_000);
            assertEquals(-1, bad.getInputStream().read(), "refused: the link is closed");
            bad.close();
        }
        s2.expectQuiet(200); // refused links were never a peer's link: nothing to report
        try (Socket one = impersonate(to2, PeerLink.MAGIC, version, 1)) {
            java.io.DataOutputStream out = new java.io.DataOutputStream(one.getOutputStream());
            byte[] commit = io.zabkit.zab.MessageCodec.encode(new Message.Commit(5));
            out.writeInt(commit.length);
            out.write(commit);
            out.writeInt(2);
            out.write(new byte[] {99, 0}); // an unknown message type
            out.flush();
            assertEquals("from 1: " + new Message.Commit(5), s2.next());
            assertEquals("disconnected 1", s2.next());
            one.setSoTimeout(5_000);
            assertEquals(-1, one.getInputStream().read(), "server 2 closed the link");
        }
        s2.expectQuiet(300);
    }

    @Test
    void aLinkClaimingAServerIdFromAnotherAddressIsRefusedAndTheRealLinkStays() throws Exception {
        ServerSocketChannel l1 = listen(1);
        ServerSocketChannel l2 = listen(2);
        Map<Long, InetSocketAddress> all = Map.of(1L, addressOf(l1), 2L, addressOf(l2));
        Endpoint s1 = endpoint(1, all, l1);
        Endpoint s2 = endpoint(2, all, l2);
        s1.send(2, commits(1, 1));
        expectCommits(s2, 1, 1, 1);
        int version = io.zabkit.zab.MessageCodec.VERSION;
        for (int attempt = 0; attempt < 5; attempt++) {
            try (Socket impostor = new Socket()) {
                impostor.bind(new InetSocketAddress("127.0.0.9", 0)); // not server 1's address
                impostor.connect(addressOf(l2), 5_000);
                java.io.DataOutputStream out = new java.io.DataOutputStream(impostor.getOutputStream());
                out.writeInt(PeerLink.MAGIC);
                out.writeInt(version);
                out.writeLong(1);
                out.flush();
                impostor.setSoTimeout(5_000);
                assertEquals(-1, impostor.getInputStream().read(), "refused: the link is closed");
            }
        }
        s1.send(2, commits(2, 3));
        expectCommits(s2, 1, 2, 3); // the real link never broke: no disconnect came before these
        s2.expectQuiet(300);
        s1.expectQuiet(0);
    }

    @Test
    void anAnnouncedFrameLengthIsNotAllocatedBeforeItsBytesArrive() throws Exception {
        try (ServerSocketChannel listener = listen(1); Selector selector = Selector.open();
             Socket peer = new Socket()) {
            peer.connect(addressOf(listener), 5_000);
            java.nio.channels.SocketChannel accepted = listener.accept();
            accepted.configureBlocking(false);
            SelectionKey key = accepted.register(selector, SelectionKey.OP_READ);
            PeerLink link = new PeerLink(accepted, key, 1, PeerLink.State.OPEN, 0);
            int announced = PeerLinks.SNAPSHOT_FRAME_MAX_BYTES;
            java.io.DataOutputStream out = new java.io.DataOutputStream(peer.getOutputStream());
            out.writeInt(announced);
            out.writeByte(io.zabkit.zab.MessageCodec.SNAP_TYPE);
            out.write(new byte[300 << 10]);
            out.flush();
            long deadline = System.currentTimeMillis() + WAIT_MS;
            int received = 5 + (300 << 10);
            while (System.currentTimeMillis() < deadline) {
                link.read();
                assertEquals(List.of(), link.takeFrames(1 << 20, announced, io.zabkit.zab.MessageCodec.SNAP_TYPE));
                if (link.inputCapacity() >= received) {
                    break;
                }
                Thread.sleep(5);
            }
            assertTrue(link.inputCapacity() >= received, "every byte read: " + link.inputCapacity());
            assertTrue(link.inputCapacity() <= 2 * received, "the buffer follows the bytes received ("
                    + received + "), not the " + announced + " announced: " + link.inputCapacity());
            accepted.close();
        }
    }
}
