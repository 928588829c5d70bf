package io.zabkit.core;

import io.zabkit.zab.ZabConfig;
import java.util.Set;

/**
 * The settings the deterministic core needs, read from zoo.cfg by the runtime (or drawn from a seed
 * by the simulator). Times are in milliseconds, as in zoo.cfg.
 *
 * @param serverId            myid; the top byte of every session id this server creates
 * @param tickTimeMs          ZooKeeper's basic time unit
 * @param minSessionTimeoutMs lower bound of the negotiated session timeout (default 2 ticks)
 * @param maxSessionTimeoutMs upper bound of the negotiated session timeout (default 20 ticks)
 * @param maxClientCnxns      connections allowed from one client address (0 = unlimited)
 * @param maxBufferBytes      jute.maxbuffer: the largest packet and the largest znode data accepted
 * @param snapCount           transactions logged between two snapshots
 * @param forceSync           fsync the log before acknowledging a write (zoo.cfg forceSync)
 * @param fourLetterWords     four-letter words answered on the client port ("*" = all)
 * @param sessionSecret       secret mixed into session passwords; random in production, seeded in simulation
 * @param describe            text for the `conf` four-letter word (client port, dirs, ...)
 * @param zab                 the ensemble: voters, election and sync limits, broadcast variant
 */
public record CoreConfig(long serverId, int tickTimeMs, int minSessionTimeoutMs, int maxSessionTimeoutMs,
                         int maxClientCnxns, int maxBufferBytes, int snapCount, boolean forceSync,
                         Set<String> fourLetterWords, long sessionSecret, String describe, ZabConfig zab) {

    /** A standalone server. */
    public CoreConfig(long serverId, int tickTimeMs, int minSessionTimeoutMs, int maxSessionTimeoutMs,
                      int maxClientCnxns, int maxBufferBytes, int snapCount, boolean forceSync,
                      Set<String> fourLetterWords, long sessionSecret, String describe) {
        this(serverId, tickTimeMs, minSessionTimeoutMs, maxSessionTimeoutMs, maxClientCnxns, maxBufferBytes,
                snapCount, forceSync, fourLetterWords, sessionSecret, describe, ZabConfig.standalone(serverId));
    }

    public static final int DEFAULT_MAX_BUFFER = 0xfffff;

    public CoreConfig {
        if (serverId < 0 || serverId > 254) {
            throw new IllegalArgumentException("myid must be between 0 and 254, got " + serverId);
        }
        if (tickTimeMs <= 0) {
            throw new IllegalArgumentException("tickTime must be positive, got " + tickTimeMs);
        }
        if (minSessionTimeoutMs <= 0 || maxSessionTimeoutMs < minSessionTimeoutMs) {
            throw new IllegalArgumentException("need 0 < minSessionTimeout <= maxSessionTimeout, got "
                    + minSessionTimeoutMs + " and " + maxSessionTimeoutMs);
        }
        if (maxBufferBytes <= 0 || snapCount <= 1) {
            throw new IllegalArgumentException("jute.maxbuffer and snapCount must be positive");
        }
        fourLetterWords = Set.copyOf(fourLetterWords);
        if (!zab.isMember(serverId)) {
            throw new IllegalArgumentException("myid " + serverId + " is neither among the voters " + zab.voters()
                    + " nor among the observers " + zab.observers());
        }
    }

    public CoreConfig withZab(ZabConfig ensemble) {
        return new CoreConfig(serverId, tickTimeMs, minSessionTimeoutMs, maxSessionTimeoutMs, maxClientCnxns,
                maxBufferBytes, snapCount, forceSync, fourLetterWords, sessionSecret, describe, ensemble);
    }

    public boolean standalone() {
        return zab.standaloneFor(serverId);
    }

    /** ZooKeeper's defaults around a tick time: sessions between 2 and 20 ticks. */
    public static CoreConfig defaults(long serverId, int tickTimeMs, long sessionSecret) {
        return new CoreConfig(serverId, tickTimeMs, 2 * tickTimeMs, 20 * tickTimeMs, 60,
                DEFAULT_MAX_BUFFER, 100_000, true,
                Set.of("ruok", "srvr", "stat", "mntr", "conf", "cons", "wchs", "envi", "isro", "dump", "crst", "srst"),
                sessionSecret, "");
    }

    public boolean allowsFourLetterWord(String word) {
        return fourLetterWords.contains("*") || fourLetterWords.contains(word);
    }
}
