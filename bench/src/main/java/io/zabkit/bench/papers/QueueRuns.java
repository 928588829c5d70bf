package io.zabkit.bench.papers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Seed 002's queue experiments (section 5.2-5.3) over any QueueRecipe, each bounded in count and time,
 * each audited (QueueAudit) from what the clients got and what the queue holds at the end.
 */
final class QueueRuns {
    /** A run: its operations, wall time, and the audit's violations (empty when correct). */
    record Result(long ops, double seconds, List<String> violations) {
        double opsPerSecond() {
            return ops / seconds;
        }
    }

    private QueueRuns() {}

    static byte[] bytes(String element) {
        return element.getBytes(StandardCharsets.UTF_8);
    }

    /** A queue znode at path (persistent, empty). */
    static void createQueue(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    }

    /** count elements "0:i", i = 0.., created asynchronously in order (500 outstanding) as producer 0. */
    static List<String> prefill(ZooKeeper zk, String path, String prefix, int count) throws InterruptedException {
        Semaphore window = new Semaphore(500);
        AtomicReference<String> error = new AtomicReference<>();
        List<String> made = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String e = QueueAudit.element(0, i);
            made.add(e);
            window.acquire();
            zk.create(path + "/" + prefix, bytes(e), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL,
                    (rc, p, ctx, name) -> {
                        if (rc != 0) {
                            error.compareAndSet(null, "prefill create: " + KeeperException.Code.get(rc));
                        }
                        window.release();
                    }, null);
        }
        if (!window.tryAcquire(500, 60, TimeUnit.SECONDS) || error.get() != null) {
            throw new IllegalStateException("prefilling " + path + " failed: " + error.get());
        }
        return made;
    }

    /** Every element still in the queue (its data), read asynchronously. */
    static List<String> remaining(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        List<String> children = zk.getChildren(path, false);
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch read = new CountDownLatch(children.size());
        AtomicReference<String> error = new AtomicReference<>();
        for (String c : children) {
            zk.getData(path + "/" + c, false, (rc, p, ctx, data, stat) -> {
                if (rc == 0) {
                    out.add(new String(data, StandardCharsets.UTF_8));
                } else {
                    error.compareAndSet(null, p + ": " + KeeperException.Code.get(rc));
                }
                read.countDown();
            }, null);
        }
        if (!read.await(60, TimeUnit.SECONDS) || error.get() != null) {
            throw new IllegalStateException("reading what is left in " + path + " failed: " + error.get());
        }
        return out;
    }

    /** Table 1, produce: every producer produces in a loop, one at a time, for `seconds` or `cap` elements. */
    static Result produce(List<QueueRecipe> producers, double seconds, int cap) throws Exception {
        AtomicLong done = new AtomicLong();
        long t0 = System.nanoTime();
        long end = t0 + (long) (seconds * 1e9);
        ClientThreads.run(producers.size(), seconds + 60, p -> {
            QueueRecipe q = producers.get(p);
            for (int i = 0; i < cap && System.nanoTime() - end < 0; i++) {
                q.produce(bytes(QueueAudit.element(p, i)));
                done.incrementAndGet();
            }
        });
        return new Result(done.get(), (System.nanoTime() - t0) / 1e9, List.of());
    }

    /**
     * Table 1 consume and Fig 4: the consumers take `take` elements in all from a queue prefilled with
     * `prefilled` (more than take, so no consume blocks); the clock runs from the first consume to the last.
     */
    static Result drain(ZooKeeper reader, String path, List<String> prefilled, List<QueueRecipe> consumers, int take,
            double maxSeconds) throws Exception {
        assert take <= prefilled.size() : "a drain never waits on an empty queue";
        AtomicInteger tickets = new AtomicInteger();
        List<List<String>> got = new ArrayList<>();
        consumers.forEach(c -> got.add(Collections.synchronizedList(new ArrayList<>())));
        long t0 = System.nanoTime();
        long deadline = t0 + (long) (maxSeconds * 1e9);
        ClientThreads.run(consumers.size(), maxSeconds + 30, c -> {
            while (tickets.getAndIncrement() < take) {
                byte[] v = consumers.get(c).consume(deadline);
                if (v == null) {
                    throw new IllegalStateException("a consume found no element before the deadline");
                }
                got.get(c).add(new String(v, StandardCharsets.UTF_8));
            }
        });
        double s = (System.nanoTime() - t0) / 1e9;
        return new Result(take, s, QueueAudit.check(prefilled, got, remaining(reader, path)));
    }

    /**
     * Fig 5: `producers` and `consumers` start together on an empty queue; each produces or consumes
     * `each` elements, one at a time; the clock stops when the last of them finishes.
     */
    static Result mixed(ZooKeeper reader, String path, List<QueueRecipe> producers, List<QueueRecipe> consumers,
            int each, double maxSeconds) throws Exception {
        assert producers.size() == consumers.size() : "as many elements produced as consumed";
        int n = producers.size() + consumers.size();
        List<List<String>> got = new ArrayList<>();
        consumers.forEach(c -> got.add(Collections.synchronizedList(new ArrayList<>())));
        List<String> made = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        AtomicLong t0 = new AtomicLong();
        long deadline = System.nanoTime() + (long) (maxSeconds * 1e9);
        ClientThreads.run(n + 1, maxSeconds + 30, c -> {
            if (c == n) { // the starter: every client thread is waiting at `go` by now
                Thread.sleep(200);
                t0.set(System.nanoTime());
                go.countDown();
                return;
            }
            go.await();
            if (c < producers.size()) {
                for (int i = 0; i < each; i++) {
                    String e = QueueAudit.element(c + 1, i);
                    producers.get(c).produce(bytes(e));
                    made.add(e);
                }
            } else {
                int k = c - producers.size();
                for (int i = 0; i < each; i++) {
                    byte[] v = consumers.get(k).consume(deadline);
                    if (v == null) {
                        throw new IllegalStateException("a consumer got no element before the deadline");
                    }
                    got.get(k).add(new String(v, StandardCharsets.UTF_8));
                }
            }
        });
        double s = (System.nanoTime() - t0.get()) / 1e9;
        return new Result(2L * producers.size() * each, s, QueueAudit.check(made, got, remaining(reader, path)));
    }

    /**
     * Table 2, the herd: N clients each consume one element then produce one, on an empty queue; once
     * all wait (settleSeconds after the last started), one element is produced; ops = N, seconds = from
     * that produce until the last client got its element.
     */
    static Result herd(ZooKeeper reader, String path, QueueRecipe starter, List<QueueRecipe> clients,
            double settleSeconds, double maxSeconds) throws Exception {
        int n = clients.size();
        CountDownLatch started = new CountDownLatch(n);
        List<List<String>> got = new ArrayList<>();
        clients.forEach(c -> got.add(Collections.synchronizedList(new ArrayList<>())));
        List<String> made = Collections.synchronizedList(new ArrayList<>());
        AtomicLong lastUnblocked = new AtomicLong();
        AtomicLong t0 = new AtomicLong();
        long deadline = System.nanoTime() + (long) ((settleSeconds + maxSeconds) * 1e9);
        Thread producer = new Thread(() -> {
            try {
                if (started.await((long) (maxSeconds * 1e9), TimeUnit.NANOSECONDS)) {
                    Thread.sleep((long) (settleSeconds * 1000));
                    String e = QueueAudit.element(0, 0);
                    t0.set(System.nanoTime());
                    starter.produce(bytes(e));
                    made.add(e);
                }
            } catch (Exception x) {
                throw new IllegalStateException(x);
            }
        });
        producer.start();
        ConcurrentHashMap<Integer, Boolean> unblocked = new ConcurrentHashMap<>();
        ClientThreads.run(n, settleSeconds + maxSeconds + 30, c -> {
            started.countDown();
            byte[] v = clients.get(c).consume(deadline);
            if (v == null) {
                throw new IllegalStateException("client " + c + " was never unblocked before the deadline");
            }
            lastUnblocked.accumulateAndGet(System.nanoTime(), Math::max);
            unblocked.put(c, true);
            got.get(c).add(new String(v, StandardCharsets.UTF_8));
            String e = QueueAudit.element(c + 1, 0);
            clients.get(c).produce(bytes(e));
            made.add(e);
        });
        producer.join(10_000);
        assert unblocked.size() == n : "every client returned";
        return new Result(n, (lastUnblocked.get() - t0.get()) / 1e9, QueueAudit.check(made, got, remaining(reader, path)));
    }
}
