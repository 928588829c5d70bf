package io.zabkit.config;

import io.zabkit.core.ClientAuth;
import io.zabkit.core.CoreConfig;
import io.zabkit.zab.Bug;
import io.zabkit.zab.QuorumSystem;
import io.zabkit.zab.Variant;
import io.zabkit.zab.ZabConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a standard zoo.cfg plus dataDir/myid into a {@link ServerConfig}. Defaults follow ZooKeeper.
 * Settings of ZooKeeper that zabkit does not implement are ignored with a warning, so an existing
 * zoo.cfg works unchanged, except those that bear on security ({@link SecurityKeys}), which stop the
 * server; so does a malformed value of a setting zabkit uses.
 */
public final class ConfigReader {
    static final int DEFAULT_TICK_TIME_MS = 3000;
    static final int DEFAULT_ELECTION_FINALIZE_WAIT_MS = 200;
    static final int MIN_SNAP_RETAIN_COUNT = 3;
    /** zabkit only: the broadcast variant (Zab, ZabAc, ZabAa, ZabCt, ZabCT). */
    static final String BROADCAST = "zabkit.broadcast";
    /** zabkit only: ZabCt/ZabCT, the probability that a follower ACKs a proposal at once. */
    static final String COIN_TOSS_PROBABILITY = "zabkit.coinTossProbability";
    static final double DEFAULT_COIN_TOSS_PROBABILITY = 0.5;
    /** zabkit only, ensembles: the secret session passwords derive from (a long, decimal or 0x hex). */
    static final String SESSION_SECRET = "zabkit.sessionSecret";
    /** Test only: bug-zoo switches to plant (comma-separated {@link Bug} names); refused without the allow key. */
    static final String BUGZOO = "zabkit.bugzoo";
    /** Test only: must be {@code true} for {@link #BUGZOO} to be taken, so that no user plants a bug by accident. */
    static final String BUGZOO_ALLOW = "zabkit.bugzoo.allow";
    /** ZooKeeper's peerType: "observer" or "participant"; the server's own line, when it has one, wins. */
    static final String PEER_TYPE = "peerType";
    /** ZooKeeper's names (zoo.cfg keys; zookeeper.-prefixed system properties in ZooKeeper) and defaults. */
    static final String GLOBAL_OUTSTANDING_LIMIT = "globalOutstandingLimit";
    static final int DEFAULT_GLOBAL_OUTSTANDING_LIMIT = 1000;
    static final String HANDSHAKE_TIMEOUT = "nio.sessionlessCnxnTimeout";
    static final int DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
    /**
     * zabkit only (issue 20 item 7): keep client connections across the loss of the leader, holding requests
     * until synchronized (impl/README.md). Off by default, as ZooKeeper has no such behaviour; every server of
     * an ensemble must say the same.
     */
    static final String KEEP_CONNECTIONS = "keepConnections";

