package io.zabkit.it;

/** zkCli against Apache ZooKeeper 3.9.4, the oracle. */
class ZooKeeperZkCliTest extends ZkCliContract {
    @Override
    Target.Factory factory() {
        return ZooKeeperTarget.FACTORY;
    }
}
