package io.zabkit.bench.avail;

import java.util.List;

/**
 * One round's window cut into consecutive phases at its median client, in ms. The boundaries are
 * the servers' milestones (leader faults only) and the median client's times, each taken no earlier
 * than the one before, so the bars add up to the median window:
 * detection (kill to the first survivor LOOKING; for a follower kill, to the client seeing the loss),
 * election (to the new leader's LEADING), discovery + sync (to it serving), reconnect (to the median
 * renewed session, including the client's back-off), re-registration (to SetWatches acknowledged),
 * delivery (to the first post-fault change).
 */
record Phases(double[] ms) {
    static final List<String> NAMES = List.of("detection", "election", "discovery + sync",
            "client reconnect + session", "watch re-registration", "first change delivered");

    static Phases of(Round r, ServerMilestones m) {
        List<ClientWindow> a = r.affected();
        double detect = median(a.stream().map(ClientWindow::detectMs).toList());
        double session = median(a.stream().map(ClientWindow::sessionMs).toList());
        double rewatch = median(a.stream().map(ClientWindow::rewatchMs).toList());
        double window = median(a.stream().map(ClientWindow::windowMs).toList());
        double[] bounds = r.fault().hitsLeader()
                ? new double[] {m.lookingMs(), m.electedMs(), m.servingMs(), session, rewatch, window}
                : new double[] {detect, Double.NaN, Double.NaN, session, rewatch, window};
        double[] out = new double[bounds.length];
        double prev = 0;
        for (int i = 0; i < bounds.length; i++) {
            double b = Double.isNaN(bounds[i]) ? prev : Math.max(prev, bounds[i]);
            out[i] = b - prev;
            prev = b;
        }
        assert Double.isNaN(window) || Math.abs(prev - Math.max(window, 0)) < 1e-6 || prev > window
                : "phases do not add up to the window";
        return new Phases(out);
    }

    private static double median(List<Double> v) {
        return Stats.of(v).median();
    }
}
