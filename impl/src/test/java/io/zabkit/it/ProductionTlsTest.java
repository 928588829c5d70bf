package io.zabkit.it;

import java.nio.file.Path;
import java.util.List;

/** TLS against zabkit's production server (ServerMain in its own JVM), with the zoo.cfg keys ZooKeeper gets. */
class ProductionTlsTest extends TlsContract {
    @Override
    Target start(Path dataDir, int port, int securePort, String clientAuth, boolean x509Provider) throws Exception {
        if (port == 0) {
            return ProductionTarget.tlsOnlyFactoryWith(tlsLines(clientAuth, x509Provider))
                    .start(dataDir, securePort, Target.Settings.FAST);
        }
        List<String> lines = new java.util.ArrayList<>(List.of(tlsLines(clientAuth, x509Provider)));
        lines.add("secureClientPort=" + securePort);
        return ProductionTarget.factoryWith(lines.toArray(String[]::new)).start(dataDir, port, Target.Settings.FAST);
    }

    /** ZooKeeper's TLS keys, as its documentation has them, but the port. */
    private String[] tlsLines(String clientAuth, boolean x509Provider) {
        return new String[] {
                "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
                x509Provider ? "authProvider.x509=org.apache.zookeeper.server.auth.X509AuthenticationProvider" : "",
                "ssl.keyStore.location=" + server.keyStore(),
                "ssl.keyStore.password=" + PASSWORD,
                "ssl.trustStore.location=" + client.trustStore(),
                "ssl.trustStore.password=" + PASSWORD,
                "ssl.clientAuth=" + clientAuth};
    }
}
