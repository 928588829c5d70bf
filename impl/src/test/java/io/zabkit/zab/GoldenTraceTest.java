package io.zabkit.zab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.zabkit.storage.Snapshot;
import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import io.zabkit.zab.Message.ServerState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.txn.CreateSessionTxn;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Golden traces in etcd raft's datadriven style: a script of events for one server (messages in,
 * ticks, disk completions) and, after each event, every effect it produced (messages out, epochs and
 * history written, transactions delivered) and the server's state. Scripts live in
 * src/test/resources/golden/zab/; {@code -Dgolden.rewrite=true} rewrites the expected parts (then
 * read the diff: it is the review of a protocol change).
 *
 * <p>Script: blocks of {@code command args}, a line {@code ----}, the expected output, a blank line.
 * Zxids are written {@code epoch:counter}. Commands: {@code server self= voters= accepted= current=
 * history= [variant=] [finalizeWait=] [committedLog=]}, {@code tick ms=}, {@code recv FROM KIND k=v... [fast]},
 * {@code persisted zxid=}, {@code disconnect peer=}, {@code propose}, {@code status}.
 */
class GoldenTraceTest {
    private static final Path DIR = Path.of("src/test/resources/golden/zab");

    @ParameterizedTest
    @ValueSource(strings = {"election.txt", "discovery.txt", "sync-diff-trunc-snap.txt", "broadcast.txt"})
    void script(String name) throws IOException {
        Path file = DIR.resolve(name);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        StringBuilder rewritten = new StringBuilder();
        Runner runner = new Runner();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                rewritten.append(line).append('\n');
                i++;
                continue;
            }
            if (i + 1 >= lines.size() || !lines.get(i + 1).equals("----")) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": a command must be followed by ----");
            }
            int end = i + 2;
            while (end < lines.size() && !lines.get(end).isEmpty()) {
                end++;
            }
            String expected = String.join("\n", lines.subList(i + 2, end));
            String actual = runner.run(line, file + ":" + (i + 1));
            rewritten.append(line).append("\n----\n").append(actual).append('\n');
            if (!Boolean.getBoolean("golden.rewrite")) {
                assertEquals(expected, actual, file + ":" + (i + 1) + ": " + line);
            }
            i = end;
        }
        if (Boolean.getBoolean("golden.rewrite")) {
            Files.writeString(file, rewritten.toString(), StandardCharsets.UTF_8);
        }
    }

    /** One server driven by the script; effects recorded in order, replica a counter. */
    static final class Runner implements Effects, Replica {
        private final List<String> out = new ArrayList<>();
        private Zab zab;
        private long lastProcessed;

        String run(String line, String where) {
            String[] words = line.trim().split("\\s+");
            Map<String, String> args = new LinkedHashMap<>();
            List<String> positional = new ArrayList<>();
            for (String w : Arrays.copyOfRange(words, 1, words.length)) {
                int eq = w.indexOf('=');
                if (eq > 0) {
                    args.put(w.substring(0, eq), w.substring(eq + 1));
                } else {
                    positional.add(w);
                }
            }
            out.clear();
            switch (words[0]) {
                case "server" -> zab = newServer(args);
                case "tick" -> zab.tick(Long.parseLong(args.get("ms")));
                case "recv" -> zab.receive(Long.parseLong(positional.get(0)), message(positional.get(1), args, positional.contains("fast"), where));
                case "persisted" -> zab.persisted(zxid(args.get("zxid")));
                case "disconnect" -> zab.peerDisconnected(Long.parseLong(args.get("peer")));
                case "propose" -> zab.propose(txn(zab.nextZxid()));
                case "status" -> { }
                default -> throw new IllegalArgumentException(where + ": unknown command " + words[0]);
            }
            zab.checkInvariants();
            out.add(status());
            return String.join("\n", out);
        }

        private Zab newServer(Map<String, String> a) {
            List<Long> voters = Arrays.stream(a.get("voters").split(",")).map(Long::parseLong).toList();
            ZabConfig config = new ZabConfig(voters, 10, 5, Integer.parseInt(a.getOrDefault("finalizeWait", "0")),
                    Variant.parse(a.getOrDefault("variant", "Zab")), 1.0, 1,
                    Integer.parseInt(a.getOrDefault("committedLog", "500")));
            List<Txn> history = new ArrayList<>();
            String h = a.getOrDefault("history", "");
            for (String z : h.isEmpty() ? new String[0] : h.split(",")) {
                history.add(txn(zxid(z)));
            }
            lastProcessed = zxid(a.getOrDefault("applied", "0:0"));
            history.removeIf(t -> t.zxid() <= lastProcessed); // the core hands Zab only what is not applied
            return new Zab(Long.parseLong(a.get("self")), config, 100, this, this,
                    Long.parseLong(a.get("accepted")), Long.parseLong(a.get("current")), history);
        }

        private static Message message(String kind, Map<String, String> a, boolean fast, String where) {
            return switch (kind) {
                case "NOTIFICATION" -> new Message.Notification(Long.parseLong(a.get("round")),
                        ServerState.valueOf(a.get("state")), Long.parseLong(a.get("leader")), zxid(a.get("zxid")),
                        Long.parseLong(a.get("epoch")));
                case "FOLLOWERINFO" -> new Message.FollowerInfo(Long.parseLong(a.get("accepted")), zxid(a.get("zxid")));
                case "LEADERINFO" -> new Message.LeaderInfo(Long.parseLong(a.get("epoch")));
                case "ACKEPOCH" -> new Message.AckEpoch(Long.parseLong(a.get("current")), zxid(a.get("zxid")));
                case "DIFF" -> new Message.Diff(zxid(a.get("zxid")));
                case "TRUNC" -> new Message.Trunc(zxid(a.get("zxid")));
                case "SNAP" -> new Message.Snap(zxid(a.get("zxid")), new byte[] {1});
                case "PROPOSAL" -> new Message.Proposal(txn(zxid(a.get("zxid"))), fast);
                case "NEWLEADER" -> new Message.NewLeader(zxid(a.get("zxid")));
                case "ACK" -> new Message.Ack(Long.parseLong(a.get("epoch")), zxid(a.get("zxid")), !fast);
                case "UPTODATE" -> new Message.UpToDate(zxid(a.get("zxid")));
                case "COMMIT" -> new Message.Commit(zxid(a.get("zxid")));
                case "PING" -> new Message.Ping(List.of());
                default -> throw new IllegalArgumentException(where + ": unknown message " + kind);
            };
        }

        private String status() {
            return "> " + zab.state() + "/" + zab.zabState() + " leader=" + zab.leader() + " accepted="
                    + zab.acceptedEpoch() + " current=" + zab.currentEpoch() + " history=(" + z(zab.historyFloor())
                    + ".." + z(zab.lastLoggedZxid()) + "] persisted=" + z(zab.lastPersisted()) + " committed="
                    + z(zab.lastCommitted()) + " applied=" + z(lastProcessed);
        }

        static long zxid(String s) {
            int colon = s.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("a zxid is written epoch:counter, got " + s);
            }
            return Txn.zxid(Long.parseLong(s.substring(0, colon)), Long.parseLong(s.substring(colon + 1)));
        }

        static String z(long zxid) {
            return zxid < 0 ? "-1" : Txn.epochOf(zxid) + ":" + Txn.counterOf(zxid);
        }

        static Txn txn(long zxid) {
            return new Txn(zxid, 0x42, 0, 0, OpCode.CREATE_SESSION, new CreateSessionTxn(30_000));
        }

        private static String describe(Message m) {
            if (m instanceof Message.Notification n) {
                return "NOTIFICATION round=" + n.electionEpoch() + " state=" + n.state() + " leader=" + n.leader()
                        + " zxid=" + z(n.zxid()) + " epoch=" + n.peerEpoch();
            } else if (m instanceof Message.FollowerInfo f) {
                return "FOLLOWERINFO accepted=" + f.acceptedEpoch() + " zxid=" + z(f.lastZxid());
            } else if (m instanceof Message.LeaderInfo l) {
                return "LEADERINFO epoch=" + l.newEpoch();
            } else if (m instanceof Message.AckEpoch a) {
                return "ACKEPOCH current=" + a.currentEpoch() + " zxid=" + z(a.lastZxid());
            } else if (m instanceof Message.Diff d) {
                return "DIFF zxid=" + z(d.zxid());
            } else if (m instanceof Message.Trunc t) {
                return "TRUNC zxid=" + z(t.zxid());
            } else if (m instanceof Message.Snap s) {
                return "SNAP zxid=" + z(s.zxid());
            } else if (m instanceof Message.Proposal p) {
                return "PROPOSAL zxid=" + z(p.txn().zxid()) + (p.fast() ? " fast" : "");
            } else if (m instanceof Message.NewLeader n) {
                return "NEWLEADER zxid=" + z(n.zxid());
            } else if (m instanceof Message.Ack a) {
                return "ACK epoch=" + a.epoch() + " zxid=" + z(a.zxid()) + (a.zab() ? "" : " fast");
            } else if (m instanceof Message.UpToDate u) {
                return "UPTODATE zxid=" + z(u.zxid());
            } else if (m instanceof Message.Commit c) {
                return "COMMIT zxid=" + z(c.zxid());
            } else if (m instanceof Message.Ping p) {
                return "PING sessions=" + p.sessions().size();
            }
            return m.toString();
        }

        @Override public void truncateLog(long zxid) { out.add("truncate after " + z(zxid)); }
        @Override public void installSnapshot(Snapshot s) { out.add("install snapshot " + z(s.zxid())); }
        @Override public void storeEpochs(long a, long c) { out.add("store accepted=" + a + " current=" + c); }
        @Override public void markSyncTail(long z, long e) { out.add("mark sync tail after=" + z(z) + " epoch=" + e); }
        @Override public void log(Txn t) { out.add("log " + z(t.zxid())); }
        @Override public void send(long to, Message m) { out.add("send " + to + " " + describe(m)); }
        @Override public void resetLink(long peer) { out.add("reset " + peer); }
        @Override public long lastProcessedZxid() { return lastProcessed; }
        @Override public void deliver(Txn t) {
            assert t.zxid() > lastProcessed : "delivered out of order";
            out.add("deliver " + z(t.zxid()));
            lastProcessed = t.zxid();
        }
        @Override public Snapshot snapshotOfAppliedState() { return new Snapshot(lastProcessed, new byte[] {1}); }
        @Override public void install(Snapshot s) { out.add("apply snapshot " + z(s.zxid())); lastProcessed = s.zxid(); }
        @Override public void startServing(boolean leading) { out.add("serving " + (leading ? "leader" : "follower")); }
        @Override public void stopServing(String why) { out.add("stop serving (" + why + ")"); }
        @Override public Txn prepareForwarded(Message.Forward f, long zxid) { return txn(zxid); }
        @Override public void syncReplied(long s, int c, long z) { out.add("sync replied " + z(z)); }
        @Override public void sessionsAlive(List<Message.SessionTouch> t) { }
        @Override public List<Message.SessionTouch> drainTouchedSessions() { return List.of(); }
    }
}
