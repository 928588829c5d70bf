package io.zabkit.runtime;

import io.zabkit.zab.Message;
import io.zabkit.zab.MessageCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The links between this server and the others of its ensemble, driven by the loop thread on the
 * loop's selector. One TCP link per pair of servers, on the quorum port of the server.N lines:
 * <ul>
 *   <li><b>The smaller id connects.</b> A server keeps a link open to every server with a larger id,
 *       reconnecting at most once per {@link #RECONNECT_INTERVAL_MS}, and accepts links only from
 *       smaller ids. (ZooKeeper keeps the connection from the larger id instead and has the smaller one
 *       connect back; either rule gives one link per pair. Keeping the link up from one side means the
 *       larger side never has to ask for it.)</li>
 *   <li><b>FIFO.</b> Messages to a peer without an open link wait in a bounded queue and go first on the
 *       next link. A connect that fails drops the Notifications queued (election sends them again).</li>
 *   <li><b>One disconnect per broken link.</b> An open link that ends (EOF, reset, a malformed frame, an
 *       output backlog past its bound), or a connect that fails while other messages wait, is reported
 *       once with {@link #takeDisconnect()}. Until the core has heard it, messages to that peer are dropped:
 *       the core made them before it knew, and they must not go out on the next link behind a gap. A new
 *       link from a peer that still has an open one closes the old one, and the old one's disconnect is
 *       reported before any frame of the new one is read.</li>
 *   <li><b>Reset.</b> {@link #reset} closes the link and reports nothing: the core asked for it.</li>
 *   <li><b>The source address is checked.</b> A link that says "I am server N" is accepted only from the
 *       IP address of N's server line, and a server connects from the IP address of its own line (when
 *       that address is local and not the wildcard), so a stray or impersonating connection from
 *       elsewhere never displaces the real link to N (the 2026 finding: a claimed id alone replaced
 *       it, evicting server 1 a hundred times in 20 s). Frames are read as their bytes arrive, never
 *       allocated at their announced length.</li>
 * </ul>
 * Reports reach the caller through {@link Listener}: frames at once, disconnects with
 * {@link Listener#disconnectsPending()}, called where the caller can deliver them before anything else.
 */
final class PeerLinks implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("zabkit.runtime");
    static final long RECONNECT_INTERVAL_MS = 200;
    /** A connect (or, on the accepting side, the wait for the peer to connect) that takes longer fails. */
    static final long CONNECT_TIMEOUT_MS = 3000;
    /** Messages held for a peer with no open link; one more is a broken link. */
    static final int QUEUED_MESSAGES_MAX = 10_000;
    /** Unwritten bytes on a link before it counts as broken (the peer does not read). */
    static final long OUTPUT_MAX_BYTES = 512L << 20;
    /** A SNAP carries a whole data tree; every other frame is bounded by jute.maxbuffer plus slack. */
    static final int SNAPSHOT_FRAME_MAX_BYTES = 256 << 20;

    /** What the links report; called on the loop thread. */
    interface Listener {
        void peerMessage(long from, Message m);

        /** Part of a frame from peer arrived, and no whole frame (see {@link PeerEvents#peerBytes}). */
        void peerBytes(long from);

        /** Disconnects wait in {@link #takeDisconnect()}; deliver them (first) now. */
        void disconnectsPending();
    }

    /** The state of the pair (this server, id). */
    private static final class Peer {
        final long id;
        final InetSocketAddress address;
        final boolean weConnect;
        PeerLink link;
        final ArrayDeque<Message> queued = new ArrayDeque<>();
        boolean queuedBesidesNotifications;
        long queuedSinceMs = -1;
        long nextConnectMs;
        /** A disconnect waits for the core; messages to the peer are dropped until it is taken. */
        boolean disconnectUnreported;

        Peer(long id, InetSocketAddress address, boolean weConnect) {
            this.id = id;
            this.address = address;
            this.weConnect = weConnect;
        }
    }

    private final long myId;
    /** This server's quorum address: links to larger ids leave from its IP (null for a wildcard one). */
    private final java.net.InetAddress myAddress;
    /** Every server's quorum address by id, this one's included: what {@link PeerAdmission} decides on. */
    private final Map<Long, InetSocketAddress> members;
    private final boolean checkSource;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final int maxFrameBytes;
    private final Listener events;
    private final Map<Long, Peer> peers = new TreeMap<>();
    /** Accepted links whose handshake has not arrived. */
    private final Set<PeerLink> unidentified = new HashSet<>();
    private final ArrayDeque<Long> disconnects = new ArrayDeque<>();
    private final Set<PeerLink> dirty = new HashSet<>();
    private long nowMs;

    /**
     * @param peers          the other servers' quorum addresses by id
     * @param listener       bound to this server's quorum address; registered here with the selector
     * @param maxBufferBytes jute.maxbuffer: bounds every frame but a SNAP
     */
    PeerLinks(long myId, Map<Long, InetSocketAddress> peers, ServerSocketChannel listener, Selector selector,
              int maxBufferBytes, Listener events, long nowMs) throws IOException {
        this(myId, peers, listener, selector, maxBufferBytes, events, nowMs, true);
    }

    /** @param checkSource false only under the bug-zoo switch PEER_SOURCE_UNCHECKED ({@link PeerAdmission}) */
    PeerLinks(long myId, Map<Long, InetSocketAddress> peers, ServerSocketChannel listener, Selector selector,
              int maxBufferBytes, Listener events, long nowMs, boolean checkSource) throws IOException {
        this.myId = myId;
        this.members = Map.copyOf(peers);
        this.checkSource = checkSource;
        InetSocketAddress mine = peers.get(myId);
        this.myAddress = mine == null || mine.isUnresolved() || mine.getAddress().isAnyLocalAddress() ? null
                : mine.getAddress();
        this.selector = selector;
        this.listener = listener;
        this.maxFrameBytes = 2 * maxBufferBytes + (64 << 10); // a forwarded packet or a multi's txn, plus fields
        this.events = events;
        this.nowMs = nowMs;
        for (Map.Entry<Long, InetSocketAddress> e : peers.entrySet()) {
            if (e.getKey() != myId) {
                this.peers.put(e.getKey(), new Peer(e.getKey(), e.getValue(), myId < e.getKey()));
            }
        }
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT, this);
    }

    // ---- from the core (inside the caller's Ready processing; never reports synchronously) ----

    /** Queues m for the peer: on its open link, or until one opens. */
    void send(long to, Message m) {
        Peer p = peer(to);
        if (p.disconnectUnreported) {
            return; // made before the core heard of the break
        }
        if (p.link != null && p.link.state == PeerLink.State.OPEN) {
            p.link.enqueueFrame(MessageCodec.encode(m));
            dirty.add(p.link);
            return;
        }
        if (p.queued.size() >= QUEUED_MESSAGES_MAX) {
            if (m instanceof Message.Notification) {
                return;
            }
            LOG.log(System.Logger.Level.WARNING, "server {0}: {1} messages wait for a link; dropping them",
                    to, p.queued.size());
            closeLink(p);
            dropQueued(p, true);
            return;
        }
        if (p.queued.isEmpty()) {
            p.queuedSinceMs = nowMs;
        }
        p.queued.add(m);
        p.queuedBesidesNotifications |= !(m instanceof Message.Notification);
        if (p.weConnect && p.link == null) {
            maybeConnect(p);
        }
    }

    /** The core gave up on the link: close it, drop what waits, report nothing. */
    void reset(long peer) {
        Peer p = peer(peer);
        closeLink(p);
        p.queued.clear();
        p.queuedBesidesNotifications = false;
        p.queuedSinceMs = -1;
    }

    boolean hasDisconnect() {
        return !disconnects.isEmpty();
    }

    /** The next peer whose link broke; from now on, messages to it go out again. */
    long takeDisconnect() {
        long peer = disconnects.removeFirst();
        peers.get(peer).disconnectUnreported = false;
        return peer;
    }

    // ---- from the loop's selector ----

    /** Whether the key is one of ours (the quorum listener or a link). */
    boolean owns(SelectionKey key) {
        return key.attachment() == this || key.attachment() instanceof PeerLink;
    }

    void handle(SelectionKey key) {
        if (key.attachment() == this) {
            acceptAll();
            return;
        }
        PeerLink link = (PeerLink) key.attachment();
        try {
            if (key.isConnectable()) {
                finishConnect(link);
            }
            if (key.isValid() && key.isWritable()) {
                dirty.add(link);
            }
            if (key.isValid() && key.isReadable()) {
                read(link);
            }
        } catch (IOException e) {
            broken(link, e.getMessage());
        }
        if (!disconnects.isEmpty()) {
            events.disconnectsPending();
        }
    }

    /** Connects where a link is due, times out slow connects and handshakes. */
    void tick(long now) {
        nowMs = now;
        for (Peer p : peers.values()) {
            if (p.link != null && p.link.state != PeerLink.State.OPEN && now - p.link.openedAtMs > CONNECT_TIMEOUT_MS) {
                broken(p.link, "no connection within " + CONNECT_TIMEOUT_MS + " ms");
            } else if (p.weConnect && p.link == null) {
                maybeConnect(p);
            } else if (!p.weConnect && p.link == null && !p.queued.isEmpty()
                    && now - p.queuedSinceMs > CONNECT_TIMEOUT_MS) {
                LOG.log(System.Logger.Level.INFO, "server {0} has not connected in {1} ms; dropping {2} messages"
                        + " for it", p.id, CONNECT_TIMEOUT_MS, p.queued.size());
                dropQueued(p, false);
            }
        }
        for (PeerLink link : new ArrayList<>(unidentified)) {
            if (now - link.openedAtMs > CONNECT_TIMEOUT_MS) {
                LOG.log(System.Logger.Level.WARNING, "closing {0}: no handshake in {1} ms",
                        remote(link), CONNECT_TIMEOUT_MS);
                unidentified.remove(link);
                closeQuietly(link);
            }
        }
        if (!disconnects.isEmpty()) {
            events.disconnectsPending();
        }
    }

    /** Writes what the sockets take; links that fall too far behind count as broken. */
    void flush() {
        for (PeerLink link : new ArrayList<>(dirty)) {
            if (!link.channel.isOpen()) {
                continue;
            }
            try {
                link.flush();
                if (link.outputBytes() > OUTPUT_MAX_BYTES) {
                    throw new IOException(link.outputBytes() + " bytes unread by the peer");
                }
                link.key.interestOps(SelectionKey.OP_READ | (link.outputBytes() > 0 ? SelectionKey.OP_WRITE : 0));
            } catch (IOException e) {
                broken(link, e.getMessage());
            }
        }
        dirty.clear();
        if (!disconnects.isEmpty()) {
            events.disconnectsPending();
        }
    }

    @Override
    public void close() {
        for (Peer p : peers.values()) {
            closeLink(p);
        }
        unidentified.forEach(PeerLinks::closeQuietly);
        unidentified.clear();
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** The peer's link is open (for tests and logs). */
    boolean isOpen(long peer) {
        Peer p = peers.get(peer);
        return p != null && p.link != null && p.link.state == PeerLink.State.OPEN;
    }

    // ---- internals ----

    private Peer peer(long id) {
        Peer p = peers.get(id);
        if (p == null) {
            throw new IllegalArgumentException("server " + myId + " has no peer " + id + " (peers: "
                    + peers.keySet() + ")");
        }
        return p;
    }

    private void maybeConnect(Peer p) {
        if (nowMs < p.nextConnectMs) {
            return;
        }
        p.nextConnectMs = nowMs + RECONNECT_INTERVAL_MS;
        SocketChannel channel = null;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.socket().setTcpNoDelay(true);
            bindSource(channel, p.address);
            boolean connected = channel.connect(p.address);
            SelectionKey key = channel.register(selector, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT);
            PeerLink link = new PeerLink(channel, key, p.id, PeerLink.State.CONNECTING, nowMs);
            key.attach(link);
            p.link = link;
            if (connected) {
                opened(p, link);
            }
        } catch (IOException e) {
            closeQuietly(channel);
            connectFailed(p, e.toString());
        }
    }

    /**
     * Leaves from this server's own address, which the peer checks against our server line. An address
     * that is not local (NAT, a container's published name) cannot be bound: the OS picks the source,
     * and the peer accepts the link only if that is the address its config gives for us.
     */
    private void bindSource(SocketChannel channel, InetSocketAddress peer) {
        if (myAddress == null || peer.isUnresolved()
                || myAddress.isLoopbackAddress() != peer.getAddress().isLoopbackAddress()) {
            return; // a loopback source cannot reach another host (a hostname on 127.0.1.1, say)
        }
        try {
            channel.bind(new InetSocketAddress(myAddress, 0));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot connect from {0} (this server''s quorum address): {1}",
                    myAddress, e.toString());
        }
    }

    private void finishConnect(PeerLink link) throws IOException {
        if (link.channel.finishConnect()) {
            link.key.interestOps(SelectionKey.OP_READ);
            opened(peers.get(link.peer), link);
        }
    }

    /** Handshake first, then everything that waited, in order. */
    private void opened(Peer p, PeerLink link) {
        link.enqueueRaw(PeerLink.handshake(myId));
        link.state = PeerLink.State.OPEN;
        moveQueued(p, link);
        LOG.log(System.Logger.Level.DEBUG, "link to server {0} open", p.id);
    }

    private void moveQueued(Peer p, PeerLink link) {
        for (Message m : p.queued) {
            link.enqueueFrame(MessageCodec.encode(m));
        }
        p.queued.clear();
        p.queuedBesidesNotifications = false;
        p.queuedSinceMs = -1;
        dirty.add(link);
    }

    private void acceptAll() {
        for (int i = 0; i < EventLoop.ACCEPTS_PER_PASS_MAX; i++) {
            SocketChannel channel = null;
            try {
                channel = listener.accept();
                if (channel == null) {
                    return;
                }
                channel.configureBlocking(false);
                channel.socket().setTcpNoDelay(true);
                SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                PeerLink link = new PeerLink(channel, key, -1, PeerLink.State.HANDSHAKING, nowMs);
                key.attach(link);
                unidentified.add(link);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "quorum port accept failed: {0}", e.toString());
                closeQuietly(channel);
                return;
            }
        }
    }

    private void read(PeerLink link) throws IOException {
        int n = link.read();
        if (n < 0) {
            throw new IOException("end of stream");
        }
        if (link.peer < 0 && !identify(link)) {
            return;
        }
        List<byte[]> frames = link.takeFrames(maxFrameBytes, SNAPSHOT_FRAME_MAX_BYTES, MessageCodec.SNAP_TYPE);
        for (byte[] frame : frames) {
            Message m = MessageCodec.decode(frame, frame.length);
            events.peerMessage(link.peer, m);
        }
        if (frames.isEmpty() && n > 0) {
            events.peerBytes(link.peer);
        }
    }

    /** Reads the handshake of an accepted link and makes it the peer's link; false while it is incomplete. */
    private boolean identify(PeerLink link) throws IOException {
        long id;
        try {
            id = link.takeHandshake(MessageCodec.VERSION);
        } catch (IOException e) {
            unidentified.remove(link);
            closeQuietly(link);
            LOG.log(System.Logger.Level.WARNING, "refusing a link from {0}: {1}", remote(link), e.getMessage());
            return false;
        }
        if (id < 0) {
            return false;
        }
        unidentified.remove(link);
        java.net.InetAddress source = remoteAddress(link);
        PeerAdmission.Verdict verdict = PeerAdmission.decide(myId, id, source, members, checkSource);
        if (verdict != PeerAdmission.Verdict.ACCEPT) {
            InetSocketAddress line = members.get(id);
            LOG.log(System.Logger.Level.WARNING, "refusing a link from {0} claiming server id {1}: {2}{3}", remote(link),
                    id, verdict.reason, verdict != PeerAdmission.Verdict.WRONG_SOURCE ? ""
                            : " (server." + id + " is at " + (line.isUnresolved() ? line.getHostString()
                                    : line.getAddress().getHostAddress()) + ")");
            closeQuietly(link);
            return false;
        }
        Peer p = peers.get(id);
        assert p != null && !p.weConnect : "an accepted link is from a member with a smaller id: " + id;
        if (p.link != null) {
            broken(p.link, "server " + id + " opened a new link");
        }
        link.peer = id;
        link.state = PeerLink.State.OPEN;
        p.link = link;
        moveQueued(p, link); // before the core, hearing of the old link's end, can add to the new one
        if (!disconnects.isEmpty()) {
            events.disconnectsPending(); // the old link's end reaches the core before the new link's frames
        }
        return link.channel.isOpen(); // the core may have reset the new link on hearing of the old one
    }

    /** The link ended without the core asking: close it and report it once. */
    private void broken(PeerLink link, String why) {
        if (link.peer < 0) {
            unidentified.remove(link);
            closeQuietly(link);
            return;
        }
        Peer p = peers.get(link.peer);
        if (p.link != link) {
            closeQuietly(link); // already replaced or reset
            return;
        }
        boolean wasOpen = link.state == PeerLink.State.OPEN;
        closeLink(p);
        if (wasOpen) {
            LOG.log(System.Logger.Level.INFO, "link to server {0} broke: {1}", p.id, why);
            reportDisconnect(p);
        } else {
            connectFailed(p, why);
        }
    }

    /** A connect that never opened: Notifications go, anything else makes it a broken link. */
    private void connectFailed(Peer p, String why) {
        LOG.log(System.Logger.Level.DEBUG, "cannot connect to server {0} at {1}: {2}", p.id, p.address, why);
        dropQueued(p, false);
    }

    private void dropQueued(Peer p, boolean alwaysReport) {
        boolean report = alwaysReport || p.queuedBesidesNotifications;
        p.queued.clear();
        p.queuedBesidesNotifications = false;
        p.queuedSinceMs = -1;
        if (report) {
            reportDisconnect(p);
        }
    }

    private void reportDisconnect(Peer p) {
        if (!p.disconnectUnreported) {
            p.disconnectUnreported = true;
            disconnects.add(p.id);
        }
    }

    private void closeLink(Peer p) {
        if (p.link != null) {
            dirty.remove(p.link);
            closeQuietly(p.link);
            p.link = null;
        }
    }

    private static void closeQuietly(PeerLink link) {
        link.key.cancel();
        closeQuietly(link.channel);
    }

    private static void closeQuietly(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    private static java.net.InetAddress remoteAddress(PeerLink link) {
        try {
            return link.channel.getRemoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String remote(PeerLink link) {
        try {
            return String.valueOf(link.channel.getRemoteAddress());
        } catch (IOException e) {
            return "a closed socket";
        }
    }
}
