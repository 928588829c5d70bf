package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The proof that the checkers catch things: every mutation fails its property, every reference history passes. */
class CorpusTest {
  private static final long SEED = 1;
  /** Keeps the test short: a history the search cannot settle in this budget is UNKNOWN (allowed below), never INVALID. */
  private static final ExhaustiveSearch.Budget BUDGET = new ExhaustiveSearch.Budget(1_000_000, 60_000);

  @TestFactory
  Stream<DynamicTest> referenceHistoriesPass() {
    return Corpus.good(SEED).stream().map(e -> DynamicTest.dynamicTest(e.name(), () -> {
      Result r = new ZkChecker().withBudget(BUDGET).check(History.of(e.ops()));
      assertFalse(r.status() == Result.Status.INVALID, () -> e.name() + " is legal: a false alarm:\n" + r.table());
      if (r.status() == Result.Status.UNKNOWN && !e.name().startsWith("regression-") && r.undecided() != null && r.undecided().contains("budget")) {
        // the exhaustive search may run out of budget on a history with many :info writes: honest, never INVALID
        System.out.printf("corpus %-55s UNKNOWN: %s%n", e.name(), r.undecided());
        return;
      }
      assertTrue(r.valid(), () -> e.name() + " should pass:\n" + r.table());
      if (e.name().startsWith("regression-")) return; // a few operations that show one bug: no coverage asked
      for (Verdict v : r.verdicts()) {
        if (v.property() != Property.EphemeralLifetime && v.property() != Property.SequentialUniqueness) {
          assertTrue(v.checked() > 0, v.property() + " checked nothing in " + e.name());
        }
      }
    }));
  }

  @TestFactory
  Stream<DynamicTest> everyMutationFailsItsProperty() {
    List<Corpus.Entry> bad = Corpus.bad(SEED);
    assertEquals(Mutations.all().size() + MultiCorpus.mutations().size(), bad.size());
    return bad.stream().map(e -> DynamicTest.dynamicTest(e.name(), () -> {
      Result r = new ZkChecker().withBudget(BUDGET).check(History.of(e.ops()));
      assertFalse(r.valid(), () -> e.name() + " should fail " + e.expected());
      Verdict v = r.verdict(e.expected());
      assertFalse(v.valid(), () -> e.name() + " failed " + r.failed() + " but not " + e.expected() + "\n" + r.table());
      assertFalse(v.witness().isEmpty());
      assertTrue(v.witness().size() <= 8, () -> "witness should be short: " + v.witness().size() + " ops");
      System.out.printf("corpus %-55s fails %s%n", e.name(), r.failed());
    }));
  }
}
