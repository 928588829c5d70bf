package io.zabkit.it;

import java.nio.file.Path;
import java.util.List;

/** SASL against zabkit's production server (ServerMain in its own JVM) with the same JAAS file and keys. */
class ProductionSaslTest extends SaslContract {
    @Override
    Target start(Path dataDir, int port, boolean enforceSasl) throws Exception {
        List<String> jvm = List.of("-D" + JAAS_PROPERTY + "=" + jaas);
        String provider = "authProvider.1=" + SASL_PROVIDER;
        Target.Factory f = enforceSasl
                ? ProductionTarget.factoryWith(jvm, provider, "enforce.auth.enabled=true", "enforce.auth.schemes=sasl")
                : ProductionTarget.factoryWith(jvm, provider);
        return f.start(dataDir, port, Target.Settings.FAST);
    }
}
