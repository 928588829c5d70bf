package io.zabkit.config;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zabkit.fuzz.Seeds;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Any zoo.cfg gives a configuration or a ConfigException that says what is wrong (and where), never
 * another exception with a stack trace. The dataDir lines point under a directory of the test's own, so
 * the myid the reader looks for is never a file of this machine. Inputs in ConfigFuzzTestInputs/ start
 * from real configurations (see FuzzSeeds).
 */
class ConfigFuzzTest {
    @FuzzTest(maxDuration = "2m")
    void anyConfigFile(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        List<String> lines = text.lines()
                .map(l -> l.startsWith("dataDir=") || l.startsWith("dataLogDir=") ? confine(l) : l)
                .toList();
        try {
            ServerConfig c = ConfigReader.fromCfg(CfgFile.parse("zoo.cfg", lines), 7);
            assert c.core() != null && c.dataDir() != null : "a read config is whole";
        } catch (ConfigException refused) {
            assert refused.getMessage() != null && !refused.getMessage().isBlank() : "a refusal says why";
        }
    }

    private static String confine(String line) {
        int eq = line.indexOf('=');
        String value = line.substring(eq + 1).replace("..", "_");
        return line.substring(0, eq + 1) + "/nonexistent/zabkit-fuzz/" + value;
    }

    /** zoo.cfg files as users write them: standalone, an ensemble, ZooKeeper's optional keys. */
    @Test
    @EnabledIfSystemProperty(named = Seeds.WRITE_PROPERTY, matches = "true")
    void writeSeeds() {
        seed("seed-standalone", "tickTime=2000", "dataDir=data", "clientPort=2181", "maxClientCnxns=60",
                "4lw.commands.whitelist=ruok,srvr,mntr", "autopurge.snapRetainCount=3", "autopurge.purgeInterval=1");
        seed("seed-ensemble", "tickTime=2000", "initLimit=10", "syncLimit=5", "dataDir=data", "dataLogDir=log",
                "clientPort=2181", "server.1=127.0.0.1:2888:3888", "server.2=127.0.0.1:2889:3889;2182",
                "server.3=localhost:2890:3890:participant", "zabkit.broadcast=ZabAa", "jute.maxbuffer=1048576",
                "globalOutstandingLimit=1000", "nio.sessionlessCnxnTimeout=10000", "minSessionTimeout=4000",
                "maxSessionTimeout=40000", "forceSync=no", "snapCount=100000");
        seed("seed-metrics-security", "dataDir=data", "clientPortAddress=0.0.0.0", "clientPort=2181",
                "metricsProvider.className=org.apache.zookeeper.metrics.prometheus.PrometheusMetricsProvider",
                "metricsProvider.httpPort=7000", "metricsProvider.exportJvmInfo=false", "admin.enableServer=false",
                "authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider", "skipACL=no",
                "zabkit.bugzoo=ACK_BEFORE_FSYNC", "zabkit.bugzoo.allow=true");
    }

    private void seed(String name, String... lines) {
        Seeds.write(getClass(), "anyConfigFile", name, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
