package io.zabkit.sim;

import io.zabkit.wire.Err;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.zookeeper.data.Stat;

/**
 * The client history of a run in the project's EDN history format (one map per line: :index :type
 * :process :f :value :time plus :session :path :version :zxid :stat :error), so the checkers can read
 * simulator runs like campaign runs. Lines are only built when a file was asked for.
 */
final class History {
    private final boolean enabled;
    private final SimClock clock;
    private final List<String> lines = new ArrayList<>();
    /** The operations this history leaves open, for the ground-truth side file. */
    private final GroundTruth truth = new GroundTruth();
    private List<io.zabkit.txn.Txn> chainAtEnd;
    private int nextProcess;

    History(boolean enabled, SimClock clock) {
        this.enabled = enabled;
        this.clock = clock;
    }

    int newProcess() {
        return nextProcess++;
    }

    int size() {
        return lines.size();
    }

    /** The EDN lines so far (for handing a run's history to a checker without a file). */
    List<String> lines() {
        return List.copyOf(lines);
    }

    void invoke(ClientOp op) {
        if (enabled) {
            truth.invoked(op, lines.size());
            add(":invoke", String.valueOf(op.process), op.kind.edn, invokeValue(op), fields(op, false));
        }
    }

    void complete(ClientOp op) {
        if (enabled) {
            truth.completed(op);
            String type = ":" + op.outcome.name().toLowerCase(Locale.ROOT);
            add(type, String.valueOf(op.process), op.kind.edn, completeValue(op), fields(op, true));
        }
    }

    void watchEvent(int process, long session, String event, String path, long zxid) {
        if (enabled) {
            add(":ok", String.valueOf(process), "watch-event", "{:event :" + event + " :path " + str(path) + "}",
                    " :session " + session + " :path " + str(path) + " :zxid " + zxid);
        }
    }

    void session(int process, String f, long session) {
        if (enabled) {
            add(":ok", String.valueOf(process), f, "nil", " :session " + session);
        }
    }

    /** The client learned its session expired; {@code closeZxid} is the closeSession transaction's zxid, or -1. */
    void sessionExpired(int process, long session, long closeZxid) {
        if (enabled) {
            if (closeZxid < 0) {
                truth.sessionEndWithoutZxid(session, lines.size());
            }
            add(":ok", String.valueOf(process), "session-expired", "nil",
                    " :session " + session + (closeZxid >= 0 ? " :zxid " + closeZxid : ""));
        }
    }

    /** A fault: :process :nemesis, :type :info, :f a shared fault name (:NodeCrash, :NodeStart, ...), as the campaigns write it. */
    void nemesis(String f, String value) {
        if (enabled) {
            add(":info", ":nemesis", f, value, "");
        }
    }

    /**
     * NAME.truth.edn beside NAME.edn (or FILE.truth.edn): for every open operation, its zxid in the
     * committed {@code chain} or :absent (see {@link GroundTruth}).
     */
    void writeTruth(Path historyFile, String source) throws IOException {
        assert enabled && chainAtEnd != null : "no history was recorded, or the run has not ended";
        truth.write(truthFile(historyFile), chainAtEnd, source);
    }

    /** The run ended: {@code chain} is the committed chain the truth is read from. */
    void ended(List<io.zabkit.txn.Txn> chain) {
        if (enabled) {
            chainAtEnd = chain;
        }
    }

    static Path truthFile(Path historyFile) {
        String name = historyFile.getFileName().toString();
        String stem = name.endsWith(".edn") ? name.substring(0, name.length() - 4) : name;
        return historyFile.resolveSibling(stem + ".truth.edn");
    }

