package io.zabkit.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mntr as an operator's tooling reads it: every zk_ key zabkit prints is a key Apache ZooKeeper
 * 3.9.4 prints too (zabkit's own figures carry the zabkit_ prefix), and the keys they share hold
 * values of the same kind.
 */
class MntrKeysTest {
    /** What zabkit must report, named as ZooKeeper names them. */
    private static final Set<String> REQUIRED = Set.of("zk_version", "zk_server_state", "zk_uptime",
            "zk_avg_latency", "zk_max_latency", "zk_min_latency", "zk_packets_received", "zk_packets_sent",
            "zk_num_alive_connections", "zk_outstanding_requests", "zk_znode_count", "zk_watch_count",
            "zk_ephemerals_count", "zk_approximate_data_size", "zk_global_sessions", "zk_connection_rejected");

    @Test
    void everyZkKeyIsZooKeepersAndSharedKeysAgreeInKind(@TempDir Path dir) throws Exception {
        Map<String, String> zookeeper = mntrAfterOneSession(ZooKeeperTarget.start(dir.resolve("zk"),
                Clients.freePort(), Target.Settings.FAST));
        Map<String, String> zabkit = mntrAfterOneSession(ZabkitTarget.start(dir.resolve("zabkit"),
                Clients.freePort(), Target.Settings.FAST));

        Set<String> invented = new TreeSet<>();
        for (String key : zabkit.keySet()) {
            assertTrue(key.startsWith("zk_") || key.startsWith("zabkit_"), "mntr key " + key);
            if (key.startsWith("zk_") && !zookeeper.containsKey(key)) {
                invented.add(key);
            }
        }
        assertEquals(Set.of(), invented, "zk_ keys ZooKeeper 3.9.4 does not have");
        for (String key : REQUIRED) {
            assertTrue(zabkit.containsKey(key), "zabkit's mntr lacks " + key + ":\n" + zabkit);
        }
        for (String key : zabkit.keySet()) {
            if (zookeeper.containsKey(key) && !key.equals("zk_version") && !key.equals("zk_server_state")) {
                assertEquals(isNumber(zookeeper.get(key)), isNumber(zabkit.get(key)),
                        key + ": zookeeper " + zookeeper.get(key) + ", zabkit " + zabkit.get(key));
            }
        }
        assertEquals("standalone", zabkit.get("zk_server_state"));
        assertTrue(Long.parseLong(zabkit.get("zk_uptime")) >= 0);
        assertTrue(Long.parseLong(zabkit.get("zk_connection_request_count")) >= 1, zabkit.toString());
    }

    private static Map<String, String> mntrAfterOneSession(Target server) throws Exception {
        try (server) {
            ZooKeeper zk = Clients.connect(server.connectString());
            zk.close();
            Map<String, String> keys = new LinkedHashMap<>();
            for (String line : Clients.fourLetterWord(server.port(), "mntr").split("\n")) {
                String[] kv = line.split("\t", 2);
                assertEquals(2, kv.length, "mntr line without a tab: " + line);
                keys.put(kv[0], kv[1]);
            }
            return keys;
        }
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
