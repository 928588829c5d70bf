package io.zabkit.runtime;

import io.zabkit.core.Ready;
import io.zabkit.storage.Storage;
import io.zabkit.zab.Message;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;

/**
 * The one thread that touches the core. Each pass: wait for sockets, the disk or the next tick; tick
 * the core with the wall clock; feed it disk completions, accepts, bytes and closes, and the frames of
 * its peer links; then carry out its Ready batches: Zab's truncate, snapshot install and epochs on the
 * disk thread while the loop waits, entries to the {@link DiskWriter} (group commit), bytes to the
 * client sockets and messages to the peer links. Sends need not wait for the entries: the core answers
 * a write (and ACKs a proposal) only after persisted() says it is durable. Every ready socket, client
 * or peer, gets one read per pass. The peer links come first in a pass and their output leaves before
 * any client request is handed; client requests are then handed for at most {@link #PASS_FEED_MS_MAX}
 * (round robin over the connections that wait), so however many clients wait, the loop ticks and
 * services its peer links every few milliseconds: a peer must never hear this server go silent because
 * it was busy with clients (ZooKeeper pings and reads its quorum links on threads of their own).
 */
final class EventLoop implements Runnable {
    private static final System.Logger LOG = System.getLogger("zabkit.runtime");
    /** Accepts and reads per pass, so that one busy client cannot starve the others or the tick. */
    static final int ACCEPTS_PER_PASS_MAX = 64;
    static final int READ_BUFFER_BYTES = 64 << 10;
    /** Entries handed to the disk and not yet durable; above this, no more requests are read. */
    static final int UNPERSISTED_TXNS_MAX = 20_000;
    /** Ready batches drained per pass; the core makes one per call, so this only guards a runaway core. */
    static final int READY_PER_PASS_MAX = 100_000;
    /**
     * Wall time one pass may spend handing client requests to the core (the request under way is
     * finished). Far below a tick interval and syncLimit; it is wall time, not a request count, so that
     * on a starved host (load 30 on 2 cores) a pass shrinks instead of growing to seconds.
     */
    static final long PASS_FEED_MS_MAX = 10;

    /**
     * The ensemble side of the loop: this server's id, the other servers' quorum addresses, the bound
     * quorum listener, jute.maxbuffer (which bounds peer frames), and whether a link's source address is
     * checked against its claimed server line (false only under the bug-zoo switch PEER_SOURCE_UNCHECKED).
     */
    record Peers(long myId, Map<Long, InetSocketAddress> quorumAddresses, ServerSocketChannel quorumListener,
                 int maxBufferBytes, boolean checkSource) {
        Peers(long myId, Map<Long, InetSocketAddress> quorumAddresses, ServerSocketChannel quorumListener,
              int maxBufferBytes) {
            this(myId, quorumAddresses, quorumListener, maxBufferBytes, true);
        }
    }

    /**
     * Bounds on what clients can make the server hold.
     *
     * @param globalOutstandingLimit requests handed to the core and not yet answered, over every
     *                               connection (ZooKeeper's globalOutstandingLimit, default 1000); also
     *                               bounds each connection's own
     * @param handshakeTimeoutMs     a connection that has not sent its ConnectRequest (or a four-letter
     *                               word) this long after it was accepted is closed (ZooKeeper's
     *                               nio.sessionlessCnxnTimeout, default 10000)
     * @param maxPacketBytes         jute.maxbuffer: the largest request packet
     */
    record ClientLimits(int globalOutstandingLimit, int handshakeTimeoutMs, int maxPacketBytes) {
        static final int DEFAULT_GLOBAL_OUTSTANDING_LIMIT = 1000;
        static final int DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
        static final ClientLimits DEFAULT = new ClientLimits(DEFAULT_GLOBAL_OUTSTANDING_LIMIT,
                DEFAULT_HANDSHAKE_TIMEOUT_MS, io.zabkit.core.CoreConfig.DEFAULT_MAX_BUFFER);

        ClientLimits {
            if (globalOutstandingLimit < 1 || handshakeTimeoutMs < 1 || maxPacketBytes < 1) {
                throw new IllegalArgumentException("client limits must be positive: " + globalOutstandingLimit
                        + ", " + handshakeTimeoutMs + ", " + maxPacketBytes);
            }
        }
    }

