package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Prometheus endpoint of a real server process, configured with ZooKeeper's metricsProvider keys. */
class MetricsEndpointTest {
    @TempDir
    Path dir;

    private Path config(int clientPort, int metricsPort) throws IOException {
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, String.join("\n", "tickTime=500", "dataDir=" + dir.resolve("data"),
                "clientPortAddress=127.0.0.1", "clientPort=" + clientPort, "4lw.commands.whitelist=ruok",
                "metricsProvider.className=org.apache.zookeeper.metrics.prometheus.PrometheusMetricsProvider",
                "metricsProvider.httpHost=127.0.0.1", "metricsProvider.httpPort=" + metricsPort) + "\n");
        return cfg;
    }

    @Test
    void aScrapeGetsTheServersFiguresUnderZooKeepersPrometheusNames() throws Exception {
        int clientPort = ServerMainTest.freeLoopbackPort();
        int metricsPort = ServerMainTest.freeLoopbackPort();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try (ServerProcess server = ServerProcess.start(config(clientPort, metricsPort), clientPort,
                dir.resolve("server.log"))) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
            String body = r.body();
            // mntr's zk_ figures without the prefix, as ZooKeeper's Prometheus provider names them
            assertTrue(body.contains("# TYPE znode_count gauge\nznode_count "), body);
            assertTrue(body.contains("\nnum_alive_connections "), body);
            assertTrue(body.contains("server_state{state=\"standalone\"} 1\n"), body);
            assertTrue(body.contains("\nzabkit_last_processed_zxid "), body);
            assertTrue(body.contains("jvm_memory_bytes_used{area=\"heap\"} "), body);
            assertTrue(body.contains("# TYPE process_cpu_seconds_total counter\n"), body);
            for (String line : body.split("\n")) {
                assertTrue(line.startsWith("# TYPE ") || line.matches("[a-zA-Z_][a-zA-Z0-9_]*(\\{[^}]*\\})? -?[0-9.eE+-]+"),
                        "not a Prometheus sample line: " + line);
            }
            HttpResponse<String> other = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + metricsPort + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, other.statusCode());
            assertEquals(0, server.terminate());
        }
    }

    @Test
    void aMetricsPortInUseStopsTheServerWithTwo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertEquals(2, ServerMain.run(config(ServerMainTest.freeLoopbackPort(), taken.getLocalPort())));
        }
    }
}
