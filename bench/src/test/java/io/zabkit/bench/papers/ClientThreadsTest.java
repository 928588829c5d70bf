package io.zabkit.bench.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ClientThreadsTest {
    /** Client 0 waits for a peer that never comes (as at a barrier); client 1 fails: the run must end with it. */
    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void theFirstFailureEndsTheRunWithoutWaitingForTheBound() {
        CountDownLatch never = new CountDownLatch(1);
        long t0 = System.nanoTime();
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> ClientThreads.run(2, 60, c -> {
            if (c == 0) {
                never.await();
            } else {
                throw new IllegalStateException("client 1 lost its connection");
            }
        }));
        assertEquals("client 1 lost its connection", x.getMessage());
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "ended long before the 60 s bound");
    }
}