    private final Core core;
    /** Null for a standalone server. */
    private final PeerLinks peerLinks;
    private boolean draining;
    private final ServerSocketChannel listener;
    /** The secure client port's listener and its TLS engines; null without secureClientPort. */
    private ServerSocketChannel secureListener;
    private TlsEngines tlsEngines;
    private final Selector selector;
    private final DiskWriter disk;
    private final Thread diskThread;
    private final int tickIntervalMs;
    private final LongSupplier clockMs;
    private final ClientLimits limits;
    private final Map<Long, ClientConnection> connections = new HashMap<>();
    private final Set<ClientConnection> dirty = new LinkedHashSet<>();
    /** Connections with bytes the core has not been handed (waiting on a bound, or a partial packet). */
    private final Set<ClientConnection> backlogged = new LinkedHashSet<>();
    /** Connections without a handshake yet, in accept order (so by deadline). */
    private final Map<Long, ClientConnection> handshaking = new java.util.LinkedHashMap<>();
    /** Invariant: the sum of gate.outstanding() over connections. */
    private long outstandingTotal;
    private final ConcurrentLinkedQueue<DiskEvent> diskEvents = new ConcurrentLinkedQueue<>();
    /** Questions other threads ask the core (the metrics endpoint's), answered on this thread. */
    private final ConcurrentLinkedQueue<CompletableFuture<String>> monitorQuestions = new ConcurrentLinkedQueue<>();
    private final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean stopRequested;
    private volatile Throwable failure;
    private long nextConnId = 1;
    /** The highest zxid reported with persisted() in the current history (a truncate lowers it). */
    private long persistedReported = -1;
    private boolean acceptingRequests = true;
    /** A pass longer than this is logged with what it did: the loop neither ticked nor read its peers. */
    private final long slowPassMs;
    /** Of the current pass, for the slow-pass line: requests handed to the core, Ready batches carried out. */
    private int passRequests;
    private int passBatches;
    /** Until when the current pass may hand client requests (the clock's ms). */
    private long feedDeadlineMs;

    /** The loop owns the listener from here on; the disk thread owns storage. */
    EventLoop(Core core, ServerSocketChannel listener, Storage storage, int tickTimeMs, LongSupplier clockMs)
            throws IOException {
        this(core, listener, storage, tickTimeMs, clockMs, null);
    }

    EventLoop(Core core, ServerSocketChannel listener, Storage storage, int tickTimeMs, LongSupplier clockMs,
              Peers peers) throws IOException {
        this(core, listener, storage, tickTimeMs, clockMs, peers, ClientLimits.DEFAULT);
    }

    EventLoop(Core core, ServerSocketChannel listener, Storage storage, int tickTimeMs, LongSupplier clockMs,
              Peers peers, ClientLimits limits) throws IOException {
        this.core = core;
        this.limits = limits;
        this.listener = listener;
        this.selector = Selector.open();
        this.disk = new DiskWriter(storage, this::post);
        this.diskThread = new Thread(disk, "zabkit-disk");
        // An ensemble's timers (election finalize wait, pings, resends) need finer ticks than tickTime/2.
        this.tickIntervalMs = Math.max(1, peers == null ? tickTimeMs / 2 : Math.min(tickTimeMs / 2, 20));
        this.clockMs = clockMs;
        this.slowPassMs = Math.max(1, tickTimeMs / 2);
        if (listener != null) { // null: TLS clients only (listenSecurely)
            listener.configureBlocking(false);
            listener.register(selector, SelectionKey.OP_ACCEPT);
        }
        this.peerLinks = peers == null ? null : new PeerLinks(peers.myId(), peers.quorumAddresses(),
                peers.quorumListener(), selector, peers.maxBufferBytes(), new PeerLinks.Listener() {
                    @Override
                    public void peerMessage(long from, Message m) {
                        core.peerMessage(from, m);
                    }

                    @Override
                    public void peerBytes(long from) {
                        core.peerBytes(from);
                    }

                    @Override
                    public void disconnectsPending() {
                        drainReady();
                    }
                }, clockMs.getAsLong(), peers.checkSource());
    }

    /** Any thread: ask the loop to stop; it finishes the disk work queued so far. */
    void requestStop() {
        stopRequested = true;
        selector.wakeup();
    }

    /**
     * Any thread: the core's mntr lines, computed on the loop thread between two passes (the core is
     * single-threaded); fails if the loop stops first.
     */
    CompletableFuture<String> monitorReport() {
        CompletableFuture<String> answer = new CompletableFuture<>();
        monitorQuestions.add(answer);
        if (isStopped()) {
            answer.completeExceptionally(new IllegalStateException("the server has stopped"));
        }
        try {
            selector.wakeup();
        } catch (ClosedSelectorException e) {
            answer.completeExceptionally(new IllegalStateException("the server has stopped"));
        }
        return answer;
    }

