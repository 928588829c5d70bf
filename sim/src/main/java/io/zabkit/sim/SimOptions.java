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
        double snapCutProbability,
        SimElectionChannel.Options electionChannel,
        boolean rackPowerLoss,
        int observerCount,
        Set<Bug> bugs,
        boolean keepConnections) {

    static final int TICK_TIME_MS = 100;

    /** Draws every option from the seed; {@code ticksMax} bounds the run's length. */
    static SimOptions fromSeed(long seed, int ticksMax, SimDisk.Mode diskMode) {
        Prng p = new Prng(seed ^ 0x5DEECE66DL);
        Builder b = new Builder(seed, ticksMax, diskMode);
        // drawn in this order, one after the other from p: a seed's options depend on it
        b.clientCount = p.between(1, 4);
        b.pipelineDepth = p.between(1, 4);
        b.sessionTimeoutMs = p.between(3, 15) * 100;
        b.reconnectDelayTicksMax = p.pick(new Integer[] {2, 10, 60, 200});
        b.opProbability = p.pick(0.1, 0.3, 0.7);
        b.clientPauseProbability = p.pick(0.0, 0.0, 0.002, 0.01);
        b.clientPauseTicksMax = p.pick(new Integer[] {20, 100, 300});
        b.keyCount = p.between(1, 6);
        b.writeFraction = p.pick(0.3, 0.6, 0.9);
        b.multiProbability = p.pick(0.0, 0.1, 0.25);
        b.closeSessionProbability = p.pick(0.0, 0.0, 0.005, 0.02);
        b.crashProbability = p.pick(0.0, 0.002, 0.01, 0.03);
        b.restartDelayTicksMax = p.pick(new Integer[] {1, 10, 50, 300});
        b.tornWriteProbability = p.pick(0.0, 0.5, 1.0);
        b.syncDelayTicksMean = p.pick(0.0, 1.0, 4.0, 15.0);
        b.syncDelayTicksMax = p.pick(new Integer[] {5, 20, 60});
        b.snapCount = p.between(2, 40);
        b.snapRetainCount = p.between(1, 3);
        b.delayTicksMean = p.pick(0.0, 1.0, 3.0, 8.0);
        b.delayTicksMax = p.pick(new Integer[] {5, 20, 50});
        b.splitProbability = p.pick(0.0, 0.3, 0.8);
        b.coalesceProbability = p.pick(0.0, 0.5, 0.9);
        b.connectionBreakProbability = p.pick(0.0, 0.0, 0.001, 0.01);
        return b.build();
    }

    /**
     * An ensemble of {@code servers}: the standalone draws, then the ensemble's own from a second
     * stream (so a standalone seed means the same run as before): partitions, peer link delays, and
     * crashes per server.
     */
    static SimOptions fromSeed(long seed, int ticksMax, SimDisk.Mode diskMode, int servers, Variant variant) {
        Builder b = fromSeed(seed, ticksMax, diskMode).toBuilder();
        Prng p = new Prng(seed ^ 0x2AB3E5EL);
        b.quietTicksMax = 1_500;
        b.serverCount = servers;
        b.variant = variant;
        b.crashProbability = p.pick(0.0, 0.002, 0.005, 0.01);
        b.restartDelayTicksMax = p.pick(new Integer[] {10, 50, 200});
        b.delayTicksMean = p.pick(0.0, 1.0, 2.0);
        b.delayTicksMax = p.pick(new Integer[] {3, 8, 15});
        b.partitionProbability = p.pick(0.0, 0.002, 0.005);
        b.partitionTicksMax = p.pick(new Integer[] {30, 100, 300});
        b.peerDelayTicksMean = p.pick(0.0, 0.5, 2.0);
        b.peerDelayTicksMax = p.pick(new Integer[] {2, 5, 10});
        b.committedLogCount = p.pick(new Integer[] {3, 30, ZabConfig.COMMITTED_LOG_COUNT});
        b.powerLossProbability = b.crashProbability / 10;
        // Targeted scenarios, from a third stream so that the draws above keep their meaning; half the
        // seeds run without each, and keep the traces they had before the scenario existed.
        Prng targeted = new Prng(seed ^ 0x7A4B1C3DL);
        b.discoveryCrashProbability = targeted.pick(0.0, 0.0, 0.1, 0.3);
        b.clientMoveProbability = targeted.pick(0.0, 0.0, 0.5, 1.0);
        b.windowCrashProbability = targeted.pick(0.0, 0.0, 0.3, 1.0);
        b.syncAfterWriteProbability = targeted.pick(0.0, 0.0, 1.0, 1.0);
        b.laggardMoveProbability = targeted.pick(0.0, 0.0, 0.02, 0.1);
        b.abandonProbability = targeted.pick(0.0, 0.0, 0.003, 0.01);
        // Scenarios added later draw from streams of their own, so the draws above keep their values.
        b.snapRejoinProbability = new Prng(seed ^ 0x5A9BE11DL).pick(0.0, 0.0, 0.02, 0.1);
        b.slowDisk = new Prng(seed ^ 0x51077D15L).chance(0.5);
        b.snapCutProbability = new Prng(seed ^ 0x3642C07DL).pick(0.0, 0.0, 0.5, 1.0);
        // the durability window is open only while fsyncs take time: its seeds have slow disks
        if (b.windowCrashProbability > 0) {
            b.syncDelayTicksMean = Math.max(b.syncDelayTicksMean, 4.0);
            b.syncDelayTicksMax = Math.max(b.syncDelayTicksMax, 20);
        }
        return b.build();
    }

    /** The same run with power losses of the whole ensemble at this rate per tick (and nothing else changed). */
    SimOptions withPowerLoss(double probability) {
        Builder b = toBuilder();
        b.powerLossProbability = probability;
        return b.build();
    }

    boolean ensemble() {
        return serverCount > 1;
    }

    /** The same run with NodeCrash forced on: for tests that need crashes whatever the seed drew. */
    SimOptions withCrashes(double crashProbability, int restartDelayTicksMax) {
        Builder b = toBuilder();
        b.crashProbability = crashProbability;
        b.restartDelayTicksMax = restartDelayTicksMax;
        return b.build();
    }

    /**
     * The same run without server faults (no crash, power loss, partition or slow disk): trace validation's
     * first shape.
     */
    SimOptions withoutServerFaults() {
        Builder b = toBuilder();
        b.crashProbability = 0.0;
        b.partitionProbability = 0.0;
        b.powerLossProbability = 0.0;
        b.discoveryCrashProbability = 0.0;
        b.windowCrashProbability = 0.0;
        b.snapRejoinProbability = 0.0;
        b.slowDisk = false;
        b.snapCutProbability = 0.0;
        return b.build();
    }

    /**
     * The same run, but the simulator crashes a fast-variant server whatever it has acknowledged from
     * memory: the variant's fault assumption no longer holds, and acknowledged writes may be lost.
     */
    SimOptions breakingTheFaultAssumption() {
        // Slow disks widen the window in which acknowledged entries live only in memory.
        Builder b = toBuilder();
        b.syncDelayTicksMean = Math.max(syncDelayTicksMean, 15.0);
        b.syncDelayTicksMax = Math.max(syncDelayTicksMax, 60);
        b.honourFaultAssumption = false;
        return b.build();
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
        Builder b = toBuilder();
        b.windowCrashProbability = 0.0;
        b.syncAfterWriteProbability = 0.0;
        b.laggardMoveProbability = 0.0;
        b.abandonProbability = 0.0;
        b.snapRejoinProbability = 0.0;
        b.slowDisk = false;
        b.snapCutProbability = 0.0;
        return b.build();
    }

    /** Whether the targeted scenarios of issue 13 were turned off on a seed that drew some of them. */
    private boolean scenariosTurnedOff() {
        if (!ensemble() || windowCrashProbability + syncAfterWriteProbability + laggardMoveProbability
                + abandonProbability + snapRejoinProbability + snapCutProbability > 0 || slowDisk) {
            return false;
        }
        SimOptions drawn = fromSeed(seed, ticksMax, diskMode, serverCount, variant);
        return drawn.windowCrashProbability + drawn.syncAfterWriteProbability + drawn.laggardMoveProbability
                + drawn.abandonProbability + drawn.snapRejoinProbability + drawn.snapCutProbability > 0 || drawn.slowDisk;
    }

    /**
     * The same seed with election notifications on connections of their own ({@link SimElectionChannel},
     * drawn from a stream of their own; {@code --election-channel}): not drawn by CI's seeds, since it
     * slows elections and thins the bug zoo's catches (sim/README.md, "Not caught, and why").
     */
    SimOptions withElectionChannel() {
        assert ensemble() : "a standalone server has no election";
        Builder b = toBuilder();
        b.electionChannel = SimElectionChannel.Options.fromSeed(seed);
        return b.build();
    }

    /**
     * The same seed with the rack power-loss scenario ({@code --rack-power-loss}; sim/README.md): on a third
     * of the seeds that do not draw the durability window, a follower just sent NEWLEADER with its synced
     * history not yet on disk loses power together with its leader. Not drawn by CI's seeds, whose runs
     * (and the bug zoo's rows measured on them) it would move; the bug zoo runs it as shape {@code 3-rack}.
     */
    SimOptions withRackPowerLoss() {
        assert ensemble() : "a standalone server has no NEWLEADER";
        Builder b = toBuilder();
        b.rackPowerLoss = true;
        return b.build();
    }

    /** The same run with or without the slow-disk scenario (for a seed pinned before it existed). */
    SimOptions withSlowDisk(boolean slow) {
        Builder b = toBuilder();
        b.slowDisk = slow;
        return b.build();
    }

    /**
     * The same run with {@code observers} observers beside the {@code serverCount} voters (the last ids); no
     * draw changes, so a seed's faults and workload are the ones it has without them.
     */
    SimOptions withObservers(int observers) {
        assert observers >= 0 && (observers == 0 || ensemble()) : "observers beside one standalone server";
        Builder b = toBuilder();
        b.observerCount = observers;
        return b.build();
    }

    /** Voters and observers: every simulated server. */
    int memberCount() {
        return serverCount + observerCount;
    }

    /**
     * The same run with these bug-zoo switches planted in every server; a switch planted in keepConnections'
     * code (KEEP_*) turns keepConnections on, since without it the code never runs.
     */
    SimOptions withBugs(Set<Bug> planted) {
        Builder b = toBuilder();
        b.bugs = Set.copyOf(planted);
        b.keepConnections |= impliesKeepConnections(planted);
        return b.build();
    }

    static boolean impliesKeepConnections(Set<Bug> bugs) {
        return bugs.stream().anyMatch(b -> b.name().startsWith("KEEP_"));
    }

    /**
     * The same run with keepConnections in every server (issue 20 item 7): a server that loses its leader
     * keeps its clients' connections, and the clients, never disconnected, do not reconnect. The seed's draws
     * are unchanged, so a run differs from its switch-off twin only where a server lost its leader.
     */
    SimOptions withKeepConnections() {
        assert ensemble() : "a standalone server never loses its leader";
        Builder b = toBuilder();
        b.keepConnections = true;
        return b.build();
    }

    /**
     * The options as fields to set: the only place that lists them all for construction, so a new option
     * is added to the record, here (with its standalone default) and in {@link #toBuilder}.
     */
    static final class Builder {
        long seed;
        int ticksMax;
        int quietTicksMax = 400;
        int msPerTick = 10;
        int clientCount;
        int pipelineDepth;
        int sessionTimeoutMs;
        int reconnectDelayTicksMax;
        double opProbability;
        double clientPauseProbability;
        int clientPauseTicksMax;
        int keyCount;
        double writeFraction;
        double multiProbability;
        double closeSessionProbability;
        double crashProbability;
        int restartDelayTicksMax;
        double tornWriteProbability;
        double syncDelayTicksMean;
        int syncDelayTicksMax;
        int snapCount;
        int snapRetainCount;
        double delayTicksMean;
        int delayTicksMax;
        double splitProbability;
        double coalesceProbability;
        double connectionBreakProbability;
        SimDisk.Mode diskMode;
        int serverCount = 1;
        double partitionProbability;
        int partitionTicksMax;
        double peerDelayTicksMean;
        int peerDelayTicksMax = 1;
        Variant variant = Variant.Zab;
        int committedLogCount = ZabConfig.COMMITTED_LOG_COUNT;
        boolean honourFaultAssumption = true;
        double powerLossProbability;
        double discoveryCrashProbability;
        double clientMoveProbability;
        double windowCrashProbability;
        double syncAfterWriteProbability;
        double laggardMoveProbability;
        double abandonProbability;
        double snapRejoinProbability;
        boolean slowDisk;
        double snapCutProbability;
        /** Null: notifications share the quorum links (zabkit's own runtime); else {@link #withElectionChannel}. */
        SimElectionChannel.Options electionChannel;
        /** {@link #withRackPowerLoss}: the NEWLEADER-window power loss on the seeds without the durability window. */
        boolean rackPowerLoss;
        int observerCount;
        Set<Bug> bugs = Set.of();
        /** keepConnections (issue 20 item 7) in every server: {@link #withKeepConnections}. */
        boolean keepConnections;

        Builder(long seed, int ticksMax, SimDisk.Mode diskMode) {
            this.seed = seed;
            this.ticksMax = ticksMax;
            this.diskMode = diskMode;
        }

        SimOptions build() {
            return new SimOptions(seed, ticksMax, quietTicksMax, msPerTick, clientCount, pipelineDepth,
                    sessionTimeoutMs, reconnectDelayTicksMax, opProbability, clientPauseProbability,
                    clientPauseTicksMax, keyCount, writeFraction, multiProbability, closeSessionProbability,
                    crashProbability, restartDelayTicksMax, tornWriteProbability, syncDelayTicksMean,
                    syncDelayTicksMax, snapCount, snapRetainCount, delayTicksMean, delayTicksMax, splitProbability,
                    coalesceProbability, connectionBreakProbability, diskMode, serverCount, partitionProbability,
                    partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant, committedLogCount,
                    honourFaultAssumption, powerLossProbability, discoveryCrashProbability, clientMoveProbability,
                    windowCrashProbability, syncAfterWriteProbability, laggardMoveProbability, abandonProbability,
                    snapRejoinProbability, slowDisk, snapCutProbability, electionChannel, rackPowerLoss, observerCount, bugs,
                    keepConnections);
        }
    }

    /** A builder holding these options, to change some and build the rest unchanged. */
    Builder toBuilder() {
        Builder b = new Builder(seed, ticksMax, diskMode);
            b.seed = seed;
            b.ticksMax = ticksMax;
            b.quietTicksMax = quietTicksMax;
            b.msPerTick = msPerTick;
            b.clientCount = clientCount;
            b.pipelineDepth = pipelineDepth;
            b.sessionTimeoutMs = sessionTimeoutMs;
            b.reconnectDelayTicksMax = reconnectDelayTicksMax;
            b.opProbability = opProbability;
            b.clientPauseProbability = clientPauseProbability;
            b.clientPauseTicksMax = clientPauseTicksMax;
            b.keyCount = keyCount;
            b.writeFraction = writeFraction;
            b.multiProbability = multiProbability;
            b.closeSessionProbability = closeSessionProbability;
            b.crashProbability = crashProbability;
            b.restartDelayTicksMax = restartDelayTicksMax;
            b.tornWriteProbability = tornWriteProbability;
            b.syncDelayTicksMean = syncDelayTicksMean;
            b.syncDelayTicksMax = syncDelayTicksMax;
            b.snapCount = snapCount;
            b.snapRetainCount = snapRetainCount;
            b.delayTicksMean = delayTicksMean;
            b.delayTicksMax = delayTicksMax;
            b.splitProbability = splitProbability;
            b.coalesceProbability = coalesceProbability;
            b.connectionBreakProbability = connectionBreakProbability;
            b.diskMode = diskMode;
            b.serverCount = serverCount;
            b.partitionProbability = partitionProbability;
            b.partitionTicksMax = partitionTicksMax;
            b.peerDelayTicksMean = peerDelayTicksMean;
            b.peerDelayTicksMax = peerDelayTicksMax;
            b.variant = variant;
            b.committedLogCount = committedLogCount;
            b.honourFaultAssumption = honourFaultAssumption;
            b.powerLossProbability = powerLossProbability;
            b.discoveryCrashProbability = discoveryCrashProbability;
            b.clientMoveProbability = clientMoveProbability;
            b.windowCrashProbability = windowCrashProbability;
            b.syncAfterWriteProbability = syncAfterWriteProbability;
            b.laggardMoveProbability = laggardMoveProbability;
            b.abandonProbability = abandonProbability;
            b.snapRejoinProbability = snapRejoinProbability;
            b.slowDisk = slowDisk;
            b.snapCutProbability = snapCutProbability;
            b.electionChannel = electionChannel;
            b.rackPowerLoss = rackPowerLoss;
            b.observerCount = observerCount;
            b.bugs = bugs;
            b.keepConnections = keepConnections;
        return b;
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
                        + "snapRejoinProbability=%.2f slowDisk=%b snapCutProbability=%.2f",
                seed, ticksMax, msPerTick, clientCount, pipelineDepth, sessionTimeoutMs, reconnectDelayTicksMax,
                opProbability, clientPauseProbability, clientPauseTicksMax, keyCount, writeFraction, multiProbability,
                closeSessionProbability, crashProbability, restartDelayTicksMax, tornWriteProbability,
                syncDelayTicksMean, syncDelayTicksMax, snapCount, snapRetainCount, delayTicksMean, delayTicksMax,
                splitProbability, coalesceProbability, connectionBreakProbability, diskMode, serverCount,
                partitionProbability, partitionTicksMax, peerDelayTicksMean, peerDelayTicksMax, variant,
                committedLogCount, honourFaultAssumption, powerLossProbability, discoveryCrashProbability,
                clientMoveProbability, windowCrashProbability, syncAfterWriteProbability, laggardMoveProbability,
                abandonProbability, snapRejoinProbability, slowDisk, snapCutProbability)
                + (electionChannel == null ? "" : " " + electionChannel)
                + (rackPowerLoss ? " rackPowerLoss=true" : "")
                + (observerCount == 0 ? "" : " observers=" + observerCount) + (bugs.isEmpty() ? "" : " bugs=" + bugs)
                + (keepConnections ? " keepConnections=true" : "");
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
        if (electionChannel != null) {
            s.append(" --election-channel");
        }
        if (rackPowerLoss) {
            s.append(" --rack-power-loss");
        }
        if (observerCount > 0) {
            s.append(" --observers ").append(observerCount);
        }
        for (Bug b : new java.util.TreeSet<>(bugs)) {
            s.append(" --bug ").append(b.name());
        }
        if (keepConnections && !impliesKeepConnections(bugs)) {
            s.append(" --keep-connections");
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
        return new SimClient.Options(keepConnections, pipelineDepth, sessionTimeoutMs, reconnectDelayTicksMax, opProbability,
                clientPauseProbability, clientPauseTicksMax);
    }

    Workload.Options workload() {
        return new Workload.Options(keyCount, writeFraction, multiProbability, closeSessionProbability);
    }
}
