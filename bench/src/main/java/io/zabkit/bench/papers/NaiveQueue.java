package io.zabkit.bench.papers;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Seed 002's own queue (sections 3.1-3.2), the recipe whose cost it measures: produce creates a
 * sequential child of the queue znode; consume reads every child, sorts them, reads and deletes the
 * smallest (another consumer's delete sends it back to the start), and, when the queue is empty,
 * watches the queue znode, so one new element wakes every waiting consumer (the herd).
 */
final class NaiveQueue implements QueueRecipe {
    static final String PREFIX = "item-";
    private final ZooKeeper zk;
    private final String path;
    private final AtomicLong zkOps;
    /** A planted bug for the tests only: take the newest element instead of the oldest. */
    private final boolean takeNewest;

    NaiveQueue(ZooKeeper zk, String path, AtomicLong zkOps) {
        this(zk, path, zkOps, false);
    }

    NaiveQueue(ZooKeeper zk, String path, AtomicLong zkOps, boolean takeNewest) {
        assert path.startsWith("/") && !path.endsWith("/") : "an absolute znode path: " + path;
        this.zk = zk;
        this.path = path;
        this.zkOps = zkOps;
        this.takeNewest = takeNewest;
    }

    @Override
    public void produce(byte[] value) throws KeeperException, InterruptedException {
        zkOps.incrementAndGet();
        zk.create(path + "/" + PREFIX, value, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
    }

    @Override
    public byte[] consume(long deadlineNanos) throws KeeperException, InterruptedException {
        while (true) {
            zkOps.incrementAndGet();
            List<String> children = zk.getChildren(path, false);
            if (children.isEmpty()) {
                CountDownLatch changed = new CountDownLatch(1);
                zkOps.incrementAndGet();
                children = zk.getChildren(path, event -> changed.countDown());
                if (children.isEmpty()) {
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0 || !changed.await(left, TimeUnit.NANOSECONDS)) {
                        return null;
                    }
                    continue;
                }
            }
            Collections.sort(children); // same-width sequence numbers: name order is produce order
            String head = path + "/" + children.get(takeNewest ? children.size() - 1 : 0);
            try {
                zkOps.addAndGet(2);
                byte[] value = zk.getData(head, false, null);
                zk.delete(head, -1);
                return value;
            } catch (KeeperException.NoNodeException taken) {
                if (System.nanoTime() - deadlineNanos > 0) {
                    return null;
                }
            }
        }
    }

    @Override
    public String elementPrefix() {
        return PREFIX;
    }
}
