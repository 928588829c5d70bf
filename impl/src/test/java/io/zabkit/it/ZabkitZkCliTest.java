package io.zabkit.it;

/** zkCli against zabkit's server. */
class ZabkitZkCliTest extends ZkCliContract {
    @Override
    Target.Factory factory() {
        return ZabkitTarget.FACTORY;
    }
}
