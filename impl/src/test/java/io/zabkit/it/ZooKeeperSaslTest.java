package io.zabkit.it;

import java.nio.file.Path;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.junit.jupiter.api.AfterAll;

/**
 * SASL against Apache ZooKeeper 3.9.4 in-process, the oracle. zoo.cfg's keys reach ZooKeeper's server as
 * the system properties {@code zookeeper.<key>}, read when the server and its connection factory are made.
 */
class ZooKeeperSaslTest extends SaslContract {
    private static final String PROVIDER = "zookeeper.authProvider.1";
    private static final String ENFORCE = "zookeeper.enforce.auth.enabled";
    private static final String SCHEMES = "zookeeper.enforce.auth.schemes";

    @Override
    Target start(Path dataDir, int port, boolean enforceSasl) throws Exception {
        System.setProperty(PROVIDER, SASL_PROVIDER);
        ProviderRegistry.reset(); // it registered its providers once per JVM, maybe before this class
        if (enforceSasl) {
            System.setProperty(ENFORCE, "true");
            System.setProperty(SCHEMES, "sasl");
        }
        try {
            return ZooKeeperTarget.FACTORY.start(dataDir, port, Target.Settings.FAST);
        } finally {
            System.clearProperty(ENFORCE);
            System.clearProperty(SCHEMES);
        }
    }

    @AfterAll
    static void forgetProvider() {
        System.clearProperty(PROVIDER);
        ProviderRegistry.reset();
    }
}
