package io.zabkit.it;

/** Misbehaving clients against zabkit's production server (ServerMain in its own JVM, -Xmx256m). */
class ProductionHardeningTest extends HardeningContract {
    @Override
    Target.Factory factory() {
        return ProductionTarget.factoryWith("nio.sessionlessCnxnTimeout=" + HANDSHAKE_TIMEOUT_MS);
    }
}
