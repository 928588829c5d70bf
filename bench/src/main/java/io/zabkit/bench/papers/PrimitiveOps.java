package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * System S's primitive-operation throughput (seed 001, section 3.1, Fig 2, lines 128-136): each client
 * issues `requests` asynchronous requests of one kind and waits for all of them; its throughput is
 * requests / its own time, and the ensemble's is the sum over clients. The kinds run in the order
 * create, set, get, delete on the same znodes, so each finds what it needs.
 */
final class PrimitiveOps {
    enum Kind { CREATE, SET, GET, DELETE }

    private static final long DRAIN_MS = 60_000;

    /** opsPerSecond: the sum of the clients' own rates; errors: failed replies. */
    record Result(Kind kind, int clients, long requests, double opsPerSecond, long errors) {}

    private PrimitiveOps() {}

    /** Runs every kind in order with `clients` sessions spread round-robin over the servers. */
    static List<Result> run(Ensemble e, int clients, int requests, int window, int dataBytes, String root)
            throws Exception {
        List<ZooKeeper> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                sessions.add(Systems.session(e, i % e.size() + 1));
            }
            ZooKeeper admin = sessions.get(0);
            admin.create(root, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            for (int i = 0; i < clients; i++) {
                admin.create(root + "/c" + i, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            List<Result> out = new ArrayList<>();
            for (Kind k : Kind.values()) {
                out.add(phase(sessions, k, requests, window, new byte[dataBytes], root));
            }
            return out;
        } finally {
            sessions.forEach(Systems::close);
        }
    }

    private static Result phase(List<ZooKeeper> sessions, Kind kind, int requests, int window, byte[] data,
            String root) throws InterruptedException {
        double[] rates = new double[sessions.size()];
        AtomicLong errors = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < sessions.size(); i++) {
            int client = i;
            Thread t = new Thread(() -> rates[client] = client(sessions.get(client), kind, requests, window, data,
                    root + "/c" + client + "/n", errors), "ops-" + i);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        double sum = 0;
        for (double r : rates) {
            sum += r;
        }
        return new Result(kind, sessions.size(), (long) requests * sessions.size(), sum, errors.get());
    }

    /** One client's requests, at most `window` in flight; its rate in requests/s (0 if it was interrupted). */
    private static double client(ZooKeeper zk, Kind kind, int requests, int window, byte[] data, String prefix,
            AtomicLong errors) {
        Semaphore inFlight = new Semaphore(window);
        long t0 = System.nanoTime();
        try {
            for (int k = 0; k < requests; k++) {
                if (!inFlight.tryAcquire(DRAIN_MS, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException(kind + " requests unanswered for " + DRAIN_MS + " ms");
                }
                String path = prefix + k;
                switch (kind) {
                    case CREATE -> zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                            (rc, p, c, name) -> done(rc, inFlight, errors), null);
                    case SET -> zk.setData(path, data, -1, (rc, p, c, stat) -> done(rc, inFlight, errors), null);
                    case GET -> zk.getData(path, false, (rc, p, c, d, stat) -> done(rc, inFlight, errors), null);
                    case DELETE -> zk.delete(path, -1, (rc, p, c) -> done(rc, inFlight, errors), null);
                }
            }
            if (!inFlight.tryAcquire(window, DRAIN_MS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(kind + " requests unanswered for " + DRAIN_MS + " ms");
            }
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            return 0;
        }
        return requests / ((System.nanoTime() - t0) / 1e9);
    }

    private static void done(int rc, Semaphore inFlight, AtomicLong errors) {
        if (rc != KeeperException.Code.OK.intValue()) {
            errors.incrementAndGet();
        }
        inFlight.release();
    }
}
