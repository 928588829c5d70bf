package io.zabkit.sim;

import io.zabkit.txn.Txn;
import io.zabkit.wire.OpCode;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.zookeeper.txn.MultiTxn;

/**
 * What really happened to every operation whose outcome the history leaves open: each write that
 * completed {@code :info} (or never completed) and each {@code :session-expired} without a zxid. At
 * the end of a run the committed chain says, for each, the zxid of its transaction or that it has
 * none ({@code :absent}). Written beside the history as {@code NAME.truth.edn}, so a test can compare
 * a checker's placements with the truth; the checker never reads it.
 *
 * <p>A write's transaction is found by (session, cxid): the simulated client numbers its requests
 * with one counter for its whole life, so the pair names one request.
 */
final class GroundTruth {
    /** An open operation: the history index that keys it (its :invoke line, or the expiry line itself). */
    private record Open(int index, String f, long session, int xid, boolean sessionEnd) {}

    private final Map<ClientOp, Integer> invokedWrites = new IdentityHashMap<>();
    private final List<Open> open = new ArrayList<>();

    void invoked(ClientOp op, int index) {
        if (op.kind.isWrite()) {
            invokedWrites.put(op, index);
        }
    }

    void completed(ClientOp op) {
        Integer index = invokedWrites.remove(op);
        assert index != null || !op.kind.isWrite() : "a write completed that was never invoked: " + op.describe();
        if (index != null && op.outcome == ClientOp.Outcome.INFO) {
            open.add(new Open(index, op.kind.edn, op.session, op.xid, false));
        }
    }

    /** A session end the history writes without a zxid, at history line {@code index}. */
    void sessionEndWithoutZxid(long session, int index) {
        open.add(new Open(index, "session-expired", session, 0, true));
    }

    int openCount() {
        return open.size() + invokedWrites.size();
    }

    /**
     * Writes the truth: {@code :placements} maps each open operation's index to the zxid of its
     * transaction in {@code chain} or {@code :absent}; {@code :error-txns} lists the indexes whose
     * transaction is an error transaction (it took a zxid but changed no znode, so "absent" describes
     * its effect equally well).
     */
    void write(Path file, List<Txn> chain, String source) throws IOException {
        Map<Long, Map<Integer, Txn>> bySessionXid = new HashMap<>();
        Map<Long, Txn> lastClose = new HashMap<>();
        for (Txn t : chain) {
            Txn before = bySessionXid.computeIfAbsent(t.sessionId(), s -> new HashMap<>()).put(t.cxid(), t);
            assert before == null || t.type() == OpCode.CLOSE_SESSION || t.cxid() == 0
                    : "two transactions of one request: " + before + " and " + t;
            if (t.type() == OpCode.CLOSE_SESSION) {
                lastClose.put(t.sessionId(), t);
            }
        }
        List<Open> all = new ArrayList<>(open);
        invokedWrites.forEach((op, index) -> all.add(new Open(index, op.kind.edn, op.session, op.xid, false)));
        TreeMap<Integer, String> placements = new TreeMap<>();
        TreeMap<Integer, String> kinds = new TreeMap<>();
        List<Integer> errorTxns = new ArrayList<>();
        for (Open o : all) {
            Txn t = o.sessionEnd() ? lastClose.get(o.session())
                    : bySessionXid.getOrDefault(o.session(), Map.of()).get(o.xid());
            String previous = placements.put(o.index(), t == null ? ":absent" : String.valueOf(t.zxid()));
            assert previous == null : "two open operations keyed by history index " + o.index();
            kinds.put(o.index(), ":" + o.f());
            if (t != null && !changesTheTree(t)) {
                errorTxns.add(o.index());
            }
        }
        long last = chain.isEmpty() ? 0 : chain.get(chain.size() - 1).zxid();
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("{:format :zabkit.truth/v1\n :source " + History.str(source) + "\n :chain-last-zxid " + last + "\n");
            w.write(" :placements {");
            writeMap(w, placements);
            w.write("}\n :f {");
            writeMap(w, kinds);
            w.write("}\n :error-txns #{");
            for (int i = 0; i < errorTxns.size(); i++) {
                w.write((i == 0 ? "" : " ") + errorTxns.get(i));
            }
            w.write("}}\n");
        }
    }

    private static void writeMap(Writer w, Map<Integer, String> m) throws IOException {
        boolean first = true;
        for (Map.Entry<Integer, String> e : m.entrySet()) {
            w.write((first ? "" : ", ") + e.getKey() + " " + e.getValue());
            first = false;
        }
    }

    /** False for an error transaction, and for a multi that failed (all or nothing: it changed nothing). */
    private static boolean changesTheTree(Txn t) {
        if (t.type() == OpCode.ERROR) {
            return false;
        }
        if (t.type() == OpCode.MULTI) {
            for (org.apache.zookeeper.txn.Txn sub : ((MultiTxn) t.body()).getTxns()) {
                if (sub.getType() == OpCode.ERROR) {
                    return false;
                }
            }
        }
        return true;
    }
}
