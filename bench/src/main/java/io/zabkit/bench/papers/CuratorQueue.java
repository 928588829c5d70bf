package io.zabkit.bench.papers;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.queue.SimpleDistributedQueue;

/**
 * Curator 5.7.1's SimpleDistributedQueue: the same znode layout (sequential "qn-" children), but a
 * consumer whose delete loses the race tries the next child of the list it already read instead of
 * reading the list again, and a waiting consumer is woken by a watch on the children as in seed 002.
 */
final class CuratorQueue implements QueueRecipe {
    static final String PREFIX = "qn-";
    private final SimpleDistributedQueue queue;

    CuratorQueue(CuratorFramework client, String path) {
        this.queue = new SimpleDistributedQueue(client, path);
    }

    @Override
    public void produce(byte[] value) throws Exception {
        if (!queue.offer(value)) {
            throw new IllegalStateException("SimpleDistributedQueue.offer refused an element");
        }
    }

    @Override
    public byte[] consume(long deadlineNanos) throws Exception {
        long left = deadlineNanos - System.nanoTime();
        return left <= 0 ? queue.poll() : queue.poll(left, TimeUnit.NANOSECONDS);
    }

    @Override
    public String elementPrefix() {
        return PREFIX;
    }
}
