package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.it.Clients.Events;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.jute.Record;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.proto.CreateRequest;
import org.apache.zookeeper.proto.GetDataRequest;
import org.apache.zookeeper.proto.SetDataRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input at random, from a fixed seed: valid connect and request frames with flipped bytes,
 * truncated frames, wrong and oversized lengths, unknown op codes and plain garbage, each on its own
 * raw connection. Every such connection must be closed by the server (with a logged rejection where
 * the input is certainly invalid), while a session opened before the storm keeps working and loses
 * none of its writes. Runs against the in-process core (whose invariants the fixture checks after
 * every step) and against the production server process (whose log must show no AssertionError).
 */
class BadInputFuzzTest {
    private static final long SEED = 0x2abc17L;
    private static final int ROUNDS = 300;
    private static final int READ_TIMEOUT_MS = 5000;
    private static final int MAX_BUFFER = 0xfffff;
    private static final int KEYS = 20;

    enum Mutation {
        FLIPPED_CONNECT, FLIPPED_REQUEST, TRUNCATED, WRONG_LENGTH, OVER_MAX_BUFFER, UNKNOWN_OPCODE, GARBAGE
    }

    @Test
    void randomBadInputClosesOnlyTheOffendingConnection(@TempDir Path dir) throws Exception {
        RejectionLog rejections = RejectionLog.attach();
        try {
            int certain;
            try (ZabkitTarget server = ZabkitTarget.start(dir, Clients.freePort(), Target.Settings.FAST)) {
                certain = storm(server);
            }
            assertLogged(certain, rejections.count(), rejections.sample());
        } finally {
            rejections.detach();
        }
    }

    @Test
    void productionServerSurvivesTheSameStorm(@TempDir Path dir) throws Exception {
        ProductionTarget server = ProductionTarget.start(dir, Clients.freePort(), Target.Settings.FAST);
        int certain;
        try {
            certain = storm(server);
        } finally {
            server.close(); // also fails on any AssertionError in the server's log
        }
        List<String> lines = server.readLog().lines().filter(l -> l.contains("closing connection")).toList();
        assertLogged(certain, lines.size(), lines.isEmpty() ? "(no rejection logged)" : lines.get(0));
    }

    private static void assertLogged(int certainRejections, int logged, String sample) {
        System.out.println("certain rejections " + certainRejections + ", rejection log lines " + logged
                + ", e.g. " + sample);
        assertTrue(logged >= certainRejections, "expected at least " + certainRejections
                + " logged rejections, saw " + logged);
        assertTrue(sample.contains("closing connection"), sample);
    }

