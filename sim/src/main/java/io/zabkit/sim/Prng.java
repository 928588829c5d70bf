package io.zabkit.sim;

import java.util.SplittableRandom;

/**
 * The one source of randomness of a simulation run. SplittableRandom's algorithm is fixed by its
 * specification, so a seed draws the same numbers on every JDK. Components get their own stream
 * ({@link #fork}) so that adding a draw in one place does not reshuffle every other decision.
 */
final class Prng {
    private final SplittableRandom random;

    Prng(long seed) {
        this.random = new SplittableRandom(seed);
    }

    private Prng(SplittableRandom random) {
        this.random = random;
    }

    Prng fork() {
        return new Prng(random.split());
    }

    boolean chance(double probability) {
        assert probability >= 0 && probability <= 1 : "probability " + probability;
        return probability > 0 && random.nextDouble() < probability;
    }

    /** Uniform in [min, max]. */
    int between(int min, int max) {
        assert min <= max : min + " > " + max;
        return min + random.nextInt(max - min + 1);
    }

    int below(int bound) {
        return random.nextInt(bound);
    }

    long nextLong() {
        return random.nextLong();
    }

    double nextDouble() {
        return random.nextDouble();
    }

    /** Geometric-like draw with the given mean, capped: network and disk delays with a long tail. */
    int delay(double mean, int max) {
        if (mean <= 0) {
            return 0;
        }
        double u = random.nextDouble();
        int d = (int) Math.floor(-Math.log(1 - u) * mean);
        return Math.min(d, max);
    }

    <T> T pick(T[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    double pick(double... choices) {
        return choices[random.nextInt(choices.length)];
    }

    void fill(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
    }
}