    private static final Set<String> USED = Set.of("dataDir", "dataLogDir", "clientPort", "clientPortAddress",
            "tickTime", "initLimit", "syncLimit", "minSessionTimeout", "maxSessionTimeout", "maxClientCnxns",
            "forceSync", "snapCount", "jute.maxbuffer", "4lw.commands.whitelist", "autopurge.snapRetainCount",
            "autopurge.purgeInterval", "electionFinalizeWait", BROADCAST, COIN_TOSS_PROBABILITY, SESSION_SECRET,
            GLOBAL_OUTSTANDING_LIMIT, HANDSHAKE_TIMEOUT, BUGZOO, BUGZOO_ALLOW, PEER_TYPE, KEEP_CONNECTIONS);
    private static final Set<String> ZOOKEEPER_UNUSED = Set.of("preAllocSize",
            "snapSizeLimitInKb", "txnLogSizeLimitInKb", "standaloneEnabled", "reconfigEnabled", "dynamicConfigFile",
            "leaderServes", "cnxTimeout", "quorumListenOnAllIPs", "secureClientPort", "secureClientPortAddress",
            "localSessionsEnabled", "localSessionsUpgradingEnabled", "clientPortListenBacklog", "maxCnxns",
            "syncEnabled", "observerMasterPort", "electionAlg", "electionPortBindRetry", "skipACL", "serverCnxnFactory",
            "snapshot.trust.empty", "snapshot.compression.method", "audit.enable", "connectToLearnerMasterLimit",
            "multiAddress.enabled", "sslQuorum", "portUnification", "fsync.warningthresholdms",
            "minClientCnxnsPerHost", "zookeeper.4lw.commands.whitelist");
    private static final List<String> ZOOKEEPER_UNUSED_PREFIXES = List.of("admin.", "metricsProvider.", "ssl.",
            "authProvider.", "zookeeper.", "quorum.", "sslQuorum", "group.", "weight.", "kerberos.", "jvm.");
    private static final Set<String> FOUR_LETTER_WORDS = Set.of("conf", "cons", "crst", "dump", "envi", "ruok",
            "srst", "srvr", "stat", "wchs", "wchc", "wchp", "mntr", "isro", "hash", "gtmk", "stmk", "dirs");

    private ConfigReader() {}

    /**
     * Reads the file and myid. {@code sessionSecret} is a standalone server's (from its dataDir); an
     * ensemble's servers must share one, so with server.N lines it is zabkit.sessionSecret or, without
     * that key, derived from the server lines (see {@link #ensembleSessionSecret}).
     */
    public static ServerConfig read(Path file, long sessionSecret) throws ConfigException {
        return fromCfg(CfgFile.read(file), sessionSecret);
    }

