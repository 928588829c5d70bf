package io.zabkit.it;

/** Session rules against Apache ZooKeeper 3.9.4, the oracle. */
class ZooKeeperSessionsTest extends SessionsContract {
    @Override
    Target.Factory factory() {
        return ZooKeeperTarget.FACTORY;
    }
}
