package io.zabkit.bench.papers;

import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** One thread per simulated client, all joined within a bound: a client that is still running then is an error. */
final class ClientThreads {
    interface Body {
        void run(int client) throws Exception;
    }

    private ClientThreads() {}

    /**
     * Runs every client and returns when all are done. The first client to fail ends the run at once
     * (the others are interrupted): its peers at a barrier would otherwise wait for it until the bound.
     */
    static void run(int clients, double maxSeconds, Body body) throws Exception {
        assert clients > 0 && maxSeconds > 0 : "clients and a bound";
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            CompletionService<Void> done = new ExecutorCompletionService<>(pool);
            for (int i = 0; i < clients; i++) {
                int c = i;
                done.submit(() -> {
                    body.run(c);
                    return null;
                });
            }
            long deadline = System.nanoTime() + (long) (maxSeconds * 1e9);
            for (int k = 0; k < clients; k++) {
                Future<Void> f = done.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (f == null) {
                    throw new IllegalStateException("a client was still running after " + maxSeconds + " s");
                }
                try {
                    f.get();
                } catch (ExecutionException x) {
                    throw x.getCause() instanceof Exception e ? e : x;
                }
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
