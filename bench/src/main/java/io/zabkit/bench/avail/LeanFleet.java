package io.zabkit.bench.avail;

import io.zabkit.bench.lean.LeanLoop;
import io.zabkit.bench.lean.LeanSession;
import io.zabkit.bench.lean.Wire;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The lean watch clients: N sessions on one {@link LeanLoop} thread, as the paper's C++ subscribers (one
 * single-threaded process each) were meant to: cheap enough that the servers, not the clients, limit.
 * Each subscriber does what System S's did: on a notification it reads the znode with getData, which
 * also sets the watch again. After a reconnection it re-registers all its watches at once with
 * SetWatches from the last zxid it saw, so the server fires those whose znode changed meanwhile.
 */
final class LeanFleet implements WatchFleet, LeanSession.Handler {
    private final List<String> paths;
    private final LeanLoop loop;
    private final int n;
    private final int[] home;
    private final int[] watched;
    private final long[] lostNs;
    private final long[] sessionNs;
    private final long[] rewatchNs;
    private final long[] freshNs;
    private final long[] freshIssuedNs;
    private final int[] attempts;
    private final boolean[] expired;
    private long faultNs = Long.MAX_VALUE;

    /** Client i is at home on servers[i % servers] and fails over to the others in a random order of its own. */
    LeanFleet(List<InetSocketAddress> servers, int n, List<String> paths, int timeoutMs, long seed) throws Exception {
        if (n < 1 || paths.isEmpty()) {
            throw new IllegalArgumentException("a fleet needs clients and topics");
        }
        this.paths = List.copyOf(paths);
        this.n = n;
        home = new int[n];
        watched = new int[n];
        lostNs = new long[n];
        sessionNs = new long[n];
        rewatchNs = new long[n];
        freshNs = new long[n];
        freshIssuedNs = new long[n];
        attempts = new int[n];
        expired = new boolean[n];
        loop = new LeanLoop("avail-lean-clients", Duration.ofMillis(5), () -> {});
        List<LeanSession> sessions = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            home[i] = i % servers.size();
            List<InetSocketAddress> others = new ArrayList<>(servers);
            InetSocketAddress first = others.remove(home[i]);
            Collections.shuffle(others, new Random(seed * 1_000_003L + i));
            others.add(0, first);
            sessions.add(new LeanSession(i, others, timeoutMs, this));
        }
        loop.add(sessions);
    }

    @Override public String kind() { return "lean"; }

    @Override public int size() { return n; }

    /** The server index (into the list given) each client started on. */
    int home(int client) { return home[client]; }

    @Override
    public void awaitReady(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            long ready = loop.query(ss -> ss.stream().filter(s -> s.connected() && watched[s.index] >= paths.size())
                    .count());
            if (ready == n) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("lean clients: not every session watches all " + paths.size()
                + " topics within " + timeout);
    }

    @Override
    public void arm(long atNs) throws Exception {
        loop.call(() -> {
            faultNs = atNs;
            for (long[] a : List.of(lostNs, sessionNs, rewatchNs, freshNs)) {
                Arrays.fill(a, 0);
            }
            Arrays.fill(attempts, 0);
            Arrays.fill(expired, false);
            return null;
        });
    }

    @Override
    public void rebase(long atNs) throws Exception {
        loop.call(() -> {
            assert atNs >= faultNs : "a fault mark moves only later";
            faultNs = atNs;
            for (int i = 0; i < n; i++) {
                if (freshNs[i] != 0 && freshIssuedNs[i] < atNs) {
                    freshNs[i] = 0;
                }
                assert lostNs[i] == 0 || lostNs[i] >= atNs : "a client lost its connection before the signal";
            }
            return null;
        });
    }

    @Override
    public int closed() throws Exception {
        return loop.call(() -> (int) Arrays.stream(freshNs).filter(t -> t != 0).count());
    }

    @Override
    public List<ClientWindow> windows() throws Exception {
        return loop.call(() -> {
            List<ClientWindow> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                out.add(new ClientWindow(i, home[i], lostNs[i] != 0, ms(freshNs[i]), ms(lostNs[i]), ms(sessionNs[i]),
                        ms(rewatchNs[i]), attempts[i], expired[i]));
            }
            return out;
        });
    }

    private double ms(long t) {
        return t == 0 ? Double.NaN : (t - faultNs) / 1e6;
    }

    private boolean armed(long now) { return now >= faultNs; }

    @Override
    public void connected(LeanSession s, boolean renewed) {
        long now = System.nanoTime();
        int i = s.index;
        if (armed(now) && lostNs[i] != 0 && sessionNs[i] == 0) {
            sessionNs[i] = now;
            attempts[i] = s.attempts;
        }
        if (renewed) {
            s.send(Wire.setWatches(s.lastZxid(), paths));
            return;
        }
        watched[i] = 0; // a new session (first, or after an expiry): read and watch every topic again
        for (String p : paths) {
            s.send(Wire.getData(s.nextXid(), p, true));
        }
    }

    @Override
    public void reply(LeanSession s, int xid, int err, ByteBuffer body) {
        long now = System.nanoTime();
        int i = s.index;
        if (xid == Wire.XID_SET_WATCHES) {
            if (armed(now) && rewatchNs[i] == 0 && lostNs[i] != 0) {
                rewatchNs[i] = now;
            }
            watched[i] = paths.size(); // SetWatches set every watch, also those whose first getData was lost
            return;
        }
        if (err != 0) {
            throw new IllegalStateException("client " + i + ": getData failed with error " + err);
        }
        if (watched[i] < paths.size()) {
            watched[i]++;
        }
        long issued = Writer.issuedNs(Wire.buffer(body));
        if (freshNs[i] == 0 && issued >= faultNs) {
            freshNs[i] = now;
            freshIssuedNs[i] = issued;
        }
    }

    @Override
    public void notification(LeanSession s, int type, String path) {
        if (type == Wire.EVENT_NODE_DATA_CHANGED) {
            s.send(Wire.getData(s.nextXid(), path, true));
        }
    }

    @Override
    public void disconnected(LeanSession s) {
        long now = System.nanoTime();
        if (armed(now) && lostNs[s.index] == 0) {
            lostNs[s.index] = now;
        }
    }

    @Override
    public void expired(LeanSession s) {
        if (armed(System.nanoTime())) {
            expired[s.index] = true;
        }
    }

    @Override
    public void close() throws Exception {
        loop.close();
    }
}