    static ServerConfig fromCfg(CfgFile cfg, long sessionSecret) throws ConfigException {
        SecurityKeys.refuseUnimplemented(cfg);
        List<String> warnings = new ArrayList<>();
        Map<Long, ServerAddress> servers = new TreeMap<>();
        for (CfgFile.Entry e : cfg.all()) {
            if (e.key().startsWith(ServerLines.PREFIX)) {
                ServerAddress s = ServerLines.parse(e);
                servers.put(s.id(), s);
            } else if (!USED.contains(e.key()) && !MetricsConfig.KEYS.contains(e.key())
                    && !ClientAuthKeys.KEYS.contains(e.key()) && !e.key().startsWith("authProvider.")
                    && !TlsConfig.KEYS.contains(e.key())) {
                warnings.add(e.where() + ": ignoring " + e.key() + " (" + (isZooKeeperSetting(e.key())
                        ? "a ZooKeeper setting zabkit does not implement" : "not a setting zabkit knows; a typo?") + ")");
            }
        }
        if (!servers.isEmpty() && servers.values().stream().allMatch(ServerAddress::observer)) {
            throw new ConfigException(cfg.source() + ": observers without participants: every server line is"
                    + " ':observer', and an ensemble needs at least one voting server");
        }
        Path dataDir = path(required(cfg, "dataDir"));
        Path dataLogDir = cfg.get("dataLogDir") == null ? dataDir : path(cfg.get("dataLogDir"));
        long myid = serverId(cfg, dataDir, servers);
        peerType(cfg, myid, servers, warnings);
        int tickTimeMs = intOr(cfg, "tickTime", 1, 3_600_000, DEFAULT_TICK_TIME_MS);
        int initLimit = intOr(cfg, "initLimit", 1, 1_000_000, 0);
        int syncLimit = intOr(cfg, "syncLimit", 1, 1_000_000, 0);
        if (servers.size() > 1 && (initLimit == 0 || syncLimit == 0)) {
            throw new ConfigException(cfg.source() + ": initLimit and syncLimit are required with "
                    + servers.size() + " server lines");
        }
        int snapRetainCount = intOr(cfg, "autopurge.snapRetainCount", 1, 1_000_000, MIN_SNAP_RETAIN_COUNT);
        if (snapRetainCount < MIN_SNAP_RETAIN_COUNT) {
            warnings.add(cfg.get("autopurge.snapRetainCount").where() + ": autopurge.snapRetainCount raised to "
                    + MIN_SNAP_RETAIN_COUNT + ", the minimum (as in ZooKeeper)");
            snapRetainCount = MIN_SNAP_RETAIN_COUNT;
        }
        int purgeIntervalHours = intOr(cfg, "autopurge.purgeInterval", 0, 1_000_000, 0);
        int finalizeWaitMs = intOr(cfg, "electionFinalizeWait", 0, 3_600_000, DEFAULT_ELECTION_FINALIZE_WAIT_MS);
        int outstandingLimit = intOr(cfg, GLOBAL_OUTSTANDING_LIMIT, 1, Integer.MAX_VALUE,
                DEFAULT_GLOBAL_OUTSTANDING_LIMIT);
        int handshakeTimeoutMs = intOr(cfg, HANDSHAKE_TIMEOUT, 1, Integer.MAX_VALUE, DEFAULT_HANDSHAKE_TIMEOUT_MS);
        InetSocketAddress client = clientAddress(cfg, servers.get(myid));
        boolean ensemble = servers.size() > 1;
        long secret = ensemble ? ensembleSessionSecret(cfg, servers) : sessionSecret;
        if (!ensemble) {
            for (String key : List.of(BROADCAST, COIN_TOSS_PROBABILITY, SESSION_SECRET)) {
                if (cfg.get(key) != null) {
                    warnings.add(cfg.get(key).where() + ": " + key + " has no effect on a standalone server");
                }
            }
        }
        CoreConfig core = coreConfig(cfg, myid, tickTimeMs, secret, client, dataDir, dataLogDir);
        if (ensemble) {
            core = core.withZab(zabConfig(cfg, myid, servers, initLimit, syncLimit, finalizeWaitMs));
        }
        Set<Bug> bugs = bugZoo(cfg);
        if (!bugs.isEmpty()) {
            warnings.add(cfg.get(BUGZOO).where() + ": TEST ONLY: bug-zoo switches " + bugs + " are planted in this server");
            core = core.withZab(core.zab().withBugs(bugs));
        }
        MetricsConfig metrics = MetricsConfig.read(cfg, warnings);
        ClientAuth clientAuth = ClientAuthKeys.read(cfg);
        TlsConfig tls = TlsConfig.read(cfg, client);
        boolean keepConnections = cfg.get(KEEP_CONNECTIONS) != null && Values.yesNo(cfg.get(KEEP_CONNECTIONS));
        return new ServerConfig(core, dataDir, dataLogDir, client, initLimit, syncLimit, snapRetainCount,
                purgeIntervalHours, finalizeWaitMs, outstandingLimit, handshakeTimeoutMs, metrics, tls, clientAuth, servers,
                warnings, keepConnections);
    }

