package io.zabkit.zab;

/**
 * Trace validation (spec/TraceZab.tla): the core reports every protocol step under the name of the
 * spec/Zab.tla action it implements, once the step's effects are in the server's state. Off by default.
 *
 * @see TraceWriter for the line format that spec/trace.py reads
 */
public interface Tracer {
    Tracer OFF = (action, peer, mark, zab) -> { };

    /**
     * @param action the Zab.tla action, e.g. "FollowerProcessPROPOSAL"
     * @param peer   the other server of the action (the sender of the message received), -1 if none
     * @param mark   the zxid the step is about (the history prefix it acknowledges), -1 if none
     * @param zab    the server after the step
     */
    void step(String action, long peer, long mark, Zab zab);
}
