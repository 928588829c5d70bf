package io.zabkit.it;

/** Observers beside a 3-server ensemble of Apache ZooKeeper 3.9.4 (QuorumPeerMain, one JVM each): the oracle. */
class ZooKeeperObserverTest extends ObserverContract {
    @Override
    ProcessEnsemble.Kind kind() {
        return ProcessEnsemble.Kind.ZOOKEEPER;
    }
}