    void write(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (String line : lines) {
                w.write(line);
                w.write('\n');
            }
        }
    }

    // ------------------------------------------------------------------

    private void add(String type, String process, String f, String value, String extra) {
        long timeNs = clock.nowMs() * 1_000_000L;
        lines.add("{:index " + lines.size() + " :type " + type + " :process " + process + " :f :" + f
                + " :value " + value + " :time " + timeNs + extra + "}");
    }

    private static String invokeValue(ClientOp op) {
        switch (op.kind) {
            case CREATE:
                return "{:data " + str(op.dataString()) + " :mode :" + op.mode.edn + "}";
            case SET_DATA:
                return str(op.dataString());
            case MULTI:
                return subOps(op, false);
            case ADD_WATCH:
                return "{:mode " + (op.recursive ? ":persistent-recursive}" : ":persistent}");
            default:
                return "nil";
        }
    }

    private static String completeValue(ClientOp op) {
        if (op.outcome != ClientOp.Outcome.OK && op.kind != ClientOp.Kind.MULTI) {
            return invokeValue(op);
        }
        switch (op.kind) {
            case CREATE:
                return "{:data " + str(op.dataString()) + " :mode :" + op.mode.edn
                        + (op.createdPath == null ? "" : " :created-path " + str(op.createdPath)) + "}";
            case GET_DATA:
                return op.readData == null ? "nil" : str(new String(op.readData, StandardCharsets.UTF_8));
            case EXISTS:
                return op.stat == null ? "false" : "true";
            case GET_CHILDREN: {
                StringBuilder s = new StringBuilder("[");
                for (String c : op.children) {
                    s.append(s.length() == 1 ? "" : " ").append(str(c));
                }
                return s.append(']').toString();
            }
            case MULTI:
                return op.outcome == ClientOp.Outcome.INFO ? subOps(op, false) : subOps(op, true);
            default:
                return invokeValue(op);
        }
    }

    private static String subOps(ClientOp op, boolean withResults) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < op.ops.size(); i++) {
            ClientOp sub = op.ops.get(i);
            s.append(i == 0 ? "" : " ").append("{:f :").append(sub.kind.edn).append(" :path ").append(str(sub.path));
            if (sub.data != null) {
                s.append(" :data ").append(str(sub.dataString()));
            }
            if (sub.kind == ClientOp.Kind.CREATE) {
                s.append(" :mode :").append(sub.mode.edn);
            }
            if (sub.kind != ClientOp.Kind.CREATE) {
                s.append(" :version ").append(sub.version);
            }
            if (withResults && op.results != null && i < op.results.size()) {
                ClientCodec.MultiResult r = op.results.get(i);
                if (r.err() != Err.OK) {
                    s.append(" :error ").append(errorKeyword(r.err()));
                }
                if (r.path() != null) {
                    s.append(" :created-path ").append(str(r.path()));
                }
            }
            s.append('}');
        }
        return s.append(']').toString();
    }

    private static String fields(ClientOp op, boolean completion) {
        StringBuilder s = new StringBuilder(" :session ").append(op.session);
        if (op.path != null) {
            s.append(" :path ").append(str(op.path));
        }
        if (op.kind == ClientOp.Kind.SET_DATA || op.kind == ClientOp.Kind.DELETE) {
            s.append(" :version ").append(op.version);
        }
        if (op.watch) {
            s.append(" :watch true");
        }
        if (completion) {
            if (op.zxid >= 0) {
                s.append(" :zxid ").append(op.zxid);
            }
            if (op.stat != null) {
                s.append(" :stat ").append(stat(op.stat));
            }
            if (op.err != Err.OK && !(op.kind == ClientOp.Kind.EXISTS && op.outcome == ClientOp.Outcome.OK)) {
                s.append(" :error ").append(errorKeyword(op.err));
            }
        }
        return s.toString();
    }

    static String stat(Stat s) {
        return "{:czxid " + s.getCzxid() + " :mzxid " + s.getMzxid() + " :pzxid " + s.getPzxid() + " :ctime "
                + s.getCtime() + " :mtime " + s.getMtime() + " :version " + s.getVersion() + " :cversion "
                + s.getCversion() + " :aversion " + s.getAversion() + " :ephemeral-owner " + s.getEphemeralOwner()
                + " :data-length " + s.getDataLength() + " :num-children " + s.getNumChildren() + "}";
    }

    /** NoNode -> :no-node, BadVersion -> :bad-version, ConnectionLoss -> :connection-loss. */
    static String errorKeyword(int err) {
        String name = Err.name(err);
        StringBuilder s = new StringBuilder(":");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0 && !Character.isUpperCase(name.charAt(i - 1))) {
                    s.append('-');
                }
                s.append(Character.toLowerCase(c));
            } else if (Character.isLetterOrDigit(c)) {
                s.append(c);
            } else {
                s.append('-');
            }
        }
        return s.toString();
    }

    static String str(String s) {
        if (s == null) {
            return "nil";
        }
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.append('"').toString();
    }
}
