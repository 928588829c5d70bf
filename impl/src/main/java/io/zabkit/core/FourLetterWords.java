package io.zabkit.core;

import io.zabkit.txn.Txn;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The text of ZooKeeper's four-letter words, in the formats tools that parse them expect. */
final class FourLetterWords {
    private FourLetterWords() {}

    static final String VERSION = "3.9.4-zabkit-0.1.0, built on zabkit";

    static String answer(String word, ServerCore core) {
        switch (word) {
            case "ruok":
                return "imok";
            case "srvr":
                return srvr(core);
            case "stat":
                return stat(core);
            case "mntr":
                return mntr(core);
            case "conf":
                return core.config().describe().isEmpty() ? describe(core) : core.config().describe();
            case "cons":
                return cons(core);
            case "wchs":
                return wchs(core);
            case "wchc":
                return wchc(core);
            case "isro":
                return isro(core);
            case "envi":
                return "Environment:\nzookeeper.version=" + VERSION + "\n";
            case "dump":
                return dump(core);
            case "srst":
                core.stats().reset();
                return "Server stats reset.\n";
            case "crst":
                return "Connection stats reset.\n";
            default:
                return word + " is not supported by zabkit.\n";
        }
    }

    /**
     * ZooKeeper's isro, which a read-only client asks other servers to find a read-write one: "ro" in
     * read-only mode, "rw" while serving, "null" when no server runs (looking, or syncing with a leader).
     */
    private static String isro(ServerCore core) {
        if (core.isReadOnly()) {
            return "ro";
        }
        return core.zab().isServing() ? "rw" : "null";
    }

    /** ZooKeeper's names for the server's role: standalone, leader, follower, observer, read-only (or looking). */
    static String mode(ServerCore core) {
        if (core.config().standalone()) {
            return "standalone";
        }
        if (core.isReadOnly()) {
            return "read-only";
        }
        switch (core.zab().state()) {
            case LEADING:
                return "leader";
            case FOLLOWING:
                return "follower";
            case OBSERVING:
                return "observer";
            default:
                return "looking";
        }
    }

    private static String srvr(ServerCore core) {
        ServerStats s = core.stats();
        if (!core.zab().isServing() && !core.isReadOnly()) {
            return "This ZooKeeper instance is not currently serving requests\n";
        }
        return "Zookeeper version: " + VERSION + "\n"
                + String.format(Locale.ROOT, "Latency min/avg/max: %d/%.4f/%d%n", s.minLatency(), s.avgLatency(),
                        s.latencyMaxMs)
                + "Received: " + s.packetsReceived + "\n"
                + "Sent: " + s.packetsSent + "\n"
                + "Connections: " + core.connectionCount() + "\n"
                + "Outstanding: " + core.outstandingRequests() + "\n"
                + "Zxid: " + Txn.zxidString(core.lastProcessedZxid()) + "\n"
                + "Mode: " + mode(core) + "\n"
                + "Node count: " + core.tree().nodeCount() + "\n";
    }

    private static String stat(ServerCore core) {
        StringBuilder b = new StringBuilder("Zookeeper version: " + VERSION + "\nClients:\n");
        for (Connection c : core.connectionsView()) {
            b.append(' ').append(connectionLine(c, core)).append('\n');
        }
        b.append('\n');
        String srvr = srvr(core);
        return b.append(srvr.substring(srvr.indexOf('\n') + 1)).toString();
    }

    private static String connectionLine(Connection c, ServerCore core) {
        return "/" + stripSlash(c.remoteAddress) + "[1](queued=" + c.queue.size() + ",recved=" + c.packetsReceived
                + ",sent=" + c.packetsSent + ",sid=0x" + Long.toHexString(c.sessionId) + ",lop=" + c.lastOp
                + ",est=" + c.establishedMs + ",to=" + c.timeoutMs + ",lzxid=0x" + Long.toHexString(c.lastZxid)
                + ",llat=" + c.lastLatencyMs + ")";
    }

    private static String stripSlash(String s) {
        return s != null && s.startsWith("/") ? s.substring(1) : String.valueOf(s);
    }

    private static String cons(ServerCore core) {
        StringBuilder b = new StringBuilder();
        for (Connection c : core.connectionsView()) {
            b.append(' ').append(connectionLine(c, core)).append('\n');
        }
        return b.append('\n').toString();
    }

