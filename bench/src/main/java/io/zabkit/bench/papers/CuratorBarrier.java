package io.zabkit.bench.papers;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier;

/**
 * Curator 5.7.1's DistributedDoubleBarrier, entered only (seed 002's barrier has no leave): a client
 * creates its child, counts the children once, and the client that completes the count creates a
 * "ready" child; the others wait on a watch for "ready" alone, so an arrival wakes nobody.
 */
final class CuratorBarrier implements BarrierRecipe {
    private final CuratorFramework client;

    CuratorBarrier(CuratorFramework client) {
        this.client = client;
    }

    @Override
    public boolean await(String path, int threshold, long deadlineNanos) throws Exception {
        long left = Math.max(1, deadlineNanos - System.nanoTime());
        return new DistributedDoubleBarrier(client, path, threshold).enter(left, TimeUnit.NANOSECONDS);
    }
}