    /** Runs every round against the server and checks the guard session; returns the certain rejections. */
    private static int storm(Target server) throws Exception {
        System.out.println(server.name() + ": SEED=0x" + Long.toHexString(SEED) + " ROUNDS=" + ROUNDS);
        Events guardEvents = new Events();
        ZooKeeper guard = Clients.connect(server.connectString(), Clients.SESSION_TIMEOUT_MS, guardEvents);
        long guardSession = guard.getSessionId();
        guard.create("/guard", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        for (int i = 0; i < KEYS; i++) {
            guard.create("/guard/k" + i, value(i), Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        guard.create("/guard/lease", new byte[0], Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);

        Random random = new Random(SEED);
        int[] counts = new int[Mutation.values().length];
        int certainRejections = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Mutation m = Mutation.values()[random.nextInt(Mutation.values().length)];
            counts[m.ordinal()]++;
            try {
                certainRejections += runRound(server.port(), m, random) ? 1 : 0;
            } catch (AssertionError | IOException e) {
                throw new AssertionError("round " + round + " (" + m + ") failed; replay with SEED=0x"
                        + Long.toHexString(SEED) + ": " + e.getMessage(), e);
            }
            if (round % 50 == 0) {
                guard.setData("/guard/k" + (round / 50), value(round / 50), -1); // writes keep flowing
            }
        }
        System.out.println("mutations " + Arrays.toString(Mutation.values()) + " = " + Arrays.toString(counts));

        // the guard's session never noticed: same session, no Expired, every write intact
        assertEquals(guardSession, guard.getSessionId());
        assertTrue(guard.getState().isConnected());
        for (var e : guardEvents.queue) {
            assertTrue(e.getState() != KeeperState.Expired, "the guard session expired: " + e);
        }
        for (int i = 0; i < KEYS; i++) {
            assertArrayEquals(value(i), guard.getData("/guard/k" + i, false, null), "/guard/k" + i);
        }
        assertEquals(guardSession, guard.exists("/guard/lease", false).getEphemeralOwner());
        ZooKeeper fresh = Clients.connect(server.connectString());
        try {
            assertEquals(KEYS + 1, fresh.getChildren("/guard", false).size());
        } finally {
            fresh.close();
        }
        guard.close();
        return certainRejections;
    }

    private static byte[] value(int i) {
        return ("value-" + i).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * One raw connection with one kind of bad input. Returns true when the input is certainly invalid
     * (the server must close on its own and log it); otherwise the client half-closes and the server
     * must answer only with well-formed frames and then close.
     */
    private static boolean runRound(int port, Mutation m, Random random) throws IOException {
        try (RawClient c = new RawClient(port, READ_TIMEOUT_MS)) {
            boolean certain;
            switch (m) {
                case FLIPPED_CONNECT:
                    sendQuietly(c, flip(RawClient.connectFrame(4000), random));
                    certain = false;
                    break;
                case FLIPPED_REQUEST:
                    connect(c);
                    sendQuietly(c, flip(randomRequest(random), random));
                    certain = false;
                    break;
                case TRUNCATED: {
                    byte[] frame = random.nextBoolean() ? RawClient.connectFrame(4000) : randomRequest(random);
                    if (frame != null && random.nextBoolean()) {
                        connect(c);
                    }
                    sendQuietly(c, Arrays.copyOf(frame, 1 + random.nextInt(frame.length - 1)));
                    certain = false;
                    break;
                }
                case WRONG_LENGTH: {
                    // a length shorter than the connect body: the record cannot be read from it
                    byte[] frame = RawClient.connectFrame(4000);
                    int shorter = random.nextInt(frame.length - 4 - 8);
                    ByteBuffer.wrap(frame).putInt(0, shorter);
                    sendQuietly(c, frame);
                    certain = true;
                    break;
                }
                case OVER_MAX_BUFFER: {
                    int length = random.nextBoolean() ? MAX_BUFFER + 1 + random.nextInt(1 << 20)
                            : -1 - random.nextInt(Integer.MAX_VALUE);
                    if (random.nextBoolean()) {
                        connect(c);
                    }
                    sendQuietly(c, ByteBuffer.allocate(8).putInt(length).putInt(random.nextInt()).array());
                    certain = true;
                    break;
                }
                case UNKNOWN_OPCODE: {
                    connect(c);
                    int op = 200 + random.nextInt(10_000);
                    sendQuietly(c, RawClient.requestFrame(1, op, null));
                    certain = true;
                    break;
                }
                case GARBAGE: {
                    byte[] junk = new byte[1 + random.nextInt(64)];
                    random.nextBytes(junk);
                    sendQuietly(c, junk);
                    certain = false;
                    break;
                }
                default:
                    throw new AssertionError(m);
            }
            if (!certain) {
                c.socket.shutdownOutput(); // the server must not wait for the rest forever
            }
            c.framesUntilClosed();
            return certain;
        }
    }

    private static void connect(RawClient c) throws IOException {
        c.send(RawClient.connectFrame(4000));
        byte[] reply = c.readFrame();
        if (reply == null || reply.length < 20) {
            throw new AssertionError("a valid connect got no session");
        }
    }

    private static void sendQuietly(RawClient c, byte[] bytes) {
        try {
            c.send(bytes);
        } catch (IOException e) {
            // the server may close while we still write: that is the outcome we check for
        }
    }

    private static byte[] randomRequest(Random random) throws IOException {
        String path = "/fuzz" + random.nextInt(5);
        Record body;
        int type;
        switch (random.nextInt(3)) {
            case 0:
                type = ZooDefs.OpCode.create;
                body = new CreateRequest(path, new byte[random.nextInt(8)], Ids.OPEN_ACL_UNSAFE, 0);
                break;
            case 1:
                type = ZooDefs.OpCode.setData;
                body = new SetDataRequest(path, new byte[random.nextInt(8)], -1);
                break;
            default:
                type = ZooDefs.OpCode.getData;
                body = new GetDataRequest(path, random.nextBoolean());
                break;
        }
        return RawClient.requestFrame(1 + random.nextInt(100), type, body);
    }

    /** Flips 1..4 random bits; the frame's length prefix is fair game too. */
    private static byte[] flip(byte[] frame, Random random) {
        byte[] out = frame.clone();
        int flips = 1 + random.nextInt(4);
        for (int i = 0; i < flips; i++) {
            int at = random.nextInt(out.length);
            out[at] ^= (byte) (1 << random.nextInt(8));
        }
        return out;
    }

    /** Collects the core's "closing connection" warnings (its System.Logger goes to java.util.logging). */
    private static final class RejectionLog extends Handler {
        private final List<String> lines = new ArrayList<>();
        private final Logger logger = Logger.getLogger("zabkit.core");

        static RejectionLog attach() {
            RejectionLog log = new RejectionLog();
            log.logger.addHandler(log);
            return log;
        }

        void detach() {
            logger.removeHandler(this);
        }

        @Override
        public synchronized void publish(LogRecord record) {
            String text = java.text.MessageFormat.format(record.getMessage(),
                    record.getParameters() == null ? new Object[0] : record.getParameters());
            if (text.startsWith("closing connection")) {
                lines.add(text);
            }
        }

        synchronized int count() {
            return lines.size();
        }

        synchronized String sample() {
            return lines.isEmpty() ? "(no rejection logged)" : lines.get(0);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }
}
