package io.zabkit.it;

/** Unsupported requests against zabkit's production server (ServerMain in its own JVM). */
class ProductionUnsupportedRequestsTest extends UnsupportedRequestsContract {
    @Override
    Target.Factory factory() {
        return ProductionTarget.FACTORY;
    }
}
