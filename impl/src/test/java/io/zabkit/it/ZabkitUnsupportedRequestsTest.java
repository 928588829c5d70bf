package io.zabkit.it;

/** Unsupported requests against zabkit's server. */
class ZabkitUnsupportedRequestsTest extends UnsupportedRequestsContract {
    @Override
    Target.Factory factory() {
        return ZabkitTarget.FACTORY;
    }
}