    private static CoreConfig coreConfig(CfgFile cfg, long myid, int tickTimeMs, long sessionSecret,
                                         InetSocketAddress client, Path dataDir, Path dataLogDir)
            throws ConfigException {
        int minSessionTimeoutMs = sessionTimeout(cfg, "minSessionTimeout", 2 * tickTimeMs);
        int maxSessionTimeoutMs = sessionTimeout(cfg, "maxSessionTimeout", 20 * tickTimeMs);
        if (minSessionTimeoutMs > maxSessionTimeoutMs) {
            CfgFile.Entry e = cfg.get("minSessionTimeout") != null ? cfg.get("minSessionTimeout")
                    : cfg.get("maxSessionTimeout");
            throw ConfigException.at(e, "minSessionTimeout " + minSessionTimeoutMs
                    + " ms is above maxSessionTimeout " + maxSessionTimeoutMs + " ms");
        }
        int maxClientCnxns = intOr(cfg, "maxClientCnxns", 0, Integer.MAX_VALUE, 60);
        int maxBuffer = intOr(cfg, "jute.maxbuffer", 1, Integer.MAX_VALUE / 4, CoreConfig.DEFAULT_MAX_BUFFER);
        int snapCount = intOr(cfg, "snapCount", 2, Integer.MAX_VALUE, 100_000);
        boolean forceSync = cfg.get("forceSync") == null || Values.yesNo(cfg.get("forceSync"));
        Set<String> words = fourLetterWords(cfg.get("4lw.commands.whitelist"));
        String clientLines = client == null ? "clientPort=0\nsecureClientPort=" + cfg.get("secureClientPort").value()
                : "clientPort=" + client.getPort() + "\nclientPortAddress=" + client.getAddress().getHostAddress();
        String describe = clientLines
                + "\ndataDir=" + dataDir + "\ndataLogDir=" + dataLogDir + "\ntickTime=" + tickTimeMs
                + "\nmaxClientCnxns=" + maxClientCnxns + "\nminSessionTimeout=" + minSessionTimeoutMs
                + "\nmaxSessionTimeout=" + maxSessionTimeoutMs + "\nserverId=" + myid + "\n";
        return new CoreConfig(myid, tickTimeMs, minSessionTimeoutMs, maxSessionTimeoutMs, maxClientCnxns, maxBuffer,
                snapCount, forceSync, words, sessionSecret, describe);
    }

    /**
     * The bug-zoo switches (test only): a config naming any is refused unless it also says
     * zabkit.bugzoo.allow=true, so a production config cannot plant a bug by accident.
     */
    private static Set<Bug> bugZoo(CfgFile cfg) throws ConfigException {
        CfgFile.Entry b = cfg.get(BUGZOO);
        CfgFile.Entry allow = cfg.get(BUGZOO_ALLOW);
        if (b == null || b.value().isBlank()) {
            return Set.of();
        }
        if (allow == null || !allow.value().trim().equals("true")) {
            throw ConfigException.at(b, "plants known bugs in the server for testing the verification layers;"
                    + " refusing to start: remove it, or (in a test only) add " + BUGZOO_ALLOW + "=true");
        }
        try {
            return Bug.parseList(b.value());
        } catch (IllegalArgumentException e) {
            throw ConfigException.at(b, e.getMessage());
        }
    }

    /**
     * peerType as ZooKeeper's QuorumPeerConfig reads it: "observer" or "participant" (anything else is an
     * error); where it disagrees with this server's own server.N line, the line wins, with a warning.
     */
    private static void peerType(CfgFile cfg, long myid, Map<Long, ServerAddress> servers, List<String> warnings)
            throws ConfigException {
        CfgFile.Entry e = cfg.get(PEER_TYPE);
        if (e == null) {
            return;
        }
        String type = e.value().strip().toLowerCase(java.util.Locale.ROOT);
        if (!type.equals("observer") && !type.equals("participant")) {
            throw ConfigException.at(e, "unrecognised peerType '" + e.value() + "' (observer or participant)");
        }
        ServerAddress mine = servers.get(myid);
        String byLine = mine != null && mine.observer() ? "observer" : "participant";
        if (mine != null && !byLine.equals(type)) {
            warnings.add(e.where() + ": peerType " + type + " does not match this server's line (" + byLine
                    + "); the server line wins, as in ZooKeeper");
        } else if (mine == null && type.equals("observer")) {
            warnings.add(e.where() + ": peerType observer has no effect on a standalone server");
        }
    }

