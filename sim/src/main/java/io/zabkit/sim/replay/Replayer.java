package io.zabkit.sim.replay;

import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import io.zabkit.zab.ElectionOracle;
import io.zabkit.zab.Message;
import io.zabkit.zab.Zab;
import io.zabkit.zab.ZabConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Drives the Java Zab cores through one behaviour of spec/ReplayZab.tla, step by step, and compares
 * the abstract state after each step (spec/README.md, "Model-based replay", has the mapping):
 * every server's state, zabState, leaderOf, acceptedEpoch, currentEpoch, history (zxids), durable prefix
 * and lastCommitted (what the code delivered), and every channel's messages.
 */
final class Replayer {
    /** The first step at which the code and the behaviour part. */
    record Mismatch(int step, String action, String what, String spec, String code, String knownDivergence) {
        Mismatch(int step, String action, String what, String spec, String code) {
            this(step, action, what, spec, code, null);
        }

        @Override
        public String toString() {
            return "step " + step + " " + action + ": " + what + "\n  spec: " + spec.replace("\n", "\n        ")
                    + "\n  code: " + code.replace("\n", "\n        ");
        }
    }

    /** What replaying one behaviour did: steps replayed, the mismatch if any, and what the steps exercised. */
    record Outcome(int steps, Mismatch mismatch, Map<String, Integer> coverage) {}

    private final ZabConfig config;
    private final ReplayNetwork net = new ReplayNetwork();
    private final Map<Long, ReplayNode> nodes = new TreeMap<>();
    private final List<String> violations = new ArrayList<>();
    /** Followers that processed LEADERINFO since they last were LOOKING (D8: the code's SYNCHRONIZATION). */
    private final Set<Long> leaderInfoTaken = new TreeSet<>();
    /**
     * Servers whose spec lastCommitted came from a sync packet (DIFF/SNAP/TRUNC carry the leader's commit
     * point in the spec; M5) and whose code has not yet learnt as much from an UPTODATE or COMMIT.
     */
    private final Set<Long> commitFromSyncPacket = new TreeSet<>();
    private int txnCount;
    /** Steps replayed by action, and the branches of discovery and synchronization they reached. */
    private final Map<String, Integer> coverage = new TreeMap<>();

    Replayer(ZabConfig config) {
        this.config = config;
    }

    Outcome replay(Behaviour b) {
        SpecState init = new SpecState(b.states().get(0));
        for (long s : init.servers()) {
            ReplayNode n = new ReplayNode(s, config, net, violations);
            nodes.put(s, n);
            net.attach(s, n);
        }
        if (!config.voters().equals(init.servers())) {
            throw new IllegalArgumentException("the behaviour's servers " + init.servers() + " are not the voters "
                    + config.voters());
        }
        for (ReplayNode n : nodes.values()) {
            n.start();
        }
        net.flushNotices();
        Mismatch m = compare(0, null, init);
        SpecState lastCompared = init;
        if (m != null) {
            return new Outcome(0, m, coverage);
        }
        for (int k = 1; k < b.states().size(); k++) {
            SpecState pre = new SpecState(b.states().get(k - 1));
            SpecState post = new SpecState(b.states().get(k));
            try {
                m = step(k, pre, post);
            } catch (RuntimeException | AssertionError e) {
                m = new Mismatch(k, post.action(), "the code failed: " + e, describeSpec(post), describeCode());
            }
            if (m == null) {
                m = checkInvariants(k, post);
            }
            if (m == null && !violations.isEmpty()) {
                m = new Mismatch(k, post.action(), "the step is not atomic in the code: " + violations,
                        describeSpec(post), describeCode());
            }
            if (m == null && !deferred(k, b, post)) {
                m = compare(k, lastCompared, post); // the state before the step, or before a deferred one (R1)
                lastCompared = post;
            }
            if (m != null) {
                return new Outcome(k, m, coverage);
            }
        }
        return new Outcome(b.steps(), null, coverage);
    }

