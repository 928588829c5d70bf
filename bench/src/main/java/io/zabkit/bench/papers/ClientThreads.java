package io.zabkit.bench.papers;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** One thread per simulated client, all joined within a bound: a client that is still running then is an error. */
final class ClientThreads {
    interface Body {
        void run(int client) throws Exception;
    }

    private ClientThreads() {}

    static void run(int clients, double maxSeconds, Body body) throws Exception {
        assert clients > 0 && maxSeconds > 0 : "clients and a bound";
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int c = i;
                done.add(pool.submit(() -> {
                    body.run(c);
                    return null;
                }));
            }
            long deadline = System.nanoTime() + (long) (maxSeconds * 1e9);
            for (Future<?> f : done) {
                try {
                    f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException t) {
                    throw new IllegalStateException("a client was still running after " + maxSeconds + " s");
                } catch (java.util.concurrent.ExecutionException x) {
                    throw x.getCause() instanceof Exception e ? e : x;
                }
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
