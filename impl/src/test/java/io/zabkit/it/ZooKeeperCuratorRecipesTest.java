package io.zabkit.it;

/** Curator's recipes against Apache ZooKeeper 3.9.4, the oracle. */
class ZooKeeperCuratorRecipesTest extends CuratorRecipesContract {
    @Override
    Target.Factory factory() {
        return ZooKeeperTarget.FACTORY;
    }
}
