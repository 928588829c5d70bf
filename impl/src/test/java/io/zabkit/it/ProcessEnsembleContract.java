package io.zabkit.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture of a contract that runs a whole ensemble of server processes (zabkit's or ZooKeeper 3.9.4's):
 * its data directory, the ensemble, and the clients a test opened, all closed after each test.
 */
abstract class ProcessEnsembleContract {
    /** An election, a follower's or observer's sync, and the other comings and goings of a quorum. */
    static final long QUORUM_WAIT_S = 60;

    @TempDir
    Path dir;
    ProcessEnsemble ensemble;
    /** The clients a test opened; each is closed after the test, before the servers. */
    final List<ZooKeeper> clients = new ArrayList<>();

    abstract ProcessEnsemble.Kind kind();

    @AfterEach
    void stop() throws Exception {
        for (ZooKeeper zk : clients) {
            zk.close(1_000);
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }
}
