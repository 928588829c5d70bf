package io.zabkit.it;

import java.nio.file.Path;

/** TLS against zabkit's production server (ServerMain in its own JVM), with the zoo.cfg keys ZooKeeper gets. */
class ProductionTlsTest extends TlsContract {
    @Override
    Target start(Path dataDir, int port, int securePort, String clientAuth, boolean x509Provider) throws Exception {
        return ProductionTarget.factoryWith(
                "secureClientPort=" + securePort,
                "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
                x509Provider ? "authProvider.x509=org.apache.zookeeper.server.auth.X509AuthenticationProvider" : "",
                "ssl.keyStore.location=" + server.keyStore(),
                "ssl.keyStore.password=" + PASSWORD,
                "ssl.trustStore.location=" + client.trustStore(),
                "ssl.trustStore.password=" + PASSWORD,
                "ssl.clientAuth=" + clientAuth).start(dataDir, port, Target.Settings.FAST);
    }
}
