package io.zabkit.bench.avail;

import io.zabkit.bench.Ensemble;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/** The topic znodes /avail/tNNNNN every subscriber watches, created once per ensemble. */
final class Topics {
    static final String ROOT = "/avail";

    private Topics() {}

    static List<String> paths(int count) {
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(String.format("%s/t%05d", ROOT, i));
        }
        return out;
    }

    /** Creates the root and every topic through one official-client session (async, bounded wait). */
    static List<String> create(Ensemble e, int count) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(e.connectString(), e.config().sessionTimeoutMs(), ev -> {
            if (ev.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        try {
            if (!connected.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no session to create the topics");
            }
            try {
                zk.create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException fine) {
                // a second sweep on the same ensemble
            }
            List<String> paths = paths(count);
            CountDownLatch done = new CountDownLatch(count);
            AtomicInteger failed = new AtomicInteger();
            for (String p : paths) {
                zk.create(p, Writer.value(0, -1), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, (rc, path, ctx,
                        name) -> {
                    if (rc != 0 && rc != KeeperException.Code.NODEEXISTS.intValue()) {
                        failed.incrementAndGet();
                    }
                    done.countDown();
                }, null);
            }
            if (!done.await(120, TimeUnit.SECONDS) || failed.get() > 0) {
                throw new IllegalStateException("creating " + count + " topics: " + failed.get() + " failed, "
                        + done.getCount() + " unanswered");
            }
            return paths;
        } finally {
            zk.close(1000);
        }
    }
}
