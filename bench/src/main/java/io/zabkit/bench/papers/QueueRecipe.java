package io.zabkit.bench.papers;

/**
 * A producer-consumer queue built on znodes (seed 002 section 3.1): produce appends an element,
 * consume removes the head and blocks while the queue is empty, at most until a deadline.
 */
interface QueueRecipe {
    void produce(byte[] value) throws Exception;

    /** The head element, removed by this call and by no other; null if the queue stayed empty until the deadline. */
    byte[] consume(long deadlineNanos) throws Exception;

    /** The name a sequential element of this recipe starts with (to fill a queue directly). */
    String elementPrefix();
}
