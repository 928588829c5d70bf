package io.zabkit.it;

/** Session rules against zabkit's production server (ServerMain in its own JVM). */
class ProductionSessionsTest extends SessionsContract {
    @Override
    Target.Factory factory() {
        return ProductionTarget.FACTORY;
    }
}