    /**
     * ZooKeeper 3.9's mntr keys where zabkit has the same quantity (a contract test holds every zk_ key
     * to ZooKeeper's list); zabkit's own figures carry the zabkit_ prefix instead of posing as ZooKeeper's.
     */
    private static String mntr(ServerCore core) {
        ServerStats s = core.stats();
        StringBuilder b = new StringBuilder();
        line(b, "zk_version", VERSION);
        line(b, "zk_server_state", mode(core));
        if (!core.config().standalone()) {
            line(b, "zk_peer_state", peerState(core));
        }
        line(b, "zk_uptime", core.uptimeMs());
        line(b, "zk_avg_latency", String.format(Locale.ROOT, "%.4f", s.avgLatency()));
        line(b, "zk_max_latency", s.latencyMaxMs);
        line(b, "zk_min_latency", s.minLatency());
        line(b, "zk_packets_received", s.packetsReceived);
        line(b, "zk_packets_sent", s.packetsSent);
        line(b, "zk_num_alive_connections", core.connectionCount());
        line(b, "zk_outstanding_requests", core.outstandingRequests());
        line(b, "zk_znode_count", core.tree().nodeCount());
        line(b, "zk_watch_count", core.tree().watches().dataCount() + core.tree().watches().childCount());
        line(b, "zk_ephemerals_count", ephemeralCount(core));
        line(b, "zk_approximate_data_size", core.tree().approximateDataSize());
        line(b, "zk_global_sessions", core.sessions().size());
        line(b, "zk_local_sessions", 0); // zabkit has no local sessions: every session is global
        line(b, "zk_connection_request_count", s.connectRequests);
        line(b, "zk_connection_rejected", s.connectionsRejected);
        line(b, "zk_cnxn_closed_without_zk_server_running", s.connectsWhileNotServing);
        line(b, "zk_auth_failed_count", s.authFailures);
        line(b, "zk_bytes_received_count", s.bytesReceived);
        line(b, "zk_snap_count", s.snapshotsTaken);
        if (core.zab().isServingLeader() && !core.config().standalone()) {
            // as ZooKeeper 3.9, only the leader reports its learners (zk_followers was 3.4's name); without
            // reconfiguration no follower is non-voting
            line(b, "zk_learners", core.zab().followerCount());
            line(b, "zk_synced_followers", core.zab().syncedFollowerCount());
            line(b, "zk_synced_non_voting_followers", 0);
            line(b, "zk_synced_observers", core.zab().syncedObserverCount());
        }
        line(b, "zabkit_last_proposed_zxid", Txn.zxidString(core.lastProposedZxid()));
        line(b, "zabkit_last_processed_zxid", Txn.zxidString(core.lastProcessedZxid()));
        line(b, "zabkit_txns_applied", s.txnsApplied);
        line(b, "zabkit_sessions_expired", s.sessionsExpired);
        line(b, "zabkit_watch_notifications_sent", s.notificationsSent);
        line(b, "zabkit_connections_closed_for_bad_input", s.connectionsClosedForBadInput);
        line(b, "zabkit_write_latency_count", s.writeLatencyCount);
        line(b, "zabkit_write_latency_sum_ms", s.writeLatencyTotalMs);
        return b.toString();
    }

    /** ZooKeeper's detailed peer state: "leading - broadcast", "following - synchronization", "looking". */
    static String peerState(ServerCore core) {
        String state = core.zab().state().toString().toLowerCase(Locale.ROOT);
        if (core.zab().zabState() == io.zabkit.zab.Zab.ZabState.ELECTION) {
            return state;
        }
        return state + " - " + core.zab().zabState().toString().toLowerCase(Locale.ROOT);
    }

    private static long ephemeralCount(ServerCore core) {
        long n = 0;
        for (long session : core.tree().sessionsWithEphemerals()) {
            n += core.tree().ephemeralsOf(session).size();
        }
        return n;
    }

    private static void line(StringBuilder b, String key, Object value) {
        b.append(key).append('\t').append(value).append('\n');
    }

    private static String describe(ServerCore core) {
        CoreConfig c = core.config();
        return "serverId=" + c.serverId() + "\ntickTime=" + c.tickTimeMs() + "\nminSessionTimeout="
                + c.minSessionTimeoutMs() + "\nmaxSessionTimeout=" + c.maxSessionTimeoutMs()
                + "\nmaxClientCnxns=" + c.maxClientCnxns() + "\n";
    }

    private static String wchs(ServerCore core) {
        Map<Long, Set<String>> byWatcher = core.tree().watches().byWatcher();
        int total = core.tree().watches().dataCount() + core.tree().watches().childCount();
        return byWatcher.size() + " connections watching " + core.tree().watches().pathCount() + " paths\n"
                + "Total watches:" + total + "\n";
    }

    private static String wchc(ServerCore core) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Long, Set<String>> e : core.tree().watches().byWatcher().entrySet()) {
            b.append("0x").append(Long.toHexString(sessionOf(core, e.getKey()))).append('\n');
            for (String path : e.getValue()) {
                b.append('\t').append(path).append('\n');
            }
        }
        return b.toString();
    }

    private static long sessionOf(ServerCore core, long connId) {
        for (Connection c : core.connectionsView()) {
            if (c.id == connId) {
                return c.sessionId;
            }
        }
        return 0;
    }

    private static String dump(ServerCore core) {
        StringBuilder b = new StringBuilder("SessionTracker dump:\nGlobal Sessions(" + core.sessions().size() + "):\n");
        for (Map.Entry<Long, Integer> e : core.sessions().timeouts().entrySet()) {
            b.append("0x").append(Long.toHexString(e.getKey())).append('\t').append(e.getValue()).append("ms\n");
        }
        b.append("ephemeral nodes dump:\nSessions with Ephemerals (").append(core.tree().sessionsWithEphemerals().size())
                .append("):\n");
        for (long session : core.tree().sessionsWithEphemerals()) {
            b.append("0x").append(Long.toHexString(session)).append(":\n");
            for (String path : core.tree().ephemeralsOf(session)) {
                b.append('\t').append(path).append('\n');
            }
        }
        return b.toString();
    }
}
