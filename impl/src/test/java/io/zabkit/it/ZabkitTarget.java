package io.zabkit.it;

import io.zabkit.config.ConfigReader;
import io.zabkit.config.ServerConfig;
import io.zabkit.core.Ready;
import io.zabkit.core.ServerCore;
import io.zabkit.storage.FileDisk;
import io.zabkit.storage.Storage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * zabkit's server in-process for tests: a zoo.cfg written to a temp dir and read by the real config
 * reader, the real {@link Storage} on {@link FileDisk}, and a one-thread NIO loop that feeds the
 * deterministic {@link ServerCore} and carries out its {@link Ready} batches (log, then persisted,
 * then sends and closes). It stands in until io.zabkit.runtime offers an embeddable entry point.
 */
final class ZabkitTarget implements Target {
    static final Target.Factory FACTORY = ZabkitTarget::start;
    private static final long LOOP_WAKEUP_MS = 10;

    private final Path dataDir;
    private final int port;
    private final Settings settings;
    private Loop loop;

    private ZabkitTarget(Path dataDir, int port, Settings settings) {
        this.dataDir = dataDir;
        this.port = port;
        this.settings = settings;
    }

    static ZabkitTarget start(Path dataDir, int port, Settings settings) throws Exception {
        ZabkitTarget t = new ZabkitTarget(dataDir, port, settings);
        t.loop = t.startLoop();
        return t;
    }

