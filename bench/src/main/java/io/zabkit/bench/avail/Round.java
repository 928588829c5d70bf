package io.zabkit.bench.avail;

import io.zabkit.bench.SystemUnderTest;
import java.util.List;

/**
 * One fault on one ensemble with one fleet of watch clients.
 *
 * @param servingMs ms from the fault until srvr showed a new leader with a quorum (leader faults; NaN otherwise)
 * @param writeMs ms from the fault until the first write issued after it was acknowledged
 * @param clientCpuMsPerSecond the driver JVM's CPU per second of the round (writer and clients)
 * @param loadAverage the machine's 1-minute load average when the round ended
 */
record Round(SystemUnderTest system, String client, Fault fault, int clients, int victim, int oldLeader, int newLeader,
        double servingMs, double writeMs, List<ClientWindow> windows, List<ClientWindow> baseline,
        double clientCpuMsPerSecond, double loadAverage, long faultWallMs) {
    Round {
        assert windows.size() == clients : "one window per client";
        windows = List.copyOf(windows);
        baseline = List.copyOf(baseline);
    }

    /** The clients whose windows the figure shows: those that lost their connection. */
    List<ClientWindow> affected() {
        return windows.stream().filter(ClientWindow::lostConnection).toList();
    }

    long unmeasured() {
        return windows.stream().filter(w -> !w.measured()).count();
    }
}
