package io.zabkit.sim;

/**
 * A sweep's seeds, first .. first+count-1, and the slice of them one shard runs. Shard i of N (1-based)
 * runs the contiguous block [first + (i-1)*count/N, first + i*count/N): the blocks of 1..N are disjoint
 * and cover the plan exactly, whatever N, so shards run on different machines merge into the unsharded
 * run (bin/sim-merge checks that they do).
 */
record SeedPlan(long first, long count, int shard, int shards) {
    SeedPlan {
        if (count < 1) throw new IllegalArgumentException("a seed plan needs at least one seed, got " + count);
        if (shards < 1 || shard < 1 || shard > shards) {
            throw new IllegalArgumentException("shard " + shard + "/" + shards + ": give i/N with 1 <= i <= N");
        }
        if (shards > count) {
            throw new IllegalArgumentException(shards + " shards for " + count + " seeds: some shard would run none");
        }
    }

    static SeedPlan unsharded(long first, long count) {
        return new SeedPlan(first, count, 1, 1);
    }

    /** Parses "i/N" (as make sim SHARD=i/N passes it). */
    static SeedPlan parse(long first, long count, String shard) {
        String[] parts = shard.split("/", -1);
        if (parts.length != 2) throw new IllegalArgumentException("--shard takes i/N (e.g. 2/8), got '" + shard + "'");
        try {
            return new SeedPlan(first, count, Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--shard takes i/N with whole numbers (e.g. 2/8), got '" + shard + "'");
        }
    }

    /** First seed of this shard's block. */
    long from() {
        return first + (shard - 1) * count / shards;
    }

    /** One past the last seed of this shard's block. */
    long to() {
        long to = first + shard * count / shards;
        assert to > from() : "an empty shard " + this;
        assert shard < shards || to == first + count : "the last shard must end the plan";
        return to;
    }

    long size() {
        return to() - from();
    }
}
