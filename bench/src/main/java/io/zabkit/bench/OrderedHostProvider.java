package io.zabkit.bench;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import org.apache.zookeeper.client.HostProvider;

/**
 * Tries the servers in the given order, so a client starts on a chosen server (the leader, to measure
 * what its clients see when it crashes) and fails over to the others. ZooKeeper's StaticHostProvider
 * shuffles instead. Like it, sleeps spinDelay once every server has been tried.
 */
public final class OrderedHostProvider implements HostProvider {
    private final List<InetSocketAddress> servers;
    private int next;
    private int triedSinceConnected;

    public OrderedHostProvider(List<InetSocketAddress> servers) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("no servers to connect to");
        }
        this.servers = List.copyOf(servers);
    }

    @Override
    public synchronized int size() {
        return servers.size();
    }

    @Override
    public synchronized InetSocketAddress next(long spinDelayMs) {
        if (triedSinceConnected >= servers.size() && spinDelayMs > 0) {
            try {
                wait(spinDelayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            triedSinceConnected = 0;
        }
        InetSocketAddress a = servers.get(next);
        next = (next + 1) % servers.size();
        triedSinceConnected++;
        return a;
    }

    @Override
    public synchronized void onConnected() {
        triedSinceConnected = 0;
    }

    @Override
    public boolean updateServerList(Collection<InetSocketAddress> serverAddresses, InetSocketAddress currentHost) {
        return false; // the benchmark's ensembles are static
    }
}
