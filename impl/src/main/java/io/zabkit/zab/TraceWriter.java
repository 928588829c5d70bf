package io.zabkit.zab;

import io.zabkit.txn.Txn;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link Tracer} steps as JSON lines for spec/trace.py. A server's in-memory history is trimmed
 * below what it applied, so the writer keeps each server's whole log of zxids (the spec's history):
 * what it knew below the server's floor, then what the server holds. One writer may serve a whole
 * simulated ensemble (steps of one thread) or one production server.
 */
public final class TraceWriter implements Tracer {
    private final PrintStream out;
    private final Map<Long, List<Long>> logs = new HashMap<>();
    private long lines;

    public TraceWriter(PrintStream out) {
        this.out = out;
    }

    @Override
    public synchronized void step(String action, long peer, long mark, Zab zab) {
        List<Long> log = wholeLog(zab, peer);
        StringBuilder b = new StringBuilder(160);
        b.append("{\"node\":").append(zab.self).append(",\"action\":\"").append(action).append('"')
                .append(",\"peer\":").append(peer).append(",\"mark\":").append(mark < 0 ? -1 : indexOf(log, mark))
                .append(",\"state\":\"").append(zab.state()).append('"')
                .append(",\"zabState\":\"").append(zab.zabState()).append('"')
                .append(",\"acceptedEpoch\":").append(zab.acceptedEpoch)
                .append(",\"currentEpoch\":").append(zab.currentEpoch)
                .append(",\"durable\":").append(indexOf(log, zab.lastPersisted))
                .append(",\"delivered\":").append(indexOf(log, zab.replica.lastProcessedZxid()))
                .append(zab.traceZabBit < 0 ? "" : ",\"zab\":" + zab.traceZabBit)
                .append(",\"history\":[");
        for (int k = 0; k < log.size(); k++) {
            long z = log.get(k);
            b.append(k == 0 ? "" : ",").append('[').append(Txn.epochOf(z)).append(',').append(Txn.counterOf(z)).append(']');
        }
        out.println(b.append("]}"));
        lines++;
    }

    public synchronized long lines() {
        return lines;
    }

    /** What the server knew below its floor (its own earlier log, or the SNAP sender's), then what it holds. */
    private List<Long> wholeLog(Zab zab, long peer) {
        long floor = zab.history.floor();
        List<Long> known = logs.getOrDefault(zab.self, List.of());
        List<Long> prefix = prefixThrough(known, floor);
        if (prefix == null && logs.containsKey(peer)) {
            prefix = prefixThrough(logs.get(peer), floor);
        }
        if (prefix == null) {
            prefix = new ArrayList<>(); // unknown below the floor: a recovered server; the spec sees its log from here
        }
        List<Long> log = new ArrayList<>(prefix);
        for (Txn t : zab.history.range(floor, zab.history.lastZxid())) {
            log.add(t.zxid());
        }
        logs.put(zab.self, log);
        return log;
    }

    private static List<Long> prefixThrough(List<Long> log, long floor) {
        List<Long> p = new ArrayList<>();
        for (long z : log) {
            if (z > floor) {
                break;
            }
            p.add(z);
        }
        return floor == 0 || !p.isEmpty() && p.get(p.size() - 1) == floor ? p : null;
    }

    /** How many entries of log are at or below zxid: the spec's index of it. */
    private static int indexOf(List<Long> log, long zxid) {
        int n = 0;
        for (long z : log) {
            if (z > zxid) {
                break;
            }
            n++;
        }
        return n;
    }
}