    /**
     * The ensemble settings: the participants vote, the observers (":observer" lines) only learn; the
     * variant and its coin from the zabkit keys.
     */
    private static ZabConfig zabConfig(CfgFile cfg, long myid, Map<Long, ServerAddress> servers, int initLimit,
                                       int syncLimit, int finalizeWaitMs) throws ConfigException {
        List<Long> voters = new ArrayList<>();
        List<Long> observers = new ArrayList<>();
        for (ServerAddress s : servers.values()) {
            (s.observer() ? observers : voters).add(s.id());
        }
        if (!observers.isEmpty() && voters.size() < 2) {
            throw new ConfigException(cfg.source() + ": observers " + observers + " need at least 2 participants"
                    + " (server lines without ':observer'); zabkit runs one participant as a standalone server");
        }
        Variant variant = Variant.Zab;
        CfgFile.Entry v = cfg.get(BROADCAST);
        if (v != null) {
            try {
                variant = Variant.parse(v.value());
            } catch (IllegalArgumentException e) {
                throw ConfigException.at(v, e.getMessage());
            }
            if (variant == Variant.ZabAc && voters.size() != 3) {
                throw ConfigException.at(v, "ZabAc (ack-and-commit) is defined for exactly 3 voting servers;"
                        + " this ensemble has " + voters.size() + " (use Zab, ZabAa, ZabCt or ZabCT)");
            }
            if (variant != Variant.Zab && !observers.isEmpty()) {
                throw ConfigException.at(v, "observers " + observers + " run with the classic Zab broadcast only;"
                        + " the fast variants count followers' acks, which an observer never sends");
            }
        }
        double p = DEFAULT_COIN_TOSS_PROBABILITY;
        CfgFile.Entry c = cfg.get(COIN_TOSS_PROBABILITY);
        if (c != null) {
            try {
                p = Double.parseDouble(c.value());
            } catch (NumberFormatException e) {
                throw ConfigException.at(c, "not a number");
            }
            if (!(p > 0 && p <= 1)) {
                throw ConfigException.at(c, "must be above 0 and at most 1");
            }
        }
        // The core draws no randomness of its own; myid seeds the coin so that servers toss differently.
        return new ZabConfig(new QuorumSystem(voters, observers), initLimit, syncLimit, finalizeWaitMs, variant, p, myid,
                ZabConfig.COMMITTED_LOG_COUNT, Set.of());
    }

    /**
     * Session passwords are checked by whichever server a client reconnects to, so every server of an
     * ensemble needs the same secret. zabkit.sessionSecret sets it; without it, it is the first 8 bytes
     * of SHA-256 over the sorted server lines (id, host, quorum and election port): the same on every
     * server of the ensemble, and not secret from anyone who can read zoo.cfg. ZooKeeper itself derives
     * session passwords from a fixed constant in its source (ZooKeeperServer's superSecret), so this is
     * no weaker than ZooKeeper; set zabkit.sessionSecret where that matters.
     */
    static long ensembleSessionSecret(CfgFile cfg, Map<Long, ServerAddress> servers) throws ConfigException {
        CfgFile.Entry e = cfg.get(SESSION_SECRET);
        if (e != null) {
            try {
                return Long.decode(e.value());
            } catch (NumberFormatException x) {
                throw ConfigException.at(e, "not a 64-bit integer (decimal, or hex with 0x)");
            }
        }
        StringBuilder lines = new StringBuilder("zabkit session secret v1\n");
        for (ServerAddress s : new TreeMap<>(servers).values()) {
            lines.append("server.").append(s.id()).append('=').append(s.host()).append(':').append(s.quorumPort())
                    .append(':').append(s.electionPort()).append('\n');
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(lines.toString().getBytes(StandardCharsets.UTF_8));
            return java.nio.ByteBuffer.wrap(hash).getLong();
        } catch (NoSuchAlgorithmException x) {
            throw new IllegalStateException("every Java runtime has SHA-256", x);
        }
    }

    /** myid is required with server lines and must name one; a standalone server defaults to 0. */
    private static long serverId(CfgFile cfg, Path dataDir, Map<Long, ServerAddress> servers) throws ConfigException {
        long myid = MyId.read(dataDir);
        if (servers.isEmpty()) {
            return Math.max(myid, 0);
        }
        if (myid < 0) {
            throw new ConfigException(dataDir.resolve("myid") + " is missing; with server.N lines each server"
                    + " needs its id there (one of " + servers.keySet() + ")");
        }
        if (!servers.containsKey(myid)) {
            throw new ConfigException(dataDir.resolve("myid") + " says " + myid + " but the config only has server."
                    + servers.keySet() + " lines");
        }
        return myid;
    }

