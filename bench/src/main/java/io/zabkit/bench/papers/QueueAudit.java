package io.zabkit.bench.papers;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a queue run must show whatever the recipe: every element produced is consumed once or still
 * in the queue (none lost, none twice, none invented), and a consumer takes one producer's elements
 * in the order they were produced (an element produced earlier was in the queue, below, when a later
 * one was taken). Elements are "producer:seq", seq counting up per producer.
 */
final class QueueAudit {
    private QueueAudit() {}

    static String element(int producer, int seq) {
        return producer + ":" + seq;
    }

    /** The violations found; empty when the run was correct. */
    static List<String> check(List<String> produced, List<List<String>> consumedByConsumer, List<String> remaining) {
        List<String> out = new ArrayList<>();
        Set<String> made = new HashSet<>(produced);
        if (made.size() != produced.size()) {
            out.add("a producer reported the same element twice (the audit's input is wrong)");
        }
        Map<String, Integer> seen = new HashMap<>();
        consumedByConsumer.forEach(c -> c.forEach(e -> seen.merge(e, 1, Integer::sum)));
        remaining.forEach(e -> seen.merge(e, 1, Integer::sum));
        seen.forEach((e, n) -> {
            if (n > 1) {
                out.add("element " + e + " consumed or left " + n + " times");
            }
            if (!made.contains(e)) {
                out.add("element " + e + " consumed but never produced");
            }
        });
        for (String e : produced) {
            if (!seen.containsKey(e)) {
                out.add("element " + e + " lost (neither consumed nor in the queue)");
            }
        }
        for (int c = 0; c < consumedByConsumer.size(); c++) {
            Map<String, Integer> lastSeq = new HashMap<>();
            for (String e : consumedByConsumer.get(c)) {
                String[] f = e.split(":", 2);
                int seq = Integer.parseInt(f[1]);
                Integer before = lastSeq.put(f[0], seq);
                if (before != null && before > seq) {
                    out.add("consumer " + c + " took " + e + " after " + f[0] + ":" + before + " (out of order)");
                }
            }
        }
        return out;
    }
}
