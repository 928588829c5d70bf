package io.zabkit.bench.papers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The index's Table 3 cell reads the seconds at each recipe's largest b, whatever its size. */
class RecipesIndexTest {
    private static Map<String, String> row(String recipe, String barriers, String seconds) {
        return Map.of("system", "zabkit", "recipe", recipe, "clients", "50", "barriers", barriers, "seconds", seconds);
    }

    @Test
    void theCellShowsTheSecondsAtTheLargestBEvenWhenItIsWrittenWithoutGrouping() {
        List<Map<String, String>> rows = List.of(row("paper", "200", "3.73"), row("paper", "1600", "14.42"),
                row("curator", "10", "0.17"), row("curator", "80", "1.11"));
        assertEquals("14.42 s / 1.11 s at b = 80 (paper's recipe / Curator's)", RecipesIndex.barriers(rows, "50", "zabkit"));
    }
}
