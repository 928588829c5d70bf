package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Curator's recipes (leader latch, lock, double barrier) work on the server, each client its own session. */
abstract class CuratorRecipesContract extends SharedServerContract {
    private static final int CLIENTS = 3;
    final List<CuratorFramework> clients = new ArrayList<>();
    ExecutorService pool;


    @BeforeEach
    void openClients() throws Exception {
        pool = Executors.newFixedThreadPool(CLIENTS);
        for (int i = 0; i < CLIENTS; i++) {
            CuratorFramework c = CuratorFrameworkFactory.newClient(server.connectString(), Clients.SESSION_TIMEOUT_MS,
                    Clients.SESSION_TIMEOUT_MS, new ExponentialBackoffRetry(100, 3));
            c.start();
            assertTrue(c.blockUntilConnected((int) Clients.WAIT_S, TimeUnit.SECONDS), "curator client connects");
            clients.add(c);
        }
    }

    @AfterEach
    void closeClients() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(Clients.WAIT_S, TimeUnit.SECONDS));
        clients.forEach(CuratorFramework::close);
        clients.clear();
    }

    @Test
    void leaderLatchElectsOneLeaderAndHandsOverWhenItLeaves() throws Exception {
        List<LeaderLatch> latches = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            LeaderLatch latch = new LeaderLatch(clients.get(i), "/recipes/latch", "member-" + i);
            latch.start();
            latches.add(latch);
        }
        LeaderLatch leader = awaitSingleLeader(latches);
        assertEquals(leader.getId(), latches.get(0).getLeader().getId(), "every member agrees on the leader");
        leader.close();
        latches.remove(leader);
        LeaderLatch next = awaitSingleLeader(latches);
        assertFalse(next == leader);
        for (LeaderLatch l : latches) {
            l.close();
        }
    }

    private static LeaderLatch awaitSingleLeader(List<LeaderLatch> latches) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Clients.WAIT_S);
        while (System.nanoTime() < deadline) {
            for (LeaderLatch l : latches) {
                if (l.await(50, TimeUnit.MILLISECONDS)) {
                    int leaders = 0;
                    for (LeaderLatch other : latches) {
                        leaders += other.hasLeadership() ? 1 : 0;
                    }
                    assertEquals(1, leaders, "exactly one leader");
                    return l;
                }
            }
        }
        throw new AssertionError("no leader within " + Clients.WAIT_S + " s");
    }

    @Test
    void interProcessMutexExcludesAcrossSessions() throws Exception {
        int rounds = 10;
        AtomicInteger holders = new AtomicInteger();
        AtomicInteger maxHolders = new AtomicInteger();
        int[] unguarded = {0};
        List<Future<?>> done = new ArrayList<>();
        for (CuratorFramework c : clients) {
            InterProcessMutex mutex = new InterProcessMutex(c, "/recipes/mutex");
            done.add(pool.submit(() -> {
                for (int i = 0; i < rounds; i++) {
                    if (!mutex.acquire(Clients.WAIT_S, TimeUnit.SECONDS)) {
                        throw new AssertionError("lock not acquired within " + Clients.WAIT_S + " s");
                    }
                    try {
                        maxHolders.accumulateAndGet(holders.incrementAndGet(), Math::max);
                        unguarded[0]++; // safe only under mutual exclusion
                        holders.decrementAndGet();
                    } finally {
                        mutex.release();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(30, TimeUnit.SECONDS);
        }
        assertEquals(1, maxHolders.get(), "two sessions held the lock at once");
        assertEquals(CLIENTS * rounds, unguarded[0]);
    }

    @Test
    void doubleBarrierReleasesOnlyWhenAllHaveEntered() throws Exception {
        AtomicInteger entered = new AtomicInteger();
        AtomicInteger left = new AtomicInteger();
        List<Future<Integer>> seenOnEntry = new ArrayList<>();
        for (CuratorFramework c : clients) {
            DistributedDoubleBarrier barrier = new DistributedDoubleBarrier(c, "/recipes/barrier", CLIENTS);
            seenOnEntry.add(pool.submit(() -> {
                entered.incrementAndGet();
                if (!barrier.enter(Clients.WAIT_S, TimeUnit.SECONDS)) {
                    throw new AssertionError("enter timed out");
                }
                int seen = entered.get();
                if (!barrier.leave(Clients.WAIT_S, TimeUnit.SECONDS)) {
                    throw new AssertionError("leave timed out");
                }
                left.incrementAndGet();
                return seen;
            }));
        }
        for (Future<Integer> f : seenOnEntry) {
            assertEquals(CLIENTS, f.get(30, TimeUnit.SECONDS), "a member passed enter() before all had arrived");
        }
        assertEquals(CLIENTS, left.get());
    }
}