    /**
     * clientPort (+ clientPortAddress, default every interface) or this server's line; both must agree. Null
     * for a server that takes TLS clients only: secureClientPort and no clientPort, as ZooKeeper allows.
     */
    private static InetSocketAddress clientAddress(CfgFile cfg, ServerAddress me) throws ConfigException {
        CfgFile.Entry port = cfg.get("clientPort");
        CfgFile.Entry address = cfg.get("clientPortAddress");
        InetSocketAddress fromLine = me == null ? null : me.clientAddress();
        if (port == null) {
            if (fromLine != null) {
                return fromLine;
            }
            if (address != null) {
                throw ConfigException.at(address, "is set but clientPort is not (as ZooKeeper, which refuses it too)");
            }
            if (cfg.get("secureClientPort") == null) {
                throw new ConfigException(cfg.source() + ": clientPort or secureClientPort is required (or ;clientPort"
                        + " on this server's server.N line)");
            }
            return null;
        }
        int p = Values.port(port, port.value());
        InetSocketAddress fromKeys = address == null ? new InetSocketAddress(p)
                : new InetSocketAddress(Values.host(address, address.value()), p);
        if (fromLine != null && fromLine.getPort() != p) {
            throw ConfigException.at(port, "disagrees with the client port " + fromLine.getPort() + " on server."
                    + me.id());
        }
        return fromKeys;
    }

    private static int sessionTimeout(CfgFile cfg, String key, int defaultMs) throws ConfigException {
        CfgFile.Entry e = cfg.get(key);
        if (e == null || e.value().equals("-1")) {
            return defaultMs; // -1 means the default in ZooKeeper too
        }
        return Values.integer(e, 1, Integer.MAX_VALUE);
    }

    private static Set<String> fourLetterWords(CfgFile.Entry e) throws ConfigException {
        if (e == null) {
            return Set.of("srvr"); // ZooKeeper's default: only what zkServer.sh status needs
        }
        Set<String> words = new LinkedHashSet<>();
        for (String w : e.value().split(",")) {
            String word = w.strip();
            if (word.equals("*") || FOUR_LETTER_WORDS.contains(word)) {
                words.add(word);
            } else if (!word.isEmpty()) {
                throw ConfigException.at(e, "'" + word + "' is not a four-letter word (known: "
                        + new java.util.TreeSet<>(FOUR_LETTER_WORDS) + " or *)");
            }
        }
        return words;
    }

    private static boolean isZooKeeperSetting(String key) {
        return ZOOKEEPER_UNUSED.contains(key) || ZOOKEEPER_UNUSED_PREFIXES.stream().anyMatch(key::startsWith);
    }

    private static int intOr(CfgFile cfg, String key, long min, long max, int fallback) throws ConfigException {
        CfgFile.Entry e = cfg.get(key);
        return e == null ? fallback : Values.integer(e, min, max);
    }

    private static CfgFile.Entry required(CfgFile cfg, String key) throws ConfigException {
        CfgFile.Entry e = cfg.get(key);
        if (e == null || e.value().isEmpty()) {
            throw new ConfigException(cfg.source() + ": " + key + " is required");
        }
        return e;
    }

    /** Relative directories resolve against the working directory, as in ZooKeeper. */
    private static Path path(CfgFile.Entry e) throws ConfigException {
        if (e.value().isEmpty()) {
            throw ConfigException.at(e, "empty directory");
        }
        try {
            return Path.of(e.value()).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException x) {
            throw ConfigException.at(e, "not a path: " + x.getMessage());
        }
    }
}
