package io.zabkit.it;

/** Unsupported requests against Apache ZooKeeper 3.9.4, the oracle. */
class ZooKeeperUnsupportedRequestsTest extends UnsupportedRequestsContract {
    @Override
    Target.Factory factory() {
        return ZooKeeperTarget.FACTORY;
    }
}
