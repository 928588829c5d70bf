package io.zabkit.it;

/** Session rules against zabkit's server. */
class ZabkitSessionsTest extends SessionsContract {
    @Override
    Target.Factory factory() {
        return ZabkitTarget.FACTORY;
    }
}
