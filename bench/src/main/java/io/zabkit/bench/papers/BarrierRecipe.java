package io.zabkit.bench.papers;

/** A barrier (seed 002 section 5.4): await returns once `threshold` clients have reached the barrier at path. */
interface BarrierRecipe {
    /** True once the barrier is passed; false if the deadline came first. */
    boolean await(String path, int threshold, long deadlineNanos) throws Exception;
}
