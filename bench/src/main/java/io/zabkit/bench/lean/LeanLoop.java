package io.zabkit.bench.lean;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One thread and one selector driving many {@link LeanSession}s: the lean client's whole cost. Other
 * threads touch sessions and their handlers only through {@link #call}, which runs on the loop.
 */
public final class LeanLoop implements AutoCloseable {
    private final Selector selector;
    private final Thread thread;
    private final long tickNs;
    private final Runnable onTick;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final List<LeanSession> sessions = new ArrayList<>();
    private volatile boolean stopping;
    private volatile Throwable crashed;

    /** @param onTick run on the loop after the timers of every tick (the writer's pacing) */
    public LeanLoop(String name, Duration tick, Runnable onTick) throws IOException {
        this.selector = Selector.open();
        this.tickNs = tick.toNanos();
        this.onTick = onTick;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Adds sessions built on the loop thread; each starts connecting on the next tick. */
    public void add(List<LeanSession> more) throws Exception {
        call(() -> sessions.addAll(more));
    }

    /** Runs job on the loop thread and waits for its result (bounded). */
    public <T> T call(Callable<T> job) throws Exception {
        if (crashed != null) {
            throw new IllegalStateException("the lean client loop failed", crashed);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        tasks.add(() -> {
            try {
                result.complete(job.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        selector.wakeup();
        return result.get(30, TimeUnit.SECONDS);
    }

    public <T> T query(Function<List<LeanSession>, T> q) throws Exception {
        return call(() -> q.apply(sessions));
    }

    private void run() {
        long nextTick = System.nanoTime();
        try {
            while (!stopping) {
                long waitMs = Math.max(1, (nextTick - System.nanoTime()) / 1_000_000);
                selector.select(waitMs);
                for (SelectionKey k : selector.selectedKeys()) {
                    LeanSession s = (LeanSession) k.attachment();
                    if (!k.isValid()) {
                        continue;
                    }
                    if (k.isConnectable()) {
                        s.onConnectable();
                    } else {
                        if (k.isValid() && k.isWritable()) {
                            s.onWritable();
                        }
                        if (k.isValid() && k.isReadable()) {
                            s.onReadable();
                        }
                    }
                }
                selector.selectedKeys().clear();
                for (Runnable t; (t = tasks.poll()) != null; ) {
                    t.run();
                }
                long now = System.nanoTime();
                if (now >= nextTick) {
                    for (LeanSession s : sessions) {
                        s.check(selector, now);
                    }
                    onTick.run();
                    nextTick = now + tickNs;
                }
            }
        } catch (Throwable t) {
            crashed = t;
            t.printStackTrace();
        } finally {
            sessions.forEach(LeanSession::close);
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopping = true;
        selector.wakeup();
        thread.join(10_000);
    }
}
