package io.zabkit.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.zabkit.config.MetricsConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * GET /metrics in Prometheus' text format, where ZooKeeper's Prometheus provider serves it (its
 * metricsProvider.* keys): the core's mntr figures, asked of the event loop so the core stays on one thread,
 * and, with exportJvmInfo, the JVM's memory, threads and CPU time. The JDK's own HTTP server: no dependency.
 */
final class MetricsEndpoint implements AutoCloseable {
    /** A scrape that the loop does not answer in this long gets a 503: a stuck loop must not hang scrapers. */
    static final long ANSWER_TIMEOUT_MS = 5_000;
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer http;

    private MetricsEndpoint(HttpServer http) {
        this.http = http;
    }

    /** Binds the address and serves until closed; the mntr lines come from {@code monitorReport}. */
    static MetricsEndpoint start(MetricsConfig config, Supplier<CompletableFuture<String>> monitorReport)
            throws IOException {
        HttpServer http = HttpServer.create(config.httpAddress(), 16);
        http.createContext("/metrics", exchange -> serve(exchange, config, monitorReport));
        http.createContext("/", exchange -> reply(exchange, 404, "not found: metrics are at /metrics\n"));
        // one thread: scrapes are rare, and each waits on the loop anyway
        http.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "zabkit-metrics");
            t.setDaemon(true);
            return t;
        }));
        http.start();
        return new MetricsEndpoint(http);
    }

    /** The bound port (the configured one, or the one the system chose for port 0 in tests). */
    int port() {
        return http.getAddress().getPort();
    }

    @Override
    public void close() {
        http.stop(0);
    }

    private static void serve(HttpExchange exchange, MetricsConfig config,
                              Supplier<CompletableFuture<String>> monitorReport) throws IOException {
        if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            reply(exchange, 405, "only GET\n");
            return;
        }
        String mntr;
        try {
            mntr = monitorReport.get().get(ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            reply(exchange, 503, "the server did not answer within " + ANSWER_TIMEOUT_MS + " ms\n");
            return;
        } catch (ExecutionException e) {
            reply(exchange, 503, "the server cannot answer: " + e.getCause().getMessage() + "\n");
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reply(exchange, 503, "interrupted\n");
            return;
        }
        StringBuilder text = new StringBuilder(PrometheusText.fromMntr(mntr));
        if (config.exportJvmInfo()) {
            jvm(text);
        }
        exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
        reply(exchange, 200, text.toString());
    }

    /** A few of the JVM figures ZooKeeper's provider exports (Prometheus' hotspot collector's names). */
    private static void jvm(StringBuilder text) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        PrometheusText.gauge(text, "jvm_memory_bytes_used", "area=\"heap\"", memory.getHeapMemoryUsage().getUsed());
        PrometheusText.gauge(text, "jvm_memory_bytes_used", "area=\"nonheap\"",
                memory.getNonHeapMemoryUsage().getUsed());
        PrometheusText.gauge(text, "jvm_threads_current", "", ManagementFactory.getThreadMXBean().getThreadCount());
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            PrometheusText.counter(text, "process_cpu_seconds_total", os.getProcessCpuTime() / 1e9);
        }
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (!head) {
                out.write(bytes);
            }
        }
    }
}
