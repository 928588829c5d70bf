package io.zabkit.bench;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The leader-crash unavailability window. Two clients are connected before the crash: one pinned to a
 * follower that survives, one on the leader (failing over to the others in id order). The leader is
 * killed with SIGKILL; both clients then retry a setData until one is acknowledged. The window
 * includes the official client's reconnect back-off, which is the same for both systems; the srvr
 * figure isolates the servers' election and synchronization.
 */
final class LeaderCrash {
    private static final Duration QUORUM_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(60);
    private static final long RETRY_PAUSE_MS = 5;
    private static final int ATTEMPTS_MAX = 100_000;
    private static final long SRVR_POLL_MS = 20;
    private static final String PROBES = "/bench-crash";

    private LeaderCrash() {}

    static CrashRound round(Ensemble e, int round) throws Exception {
        int leader = e.awaitQuorum(QUORUM_TIMEOUT);
        int survivor = e.ids().stream().filter(id -> id != leader).findFirst().orElseThrow();
        ZooKeeper onSurvivor = Clients.pinned(e, survivor);
        ZooKeeper onLeader = Clients.startingOn(e, leader);
        ExecutorService probes = Executors.newFixedThreadPool(2);
        try {
            String leaderHost = e.clientAddress(leader).getHostString();
            if (!onLeader.toString().contains("/" + leaderHost + ":")) {
                throw new IllegalStateException("the old-leader client did not connect to the leader: " + onLeader);
            }
            createIfAbsent(onSurvivor, PROBES);
            String survivorProbe = createIfAbsent(onSurvivor, PROBES + "/survivor");
            String leaderProbe = createIfAbsent(onLeader, PROBES + "/old-leader-client");
            onLeader.setData(leaderProbe, new byte[] {0}, -1); // warm: this client's writes work before the crash

            // From the signal, not from before the walk over /proc for the server's children that
            // kill(id) does first (tens to hundreds of ms on a loaded host, counted against both systems).
            long killedNs = e.killTimed(leader);
            Future<Double> survivorMs = probes.submit(() -> firstWriteMs(onSurvivor, survivorProbe, killedNs));
            Future<Double> oldLeaderClientMs = probes.submit(() -> firstWriteMs(onLeader, leaderProbe, killedNs));
            double[] serving = awaitNewLeader(e, leader, killedNs);
            CrashRound r = new CrashRound(e.system(), round, leader, (int) serving[0], serving[1],
                    survivorMs.get(WRITE_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS),
                    oldLeaderClientMs.get(WRITE_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS));
            rejoin(e, leader);
            return r;
        } finally {
            probes.shutdownNow();
            Clients.closeQuietly(onSurvivor);
            Clients.closeQuietly(onLeader);
        }
    }

    /** {new leader id, ms from the kill until srvr shows it leading a quorum}; polled every SRVR_POLL_MS. */
    private static double[] awaitNewLeader(Ensemble e, int oldLeader, long killedNs) throws InterruptedException {
        long deadline = killedNs + QUORUM_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            var modes = e.modes();
            long followers = modes.values().stream().filter("follower"::equals).count();
            var leaders = modes.entrySet().stream().filter(m -> m.getValue().equals("leader")).toList();
            if (leaders.size() == 1 && leaders.get(0).getKey() != oldLeader && followers + 1 > e.size() / 2) {
                return new double[] {leaders.get(0).getKey(), (System.nanoTime() - killedNs) / 1e6};
            }
            Thread.sleep(SRVR_POLL_MS);
        }
        throw new IllegalStateException(e.system().label() + ": no new leader within " + QUORUM_TIMEOUT + " of killing "
                + oldLeader + "; modes " + e.modes() + "\n" + e.describeLogs());
    }

    /** Retries setData until one is acknowledged; returns ms since the kill. */
    private static double firstWriteMs(ZooKeeper zk, String path, long killedNs) throws Exception {
        long deadline = killedNs + WRITE_TIMEOUT.toNanos();
        byte[] data = {1};
        for (int attempt = 1; attempt <= ATTEMPTS_MAX && System.nanoTime() < deadline; attempt++) {
            try {
                zk.setData(path, data, -1);
                return (System.nanoTime() - killedNs) / 1e6;
            } catch (KeeperException.ConnectionLossException | KeeperException.OperationTimeoutException
                    | KeeperException.SessionMovedException retryable) {
                Thread.sleep(RETRY_PAUSE_MS);
            }
        }
        throw new IllegalStateException("no write acknowledged through " + zk + " within " + WRITE_TIMEOUT);
    }

    /** Restarts the killed server and waits until the whole ensemble serves again. */
    private static void rejoin(Ensemble e, int id) throws Exception {
        e.restart(id);
        e.awaitQuorum(QUORUM_TIMEOUT); // every running server, the restarted one included, leads or follows
    }

    private static String createIfAbsent(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        try {
            zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException alreadyThere) {
            // an earlier round made it
        }
        return path;
    }
}
