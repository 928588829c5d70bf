package io.zabkit.config;

import java.net.InetSocketAddress;

/**
 * One {@code server.N=host:quorumPort:electionPort[:participant|observer][;[clientAddr:]clientPort]} line.
 *
 * @param clientAddress where the server takes clients, or null when the line does not say
 */
public record ServerAddress(long id, String host, int quorumPort, int electionPort, boolean observer,
                            InetSocketAddress clientAddress) {}
