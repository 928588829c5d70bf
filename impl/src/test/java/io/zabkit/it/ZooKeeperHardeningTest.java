package io.zabkit.it;

/** Misbehaving clients against Apache ZooKeeper 3.9.4, the oracle. */
class ZooKeeperHardeningTest extends HardeningContract {
    /** ZooKeeper reads it when the connection factory is made; cleared after, so other tests keep the default. */
    private static final String SESSIONLESS_TIMEOUT = "zookeeper.nio.sessionlessCnxnTimeout";

    @Override
    Target.Factory factory() {
        return (dataDir, port, settings) -> {
            System.setProperty(SESSIONLESS_TIMEOUT, String.valueOf(HANDSHAKE_TIMEOUT_MS));
            try {
                return ZooKeeperTarget.FACTORY.start(dataDir, port, settings);
            } finally {
                System.clearProperty(SESSIONLESS_TIMEOUT);
            }
        };
    }
}
