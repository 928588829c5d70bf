package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.proto.GetDataRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that misbehave must not take the server from everyone else (issue 23, findings 2 and 7):
 * one session pipelining requests for a large znode without ever reading the replies, and
 * connections that never send a ConnectRequest. zabkit's side runs ServerMain in its own JVM with a
 * 256 MB heap, so a server that built every reply in memory dies of OutOfMemoryError here.
 */
abstract class HardeningContract {
    /** Under jute.maxbuffer (1 MiB) with room for the reply's header and Stat. */
    static final int BIG_DATA_BYTES = 1_000_000;
    /** Replies the never-reading client asks for: about 1 GB, four times the zabkit server's heap. */
    static final int PIPELINED_GETS = 1_000;
    /** The handshake timeout both servers get in these tests. */
    static final int HANDSHAKE_TIMEOUT_MS = 2_000;

    @TempDir
    Path dir;
    Target server;

    abstract Target.Factory factory();

    @BeforeEach
    void start() throws Exception {
        server = factory().start(dir, Clients.freePort(), Target.Settings.FAST);
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void aClientThatNeverReadsLeavesEveryoneElseServed() throws Exception {
        byte[] big = new byte[BIG_DATA_BYTES];
        Arrays.fill(big, (byte) 'x');
        ZooKeeper zk = Clients.connect(server.connectString());
        try (RawClient greedy = new RawClient(server.port(), (int) TimeUnit.SECONDS.toMillis(Clients.WAIT_S))) {
            zk.create("/big", big, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            greedy.send(RawClient.connectFrame(Clients.SESSION_TIMEOUT_MS));
            assertNotNull(greedy.readFrame(), "no ConnectResponse");
            greedy.socket.setReceiveBufferSize(4096);
            Thread pipeline = new Thread(() -> sendGets(greedy), "greedy-client");
            pipeline.setDaemon(true);
            pipeline.start();
            pipeline.join(TimeUnit.SECONDS.toMillis(2)); // the server reads all it will; the rest waits in TCP
            long startNs = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                zk.create("/other-" + i, new byte[] {(byte) i}, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                assertArrayEquals(new byte[] {(byte) i}, zk.getData("/other-" + i, false, null));
            }
            assertArrayEquals(big, zk.getData("/big", false, null));
            long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
            // generous for a loaded CI machine: a server that built every reply stalls (or dies) instead
            assertTrue(elapsedMs < TimeUnit.SECONDS.toMillis(Clients.WAIT_S), "20 creates and reads of another"
                    + " session took " + elapsedMs + " ms");
        } finally {
            zk.close();
        }
        assertEquals("imok", Clients.fourLetterWord(server.port(), "ruok"), "the server is not serving");
    }

    private static void sendGets(RawClient greedy) {
        try {
            for (int xid = 1; xid <= PIPELINED_GETS; xid++) {
                greedy.send(RawClient.requestFrame(xid, OpCode.getData, new GetDataRequest("/big", false)));
            }
        } catch (IOException e) {
            // the server may close or stop reading; either is fine here
        }
    }

    @Test
    void aConnectionWithoutAConnectRequestIsClosed() throws Exception {
        try (Socket idle = new Socket("127.0.0.1", server.port())) {
            idle.setSoTimeout(HANDSHAKE_TIMEOUT_MS * 3 + 5_000);
            long startNs = System.nanoTime();
            InputStream in = idle.getInputStream();
            int read;
            try {
                read = in.read();
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the server kept a connection without a ConnectRequest open for "
                        + (System.nanoTime() - startNs) / 1_000_000 + " ms");
            } catch (IOException e) {
                read = -1; // reset: closed as well
            }
            long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
            assertEquals(-1, read, "the server sent a byte to a connection that said nothing");
            assertTrue(elapsedMs >= HANDSHAKE_TIMEOUT_MS / 2, "closed after only " + elapsedMs + " ms");
        }
        // a partial ConnectRequest is no handshake either
        try (Socket partial = new Socket("127.0.0.1", server.port())) {
            partial.setSoTimeout(HANDSHAKE_TIMEOUT_MS * 3 + 5_000);
            OutputStream out = partial.getOutputStream();
            byte[] connect = RawClient.connectFrame(Clients.SESSION_TIMEOUT_MS);
            out.write(connect, 0, connect.length / 2);
            out.flush();
            int read;
            try {
                read = partial.getInputStream().read();
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the server kept a half-sent ConnectRequest open");
            } catch (IOException e) {
                read = -1;
            }
            assertEquals(-1, read);
        }
        ZooKeeper zk = Clients.connect(server.connectString());
        try {
            assertNull(zk.exists("/nothing", false), "a real client is still served");
        } finally {
            zk.close();
        }
        assertEquals("imok", Clients.fourLetterWord(server.port(), "ruok"));
    }
}