    private void answerMonitorQuestions() {
        for (CompletableFuture<String> q; (q = monitorQuestions.poll()) != null; ) {
            try {
                q.complete(core.monitorReport());
            } catch (RuntimeException e) { // a question must not stop the server
                q.completeExceptionally(e);
            }
        }
    }

    /** Whether the loop has stopped (on request or by a failure). */
    boolean isStopped() {
        return stopped.getCount() == 0;
    }

    /** Waits until the loop has stopped and the disk is flushed; returns the failure that stopped it, if any. */
    Throwable awaitStopped() throws InterruptedException {
        stopped.await();
        return failure;
    }

    @Override
    public void run() {
        diskThread.start();
        try {
            long nextTickMs = clockMs.getAsLong();
            boolean feedable = false;
            while (!stopRequested && failure == null) {
                long waitMs = Math.max(1, nextTickMs - clockMs.getAsLong());
                if (feedable) {
                    selector.selectNow(); // requests wait that the last pass's writes unblocked
                } else {
                    selector.select(waitMs);
                }
                long now = clockMs.getAsLong();
                core.tick(now);
                if (now >= nextTickMs) {
                    nextTickMs = now + tickIntervalMs;
                    expireHandshakes(now);
                }
                passRequests = 0;
                passBatches = 0;
                feedable = pass();
                long passMs = clockMs.getAsLong() - now;
                if (passMs > slowPassMs) {
                    LOG.log(System.Logger.Level.WARNING, "slow pass: {0} ms without a tick, {1} requests handed,"
                            + " {2} Ready batches, {3} connections backlogged", passMs, passRequests, passBatches,
                            backlogged.size());
                }
            }
        } catch (UncheckedIOException e) {
            failure = e.getCause();
        } catch (Throwable e) { // an OutOfMemoryError too: the server must exit non-zero, never "cleanly"
            failure = e;
        } finally {
            shutDown();
        }
    }

    /** One pass; returns whether a backlogged connection may be fed at once (no need to wait). */
    private boolean pass() throws IOException {
        for (DiskEvent e; (e = diskEvents.poll()) != null; ) {
            handleDiskEvent(e);
        }
        answerMonitorQuestions();
        if (peerLinks != null) {
            peerLinks.tick(clockMs.getAsLong());
        }
        List<SelectionKey> clientKeys = handlePeerKeys();
        drainReady();
        if (peerLinks != null) {
            peerLinks.flush(); // pings, ACKs and proposals leave before any client work
        }
        feedDeadlineMs = clockMs.getAsLong() + PASS_FEED_MS_MAX;
        for (SelectionKey key : clientKeys) {
            if (!key.isValid()) {
                continue;
            }
            if (key.isAcceptable()) {
                acceptAll((ServerSocketChannel) key.channel());
                continue;
            }
            ClientConnection conn = (ClientConnection) key.attachment();
            if (key.isWritable()) {
                dirty.add(conn);
            }
            if (key.isReadable()) {
                read(conn);
            }
        }
        drainReady();
        flushDirty();
        feedBacklogged();
        flushDirty();
        resumeHeldByCore();
        flushDirty();
        if (peerLinks != null) {
            peerLinks.flush();
        }
        updateBackpressure();
        assert outstandingTotal >= 0 : "outstanding requests below zero: " + outstandingTotal;
        for (long id : core.heldConnections()) {
            ClientConnection conn = connections.get(id);
            if (conn != null && conn.outputBytes() < ClientConnection.OUTPUT_LOW_WATER_BYTES) {
                return true; // its output drained in this pass's flush: let the core go on at once
            }
        }
        for (ClientConnection conn : backlogged) {
            if (conn.gate.nextChunkBytes() > 0 && mayTakeRequest(conn)) {
                return true;
            }
        }
        return false;
    }

