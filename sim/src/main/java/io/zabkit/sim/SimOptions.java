package io.zabkit.sim;

import io.zabkit.zab.Bug;
import io.zabkit.zab.Variant;
import io.zabkit.zab.ZabConfig;
import java.util.Locale;
import java.util.Set;

/**
 * Every knob of a run, drawn from the seed ("swarm" testing: each seed also picks which faults are
 * likely, so some runs crash often and others never). Units come last in the names.
 */
record SimOptions(
        long seed,
        int ticksMax,
        int quietTicksMax,
        int msPerTick,
        int clientCount,
        int pipelineDepth,
        int sessionTimeoutMs,
        int reconnectDelayTicksMax,
        double opProbability,
        double clientPauseProbability,
        int clientPauseTicksMax,
        int keyCount,
        double writeFraction,
        double multiProbability,
        double closeSessionProbability,
        double crashProbability,
        int restartDelayTicksMax,
        double tornWriteProbability,
        double syncDelayTicksMean,
        int syncDelayTicksMax,
        int snapCount,
        int snapRetainCount,
        double delayTicksMean,
        int delayTicksMax,
        double splitProbability,
        double coalesceProbability,
        double connectionBreakProbability,
        SimDisk.Mode diskMode,
        int serverCount,
        double partitionProbability,
        int partitionTicksMax,
        double peerDelayTicksMean,
        int peerDelayTicksMax,
        Variant variant,
        int committedLogCount,
        boolean honourFaultAssumption,
        double powerLossProbability,
        double discoveryCrashProbability,
        double clientMoveProbability,
        double windowCrashProbability,
        double syncAfterWriteProbability,
        double laggardMoveProbability,
        double abandonProbability,
        double snapRejoinProbability,
        boolean slowDisk,
        Set<Bug> bugs) {

    static final int TICK_TIME_MS = 100;

    /** Draws every option from the seed; {@code ticksMax} bounds the run's length. */
    static SimOptions fromSeed(long seed, int ticksMax, SimDisk.Mode diskMode) {
        Prng p = new Prng(seed ^ 0x5DEECE66DL);
        return new SimOptions(
                seed,
                ticksMax,
                400,
                10,
                p.between(1, 4),
                p.between(1, 4),
                p.between(3, 15) * 100,
                p.pick(new Integer[] {2, 10, 60, 200}),
                p.pick(0.1, 0.3, 0.7),
                p.pick(0.0, 0.0, 0.002, 0.01),
                p.pick(new Integer[] {20, 100, 300}),
                p.between(1, 6),
                p.pick(0.3, 0.6, 0.9),
                p.pick(0.0, 0.1, 0.25),
                p.pick(0.0, 0.0, 0.005, 0.02),
                p.pick(0.0, 0.002, 0.01, 0.03),
                p.pick(new Integer[] {1, 10, 50, 300}),
                p.pick(0.0, 0.5, 1.0),
                p.pick(0.0, 1.0, 4.0, 15.0),
                p.pick(new Integer[] {5, 20, 60}),
                p.between(2, 40),
                p.between(1, 3),
                p.pick(0.0, 1.0, 3.0, 8.0),
                p.pick(new Integer[] {5, 20, 50}),
                p.pick(0.0, 0.3, 0.8),
                p.pick(0.0, 0.5, 0.9),
                p.pick(0.0, 0.0, 0.001, 0.01),
                diskMode,
                1, 0.0, 0, 0.0, 1, Variant.Zab, ZabConfig.COMMITTED_LOG_COUNT, true, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, false, Set.of());
    }

    /**
     * An ensemble of {@code servers}: the standalone draws, then the ensemble's own from a second
     * stream (so a standalone seed means the same run as before): partitions, peer link delays, and
     * crashes per server.
     */
    static SimOptions fromSeed(long seed, int ticksMax, SimDisk.Mode diskMode, int servers, Variant variant) {
        SimOptions base = fromSeed(seed, ticksMax, diskMode);
        Prng p = new Prng(seed ^ 0x2AB3E5EL);
        double crash = p.pick(0.0, 0.002, 0.005, 0.01);
        int restartDelay = p.pick(new Integer[] {10, 50, 200});
        double clientDelayMean = p.pick(0.0, 1.0, 2.0);
        int clientDelayMax = p.pick(new Integer[] {3, 8, 15});
        double partition = p.pick(0.0, 0.002, 0.005);
        int partitionTicks = p.pick(new Integer[] {30, 100, 300});
        double peerLinkDelayMean = p.pick(0.0, 0.5, 2.0);
        int peerLinkDelayMax = p.pick(new Integer[] {2, 5, 10});
        int committedLog = p.pick(new Integer[] {3, 30, ZabConfig.COMMITTED_LOG_COUNT});
        // Targeted scenarios, from a third stream so that the draws above keep their meaning; half the
        // seeds run without each, and keep the traces they had before the scenario existed.
        Prng targeted = new Prng(seed ^ 0x7A4B1C3DL);
        double discoveryCrash = targeted.pick(0.0, 0.0, 0.1, 0.3);
        double clientMove = targeted.pick(0.0, 0.0, 0.5, 1.0);
        double windowCrash = targeted.pick(0.0, 0.0, 0.3, 1.0);
        double syncAfterWrite = targeted.pick(0.0, 0.0, 1.0, 1.0);
        double laggardMove = targeted.pick(0.0, 0.0, 0.02, 0.1);
        double abandon = targeted.pick(0.0, 0.0, 0.003, 0.01);
        // Scenarios added later draw from streams of their own, so the draws above keep their values.
        double snapRejoin = new Prng(seed ^ 0x5A9BE11DL).pick(0.0, 0.0, 0.02, 0.1);
        boolean slowDisk = new Prng(seed ^ 0x51077D15L).chance(0.5);
        // the durability window is open only while fsyncs take time: its seeds have slow disks
        double syncDelayMean = windowCrash > 0 ? Math.max(base.syncDelayTicksMean, 4.0) : base.syncDelayTicksMean;
        int syncDelayMax = windowCrash > 0 ? Math.max(base.syncDelayTicksMax, 20) : base.syncDelayTicksMax;
        return new SimOptions(base.seed, base.ticksMax, 1_500, base.msPerTick, base.clientCount, base.pipelineDepth,
                base.sessionTimeoutMs, base.reconnectDelayTicksMax, base.opProbability, base.clientPauseProbability,
                base.clientPauseTicksMax, base.keyCount, base.writeFraction, base.multiProbability,
                base.closeSessionProbability, crash, restartDelay, base.tornWriteProbability, syncDelayMean,
                syncDelayMax, base.snapCount, base.snapRetainCount, clientDelayMean, clientDelayMax,
                base.splitProbability, base.coalesceProbability, base.connectionBreakProbability, diskMode, servers,
                partition, partitionTicks, peerLinkDelayMean, peerLinkDelayMax, variant, committedLog, true, crash / 10,
                discoveryCrash, clientMove, windowCrash, syncAfterWrite, laggardMove, abandon, snapRejoin, slowDisk,
                Set.of());
    }

    /** The same run with power losses of the whole ensemble at this rate per tick (and nothing else changed). */
    SimOptions withPowerLoss(double probability) {
        return new SimOptions(seed, ticksMax, quietTicksMax, msPerTick, clientCount, pipelineDepth, sessionTimeoutMs,
                reconnectDelayTicksMax, opProbability, clientPauseProbability, clientPauseTicksMax, keyCount,
                writeFraction, multiProbability, closeSessionProbability, crashProbability, restartDelayTicksMax,
                tornWriteProbability, syncDelayTicksMean, syncDelayTicksMax, snapCount, snapRetainCount, delayTicksMean,
                delayTicksMax, splitProbability, coalesceProbability, connectionBreakProbability, diskMode, serverCount,
                partitionProbability, partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant,
                committedLogCount, honourFaultAssumption, probability, discoveryCrashProbability, clientMoveProbability,
                windowCrashProbability, syncAfterWriteProbability, laggardMoveProbability, abandonProbability,
                snapRejoinProbability, slowDisk, bugs);
    }

    boolean ensemble() {
        return serverCount > 1;
    }

    /** The same run with NodeCrash forced on: for tests that need crashes whatever the seed drew. */
    SimOptions withCrashes(double crashProbability, int restartDelayTicksMax) {
        return new SimOptions(seed, ticksMax, quietTicksMax, msPerTick, clientCount, pipelineDepth, sessionTimeoutMs,
                reconnectDelayTicksMax, opProbability, clientPauseProbability, clientPauseTicksMax, keyCount,
                writeFraction, multiProbability, closeSessionProbability, crashProbability, restartDelayTicksMax,
                tornWriteProbability, syncDelayTicksMean, syncDelayTicksMax, snapCount, snapRetainCount, delayTicksMean,
                delayTicksMax, splitProbability, coalesceProbability, connectionBreakProbability, diskMode, serverCount,
                partitionProbability, partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant,
                committedLogCount, honourFaultAssumption, powerLossProbability, discoveryCrashProbability,
                clientMoveProbability, windowCrashProbability, syncAfterWriteProbability, laggardMoveProbability,
                abandonProbability, snapRejoinProbability, slowDisk, bugs);
    }

    /**
     * The same run without server faults (no crash, power loss, partition or slow disk): trace validation's
     * first shape.
     */
    SimOptions withoutServerFaults() {
        return new SimOptions(seed, ticksMax, quietTicksMax, msPerTick, clientCount, pipelineDepth, sessionTimeoutMs,
                reconnectDelayTicksMax, opProbability, clientPauseProbability, clientPauseTicksMax, keyCount,
                writeFraction, multiProbability, closeSessionProbability, 0.0, restartDelayTicksMax,
                tornWriteProbability, syncDelayTicksMean, syncDelayTicksMax, snapCount, snapRetainCount, delayTicksMean,
                delayTicksMax, splitProbability, coalesceProbability, connectionBreakProbability, diskMode, serverCount,
                0.0, partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant,
                committedLogCount, honourFaultAssumption, 0.0, 0.0, clientMoveProbability, 0.0, syncAfterWriteProbability,
                laggardMoveProbability, abandonProbability, 0.0, false, bugs);
    }

    /**
     * The same run, but the simulator crashes a fast-variant server whatever it has acknowledged from
     * memory: the variant's fault assumption no longer holds, and acknowledged writes may be lost.
     */
    SimOptions breakingTheFaultAssumption() {
        // Slow disks widen the window in which acknowledged entries live only in memory.
        return new SimOptions(seed, ticksMax, quietTicksMax, msPerTick, clientCount, pipelineDepth, sessionTimeoutMs,
                reconnectDelayTicksMax, opProbability, clientPauseProbability, clientPauseTicksMax, keyCount,
                writeFraction, multiProbability, closeSessionProbability, crashProbability, restartDelayTicksMax,
                tornWriteProbability, Math.max(syncDelayTicksMean, 15.0), Math.max(syncDelayTicksMax, 60), snapCount,
                snapRetainCount, delayTicksMean,
                delayTicksMax, splitProbability, coalesceProbability, connectionBreakProbability, diskMode, serverCount,
                partitionProbability, partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant,
                committedLogCount, false, powerLossProbability, discoveryCrashProbability, clientMoveProbability,
                windowCrashProbability, syncAfterWriteProbability, laggardMoveProbability, abandonProbability,
                snapRejoinProbability, slowDisk, bugs);
    }

    /**
     * The same seed without the targeted scenarios of issue 13 (durability-window crashes, syncs right
     * after a write, moves to a laggard): what a seed pinned before they existed ran, for regression
     * tests that must keep reaching their path ({@code --without-scenarios}).
     */
    SimOptions withoutTargetedScenarios() {
        assert windowCrashProbability == 0 || syncDelayTicksMean >= 4.0 : "a durability-window seed has slow disks";
        if (windowCrashProbability > 0) {
            throw new IllegalStateException("seed " + seed + " drew durability-window crashes, which also slowed its"
                    + " disks: it has no run from before the scenario; pin another seed");
        }
        return new SimOptions(seed, ticksMax, quietTicksMax, msPerTick, clientCount, pipelineDepth, sessionTimeoutMs,
                reconnectDelayTicksMax, opProbability, clientPauseProbability, clientPauseTicksMax, keyCount,
                writeFraction, multiProbability, closeSessionProbability, crashProbability, restartDelayTicksMax,
                tornWriteProbability, syncDelayTicksMean, syncDelayTicksMax, snapCount, snapRetainCount, delayTicksMean,
                delayTicksMax, splitProbability, coalesceProbability, connectionBreakProbability, diskMode, serverCount,
                partitionProbability, partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant,
                committedLogCount, honourFaultAssumption, powerLossProbability, discoveryCrashProbability,
                clientMoveProbability, 0.0, 0.0, 0.0, 0.0, 0.0, false, bugs);
    }

    /** Whether the targeted scenarios of issue 13 were turned off on a seed that drew some of them. */
    private boolean scenariosTurnedOff() {
        if (!ensemble() || windowCrashProbability + syncAfterWriteProbability + laggardMoveProbability
                + abandonProbability + snapRejoinProbability > 0 || slowDisk) {
            return false;
        }
        SimOptions drawn = fromSeed(seed, ticksMax, diskMode, serverCount, variant);
        return drawn.windowCrashProbability + drawn.syncAfterWriteProbability + drawn.laggardMoveProbability
                + drawn.abandonProbability + drawn.snapRejoinProbability > 0 || drawn.slowDisk;
    }

    /** The same run with or without the slow-disk scenario (for a seed pinned before it existed). */
    SimOptions withSlowDisk(boolean slow) {
        return new SimOptions(seed, ticksMax, quietTicksMax, msPerTick, clientCount, pipelineDepth, sessionTimeoutMs,
                reconnectDelayTicksMax, opProbability, clientPauseProbability, clientPauseTicksMax, keyCount,
                writeFraction, multiProbability, closeSessionProbability, crashProbability, restartDelayTicksMax,
                tornWriteProbability, syncDelayTicksMean, syncDelayTicksMax, snapCount, snapRetainCount, delayTicksMean,
                delayTicksMax, splitProbability, coalesceProbability, connectionBreakProbability, diskMode, serverCount,
                partitionProbability, partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant,
                committedLogCount, honourFaultAssumption, powerLossProbability, discoveryCrashProbability,
                clientMoveProbability, windowCrashProbability, syncAfterWriteProbability, laggardMoveProbability,
                abandonProbability, snapRejoinProbability, slow, bugs);
    }

    /** The same run with these bug-zoo switches planted in every server (nothing else changed). */
    SimOptions withBugs(Set<Bug> planted) {
        return new SimOptions(seed, ticksMax, quietTicksMax, msPerTick, clientCount, pipelineDepth, sessionTimeoutMs,
                reconnectDelayTicksMax, opProbability, clientPauseProbability, clientPauseTicksMax, keyCount,
                writeFraction, multiProbability, closeSessionProbability, crashProbability, restartDelayTicksMax,
                tornWriteProbability, syncDelayTicksMean, syncDelayTicksMax, snapCount, snapRetainCount, delayTicksMean,
                delayTicksMax, splitProbability, coalesceProbability, connectionBreakProbability, diskMode, serverCount,
                partitionProbability, partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant,
                committedLogCount, honourFaultAssumption, powerLossProbability, discoveryCrashProbability,
                clientMoveProbability, windowCrashProbability, syncAfterWriteProbability, laggardMoveProbability,
                abandonProbability, snapRejoinProbability, slowDisk, Set.copyOf(planted));
    }

    /** The VOPR-style header: the seed and every option it drew, one line. */
    String describe() {
        return String.format(Locale.ROOT, "SEED=%d ticksMax=%d msPerTick=%d clientCount=%d pipelineDepth=%d "
                        + "sessionTimeoutMs=%d reconnectDelayTicksMax=%d opProbability=%.3f clientPauseProbability=%.3f "
                        + "clientPauseTicksMax=%d keyCount=%d writeFraction=%.2f multiProbability=%.2f "
                        + "closeSessionProbability=%.3f crashProbability=%.3f restartDelayTicksMax=%d "
                        + "tornWriteProbability=%.2f syncDelayTicksMean=%.1f syncDelayTicksMax=%d snapCount=%d "
                        + "snapRetainCount=%d delayTicksMean=%.1f delayTicksMax=%d splitProbability=%.2f "
                        + "coalesceProbability=%.2f connectionBreakProbability=%.3f diskMode=%s servers=%d "
                        + "partitionProbability=%.3f partitionTicksMax=%d peerDelayTicksMean=%.1f peerDelayTicksMax=%d "
                        + "variant=%s committedLogCount=%d honourFaultAssumption=%b powerLossProbability=%.4f "
                        + "discoveryCrashProbability=%.2f clientMoveProbability=%.2f windowCrashProbability=%.2f "
                        + "syncAfterWriteProbability=%.2f laggardMoveProbability=%.3f abandonProbability=%.3f "
                        + "snapRejoinProbability=%.2f slowDisk=%b",
                seed, ticksMax, msPerTick, clientCount, pipelineDepth, sessionTimeoutMs, reconnectDelayTicksMax,
                opProbability, clientPauseProbability, clientPauseTicksMax, keyCount, writeFraction, multiProbability,
                closeSessionProbability, crashProbability, restartDelayTicksMax, tornWriteProbability,
                syncDelayTicksMean, syncDelayTicksMax, snapCount, snapRetainCount, delayTicksMean, delayTicksMax,
                splitProbability, coalesceProbability, connectionBreakProbability, diskMode, serverCount,
                partitionProbability, partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant,
                committedLogCount, honourFaultAssumption, powerLossProbability, discoveryCrashProbability,
                clientMoveProbability, windowCrashProbability, syncAfterWriteProbability, laggardMoveProbability,
                abandonProbability, snapRejoinProbability, slowDisk) + (bugs.isEmpty() ? "" : " bugs=" + bugs);
    }

    /** The simulator flags that re-create these options beyond the seed's draws ("" for none). */
    String simFlags() {
        StringBuilder s = new StringBuilder();
        if (!honourFaultAssumption) {
            s.append(" --break-fault-assumption");
        }
        if (scenariosTurnedOff()) {
            s.append(" --without-scenarios");
        }
        for (Bug b : new java.util.TreeSet<>(bugs)) {
            s.append(" --bug ").append(b.name());
        }
        return s.toString().trim();
    }

    SimNetwork.Options network() {
        return new SimNetwork.Options(delayTicksMean, delayTicksMax, splitProbability, coalesceProbability,
                connectionBreakProbability);
    }

    /** Server-to-server links: their own delays, the client network's random breaks. */
    SimNetwork.Options peerNetwork() {
        return new SimNetwork.Options(peerDelayTicksMean, peerDelayTicksMax, 0, 0, connectionBreakProbability / 4);
    }

    SimClient.Options client() {
        return new SimClient.Options(pipelineDepth, sessionTimeoutMs, reconnectDelayTicksMax, opProbability,
                clientPauseProbability, clientPauseTicksMax);
    }

    Workload.Options workload() {
        return new Workload.Options(keyCount, writeFraction, multiProbability, closeSessionProbability);
    }
}
