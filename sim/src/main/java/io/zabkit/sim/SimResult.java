package io.zabkit.sim;

import java.util.List;

/**
 * What one run did: the violation if any (null when every property held), the trace hash that makes
 * two runs of one seed comparable, the figures, and the failure report ready to print.
 */
record SimResult(SimOptions options, Violation violation, long traceHash, long traceEvents, long ticks,
                 Stats stats, List<String> lastEvents, History history, Coverage coverage) {

    /** Counts that show the run exercised what it claims to. */
    record Stats(long opsInvoked, long opsOk, long opsFail, long opsInfo, long crashes, long restartsCompared,
                 long pathsChecked, long repliesChecked, long eventsChecked, long sessionsChecked, long readsChecked,
                 long maxAckedZxid, long leadersEstablished, long partitions, long peerMessages) {}

    boolean ok() {
        return violation == null;
    }

    String replayCommand() {
        StringBuilder s = new StringBuilder("make sim-replay SEED=" + options.seed());
        if (options.ticksMax() != SimMain.TICKS_DEFAULT) {
            s.append(" TICKS=").append(options.ticksMax());
        }
        if (options.ensemble()) {
            s.append(" SERVERS=").append(options.serverCount()).append(" VARIANT=").append(options.variant());
        }
        if (!options.simFlags().isEmpty()) {
            s.append(" SIM_FLAGS='").append(options.simFlags()).append("'");
        }
        if (options.diskMode() != SimDisk.Mode.HONEST) {
            s.append(" DISK=").append(options.diskMode().name());
        }
        return s.toString();
    }

    /** The failure report: seed and options, the property, the last events, and how to replay. */
    String report() {
        StringBuilder s = new StringBuilder();
        s.append(options.describe()).append('\n');
        if (ok()) {
            return s.append("ok\n").toString();
        }
        s.append("VIOLATION ").append(violation.getMessage()).append('\n');
        s.append("last ").append(lastEvents.size()).append(" events (tick, event, details):\n");
        for (String line : lastEvents) {
            s.append("  ").append(line).append('\n');
        }
        s.append("replay: ").append(replayCommand()).append('\n');
        s.append("   or: java -ea -cp sim/target/classes:$(cat sim/target/classpath.txt) io.zabkit.sim.SimMain --seed ")
                .append(options.seed()).append(" --ticks ").append(options.ticksMax()).append(" --disk ")
                .append(options.diskMode())
                .append(options.ensemble() ? " --servers " + options.serverCount() + " --variant " + options.variant() : "")
                .append(options.simFlags().isEmpty() ? "" : " " + options.simFlags())
                .append(" --trace\n");
        return s.toString();
    }

    String summary() {
        return String.format("seed %d: %s ticks=%d ops=%d (ok %d, fail %d, info %d) crashes=%d restartsCompared=%d "
                        + "readsChecked=%d eventsChecked=%d maxAckedZxid=0x%x traceHash=%016x",
                options.seed(), ok() ? "ok" : "VIOLATION " + violation.property(), ticks, stats.opsInvoked(),
                stats.opsOk(), stats.opsFail(), stats.opsInfo(), stats.crashes(), stats.restartsCompared(),
                stats.readsChecked(), stats.eventsChecked(), stats.maxAckedZxid(), traceHash)
                + (options.ensemble() ? String.format(" leaders=%d partitions=%d peerMessages=%d",
                        stats.leadersEstablished(), stats.partitions(), stats.peerMessages()) : "");
    }
}