    /** Handles the selected keys of the peer links; returns the clients' (and listeners'), not yet handled. */
    private List<SelectionKey> handlePeerKeys() {
        List<SelectionKey> clientKeys = new ArrayList<>();
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            if (key.isValid() && peerLinks != null && peerLinks.owns(key)) {
                peerLinks.handle(key);
            } else {
                clientKeys.add(key);
            }
        }
        return clientKeys;
    }

    private void handleDiskEvent(DiskEvent e) {
        if (e instanceof DiskEvent.Persisted p) {
            persistedReported = Math.max(persistedReported, p.zxid());
            core.persisted(p.zxid());
        } else if (e instanceof DiskEvent.SnapshotWritten s) {
            core.snapshotWritten(s.zxid());
        } else if (e instanceof DiskEvent.Failed f) {
            failure = f.cause();
        }
    }

    /**
     * Also listens on the secure client port: its connections speak TLS (ZooKeeper's secureClientPort).
     * Call before {@link #run}.
     */
    void listenSecurely(ServerSocketChannel channel, TlsEngines engines) throws IOException {
        assert secureListener == null : "one secure client port";
        channel.configureBlocking(false);
        channel.register(selector, SelectionKey.OP_ACCEPT);
        this.secureListener = channel;
        this.tlsEngines = engines;
    }

    private void acceptAll(ServerSocketChannel from) throws IOException {
        boolean secure = from == secureListener && from != null;
        for (int i = 0; i < ACCEPTS_PER_PASS_MAX; i++) {
            SocketChannel channel = from.accept();
            if (channel == null) {
                return;
            }
            channel.configureBlocking(false);
            channel.socket().setTcpNoDelay(true);
            long id = nextConnId++;
            String remote = String.valueOf(channel.getRemoteAddress());
            SelectionKey key = channel.register(selector, acceptingRequests ? SelectionKey.OP_READ : 0);
            TlsChannel tls = null;
            if (secure) {
                try {
                    tls = new TlsChannel(channel, tlsEngines.engine());
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.WARNING, "cannot start TLS with {0}: {1}", remote, e.toString());
                    key.cancel();
                    channel.close();
                    continue;
                }
            }
            ClientConnection conn = new ClientConnection(id, channel, key, remote, clockMs.getAsLong(),
                    limits.maxPacketBytes(), tls);
            key.attach(conn);
            connections.put(id, conn);
            handshaking.put(id, conn);
            core.connect(id, remote);
        }
    }

    private void read(ClientConnection conn) {
        readBuffer.clear();
        int n;
        try {
            n = conn.read(readBuffer);
        } catch (IOException e) {
            // reset by peer and the like, or a failed TLS handshake: the same as a close for the core
            LOG.log(System.Logger.Level.DEBUG, "connection {0} from {1}: {2}", conn.id, conn.remoteAddress, e);
            n = -1;
        }
        dirty.add(conn); // a TLS handshake may have queued bytes to write
        javax.net.ssl.SSLEngine handshaken = conn.takeFinishedHandshake();
        if (handshaken != null && n >= 0 && !admitCertificate(conn, handshaken)) {
            n = -1;
        }
        if (n < 0) {
            close(conn);
        } else if (n > 0) {
            conn.gate.add(readBuffer.array(), 0, n);
            backlogged.add(conn); // handed in feedBacklogged, in turn with the connections already waiting
        }
    }

    /**
     * As ZooKeeper's CertificateVerifier after a handshake with ssl.clientAuth want or need: a client
     * certificate makes its subject the connection's x509 identity; without the x509 provider
     * (authProvider.N) ZooKeeper closes such a connection, and so does this server. Returns false to close.
     */
    private boolean admitCertificate(ClientConnection conn, javax.net.ssl.SSLEngine engine) {
        if (!engine.getNeedClientAuth() && !engine.getWantClientAuth()) {
            return true;
        }
        java.security.cert.Certificate[] chain;
        try {
            chain = engine.getSession().getPeerCertificates();
        } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
            return !engine.getNeedClientAuth(); // want: a client without a certificate is served without one
        }
        if (!tlsEngines.x509Provider()) {
            LOG.log(System.Logger.Level.WARNING, "closing TLS connection {0} from {1}: ssl.clientAuth is {2} but"
                    + " there is no x509 provider (authProvider.x509=org.apache.zookeeper.server.auth"
                    + ".X509AuthenticationProvider), as ZooKeeper closes it", conn.id, conn.remoteAddress,
                    tlsEngines.config().clientAuth());
            return false;
        }
        assert chain.length > 0 && chain[0] instanceof java.security.cert.X509Certificate : "a TLS peer chain";
        String subject = ((java.security.cert.X509Certificate) chain[0]).getSubjectX500Principal().getName();
        core.addIdentity(conn.id, "x509", subject);
        return true;
    }

    private boolean mayTakeRequest(ClientConnection conn) {
        return conn.mayTakeRequest(acceptingRequests, limits.globalOutstandingLimit(),
                outstandingTotal >= limits.globalOutstandingLimit());
    }

    /** Whether the pass may still hand client requests (see {@link #PASS_FEED_MS_MAX}). */
    private boolean feedTimeLeft() {
        return clockMs.getAsLong() < feedDeadlineMs;
    }

    /**
     * Hands the core the connection's waiting requests one at a time while the pass has time left,
     * carrying out what each makes before the next, so the bounds are checked against the replies
     * already built: a client that pipelines requests for a large znode and never reads gets about one
     * reply past the high-water mark, and the rest of its requests wait (in its socket, once the gate's
     * bytes are handed).
     */
    private void feed(ClientConnection conn) {
        dirty.add(conn); // interest ops follow the gate
        for (int chunk; (chunk = conn.gate.nextChunkBytes()) > 0 && mayTakeRequest(conn) && feedTimeLeft(); ) {
            int before = conn.gate.outstanding();
            core.receive(conn.id, conn.gate.array(), conn.gate.chunkOffset(), chunk);
            passRequests++;
            conn.gate.handed(chunk);
            outstandingTotal += conn.gate.outstanding() - before;
            drainReady();
            if (!connections.containsKey(conn.id)) {
                return; // the core closed it (or the socket broke while sending)
            }
        }
        backlogged.remove(conn);
        if (conn.gate.buffered() > 0) {
            backlogged.add(conn); // to the end: the next pass starts with those this one did not reach
        }
    }

    /** Connections whose output drained below the low-water mark get the replies the core held for them. */
    private void resumeHeldByCore() {
        for (long id : new ArrayList<>(core.heldConnections())) {
            ClientConnection conn = connections.get(id);
            if (conn == null || conn.outputBytes() < ClientConnection.OUTPUT_LOW_WATER_BYTES) {
                core.outputDrained(id); // (a connection the runtime closed: the core forgets the hold)
                drainReady(); // may hold it again, after at most another REPLY_BYTES_BEFORE_HOLD
                if (conn != null) {
                    dirty.add(conn);
                }
            }
        }
    }

    /** Feeds the connections that wait, oldest first, until the pass's time for clients is spent. */
    private void feedBacklogged() {
        for (ClientConnection conn : new ArrayList<>(backlogged)) {
            if (!feedTimeLeft()) {
                return;
            }
            if (connections.containsKey(conn.id) && conn.gate.nextChunkBytes() > 0 && mayTakeRequest(conn)) {
                feed(conn);
            }
        }
    }

    /** Closes connections that have not sent a ConnectRequest within the handshake timeout. */
    private void expireHandshakes(long nowMs) {
        Iterator<ClientConnection> it = handshaking.values().iterator();
        while (it.hasNext()) {
            ClientConnection conn = it.next();
            if (conn.gate.handshakeHanded()) {
                it.remove();
            } else if (nowMs - conn.acceptedAtMs >= limits.handshakeTimeoutMs()) {
                LOG.log(System.Logger.Level.INFO, "closing connection {0} from {1}: no ConnectRequest in {2} ms",
                        conn.id, conn.remoteAddress, limits.handshakeTimeoutMs());
                it.remove();
                close(conn);
            } else {
                return; // accept order is deadline order
            }
        }
    }

    /**
     * Carries out every batch the core has, then tells it of the peer links that broke, one at a time,
     * draining again after each: the core must not hear of a break before it has handed over what it
     * made without knowing (the links drop that), nor after anything from the next link. Re-entered
     * from the peer links while draining, it returns at once: the outer call delivers.
     */
    private void drainReady() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            int batches = 0;
            while (true) {
                for (; core.hasReady(); batches++) {
                    if (batches == READY_PER_PASS_MAX) {
                        throw new IllegalStateException("the core produced " + batches + " Ready batches in one pass");
                    }
                    carryOut(core.ready());
                    passBatches++;
                }
                if (peerLinks == null || !peerLinks.hasDisconnect()) {
                    return;
                }
                core.peerDisconnected(peerLinks.takeDisconnect());
            }
        } finally {
            draining = false;
        }
    }

    /** One batch, in the order {@link Ready} gives. */
    private void carryOut(Ready ready) {
        if (DiskWriter.needsPrepare(ready)) {
            prepareStorage(ready);
        }
        disk.submit(ready);
        for (Ready.Outbound out : ready.sends()) {
            ClientConnection conn = connections.get(out.connId());
            if (conn != null) { // else the client went away; its replies have nowhere to go
                conn.enqueue(out.bytes());
                outstandingTotal -= conn.gate.replied(out.bytes());
                dirty.add(conn);
            }
        }
        for (long id : ready.closes()) {
            ClientConnection conn = connections.get(id);
            if (conn != null) {
                conn.closeAfterFlush();
                dirty.add(conn);
            }
        }
        if (!ready.peerOut().isEmpty()) {
            if (peerLinks == null) {
                throw new IllegalStateException("a standalone server's core sent peer messages: " + ready.peerOut());
            }
            for (Ready.PeerOut out : ready.peerOut()) {
                if (out.isReset()) {
                    peerLinks.reset(out.peer());
                } else {
                    peerLinks.send(out.peer(), out.message());
                }
            }
        }
    }

    /**
     * Truncate, install and epochs, durably, before anything else of the batch. Persisted reports of
     * entries appended before a truncate or an install are already queued when this returns; any above
     * the new end of the log are lowered to it, so the core never hears that a zxid it cut is durable,
     * and reports stay increasing within the new history.
     */
    private void prepareStorage(Ready ready) {
        try {
            disk.prepare(ready);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot synchronize storage: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while synchronizing storage", e);
        }
        long end = ready.installSnapshot() != null ? ready.installSnapshot().zxid() : ready.truncateAfter();
        if (end == Ready.NO_TRUNCATE) {
            return;
        }
        persistedReported = Math.min(persistedReported, end);
        List<DiskEvent> queued = new ArrayList<>();
        for (DiskEvent e; (e = diskEvents.poll()) != null; ) {
            if (e instanceof DiskEvent.Persisted p) {
                long zxid = Math.min(p.zxid(), end);
                if (zxid > persistedReported) {
                    queued.add(new DiskEvent.Persisted(zxid));
                }
            } else {
                queued.add(e);
            }
        }
        queued.forEach(this::handleDiskEvent);
    }

    private void flushDirty() {
        for (ClientConnection conn : new ArrayList<>(dirty)) {
            boolean done;
            try {
                done = conn.flush() || conn.overflowing();
                if (conn.overflowing()) {
                    LOG.log(System.Logger.Level.WARNING, "closing connection {0} from {1}: {2} bytes of replies"
                            + " it does not read", conn.id, conn.remoteAddress, conn.outputBytes());
                }
            } catch (IOException e) {
                done = true;
            }
            if (done) {
                close(conn);
            } else {
                conn.key.interestOps(conn.interestOps(acceptingRequests));
            }
        }
        dirty.clear();
    }

    /** The disk backlog gates reading from every client; each client's own backlog gates its reads. */
    private void updateBackpressure() {
        boolean accept = disk.unpersistedTxns() < UNPERSISTED_TXNS_MAX;
        if (accept != acceptingRequests) {
            acceptingRequests = accept;
            for (ClientConnection conn : connections.values()) {
                conn.key.interestOps(conn.interestOps(accept));
            }
        }
    }

    private void close(ClientConnection conn) {
        if (connections.remove(conn.id) == null) {
            return;
        }
        dirty.remove(conn);
        backlogged.remove(conn);
        handshaking.remove(conn.id);
        outstandingTotal -= conn.gate.outstanding();
        conn.key.cancel();
        try {
            conn.channel.close();
        } catch (IOException e) {
            // closing anyway
        }
        core.disconnect(conn.id);
    }

    private void post(DiskEvent event) {
        diskEvents.add(event);
        try {
            selector.wakeup();
        } catch (ClosedSelectorException e) {
            // the loop is gone; the event no longer matters
        }
    }

    private void shutDown() {
        try {
            if (listener != null) {
                listener.close();
            }
            if (secureListener != null) {
                secureListener.close();
            }
            if (peerLinks != null) {
                peerLinks.close();
            }
            for (ClientConnection conn : new ArrayList<>(connections.values())) {
                conn.channel.close();
            }
            connections.clear();
            disk.stop();
            diskThread.join();
            for (DiskEvent e; (e = diskEvents.poll()) != null; ) {
                if (e instanceof DiskEvent.Failed f && failure == null) {
                    failure = f.cause();
                }
            }
            selector.close();
        } catch (IOException | InterruptedException e) {
            if (failure == null) {
                failure = e;
            }
        } finally {
            stopped.countDown();
            // after the count-down, so a question asked from now on sees isStopped() itself
            for (CompletableFuture<String> q; (q = monitorQuestions.poll()) != null; ) {
                q.completeExceptionally(new IllegalStateException("the server has stopped"));
            }
        }
    }
}
