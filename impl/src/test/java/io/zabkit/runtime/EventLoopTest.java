package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.core.CoreConfig;
import io.zabkit.storage.Disk;
import io.zabkit.storage.FileDisk;
import io.zabkit.storage.RecoveredState;
import io.zabkit.storage.Storage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLoopTest {
    @TempDir
    Path dir;

    private final ScriptedCore core = new ScriptedCore();
    private final AtomicInteger syncs = new AtomicInteger();
    private volatile boolean failAppends;
    private EventLoop loop;
    private int port;

    /** A FileDisk that counts syncs and can be made to fail. */
    private Disk disk() throws IOException {
        FileDisk real = new FileDisk(dir.resolve("log"));
        return new Disk() {
            public List<String> list() throws IOException { return real.list(); }
            public byte[] read(String name) throws IOException { return real.read(name); }
            public void append(String name, byte[] bytes) throws IOException {
                if (failAppends) {
                    throw new IOException("injected: disk full");
                }
                real.append(name, bytes);
            }
            public void sync(String name) throws IOException { syncs.incrementAndGet(); real.sync(name); }
            public void writeAtomically(String name, byte[] bytes) throws IOException { real.writeAtomically(name, bytes); }
            public void truncate(String name, long length) throws IOException { real.truncate(name, length); }
            public void delete(String name) throws IOException { real.delete(name); }
            public String describe() { return real.describe(); }
            public void close() throws IOException { real.close(); }
        };
    }

    private Storage storage() throws IOException {
        Disk d = disk();
        return new Storage(d, d, new Storage.Options(true, 3, CoreConfig.DEFAULT_MAX_BUFFER), w -> { });
    }

    private void start(int tickTimeMs) throws IOException {
        Storage storage = storage();
        storage.recover();
        ServerSocketChannel listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        loop = new EventLoop(core, listener, storage, tickTimeMs, System::currentTimeMillis);
        new Thread(loop, "zabkit-loop-test").start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (loop != null) {
            loop.requestStop();
            loop.awaitStopped();
        }
    }

    private Socket client() throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        return s;
    }

    @Test
    void writesAreAnsweredOnlyAfterTheyAreDurableWithGroupCommit() throws Exception {
        start(2000);
        int writes = 500;
        try (Socket s = client()) {
            OutputStream out = s.getOutputStream();
            out.write("w\n".repeat(writes).getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            for (int i = 1; i <= writes; i++) {
                assertEquals("ok " + Long.toHexString((1L << 32) | i), in.readLine());
            }
        }
        loop.requestStop();
        assertNull(loop.awaitStopped());
        loop = null;
        assertTrue(syncs.get() >= 1 && syncs.get() <= writes, "syncs: " + syncs.get());
        RecoveredState state = storage().recover();
        assertEquals(writes, state.txns().size(), "every acknowledged write is in the log");
        System.out.println("group commit: " + writes + " writes, " + syncs.get() + " fsyncs");
    }

    @Test
    void coreCloseFlushesFirstAndEveryCloseIsReported() throws Exception {
        start(2000);
        try (Socket s = client()) {
            s.getOutputStream().write("r\nclose\n".getBytes(StandardCharsets.UTF_8));
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("r", in.readLine());
            assertEquals("bye", in.readLine());
            assertNull(in.readLine(), "closed after the bytes went out");
        }
        try (Socket s = client()) {
            s.getOutputStream().write("r\n\n\n".getBytes(StandardCharsets.UTF_8));
            assertEquals('r', s.getInputStream().read());
        }
        awaitEvents(List.of("connect 1", "disconnect 1", "connect 2", "disconnect 2"));
    }

    @Test
    void aClientThatReadsNothingIsCutOffAtTheOutputBound() throws Exception {
        start(2000);
        try (Socket s = client()) {
            s.getOutputStream().write("flood\n".getBytes(StandardCharsets.UTF_8));
            awaitEvents(List.of("connect 1", "disconnect 1"));
            long received = 0;
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[1 << 16];
            try {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    received += n;
                }
            } catch (SocketException reset) {
                // the server closed with unread data: a reset is fine
            }
            assertTrue(received < 80L << 20, "received " + received);
        }
    }

    @Test
    void ticksKeepComingWithoutTraffic() throws Exception {
        start(40);
        Thread.sleep(400);
        assertTrue(core.ticks >= 3, "ticks in 400 ms at tickTime 40: " + core.ticks);
    }

    @Test
    void aDiskFailureStopsTheServerInsteadOfAcknowledging() throws Exception {
        start(2000);
        failAppends = true;
        try (Socket s = client()) {
            s.getOutputStream().write("w\n\n\n".getBytes(StandardCharsets.UTF_8));
            Throwable failure = loop.awaitStopped();
            loop = null;
            assertTrue(failure instanceof IOException && failure.getMessage().contains("disk full"), String.valueOf(failure));
            assertEquals(-1, s.getInputStream().read(), "no acknowledgement, connection closed");
        }
        assertEquals(0, core.lastPersisted);
    }

    @Test
    void anOutOfMemoryErrorStopsTheLoopAsAFailure() throws Exception {
        start(2000);
        try (Socket s = client()) {
            s.getOutputStream().write("oom\n".getBytes(StandardCharsets.UTF_8));
            Throwable failure = loop.awaitStopped();
            loop = null;
            assertTrue(failure instanceof OutOfMemoryError, "the loop's failure: " + failure);
            assertEquals(-1, s.getInputStream().read(), "connections closed");
        }
    }

    private void awaitEvents(List<String> expected) throws InterruptedException {
        for (int i = 0; i < 500 && core.events.size() < expected.size(); i++) {
            Thread.sleep(10);
        }
        assertEquals(expected, new ArrayList<>(core.events));
    }
}
