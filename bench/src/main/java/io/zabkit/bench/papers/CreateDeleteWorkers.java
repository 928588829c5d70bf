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
 * The ZooKeeper paper's latency benchmark (seed 004, Table 2, lines 352-359): each worker has its own
 * session; it creates a znode with 1 KB of data, waits for the reply, issues an asynchronous delete of
 * it and creates the next. Throughput is the creates of all workers over the time until the last
 * worker is done; with one worker, its inverse is the mean create latency.
 */
final class CreateDeleteWorkers {
    private static final int DATA_BYTES = 1024;
    private static final long DRAIN_MS = 30_000;

    /** creates: total over all workers; seconds: until the last worker finished; errors: failed replies. */
    record Result(int workers, long creates, double seconds, long errors) {
        double createsPerSecond() {
            return creates / seconds;
        }

        /** Mean create latency in ms, meaningful for one worker (it waits for each create). */
        double meanLatencyMs() {
            return seconds * 1000.0 * workers / creates;
        }
    }

    private CreateDeleteWorkers() {}

    /**
     * Runs `workers` workers, each on server (i mod N) + 1, each doing up to perWorker creates, all
     * stopping at deadlineS seconds at the latest (the paper's 50,000 per worker takes far longer).
     */
    static Result run(Ensemble e, int workers, int perWorker, double deadlineS, String root)
            throws Exception {
        if (workers < 1 || perWorker < 1) {
            throw new IllegalArgumentException("workers and creates per worker must be positive");
        }
        List<ZooKeeper> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                sessions.add(Systems.session(e, i % e.size() + 1));
            }
            ZooKeeper admin = sessions.get(0);
            if (admin.exists(root, false) == null) {
                admin.create(root, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            byte[] data = new byte[DATA_BYTES];
            AtomicLong creates = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            long start = System.nanoTime();
            long deadline = start + (long) (deadlineS * 1e9);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                ZooKeeper zk = sessions.get(i);
                String prefix = root + "/w" + i + "-";
                Thread t = new Thread(() -> work(zk, prefix, data, perWorker, deadline, creates, errors), "worker-" + i);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assert creates.get() <= (long) workers * perWorker : "more creates than asked for";
            return new Result(workers, creates.get(), seconds, errors.get());
        } finally {
            sessions.forEach(Systems::close);
        }
    }

    /** One worker; its time ends when its last asynchronous delete is answered. */
    private static void work(ZooKeeper zk, String prefix, byte[] data, int count, long deadlineNs, AtomicLong creates,
            AtomicLong errors) {
        Semaphore deletes = new Semaphore(0);
        int issued = 0;
        try {
            for (int k = 0; k < count && System.nanoTime() < deadlineNs; k++) {
                String path = prefix + k;
                try {
                    zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                    creates.incrementAndGet();
                } catch (KeeperException x) {
                    errors.incrementAndGet();
                    continue;
                }
                zk.delete(path, -1, (rc, p, ctx) -> {
                    if (rc != KeeperException.Code.OK.intValue()) {
                        errors.incrementAndGet();
                    }
                    deletes.release();
                }, null);
                issued++;
            }
            if (!deletes.tryAcquire(issued, DRAIN_MS, TimeUnit.MILLISECONDS)) {
                errors.addAndGet(issued - deletes.availablePermits());
            }
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }
}
