package io.zabkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.zab.Variant;
import io.zabkit.zab.ZabConfig;
import java.util.List;

import io.zabkit.core.CoreConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigReaderTest {
    @TempDir
    Path dir;

    private Path dataDir() {
        return dir.resolve("data");
    }

    private ServerConfig read(String... lines) throws ConfigException, IOException {
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, String.join("\n", lines) + "\n");
        return ConfigReader.read(cfg, 1234L);
    }

    private String error(String... lines) throws IOException {
        return assertThrows(ConfigException.class, () -> read(lines)).getMessage();
    }

    private String dataDirLine() {
        return "dataDir=" + dataDir();
    }

    @Test
    void minimalStandaloneGetsZooKeeperDefaults() throws Exception {
        ServerConfig c = read(dataDirLine(), "clientPort=2181");
        CoreConfig core = c.core();
        assertEquals(0, core.serverId(), "standalone without myid is server 0, as in ZooKeeper");
        assertEquals(3000, core.tickTimeMs());
        assertEquals(6000, core.minSessionTimeoutMs());
        assertEquals(60000, core.maxSessionTimeoutMs());
        assertEquals(60, core.maxClientCnxns());
        assertEquals(CoreConfig.DEFAULT_MAX_BUFFER, core.maxBufferBytes());
        assertEquals(100_000, core.snapCount());
        assertTrue(core.forceSync());
        assertEquals(Set.of("srvr"), core.fourLetterWords());
        assertEquals(1234L, core.sessionSecret());
        assertEquals(dataDir(), c.dataDir());
        assertEquals(dataDir(), c.dataLogDir());
        assertEquals(new InetSocketAddress(2181), c.clientAddress());
        assertEquals(3, c.snapRetainCount());
        assertEquals(200, c.electionFinalizeWaitMs());
        assertTrue(c.standalone());
        assertTrue(c.warnings().isEmpty(), c.warnings().toString());
        assertTrue(core.describe().contains("clientPort=2181"), core.describe());
    }

    @Test
    void fullStandaloneConfig() throws Exception {
        ServerConfig c = read("# a comment", "", dataDirLine(), "dataLogDir=" + dir.resolve("log"),
                "clientPort=2281", "clientPortAddress=127.0.0.1", "tickTime=500", "initLimit=10", "syncLimit=5",
                "minSessionTimeout=1500", "maxSessionTimeout=9000", "maxClientCnxns=0", "forceSync=no",
                "snapCount=1000", "jute.maxbuffer=0x200000", "4lw.commands.whitelist=ruok, srvr,mntr",
                "autopurge.snapRetainCount=5", "autopurge.purgeInterval=1", "electionFinalizeWait=50");
        CoreConfig core = c.core();
        assertEquals(500, core.tickTimeMs());
        assertEquals(1500, core.minSessionTimeoutMs());
        assertEquals(9000, core.maxSessionTimeoutMs());
        assertEquals(0, core.maxClientCnxns());
        assertFalse(core.forceSync());
        assertEquals(1000, core.snapCount());
        assertEquals(0x200000, core.maxBufferBytes());
        assertEquals(Set.of("ruok", "srvr", "mntr"), core.fourLetterWords());
        assertEquals(dir.resolve("log"), c.dataLogDir());
        assertEquals(new InetSocketAddress("127.0.0.1", 2281), c.clientAddress());
        assertEquals(10, c.initLimitTicks());
        assertEquals(5, c.syncLimitTicks());
        assertEquals(5, c.snapRetainCount());
        assertEquals(1, c.purgeIntervalHours());
        assertEquals(50, c.electionFinalizeWaitMs());
    }

    @Test
    void ensembleReadsMyidAndServerLines() throws Exception {
        Files.createDirectories(dataDir());
        Files.writeString(dataDir().resolve("myid"), "2\n");
        ServerConfig c = read(dataDirLine(), "tickTime=2000", "initLimit=5", "syncLimit=2",
                "server.1=127.0.0.1:2888:3888", "server.2=localhost:2889:3889:participant;127.0.0.1:2182",
                "server.3=[::1]:2890:3890:participant;2183");
        assertEquals(2, c.core().serverId());
        assertFalse(c.standalone());
        assertEquals(3, c.servers().size());
        assertEquals(new InetSocketAddress("127.0.0.1", 2182), c.clientAddress());
        ServerAddress three = c.servers().get(3L);
        assertEquals("[::1]", three.host());
        assertEquals(2890, three.quorumPort());
        assertEquals(3890, three.electionPort());
        assertFalse(three.observer());
        assertEquals(new InetSocketAddress(2183), three.clientAddress());
        assertNull(c.servers().get(1L).clientAddress());
        ZabConfig zab = c.core().zab();
        assertEquals(List.of(1L, 2L, 3L), zab.voters());
        assertEquals(5, zab.initLimitTicks());
        assertEquals(2, zab.syncLimitTicks());
        assertEquals(ConfigReader.DEFAULT_ELECTION_FINALIZE_WAIT_MS, zab.finalizeWaitMs());
        assertEquals(Variant.Zab, zab.variant());
        assertEquals(0.5, zab.coinTossProbability());
        assertEquals(2, zab.seed());
        assertFalse(c.core().standalone());
    }

    private static final String[] THREE = {"initLimit=5", "syncLimit=2", "server.1=127.0.0.1:2888:3888",
        "server.2=127.0.0.1:2889:3889", "server.3=127.0.0.1:2890:3890"};

    private String[] three(String... extra) {
        List<String> lines = new java.util.ArrayList<>(List.of(dataDirLine(), "clientPort=2181"));
        lines.addAll(List.of(THREE));
        lines.addAll(List.of(extra));
        return lines.toArray(new String[0]);
    }

    @Test
    void ensembleVariantsAndTheirErrors() throws Exception {
        Files.createDirectories(dataDir());
        Files.writeString(dataDir().resolve("myid"), "1");
        ServerConfig ct = read(three("zabkit.broadcast=ZabCT", "zabkit.coinTossProbability=0.25", "electionFinalizeWait=70"));
        assertEquals(Variant.ZabCT, ct.core().zab().variant());
        assertEquals(0.25, ct.core().zab().coinTossProbability());
        assertEquals(70, ct.core().zab().finalizeWaitMs());
        assertEquals(Variant.ZabAc, read(three("zabkit.broadcast=ZabAc")).core().zab().variant());
        String five = error(three("server.4=127.0.0.1:2891:3891", "server.5=127.0.0.1:2892:3892",
                "zabkit.broadcast=ZabAc"));
        assertTrue(five.contains("zabkit.broadcast=ZabAc: ZabAc (ack-and-commit) is defined for exactly 3 voting"
                + " servers; this ensemble has 5"), five);
        String bad = error(three("zabkit.broadcast=zab"));
        assertTrue(bad.contains("zabkit.broadcast=zab: unknown broadcast variant 'zab'; expected one of Zab, ZabAc,"
                + " ZabAa, ZabCt, ZabCT"), bad);
        String fastObserver = error(three("server.4=127.0.0.1:2891:3891:observer", "zabkit.broadcast=ZabCT"));
        assertTrue(fastObserver.contains("zabkit.broadcast=ZabCT: observers [4] run with the classic Zab broadcast"
                + " only"), fastObserver);
        for (String p : List.of("0", "1.5", "-0.1", "NaN", "half")) {
            String coin = error(three("zabkit.coinTossProbability=" + p));
            assertTrue(coin.contains("zabkit.coinTossProbability=" + p + ": "), coin);
        }
    }

    @Test
    void observerLinesAndPeerTypeAsZooKeeperReadsThem() throws Exception {
        Files.createDirectories(dataDir());
        Files.writeString(dataDir().resolve("myid"), "4");
        ServerConfig c = read(three("server.4=127.0.0.1:2891:3891:observer", "server.5=127.0.0.1:2892:3892:observer",
                "peerType=observer"));
        ZabConfig zab = c.core().zab();
        assertEquals(List.of(1L, 2L, 3L), zab.voters(), "observers are not voters");
        assertEquals(List.of(4L, 5L), zab.observers());
        assertTrue(c.servers().get(4L).observer());
        assertTrue(zab.isQuorum(List.of(1L, 2L)));
        assertFalse(zab.isQuorum(List.of(1L, 4L, 5L)), "observers never make a quorum");
        assertFalse(c.core().standalone());
        assertTrue(c.warnings().stream().noneMatch(w -> w.contains("peerType")), c.warnings().toString());

        // The server's own line wins over peerType, with a warning, as in ZooKeeper.
        Files.writeString(dataDir().resolve("myid"), "1");
        ServerConfig mismatch = read(three("server.4=127.0.0.1:2891:3891:observer", "peerType=observer"));
        assertEquals(List.of(1L, 2L, 3L), mismatch.core().zab().voters());
        assertTrue(mismatch.warnings().stream().anyMatch(w -> w.contains("peerType observer does not match this"
                + " server's line (participant)")), mismatch.warnings().toString());
        String unknown = error(three("peerType=watcher"));
        assertTrue(unknown.contains("peerType=watcher: unrecognised peerType 'watcher'"), unknown);

        // Observers without participants: refused, as ZooKeeper refuses them.
        String none = error(dataDirLine(), "clientPort=2181", "initLimit=5", "syncLimit=2",
                "server.1=127.0.0.1:2888:3888:observer", "server.2=127.0.0.1:2889:3889:observer");
        assertTrue(none.contains("observers without participants"), none);
        String one = error(dataDirLine(), "clientPort=2181", "initLimit=5", "syncLimit=2",
                "server.1=127.0.0.1:2888:3888", "server.2=127.0.0.1:2889:3889:observer");
        assertTrue(one.contains("observers [2] need at least 2 participants"), one);
    }

    @Test
    void aBugZooSwitchIsRefusedUnlessExplicitlyAllowed() throws Exception {
        Files.createDirectories(dataDir());
        Files.writeString(dataDir().resolve("myid"), "1");
        assertTrue(read(three()).core().zab().bugs().isEmpty(), "no switch unless configured");
        String refused = error(three("zabkit.bugzoo=ACK_BEFORE_FSYNC"));
        assertTrue(refused.contains("zabkit.bugzoo=ACK_BEFORE_FSYNC: plants known bugs") && refused.contains(
                "zabkit.bugzoo.allow=true"), refused);
        assertTrue(error(three("zabkit.bugzoo=ACK_BEFORE_FSYNC", "zabkit.bugzoo.allow=yes")).contains("refusing"));
        ServerConfig planted = read(three("zabkit.bugzoo=ack-before-fsync,ZK4646_NEWLEADER_ACK_BEFORE_FSYNC",
                "zabkit.bugzoo.allow=true"));
        assertEquals(java.util.Set.of(io.zabkit.zab.Bug.ACK_BEFORE_FSYNC, io.zabkit.zab.Bug.ZK4646_NEWLEADER_ACK_BEFORE_FSYNC),
                planted.core().zab().bugs());
        assertTrue(planted.warnings().stream().anyMatch(w -> w.contains("TEST ONLY")), planted.warnings().toString());
        String unknown = error(three("zabkit.bugzoo=NO_SUCH_BUG", "zabkit.bugzoo.allow=true"));
        assertTrue(unknown.contains("unknown bug-zoo switch 'NO_SUCH_BUG'"), unknown);
    }

    @Test
    void anEnsembleSharesOneSessionSecret() throws Exception {
        Files.createDirectories(dataDir());
        Files.writeString(dataDir().resolve("myid"), "1");
        long fromLines = read(three()).core().sessionSecret();
        assertEquals(fromLines, ConfigReader.fromCfg(CfgFile.parse("zoo.cfg", List.of(three())), 99).core().sessionSecret(),
                "the standalone secret passed in does not matter in an ensemble");
        Files.writeString(dataDir().resolve("myid"), "3"); // another server of the same ensemble
        assertEquals(fromLines, read(three()).core().sessionSecret());
        String[] moved = three();
        moved[moved.length - 1] = "server.3=127.0.0.1:2990:3890";
        assertTrue(fromLines != read(moved).core().sessionSecret(), "a different ensemble, a different secret");
        assertEquals(0x1234abcdL, read(three("zabkit.sessionSecret=0x1234abcd")).core().sessionSecret());
        assertTrue(error(three("zabkit.sessionSecret=secret")).contains("not a 64-bit integer"));
    }

    @Test
    void zabkitEnsembleKeysWarnOnAStandaloneServer() throws Exception {
        ServerConfig c = read(dataDirLine(), "clientPort=2181", "zabkit.broadcast=ZabAa");
        assertTrue(c.core().standalone());
        assertTrue(c.warnings().stream().anyMatch(w -> w.contains("zabkit.broadcast has no effect on a standalone server")),
                c.warnings().toString());
    }

    @Test
    void standaloneUsesMyidWhenPresent() throws Exception {
        Files.createDirectories(dataDir());
        Files.writeString(dataDir().resolve("myid"), "7");
        assertEquals(7, read(dataDirLine(), "clientPort=2181").core().serverId());
    }

    @Test
    void zooKeeperSettingsWeDoNotUseAreIgnoredWithAWarning() throws Exception {
        ServerConfig c = read(dataDirLine(), "clientPort=2181", "admin.serverPort=8080",
                "metricsProvider.numWorkerThreads=4",
                "preAllocSize=65536", "tickTIme=100", "autopurge.snapRetainCount=1");
        assertEquals(5, c.warnings().size(), c.warnings().toString());
        assertTrue(c.warnings().get(0).contains("line 3: ignoring admin.serverPort (a ZooKeeper setting"), c.warnings().get(0));
        assertTrue(c.warnings().get(3).contains("tickTIme (not a setting zabkit knows; a typo?)"), c.warnings().get(3));
        assertTrue(c.warnings().get(4).contains("raised to 3"), c.warnings().get(4));
        assertEquals(3000, c.core().tickTimeMs());
        assertEquals(3, c.snapRetainCount());
    }

    /** Each malformed value: the message must name the line, the key and the value. */
    @Test
    void malformedValuesNameKeyValueAndLine() throws Exception {
        String[][] cases = {
            {"tickTime=abc", "line 3: tickTime=abc: not an integer"},
            {"tickTime=0", "line 3: tickTime=0: must be between 1 and"},
            {"initLimit=-1", "line 3: initLimit=-1: must be between 1"},
            {"syncLimit=x", "line 3: syncLimit=x: not an integer"},
            {"maxClientCnxns=-5", "line 3: maxClientCnxns=-5: must be between 0"},
            {"forceSync=maybe", "line 3: forceSync=maybe: must be yes or no"},
            {"snapCount=1", "line 3: snapCount=1: must be between 2"},
            {"jute.maxbuffer=big", "line 3: jute.maxbuffer=big: not an integer"},
            {"4lw.commands.whitelist=ruok,ruokay", "line 3: 4lw.commands.whitelist=ruok,ruokay: 'ruokay' is not a four-letter word"},
            {"autopurge.snapRetainCount=0", "line 3: autopurge.snapRetainCount=0: must be between 1"},
            {"autopurge.purgeInterval=-2", "line 3: autopurge.purgeInterval=-2: must be between 0"},
            {"electionFinalizeWait=soon", "line 3: electionFinalizeWait=soon: not an integer"},
            {"minSessionTimeout=0", "line 3: minSessionTimeout=0: must be between 1"},
            {"maxSessionTimeout=1000", "line 3: maxSessionTimeout=1000: minSessionTimeout 6000 ms is above maxSessionTimeout 1000 ms"},
            {"clientPortAddress=no.such.host.invalid", "line 3: clientPortAddress=no.such.host.invalid: cannot resolve host"},
            {"clientPort=2181", "line 3: clientPort=2181: repeats clientPort from line 2"},
            {"just some words", "line 3: expected key=value, got 'just some words'"},
            {"server.0=127.0.0.1:2888:3888", "line 3: server.0=127.0.0.1:2888:3888: server id '0' is not an integer from 1 to 254"},
            {"server.1=127.0.0.1:2888", "line 3: server.1=127.0.0.1:2888: expected host:quorumPort:electionPort"},
            {"server.1=127.0.0.1:2888:99999", "line 3: server.1=127.0.0.1:2888:99999: '99999' is not a port"},
            {"server.1=127.0.0.1:2888:3888:leader", "line 3: server.1=127.0.0.1:2888:3888:leader: role 'leader' is neither"},
            {"server.1=[::1:2888:3888", "line 3: server.1=[::1:2888:3888: unclosed '['"},
            {"server.1=127.0.0.1:2888:3888;a:b:c", "line 3: server.1=127.0.0.1:2888:3888;a:b:c: client address 'a:b:c' is not [host:]port"},
        };
        for (String[] c : cases) {
            String message = error(dataDirLine(), "clientPort=2181", c[0]);
            assertTrue(message.contains(c[1]), "for " + c[0] + " got: " + message);
            assertTrue(message.contains("zoo.cfg"), message);
        }
        assertTrue(error("clientPort=2181", "dataLogDir=/tmp/x").contains("dataDir is required"));
        assertTrue(error(dataDirLine()).contains("clientPort or secureClientPort is required"));
        assertTrue(error(dataDirLine(), "clientPort=70000").contains("clientPort=70000: '70000' is not a port"));
    }

    @Test
    void ensembleErrors() throws Exception {
        String[] servers = {"initLimit=5", "syncLimit=2", "server.1=127.0.0.1:2888:3888;2181",
            "server.2=127.0.0.1:2889:3889;2182"};
        String missing = error(dataDirLine(), servers[0], servers[1], servers[2], servers[3]);
        assertTrue(missing.contains("myid is missing"), missing);
        Files.createDirectories(dataDir());
        Files.writeString(dataDir().resolve("myid"), "3");
        String notListed = error(dataDirLine(), servers[0], servers[1], servers[2], servers[3]);
        assertTrue(notListed.contains("says 3 but the config only has server.[1, 2] lines"), notListed);
        Files.writeString(dataDir().resolve("myid"), "one");
        String garbled = error(dataDirLine(), servers[0], servers[1], servers[2], servers[3]);
        assertTrue(garbled.contains("'one' is not a server id"), garbled);
        Files.writeString(dataDir().resolve("myid"), "1");
        String noLimits = error(dataDirLine(), servers[2], servers[3]);
        assertTrue(noLimits.contains("initLimit and syncLimit are required with 2 server lines"), noLimits);
        String disagree = error(dataDirLine(), "clientPort=2999", servers[0], servers[1], servers[2], servers[3]);
        assertTrue(disagree.contains("clientPort=2999: disagrees with the client port 2181 on server.1"), disagree);
        assertEquals(2181, read(dataDirLine(), servers[0], servers[1], servers[2], servers[3]).clientAddress().getPort());
    }

    @Test
    void missingFileIsAClearError() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigReader.read(dir.resolve("nope.cfg"), 1));
        assertTrue(e.getMessage().contains("cannot read config " + dir.resolve("nope.cfg")), e.getMessage());
    }

    /** Issue 23, finding 4: a security key zabkit does not implement stops the server, named. */
    @Test
    void securityKeysZabkitDoesNotImplementRefuseToStart() throws Exception {
        for (String line : List.of("sslQuorum=true", "quorum.auth.enableSasl=true",
                "quorum.auth.learnerRequireSasl=yes", "quorum.auth.serverRequireSasl=true",
                "quorum.auth.kerberos.servicePrincipal=zkquorum/localhost", "ssl.quorum.trustStore.location=/t.jks",
                "portUnification=true",
                "authProvider.1=org.apache.zookeeper.server.auth.X509ZNodeGroupAclProvider",
                "DigestAuthenticationProvider.superDigest=super:D/InIHSb7yEEbrWz8b9l71RjZJU=", "skipACL=yes",
                "DigestAuthenticationProvider.digestAlg=SHA3-256", "superUser=admin")) {
            String message = error(dataDirLine(), "clientPort=2181", line);
            assertTrue(message.contains("line 3: " + line) && message.contains("refuses to start"),
                    line + ": " + message);
            assertFalse(message.contains("typo"), message);
        }
        String both = error(dataDirLine(), "clientPort=2181", "sslQuorum=true", "quorum.auth.enableSasl=true");
        assertTrue(both.contains("sslQuorum=true") && both.contains("quorum.auth.enableSasl=true"), both);
    }

    /** TLS on secureClientPort with ZooKeeper's keys; what zabkit does not implement is refused, named. */
    @Test
    void secureClientPortTakesZooKeepersSslKeysAndRefusesTheRest() throws Exception {
        String netty = "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory";
        String[] tls = {dataDirLine(), "clientPort=2181", "secureClientPort=2281", netty,
                "ssl.keyStore.location=/keys/server.p12", "ssl.keyStore.password=pw",
                "ssl.trustStore.location=/keys/trust.jks", "ssl.trustStore.password=pw2"};
        ServerConfig c = read(tls);
        TlsConfig t = c.tls();
        assertEquals(new InetSocketAddress(2281), t.address());
        assertEquals("PKCS12", t.keyStoreType(), "from the extension, as ZooKeeper infers it");
        assertEquals("JKS", t.trustStoreType());
        assertEquals("need", t.clientAuth(), "ZooKeeper's default");
        assertEquals(List.of("TLSv1.3"), t.enabledProtocols(), "ZooKeeper's default protocol");
        assertTrue(c.warnings().isEmpty(), c.warnings().toString());
        assertNull(read(dataDirLine(), "clientPort=2181", netty).tls());
        assertEquals("want", read(concatLines(tls, "ssl.clientAuth=want")).tls().clientAuth());
        assertEquals(List.of("TLSv1.2", "TLSv1.3"),
                read(concatLines(tls, "ssl.enabledProtocols=TLSv1.2, TLSv1.3")).tls().enabledProtocols());
        String nio = error(dataDirLine(), "clientPort=2181", "secureClientPort=2281",
                "ssl.keyStore.location=/keys/server.p12");
        assertTrue(nio.contains("secureClientPort needs serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory"), nio);
        assertTrue(error(dataDirLine(), "clientPort=2181", "secureClientPort=2281", netty).contains("ssl.keyStore.location"));
        assertTrue(error(dataDirLine(), "clientPort=2181", "ssl.keyStore.location=/k.p12")
                .contains("ssl.keyStore.location is set but secureClientPort is not"));
        assertTrue(error(concatLines(tls, "ssl.clientAuth=maybe")).contains("none, want or need"));
        assertTrue(error(concatLines(tls, "ssl.keyStore.type=PEM")).contains("store type PEM is not implemented"));
        assertTrue(error(concatLines(tls, "ssl.clientHostnameVerification=true")).contains("host names"));
        assertTrue(error(dataDirLine(), "clientPort=2181", "secureClientPort=2181", netty,
                "ssl.keyStore.location=/k.p12").contains("port unification"));
        for (String refused : List.of("ssl.ocsp=true", "ssl.crl=true", "ssl.keyStore.passwordPath=/pw",
                "ssl.context.supplier.class=x.Y", "ssl.quorum.keyStore.location=/q.p12", "sslQuorum=true",
                "authProvider.x509=org.apache.zookeeper.server.auth.X509ZNodeGroupAclProvider")) {
            String message = error(concatLines(tls, refused));
            assertTrue(message.contains(refused) && message.contains("refuses to start"), refused + ": " + message);
        }
    }

    /** secureClientPort without clientPort: TLS clients only, as ZooKeeper allows; no port at all is an error. */
    @Test
    void aServerMayTakeTlsClientsOnly() throws Exception {
        String[] tlsOnly = {dataDirLine(), "secureClientPort=2281",
                "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
                "ssl.keyStore.location=/keys/server.p12"};
        ServerConfig c = read(tlsOnly);
        assertNull(c.clientAddress(), "no plaintext port");
        assertEquals(new InetSocketAddress(2281), c.tls().address(), "every interface, as ZooKeeper's default");
        assertEquals(new InetSocketAddress("127.0.0.1", 2281),
                read(concatLines(tlsOnly, "secureClientPortAddress=127.0.0.1")).tls().address());
        String addressAlone = error(concatLines(tlsOnly, "clientPortAddress=127.0.0.1"));
        assertTrue(addressAlone.contains("clientPortAddress=127.0.0.1: is set but clientPort is not"), addressAlone);
        assertTrue(error(dataDirLine()).contains("clientPort or secureClientPort is required"));
    }

    private static String[] concatLines(String[] lines, String more) {
        String[] all = java.util.Arrays.copyOf(lines, lines.length + 1);
        all[lines.length] = more;
        return all;
    }

    /** Client authentication keys are read as ZooKeeper reads them, and refused where ZooKeeper refuses. */
    @Test
    void enforcedAuthenticationNeedsSchemesTheServerHas() throws Exception {
        String sasl = "authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider";
        ServerConfig none = read(dataDirLine(), "clientPort=2181");
        assertEquals(io.zabkit.core.ClientAuth.NONE, none.clientAuth());
        ServerConfig enforced = read(dataDirLine(), "clientPort=2181", sasl, "enforce.auth.enabled=true",
                "enforce.auth.schemes=sasl, digest");
        assertEquals(java.util.Set.of("sasl", "digest"), enforced.clientAuth().enforcedSchemes());
        assertTrue(enforced.clientAuth().saslAclScheme());
        assertTrue(enforced.warnings().isEmpty(), enforced.warnings().toString());
        assertEquals(java.util.Set.of("sasl"),
                read(dataDirLine(), "clientPort=2181", sasl, "sessionRequireClientSASLAuth=true").clientAuth()
                        .enforcedSchemes());
        assertTrue(read(dataDirLine(), "clientPort=2181", "enforce.auth.enabled=false", "enforce.auth.schemes=sasl")
                .clientAuth().enforcedSchemes().isEmpty(), "off is off, as in ZooKeeper");
        String noSchemes = error(dataDirLine(), "clientPort=2181", "enforce.auth.enabled=true");
        assertTrue(noSchemes.contains("line 3") && noSchemes.contains("enforce.auth.schemes must"), noSchemes);
        String noProvider = error(dataDirLine(), "clientPort=2181", "enforce.auth.enabled=true",
                "enforce.auth.schemes=sasl");
        assertTrue(noProvider.contains("scheme sasl is not available") && noProvider.contains("SASLAuthenticationProvider"),
                noProvider);
        assertTrue(error(dataDirLine(), "clientPort=2181", "enforce.auth.enabled=true", "enforce.auth.schemes=x509")
                .contains("scheme x509 is not available"));
        ServerConfig x509 = read(dataDirLine(), "clientPort=2181", "enforce.auth.enabled=true",
                "enforce.auth.schemes=x509", "authProvider.x509=org.apache.zookeeper.server.auth.X509AuthenticationProvider");
        assertEquals(java.util.Set.of("x509"), x509.clientAuth().providerSchemes());
        assertTrue(error(dataDirLine(), "clientPort=2181", "enforce.auth.enabled=maybe").contains("true or false"));
    }

    @Test
    void securityKeysThatTurnTheirFeatureOffOrNameWhatZabkitHasAreAccepted() throws Exception {
        ServerConfig c = read(dataDirLine(), "clientPort=2181", "enforce.auth.enabled=false", "sslQuorum=false",
                "quorum.auth.enableSasl=false", "skipACL=no",
                "authProvider.1=org.apache.zookeeper.server.auth.DigestAuthenticationProvider",
                "DigestAuthenticationProvider.digestAlg=SHA1");
        assertEquals(new InetSocketAddress(2181), c.clientAddress());
    }

    @Test
    void clientBoundsHaveZooKeeperNamesAndDefaults() throws Exception {
        ServerConfig defaults = read(dataDirLine(), "clientPort=2181");
        assertEquals(1000, defaults.globalOutstandingLimit());
        assertEquals(10_000, defaults.handshakeTimeoutMs());
        assertTrue(defaults.warnings().isEmpty(), defaults.warnings().toString());
        ServerConfig set = read(dataDirLine(), "clientPort=2181", "globalOutstandingLimit=50",
                "nio.sessionlessCnxnTimeout=2500");
        assertEquals(50, set.globalOutstandingLimit());
        assertEquals(2500, set.handshakeTimeoutMs());
        assertTrue(set.warnings().isEmpty(), set.warnings().toString());
        assertTrue(error(dataDirLine(), "clientPort=2181", "globalOutstandingLimit=0").contains("globalOutstandingLimit"));
    }

    @Test
    void metricsProviderKeysAsZooKeepersPrometheusProviderReadsThem() throws Exception {
        String prometheus = "metricsProvider.className=org.apache.zookeeper.metrics.prometheus.PrometheusMetricsProvider";
        assertNull(read(dataDirLine(), "clientPort=2181").metrics(), "no className, no endpoint");
        MetricsConfig m = read(dataDirLine(), "clientPort=2181", prometheus).metrics();
        assertEquals(new InetSocketAddress("0.0.0.0", 7000), m.httpAddress(), "ZooKeeper's defaults");
        assertTrue(m.exportJvmInfo());
        m = read(dataDirLine(), "clientPort=2181", prometheus, "metricsProvider.httpHost=127.0.0.1",
                "metricsProvider.httpPort=7070", "metricsProvider.exportJvmInfo=false").metrics();
        assertEquals(new InetSocketAddress("127.0.0.1", 7070), m.httpAddress());
        assertFalse(m.exportJvmInfo());
        ServerConfig c = read(dataDirLine(), "clientPort=2181", prometheus, "metricsProvider.numWorkerThreads=4");
        assertTrue(c.warnings().stream().anyMatch(w -> w.contains("metricsProvider.numWorkerThreads")), c.warnings()::toString);
        c = read(dataDirLine(), "clientPort=2181", "metricsProvider.httpPort=7070");
        assertNull(c.metrics());
        assertTrue(c.warnings().stream().anyMatch(w -> w.contains("has no effect without")), c.warnings()::toString);
        assertTrue(error(dataDirLine(), "clientPort=2181", "metricsProvider.className=com.example.Mine").contains("only as ZooKeeper's Prometheus"));
        assertTrue(error(dataDirLine(), "clientPort=2181", prometheus, "metricsProvider.httpPort=70000").contains("1 to 65535"));
        assertTrue(error(dataDirLine(), "clientPort=2181", prometheus, "metricsProvider.httpPort=x").contains("not a port"));
        assertTrue(error(dataDirLine(), "clientPort=2181", prometheus, "metricsProvider.exportJvmInfo=maybe").contains("yes or no"));
    }

    /**
     * The class of CVE-2026-24308 (configuration values disclosed): what `conf` prints is a fixed list of
     * operational keys, never the session secret an ensemble's passwords derive from, nor any key zabkit does
     * not print on purpose.
     */
    @Test
    void confDisclosesNoSecret() throws Exception {
        Files.createDirectories(dataDir());
        Files.writeString(dataDir().resolve("myid"), "1");
        ServerConfig c = read(dataDirLine(), "clientPort=2181", "initLimit=5", "syncLimit=2",
                "server.1=127.0.0.1:2888:3888", "server.2=127.0.0.1:2889:3889", "server.3=127.0.0.1:2890:3890",
                "zabkit.sessionSecret=0x5ec2e75ec2e7");
        String conf = c.core().describe();
        assertFalse(conf.contains("5ec2e7") || conf.contains(Long.toString(0x5ec2e75ec2e7L)) || conf.contains("ecret"), conf);
        for (String line : conf.split("\n")) {
            assertTrue(line.matches("(clientPort|clientPortAddress|dataDir|dataLogDir|tickTime|maxClientCnxns"
                    + "|minSessionTimeout|maxSessionTimeout|serverId)=.*"), "conf prints only its fixed keys: " + line);
        }
    }
}
