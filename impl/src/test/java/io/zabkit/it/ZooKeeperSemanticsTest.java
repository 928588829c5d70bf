package io.zabkit.it;

/** The same rules against Apache ZooKeeper 3.9.4: the oracle that keeps the expectations honest. */
class ZooKeeperSemanticsTest extends ClientSemanticsContract {
    @Override
    Target.Factory factory() {
        return ZooKeeperTarget.FACTORY;
    }
}
