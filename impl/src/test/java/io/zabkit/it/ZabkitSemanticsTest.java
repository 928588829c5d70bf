package io.zabkit.it;

/** The client-visible rules against zabkit's server. */
class ZabkitSemanticsTest extends ClientSemanticsContract {
    @Override
    Target.Factory factory() {
        return ZabkitTarget.FACTORY;
    }
}
