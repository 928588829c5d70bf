package io.zabkit.it;

import java.nio.file.Path;

/**
 * TLS against zabkit's production server (ServerMain in its own JVM), with ZooKeeper's zoo.cfg keys. It
 * leaves out ZooKeeper's authProvider.x509 line, which zabkit refuses: it has no x509 ACL scheme.
 */
class ProductionTlsTest extends TlsContract {
    @Override
    Target start(Path dataDir, int port, int securePort, String clientAuth) throws Exception {
        return ProductionTarget.factoryWith(
                "secureClientPort=" + securePort,
                "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
                "ssl.keyStore.location=" + server.keyStore(),
                "ssl.keyStore.password=" + PASSWORD,
                "ssl.trustStore.location=" + client.trustStore(),
                "ssl.trustStore.password=" + PASSWORD,
                "ssl.clientAuth=" + clientAuth).start(dataDir, port, Target.Settings.FAST);
    }
}
