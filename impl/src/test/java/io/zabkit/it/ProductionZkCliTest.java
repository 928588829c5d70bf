package io.zabkit.it;

/** zkCli against zabkit's production server (ServerMain in its own JVM). */
class ProductionZkCliTest extends ZkCliContract {
    @Override
    Target.Factory factory() {
        return ProductionTarget.FACTORY;
    }
}