    /** The core's own invariants (Zab.checkInvariants), as the simulator checks them after every step. */
    private Mismatch checkInvariants(int k, SpecState post) {
        for (ReplayNode n : nodes.values()) {
            if (n.isUp()) {
                try {
                    n.zab().checkInvariants();
                } catch (AssertionError e) {
                    return new Mismatch(k, post.action(), "server " + n.id() + ": " + e.getMessage(), describeSpec(post),
                            describeCode());
                }
            }
        }
        return null;
    }

    /**
     * R1: a step after which the code's leader stepped down at once, where the spec takes LeaderLoseQuorum
     * as the next step (spec/ReplayZab.tla forces it); the state is compared after that step.
     */
    private boolean deferred(int k, Behaviour b, SpecState post) {
        if (k + 1 >= b.states().size()) {
            return false;
        }
        SpecState next = new SpecState(b.states().get(k + 1));
        if (!next.actionName().equals("LeaderLoseQuorum")) {
            return false;
        }
        long i = SpecState.server(next.actionArgs().get(0));
        ReplayNode n = nodes.get(i);
        return post.state(i).equals("LEADING") && post.zabState(i).equals("BROADCAST") && n.isUp()
                && n.zab().state() != Message.ServerState.LEADING;
    }

    // ================================================================== stimuli

    private Mismatch step(int k, SpecState pre, SpecState post) {
        Set<Long> leading = new TreeSet<>();
        for (ReplayNode n : nodes.values()) {
            if (n.isUp() && n.zab().state() == Message.ServerState.LEADING) {
                leading.add(n.id());
            }
        }
        Mismatch m = stimulus(k, pre, post);
        if (m != null) {
            return m;
        }
        // M3: a leader that steps down closes every link it holds (the code resets its learners' links
        // only; a follower whose FOLLOWERINFO is still in flight would wait for its initLimit).
        for (long l : leading) {
            ReplayNode n = nodes.get(l);
            if (n.isUp() && n.zab().state() != Message.ServerState.LEADING) {
                net.breakAll(l, true);
            }
        }
        String name = post.actionName();
        long i = post.actionArgs().isEmpty() ? -1 : SpecState.server(post.actionArgs().get(0));
        settle(post);
        if (name.equals("FollowerProcessLEADERINFO") && post.state(i).equals("FOLLOWING")) {
            leaderInfoTaken.add(i);
        }
        if (name.equals("FollowerProcessDIFF") || name.equals("FollowerProcessSNAP") || name.equals("FollowerProcessTRUNC")) {
            commitFromSyncPacket.add(i);
        }
        for (long s : post.servers()) {
            if (!post.state(s).equals("FOLLOWING")) {
                leaderInfoTaken.remove(s);
            }
            if (!post.up(s)) {
                commitFromSyncPacket.remove(s);
            }
        }
        return null;
    }

