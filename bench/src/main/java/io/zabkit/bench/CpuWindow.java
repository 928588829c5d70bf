package io.zabkit.bench;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The CPU time the servers and the load client (this JVM) spend in one measuring window. Both are
 * printed because on a 2-core machine they share the cores: a point is server-bound only while the
 * client's share leaves the servers room, which the client's figure shows.
 */
final class CpuWindow {
    private final Supplier<Duration> serverCpu;
    private final Duration serverAtOpen;
    private final Duration clientAtOpen;

    private CpuWindow(Supplier<Duration> serverCpu) {
        this.serverCpu = serverCpu;
        this.serverAtOpen = serverCpu.get();
        this.clientAtOpen = clientCpu();
    }

    /** Opens the window: samples both now. */
    static CpuWindow open(Supplier<Duration> serverCpu) {
        return new CpuWindow(serverCpu);
    }

    /** Closes the window: {server ms, client ms} spent since it opened. */
    double[] closeMs() {
        double serverMs = serverCpu.get().minus(serverAtOpen).toNanos() / 1e6;
        double clientMs = clientCpu().minus(clientAtOpen).toNanos() / 1e6;
        assert serverMs >= 0 && clientMs >= 0 : "CPU time ran backwards: " + serverMs + ", " + clientMs;
        return new double[] {serverMs, clientMs};
    }

    private static Duration clientCpu() {
        return ProcessHandle.current().info().totalCpuDuration()
                .orElseThrow(() -> new IllegalStateException("the OS does not report this JVM's CPU time"));
    }
}
