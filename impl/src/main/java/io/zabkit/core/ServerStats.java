package io.zabkit.core;

/** Counters the four-letter words report (srvr, stat, mntr). Reset by srst. */
final class ServerStats {
    long packetsReceived;
    long packetsSent;
    long notificationsSent;
    long txnsApplied;
    long sessionsCreated;
    long sessionsExpired;
    /** Connections refused for maxClientCnxns (ZooKeeper's zk_connection_rejected). */
    long connectionsRejected;
    /** Connect requests while not serving (ZooKeeper's zk_cnxn_closed_without_zk_server_running). */
    long connectsWhileNotServing;
    /** Connect requests of any outcome (zk_connection_request_count). */
    long connectRequests;
    /** Connections closed for a protocol violation: malformed framing or records (zabkit's own). */
    long connectionsClosedForBadInput;
    long authFailures;
    long snapshotsTaken;
    /** keepConnections: requests held without a leader, connections resumed and closed, writes issued again, watches a SNAP fired. */
    long requestsHeld;
    long keptConnectionsResumed;
    long keptConnectionsClosed;
    long keptWritesReissued;
    long keptWatchesFiredAtSnap;
    long bytesReceived;
    long lastSnapshotZxid;
    long latencyMinMs = Long.MAX_VALUE;
    long latencyMaxMs;
    long latencyTotalMs;
    long latencyCount;
    /**
     * Writes only (every request answered once its transaction is applied, a session's creation and close
     * included), from receipt to the reply this server sends once it has applied (abdelivered) the write:
     * seed 003's abdelivery latency as a server sees it, mntr's zabkit_write_latency_*. Plain counters:
     * nothing is allocated on the reply path.
     */
    long writeLatencyCount;
    long writeLatencyTotalMs;

    void recordLatency(long ms) {
        latencyMinMs = Math.min(latencyMinMs, ms);
        latencyMaxMs = Math.max(latencyMaxMs, ms);
        latencyTotalMs += ms;
        latencyCount++;
    }

    void recordWriteLatency(long ms) {
        assert ms >= 0 : "a write answered before it arrived: " + ms + " ms";
        writeLatencyTotalMs += ms;
        writeLatencyCount++;
    }

    long minLatency() {
        return latencyCount == 0 ? 0 : latencyMinMs;
    }

    double avgLatency() {
        return latencyCount == 0 ? 0 : (double) latencyTotalMs / latencyCount;
    }

    void reset() {
        packetsReceived = 0;
        packetsSent = 0;
        latencyMinMs = Long.MAX_VALUE;
        latencyMaxMs = 0;
        latencyTotalMs = 0;
        latencyCount = 0;
        writeLatencyCount = 0;
        writeLatencyTotalMs = 0;
    }
}
