package io.zabkit.sim;

/**
 * Simulated time: the only clock of a run. Everything is scheduled in ticks; the core sees
 * milliseconds ({@code tick * msPerTick}) through {@code ServerCore.tick(nowMs)}.
 */
final class SimClock {
    private final int msPerTick;
    private long tick;

    SimClock(int msPerTick) {
        assert msPerTick > 0 : "msPerTick " + msPerTick;
        this.msPerTick = msPerTick;
    }

    long tick() {
        return tick;
    }

    long nowMs() {
        return tick * msPerTick;
    }

    int msPerTick() {
        return msPerTick;
    }

    void advance() {
        tick++;
    }

    long ticksFor(long ms) {
        return (ms + msPerTick - 1) / msPerTick;
    }
}
