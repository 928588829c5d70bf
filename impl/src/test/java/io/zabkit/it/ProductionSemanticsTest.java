package io.zabkit.it;

/** The client-visible rules against zabkit's production server (ServerMain in its own JVM). */
class ProductionSemanticsTest extends ClientSemanticsContract {
    @Override
    Target.Factory factory() {
        return ProductionTarget.FACTORY;
    }
}