    @Override
    public String name() {
        return "zabkit";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void restart() throws Exception {
        loop.stop();
        loop = startLoop();
    }

    @Override
    public void dropConnections() throws Exception {
        loop.call(l -> {
            for (long connId : new ArrayList<>(l.channels.keySet())) {
                l.closeNow(connId);
            }
            return null;
        });
    }

    /** Runs {@code action} on the loop thread (the core is single-threaded) and returns its result. */
    <T> T onLoop(java.util.function.Function<ServerCore, T> action) throws Exception {
        return loop.call(l -> action.apply(l.core));
    }

    @Override
    public void close() throws Exception {
        loop.stop();
    }

    private Loop startLoop() throws Exception {
        Path cfg = dataDir.resolve("zoo.cfg");
        Files.createDirectories(dataDir);
        Files.writeString(cfg, String.join("\n",
                "tickTime=" + settings.tickTimeMs(),
                "minSessionTimeout=" + settings.minSessionTimeoutMs(),
                "maxSessionTimeout=" + settings.maxSessionTimeoutMs(),
                "maxClientCnxns=" + settings.maxClientCnxns(),
                "dataDir=" + dataDir.resolve("data"),
                "clientPortAddress=127.0.0.1",
                "clientPort=" + port,
                "forceSync=no",
                "4lw.commands.whitelist=*",
                ""));
        ServerConfig config = ConfigReader.read(cfg, 0x5eed_c0ffeeL);
        Storage storage = new Storage(new FileDisk(config.dataLogDir().resolve("zabkit-v1")),
                new FileDisk(config.dataDir().resolve("zabkit-v1")),
                new Storage.Options(config.core().forceSync(), config.snapRetainCount(),
                        config.core().maxBufferBytes()), w -> System.err.println("storage: " + w));
        ServerCore core = new ServerCore(config.core(), storage.recover());
        Loop l = new Loop(core, storage, config.clientAddress());
        Thread thread = new Thread(l, "zabkit-it-loop-" + port);
        thread.setDaemon(true);
        l.thread = thread;
        thread.start();
        return l;
    }

    /** The event loop: one thread owns the core, the storage and every socket. */
    private static final class Loop implements Runnable {
        final ServerCore core;
        final Storage storage;
        final Selector selector;
        final ServerSocketChannel server;
        final Map<Long, SocketChannel> channels = new HashMap<>();
        final Map<Long, Deque<ByteBuffer>> outgoing = new HashMap<>();
        final Map<Long, Boolean> closeWhenFlushed = new HashMap<>();
        final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        final ByteBuffer readBuffer = ByteBuffer.allocate(64 * 1024);
        volatile boolean running = true;
        /** Why the loop died (a server assertion, say); fails the test that closes the server. */
        volatile Throwable failure;
        Thread thread;
        long nextConnId = 1;

        Loop(ServerCore core, Storage storage, InetSocketAddress address) throws IOException {
            this.core = core;
            this.storage = storage;
            this.selector = Selector.open();
            this.server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(address);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
        }

        interface LoopCall<T> {
            T apply(Loop l) throws Exception;
        }

        <T> T call(LoopCall<T> action) throws Exception {
            CompletableFuture<T> result = new CompletableFuture<>();
            tasks.add(() -> {
                try {
                    result.complete(action.apply(this));
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            });
            selector.wakeup();
            if (failure != null) {
                throw new AssertionError("the zabkit server died: " + failure, failure);
            }
            return result.get(10, TimeUnit.SECONDS);
        }

        void stop() throws Exception {
            running = false;
            selector.wakeup();
            thread.join(10_000);
            if (thread.isAlive()) {
                throw new IllegalStateException("zabkit test loop did not stop within 10 s");
            }
            if (failure != null) {
                throw new AssertionError("the zabkit server died during the test: " + failure, failure);
            }
        }

        @Override
        public void run() {
            try {
                while (running) {
                    selector.select(LOOP_WAKEUP_MS);
                    for (Runnable task; (task = tasks.poll()) != null; ) {
                        task.run();
                    }
                    for (SelectionKey key : selector.selectedKeys()) {
                        handle(key);
                    }
                    selector.selectedKeys().clear();
                    core.tick(System.currentTimeMillis());
                    carryOut();
                    core.checkInvariants();
                }
            } catch (Throwable e) {
                failure = e;
                System.err.println("zabkit test loop died: " + e);
                e.printStackTrace();
            } finally {
                shutdown();
            }
        }

        private void handle(SelectionKey key) throws IOException {
            if (!key.isValid()) {
                return;
            }
            if (key.isAcceptable()) {
                SocketChannel ch = server.accept();
                if (ch == null) {
                    return;
                }
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                long connId = nextConnId++;
                channels.put(connId, ch);
                outgoing.put(connId, new ArrayDeque<>());
                ch.register(selector, SelectionKey.OP_READ, connId);
                core.connect(connId, ch.getRemoteAddress().toString());
                carryOut();
                return;
            }
            long connId = (Long) key.attachment();
            SocketChannel ch = channels.get(connId);
            if (ch == null) {
                return;
            }
            if (key.isWritable()) {
                flush(connId);
                carryOut(); // its queue may have emptied: what the core held for it goes on
            }
            if (key.isValid() && key.isReadable()) {
                readBuffer.clear();
                int n;
                try {
                    n = ch.read(readBuffer);
                } catch (IOException e) {
                    n = -1;
                }
                if (n < 0) {
                    closeNow(connId);
                } else if (n > 0) {
                    core.receive(connId, readBuffer.array(), 0, n);
                    carryOut();
                }
            }
        }

        /** The runtime's half of the Ready contract: log (and persisted) first, then the network. */
        private void carryOut() {
            do {
                carryOutReady();
            } while (resumeHeld());
        }

        /** Replies the core held for a connection (ServerCore.REPLY_BYTES_BEFORE_HOLD) go on once its queue is sent. */
        private boolean resumeHeld() {
            boolean resumed = false;
            for (long connId : java.util.List.copyOf(core.heldConnections())) {
                Deque<ByteBuffer> q = outgoing.get(connId);
                if (q == null || q.isEmpty()) {
                    core.outputDrained(connId);
                    resumed = true;
                }
            }
            return resumed;
        }

        private void carryOutReady() {
            while (core.hasReady()) {
                Ready r = core.ready();
                try {
                    storage.append(r.entries());
                    if (r.mustSync()) {
                        storage.sync();
                    }
                    if (r.snapshot() != null) {
                        storage.writeSnapshot(r.snapshot());
                    }
                } catch (IOException e) {
                    throw new IllegalStateException("test storage failed: " + e, e);
                }
                for (Ready.Outbound o : r.sends()) {
                    Deque<ByteBuffer> q = outgoing.get(o.connId());
                    if (q != null) {
                        q.add(ByteBuffer.wrap(o.bytes()));
                        flush(o.connId());
                    }
                }
                for (long connId : r.closes()) {
                    if (channels.containsKey(connId)) {
                        closeWhenFlushed.put(connId, true);
                        flush(connId);
                    }
                }
                if (!r.entries().isEmpty()) {
                    core.persisted(r.lastEntryZxid());
                }
                if (r.snapshot() != null) {
                    core.snapshotWritten(r.snapshot().zxid());
                }
            }
        }

        private void flush(long connId) {
            SocketChannel ch = channels.get(connId);
            Deque<ByteBuffer> q = outgoing.get(connId);
            if (ch == null || q == null) {
                return;
            }
            try {
                while (!q.isEmpty()) {
                    ch.write(q.peekFirst());
                    if (q.peekFirst().hasRemaining()) {
                        ch.keyFor(selector).interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                        return;
                    }
                    q.removeFirst();
                }
                ch.keyFor(selector).interestOps(SelectionKey.OP_READ);
            } catch (IOException e) {
                closeNow(connId);
                return;
            }
            if (closeWhenFlushed.containsKey(connId)) {
                closeNow(connId);
            }
        }

        void closeNow(long connId) {
            SocketChannel ch = channels.remove(connId);
            outgoing.remove(connId);
            boolean byCore = closeWhenFlushed.remove(connId) != null;
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // closing is best effort; the core forgets the connection either way
                }
                if (!byCore) {
                    core.disconnect(connId); // its effects go out with the loop's next carryOut
                }
            }
        }

        private void shutdown() {
            for (long connId : new ArrayList<>(channels.keySet())) {
                SocketChannel ch = channels.remove(connId);
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // shutting down
                }
            }
            try {
                server.close();
                selector.close();
                storage.close();
            } catch (IOException e) {
                System.err.println("zabkit test loop shutdown: " + e);
            }
        }
    }
}