    private Mismatch stimulus(int k, SpecState pre, SpecState post) {
        String name = post.actionName();
        List<Object> args = post.actionArgs();
        long i = args.isEmpty() ? -1 : SpecState.server(args.get(0));
        long j = args.size() < 2 || !(args.get(1) instanceof TlaValues.ModelValue) ? -1 : SpecState.server(args.get(1));
        Mismatch m = switch (name) {
            case "ElectLeader" -> {
                @SuppressWarnings("unchecked")
                Set<Object> q = (Set<Object>) args.get(1);
                Mismatch order = voteOrder(k, post, i, q);
                if (order != null) {
                    yield order;
                }
                ElectionOracle.settle(zab(i), i);
                for (long f : new TreeSet<>(q.stream().map(SpecState::server).toList())) {
                    if (f != i) {
                        ElectionOracle.settle(zab(f), i);
                    }
                }
                yield null;
            }
            case "FollowerJoin" -> {
                ElectionOracle.settle(zab(i), j); // FollowerJoin(j, i): args are <<joiner, leader>>
                yield null;
            }
            case "LeaderProcessFOLLOWERINFO" -> deliver(k, post, j, i, Message.FollowerInfo.class);
            case "FollowerProcessLEADERINFO" -> deliver(k, post, j, i, Message.LeaderInfo.class);
            case "LeaderProcessACKEPOCH" -> deliver(k, post, j, i, Message.AckEpoch.class);
            case "FollowerProcessDIFF" -> deliverSync(k, post, j, i, Message.Diff.class);
            case "FollowerProcessSNAP" -> deliverSync(k, post, j, i, Message.Snap.class);
            case "FollowerProcessTRUNC" -> deliver(k, post, j, i, Message.Trunc.class);
            case "FollowerProcessNEWLEADER" -> deliver(k, post, j, i, Message.NewLeader.class);
            case "LeaderProcessACKLD", "LeaderProcessACK" -> deliver(k, post, j, i, Message.Ack.class);
            case "FollowerProcessUPTODATE" -> deliver(k, post, j, i, Message.UpToDate.class);
            case "FollowerProcessPROPOSAL" -> deliver(k, post, j, i, Message.Proposal.class);
            case "FollowerProcessCOMMIT" -> deliver(k, post, j, i, Message.Commit.class);
            case "DiscardStale" -> {
                Deque<Message> ch = net.channel(j, i);
                yield ch.isEmpty() ? null : ch.peekFirst() instanceof Message.Diff || ch.peekFirst() instanceof Message.Snap
                        ? deliverSync(k, post, j, i, ch.peekFirst().getClass()) : deliver(k, post, j, i, Message.class);
            }
            case "LeaderPersistLog" -> null; // the fsync completes below, as durable says
            case "LeaderProcessRequest" -> {
                Zab z = zab(i);
                if (!z.isServingLeader()) {
                    yield new Mismatch(k, post.action(), "the code's server " + i + " cannot propose: it is "
                            + z.state() + "/" + z.zabState(), describeSpec(post), describeCode());
                }
                try {
                    z.propose(new Txn(z.nextZxid(), 0, ++txnCount, 0, OpCode.ERROR, Txn.newBody(OpCode.ERROR)));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                yield null;
            }
            case "LeaderLoseQuorum" -> {
                ReplayNode n = nodes.get(i);
                if (n.zab().state() == Message.ServerState.LEADING) {
                    n.timeOutInit(); // the code's leader gives up only on its own clock (initLimit)
                }
                net.breakAll(i, true); // (also when it stepped down in the step before, R1)
                yield null;
            }
            case "NodeCrash" -> {
                nodes.get(i).crash();
                net.down(i);
                yield null;
            }
            case "NodeStart" -> {
                nodes.get(i).start();
                yield null;
            }
            case "PartitionStart" -> {
                net.partition(i, j);
                yield null;
            }
            case "PartitionRecover" -> {
                net.heal(i, j);
                yield null;
            }
            default -> throw new IllegalArgumentException("no replay for action " + name);
        };
        if (m == null) {
            cover(name, i, j, pre, post);
        }
        return m;
    }

    /** Counts the step, and the branches the bugs of the ZooKeeper tracker live in. */
    private void cover(String name, long i, long j, SpecState pre, SpecState post) {
        coverage.merge(name, 1, Integer::sum);
        if (name.equals("LeaderProcessACKEPOCH") && pre.channel(j, i).get(0).get("fresh") == Boolean.FALSE) {
            coverage.merge("branch: ACKEPOCH not fresh (-1)", 1, Integer::sum);
        }
        if (name.equals("FollowerProcessLEADERINFO") && post.state(i).equals("LOOKING")) {
            coverage.merge("branch: LEADERINFO below acceptedEpoch, follower gives up", 1, Integer::sum);
        }
        if (name.equals("LeaderProcessACKEPOCH") && post.state(i).equals("LOOKING")) {
            coverage.merge("branch: follower ahead of the leader, leader gives up", 1, Integer::sum);
        }
        for (long s : post.servers()) {
            boolean leftSync = pre.up(s) && pre.zabState(s).equals("SYNCHRONIZATION") && pre.state(s).equals("FOLLOWING")
                    && !post.state(s).equals("FOLLOWING");
            if (leftSync && pre.durable(s) < pre.history(s).size()) {
                coverage.merge("branch: follower leaves synchronization with undurable synced entries", 1, Integer::sum);
            }
        }
        if (name.equals("FollowerProcessDIFF") && !post.history(i).equals(pre.history(i))) {
            coverage.merge("branch: DIFF with transactions", 1, Integer::sum);
        }
    }

    /**
     * After the stimulus: link breaks are told, and every fsync the behaviour's durable says completed
     * completes (the spec's log writes: a follower's PROPOSAL and NEWLEADER, the leader's
     * LeaderPersistLog, the flush of a synced server that leaves its role).
     */
    private void settle(SpecState post) {
        net.flushNotices();
        for (int round = 0; round < 4; round++) {
            for (ReplayNode n : nodes.values()) {
                if (n.isUp() && post.up(n.id())) {
                    n.syncTo(post.durable(n.id()));
                }
            }
            net.flushNotices();
        }
    }

    /**
     * The oracle stands in for the code's election, but the code's vote order must allow its outcome: where
     * Zab.tla's VoteGEQ ranks the leader's (currentEpoch, last zxid) strictly above a voter's, every voter's
     * election must rank the leader's vote above its own (ties are broken by server id in the code, which
     * the oracle leaves open).
     */
    private Mismatch voteOrder(int k, SpecState post, long leader, Set<Object> quorum) {
        Zab l = zab(leader);
        for (Object o : quorum) {
            long j = SpecState.server(o);
            Zab v = zab(j);
            boolean tie = v.currentEpoch() == l.currentEpoch() && v.lastLoggedZxid() == l.lastLoggedZxid();
            if (j != leader && !tie && ElectionOracle.prefers(v, j, v.lastLoggedZxid(), v.currentEpoch(), leader,
                    l.lastLoggedZxid(), l.currentEpoch())) {
                return new Mismatch(k, post.action(), "server " + j + "'s election ranks its own vote (epoch "
                        + v.currentEpoch() + ", zxid " + Zxids.show(v.lastLoggedZxid()) + ") above leader " + leader
                        + "'s (epoch " + l.currentEpoch() + ", zxid " + Zxids.show(l.lastLoggedZxid())
                        + "), which Zab.tla's vote order ranks below", describeSpec(post), describeCode());
            }
        }
        return null;
    }

    private Zab zab(long i) {
        ReplayNode n = nodes.get(i);
        if (!n.isUp()) {
            throw new IllegalStateException("server " + i + " is down in the code");
        }
        return n.zab();
    }

    private Mismatch deliver(int k, SpecState post, long from, long to, Class<? extends Message> type) {
        Deque<Message> ch = net.channel(from, to);
        if (ch.isEmpty() || !type.isInstance(ch.peekFirst())) {
            return new Mismatch(k, post.action(), "the code's channel " + from + "->" + to + " holds "
                    + (ch.isEmpty() ? "nothing" : "at its head " + ch.peekFirst()) + " where the spec receives a "
                    + type.getSimpleName(), describeSpec(post), describeCode());
        }
        Message m = ch.pollFirst();
        nodes.get(to).receive(from, m);
        return null;
    }

    /** DIFF and SNAP carry the transactions in the spec; in the code they are the PROPOSALs that follow (D5). */
    private Mismatch deliverSync(int k, SpecState post, long from, long to, Class<? extends Message> type) {
        Mismatch m = deliver(k, post, from, to, type);
        Deque<Message> ch = net.channel(from, to);
        while (m == null && !ch.isEmpty() && ch.peekFirst() instanceof Message.Proposal) {
            m = deliver(k, post, from, to, Message.Proposal.class);
        }
        return m;
    }

    // ================================================================== comparison

    private Mismatch compare(int k, SpecState pre, SpecState spec) {
        List<String> diffs = new ArrayList<>();
        for (long i : spec.servers()) {
            compareServer(spec, i, diffs);
            for (long j : spec.servers()) {
                if (i != j) {
                    List<String> want = specChannel(spec, j, i);
                    List<String> got = codeChannel(j, i);
                    if (!want.equals(got)) {
                        diffs.add("channel " + j + "->" + i + ": spec " + want + ", code " + got);
                    }
                }
            }
        }
        if (diffs.isEmpty()) {
            return null;
        }
        return new Mismatch(k, spec.action(), String.join("; ", diffs), describeSpec(spec), describeCode(),
                pre != null && isD17(pre, spec, diffs) ? "D17" : null);
    }

    private static final java.util.regex.Pattern SERVER_DIFF =
            java.util.regex.Pattern.compile("^server (\\d+) (history|durable|history on disk): .*");

    /**
     * D17 (open, spec/README.md): the code keeps the entries a follower synced before NEWLEADER, where the
     * spec drops what was not durable when the follower leaves synchronization (ZOOKEEPER-3642's fix) and
     * makes a SNAP durable only at NEWLEADER. Only when every difference is that: the history or durable
     * prefix of such a follower, holding more of the synced history than the spec keeps.
     */
    private boolean isD17(SpecState pre, SpecState post, List<String> diffs) {
        for (String d : diffs) {
            java.util.regex.Matcher m = SERVER_DIFF.matcher(d);
            if (!m.matches()) {
                return false;
            }
            long s = Long.parseLong(m.group(1));
            ReplayNode n = nodes.get(s);
            boolean snapDurable = post.actionName().equals("FollowerProcessSNAP")
                    && SpecState.server(post.actionArgs().get(0)) == s && m.group(2).equals("durable")
                    && n.durableCount() > post.durable(s);
            boolean leftSync = pre.up(s) && pre.state(s).equals("FOLLOWING") && pre.zabState(s).equals("SYNCHRONIZATION")
                    && pre.durable(s) < pre.history(s).size() && (!post.up(s) || !post.state(s).equals("FOLLOWING"));
            List<Long> kept = n.isUp() ? n.history() : n.diskHistory();
            List<Long> synced = pre.history(s);
            boolean keptSynced = kept.size() > post.history(s).size() && kept.size() <= synced.size()
                    && kept.equals(synced.subList(0, kept.size()));
            if (!snapDurable && !(leftSync && (keptSynced || m.group(2).equals("durable")))) {
                return false;
            }
        }
        return true;
    }

    private void compareServer(SpecState spec, long i, List<String> diffs) {
        ReplayNode n = nodes.get(i);
        String who = "server " + i + " ";
        if (!spec.up(i)) {
            if (n.isUp()) {
                diffs.add(who + "is up in the code, down in the spec");
                return;
            }
            expect(diffs, who + "acceptedEpoch on disk", spec.acceptedEpoch(i), n.diskAcceptedEpoch());
            expect(diffs, who + "currentEpoch on disk", spec.currentEpoch(i), n.diskCurrentEpoch());
            expect(diffs, who + "history on disk", Zxids.show(spec.history(i)), Zxids.show(n.diskHistory()));
            return;
        }
        if (!n.isUp()) {
            diffs.add(who + "is down in the code, up in the spec");
            return;
        }
        Zab z = n.zab();
        expect(diffs, who + "state", spec.state(i), z.state().name());
        String zabState = z.zabState().name();
        if (spec.zabState(i).equals("DISCOVERY") && zabState.equals("SYNCHRONIZATION") && spec.state(i).equals("FOLLOWING")
                && leaderInfoTaken.contains(i)) {
            zabState = "DISCOVERY"; // D8: the code's follower is in SYNCHRONIZATION from LEADERINFO on
        }
        expect(diffs, who + "zabState", spec.zabState(i), zabState);
        expect(diffs, who + "leaderOf", spec.leaderOf(i), z.leader());
        expect(diffs, who + "acceptedEpoch", spec.acceptedEpoch(i), z.acceptedEpoch());
        expect(diffs, who + "currentEpoch", spec.currentEpoch(i), z.currentEpoch());
        expect(diffs, who + "history", Zxids.show(spec.history(i)), Zxids.show(n.history()));
        expect(diffs, who + "durable", spec.durable(i), n.durableCount());
        if (z.lastPersisted() > n.durableLastZxid()) {
            diffs.add(who + "takes its log as durable through " + Zxids.show(z.lastPersisted()) + ", the disk holds it"
                    + " only through " + Zxids.show(n.durableLastZxid()));
        }
        // lastCommitted: what the code knows committed. The spec's restart reloads nothing, the code re-applies
        // its snapshot (M4); a follower's sync packet carries the leader's commit point in the spec, the code's
        // follower learns it with UPTODATE or a COMMIT (M5), so until then it may know less, also after it left.
        int specCommitted = Math.max(spec.lastCommitted(i), n.recoveredApplied());
        int codeCommitted = n.committedCount();
        if (codeCommitted == specCommitted) {
            commitFromSyncPacket.remove(i);
        }
        boolean behind = commitFromSyncPacket.contains(i);
        if (behind ? codeCommitted > specCommitted : codeCommitted != specCommitted) {
            diffs.add(who + "lastCommitted: spec " + specCommitted + ", code " + codeCommitted
                    + (behind ? " (after a sync packet the code may know less, never more)" : ""));
        }
        // Delivery: the code delivers only what is committed and durable (D4); never what the spec has not committed.
        if (n.delivered() > specCommitted) {
            diffs.add(who + "delivered " + n.delivered() + " entries, beyond the spec's lastCommitted " + specCommitted);
        }
    }

    private static void expect(List<String> diffs, String what, Object spec, Object code) {
        if (!spec.equals(code)) {
            diffs.add(what + ": spec " + spec + ", code " + code);
        }
    }

    /** The spec's channel from j to i, one line per message, in the fields both sides have. */
    private static List<String> specChannel(SpecState spec, long from, long to) {
        List<String> out = new ArrayList<>();
        for (Map<Object, Object> m : spec.channel(from, to)) {
            String type = (String) m.get("mtype");
            out.add(switch (type) {
                case "FOLLOWERINFO", "LEADERINFO" -> type + " " + m.get("epoch");
                case "ACKEPOCH" -> type + " " + ((Boolean) m.get("fresh") ? m.get("epoch") : "-1") + " "
                        + Zxids.show(SpecState.zxid(m.get("zxid")));
                case "DIFF", "SNAP" -> type + " " + Zxids.show(txnZxids(m.get("txns")));
                case "TRUNC" -> type + " " + Zxids.show(SpecState.zxid(m.get("zxid")));
                case "PROPOSAL" -> type + " " + Zxids.show(txnZxid(m.get("txn")));
                case "COMMIT" -> type + " " + Zxids.show(SpecState.zxid(m.get("zxid")));
                case "ACKLD", "ACK" -> "ACK " + Zxids.show(ackedZxid(spec, from, ((Long) m.get("len")).intValue()));
                default -> type;
            });
        }
        return out;
    }

    /**
     * The zxid an ACK of the sender's first len entries acknowledges: its history only grows while it
     * follows the leader the ACK went to (leaving it clears the channel).
     */
    private static long ackedZxid(SpecState spec, long from, int len) {
        List<Long> h = spec.history(from);
        assert len <= h.size() : "ACK of " + len + " entries from a history of " + h.size();
        return len == 0 ? 0 : h.get(len - 1);
    }

    @SuppressWarnings("unchecked")
    private static List<Long> txnZxids(Object txns) {
        List<Long> z = new ArrayList<>();
        for (Object t : (List<Object>) txns) {
            z.add(txnZxid(t));
        }
        return z;
    }

    @SuppressWarnings("unchecked")
    private static long txnZxid(Object txn) {
        return SpecState.zxid(((Map<Object, Object>) txn).get("zxid"));
    }

    /** The code's channel in the spec's shape: DIFF/SNAP with the PROPOSALs that follow them (D5). */
    private List<String> codeChannel(long from, long to) {
        List<String> out = new ArrayList<>();
        List<Long> sync = null;
        String syncType = null;
        for (Message m : net.channel(from, to)) {
            if (sync != null && m instanceof Message.Proposal p) {
                sync.add(p.txn().zxid());
                continue;
            }
            if (sync != null) {
                out.add(syncType + " " + Zxids.show(sync));
                sync = null;
            }
            if (m instanceof Message.Diff) {
                sync = new ArrayList<>();
                syncType = "DIFF";
            } else if (m instanceof Message.Snap s) {
                sync = new ArrayList<>(ReplayNode.decode(s.snapshot()));
                syncType = "SNAP";
            } else {
                out.add(describe(m));
            }
        }
        if (sync != null) {
            out.add(syncType + " " + Zxids.show(sync));
        }
        return out;
    }

    private static String describe(Message m) {
        if (m instanceof Message.FollowerInfo fi) {
            return "FOLLOWERINFO " + fi.acceptedEpoch();
        } else if (m instanceof Message.LeaderInfo li) {
            return "LEADERINFO " + li.newEpoch();
        } else if (m instanceof Message.AckEpoch ae) {
            return "ACKEPOCH " + ae.currentEpoch() + " " + Zxids.show(ae.lastZxid());
        } else if (m instanceof Message.Trunc t) {
            return "TRUNC " + Zxids.show(t.zxid());
        } else if (m instanceof Message.Proposal p) {
            return "PROPOSAL " + Zxids.show(p.txn().zxid());
        } else if (m instanceof Message.Commit c) {
            return "COMMIT " + Zxids.show(c.zxid());
        } else if (m instanceof Message.NewLeader) {
            return "NEWLEADER";
        } else if (m instanceof Message.UpToDate) {
            return "UPTODATE";
        } else if (m instanceof Message.Ack a) {
            return "ACK " + Zxids.show(a.zxid());
        }
        return m.getClass().getSimpleName();
    }

    // ================================================================== reports

    private static String describeSpec(SpecState spec) {
        StringBuilder b = new StringBuilder();
        for (long i : spec.servers()) {
            b.append(i).append(": ").append(spec.describe(i)).append('\n');
        }
        return b.toString().strip();
    }

    private String describeCode() {
        StringBuilder b = new StringBuilder();
        for (ReplayNode n : nodes.values()) {
            b.append(n.id()).append(": ");
            if (!n.isUp()) {
                b.append("down; disk acceptedEpoch=").append(n.diskAcceptedEpoch()).append(" currentEpoch=")
                        .append(n.diskCurrentEpoch()).append(" history=").append(Zxids.show(n.diskHistory()));
            } else {
                Zab z = n.zab();
                b.append("state=").append(z.state()).append(" zabState=").append(z.zabState()).append(" leader=")
                        .append(z.leader()).append(" acceptedEpoch=").append(z.acceptedEpoch()).append(" currentEpoch=")
                        .append(z.currentEpoch()).append(" history=").append(Zxids.show(n.history())).append(" durable=")
                        .append(n.durableCount()).append(" committed=").append(n.committedCount()).append(" delivered=").append(n.delivered());
            }
            b.append('\n');
        }
        return b.toString().strip();
    }
}
