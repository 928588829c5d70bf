package io.zabkit.bench.papers;

import io.zabkit.bench.Ensemble;
import io.zabkit.bench.FourLetterWord;
import java.net.InetSocketAddress;

/**
 * zabkit's server-side abdelivery latency (seed 003, section 3: from a server's receipt of a client's write
 * to its reply once it has delivered it), read from mntr's zabkit_write_latency_count and
 * zabkit_write_latency_sum_ms on every server and summed: each write is counted once, at the server its
 * client sent it to. Apache ZooKeeper has no such figure (its zk_avg_latency mixes reads and writes), so
 * for it the experiment uses the client-observed write latency.
 */
final class WriteLatencyProbe {
    static final String COUNT = "zabkit_write_latency_count";
    static final String SUM_MS = "zabkit_write_latency_sum_ms";
    private static final int TIMEOUT_MS = 2000;

    /** Cumulative writes answered and their summed latency, over the servers asked. */
    record Snapshot(long writes, long sumMs) {
        static final Snapshot ZERO = new Snapshot(0, 0);

        Snapshot plus(Snapshot o) {
            return new Snapshot(writes + o.writes, sumMs + o.sumMs);
        }

        /** The mean latency of the writes answered between earlier and this; NaN if none. */
        double meanMsSince(Snapshot earlier) {
            long n = writes - earlier.writes;
            if (n < 0 || sumMs < earlier.sumMs) {
                throw new IllegalStateException("a server's write latency counters went back (srst or a restart?): "
                        + earlier + " then " + this);
            }
            return n == 0 ? Double.NaN : (double) (sumMs - earlier.sumMs) / n;
        }
    }

    private WriteLatencyProbe() {}

    /** The two figures from one server's mntr reply; an error naming what is missing otherwise. */
    static Snapshot parse(String mntr) {
        Long count = null;
        Long sum = null;
        for (String line : mntr.split("\n")) {
            String[] kv = line.strip().split("\t");
            if (kv.length != 2) {
                continue;
            }
            if (kv[0].equals(COUNT)) {
                count = Long.parseLong(kv[1].strip());
            } else if (kv[0].equals(SUM_MS)) {
                sum = Long.parseLong(kv[1].strip());
            }
        }
        if (count == null || sum == null) {
            throw new IllegalArgumentException("mntr has no " + (count == null ? COUNT : SUM_MS)
                    + " (a zabkit server older than this measurement, or not zabkit?):\n" + mntr);
        }
        if (count < 0 || sum < 0) {
            throw new IllegalArgumentException("negative write latency figures in mntr: " + count + ", " + sum);
        }
        return new Snapshot(count, sum);
    }

    /** The sum over every server of the ensemble (zabkit only). */
    static Snapshot read(Ensemble e) {
        Snapshot total = Snapshot.ZERO;
        for (int id : e.ids()) {
            total = total.plus(parse(mntr(e.clientAddress(id))));
        }
        return total;
    }

    private static String mntr(InetSocketAddress address) {
        return FourLetterWord.send(address, "mntr", TIMEOUT_MS, TIMEOUT_MS)
                .orElseThrow(() -> new IllegalStateException("mntr of " + address + " got no reply within "
                        + TIMEOUT_MS + " ms (server down or not serving?)"));
    }
}
