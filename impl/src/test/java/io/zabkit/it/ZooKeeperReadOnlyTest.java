package io.zabkit.it;

/** Read-only mode on a 3-server ensemble of Apache ZooKeeper 3.9.4 (QuorumPeerMain, one JVM each): the oracle. */
class ZooKeeperReadOnlyTest extends ReadOnlyContract {
    @Override
    ProcessEnsemble.Kind kind() {
        return ProcessEnsemble.Kind.ZOOKEEPER;
    }
}
