package io.zabkit.sim;

/** A property the run violated: stops the run, which then reports the seed, the trace and the replay command. */
final class Violation extends RuntimeException {
    private final String property;

    Violation(String property, String detail) {
        super(property + ": " + detail);
        this.property = property;
    }

    String property() {
        return property;
    }
}
