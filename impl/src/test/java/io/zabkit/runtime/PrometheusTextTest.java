package io.zabkit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {
    @Test
    void mntrLinesBecomeGaugesNamedAsZooKeepersProviderNamesThem() {
        String text = PrometheusText.fromMntr("zk_version\t3.9.4-zabkit\nzk_server_state\tleader\n"
                + "zk_avg_latency\t0.2500\nzk_znode_count\t12\nzabkit_last_processed_zxid\t0x100000003\n");
        assertEquals("# TYPE zabkit_version_info gauge\nzabkit_version_info{version=\"3.9.4-zabkit\"} 1\n"
                + "# TYPE server_state gauge\nserver_state{state=\"leader\"} 1\n"
                + "# TYPE avg_latency gauge\navg_latency 0.25\n"
                + "# TYPE znode_count gauge\nznode_count 12\n"
                + "# TYPE zabkit_last_processed_zxid gauge\nzabkit_last_processed_zxid 4294967299\n", text);
    }

    @Test
    void numbersAndNames() {
        assertEquals(4294967299.0, PrometheusText.number("0x100000003"));
        assertNull(PrometheusText.number("leading - broadcast"));
        assertEquals("peer_state", PrometheusText.metricName("zk_peer_state"));
        assertEquals("zabkit_a_b", PrometheusText.metricName("zabkit_a.b"));
        assertThrows(IllegalStateException.class, () -> PrometheusText.fromMntr("zk_a\t1\nzk_a\t2\n"));
    }
}
