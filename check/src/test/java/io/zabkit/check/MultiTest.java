package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** :multi replay: atomic at one zxid, per-op results of a failed multi, :info multis all or nothing. */
class MultiTest {
  private static Result check(List<Op> ops) {
    return new ZkChecker().check(History.of(ops));
  }

  @Test
  void correctMultiHistoryPasses() {
    Result r = check(MultiCorpus.parse(MultiCorpus.GOOD));
    assertTrue(r.valid(), r.table());
    assertTrue(r.verdict(Property.LinearizableWrites).checked() > 10, r.table());
  }

  @Test
  void everyMultiMutationFailsWithItsProperty() {
    for (MultiCorpus.Mutation m : MultiCorpus.mutations()) {
      Result r = check(MultiCorpus.apply(m));
      assertTrue(r.failed().contains(m.expected()), m.name() + " must fail " + m.expected() + ":\n" + r.table());
      assertTrue(r.verdict(m.expected()).witness().size() >= 1, m.name());
    }
  }

  @Test
  void halfAppliedMultiNamesTheMultiAndTheRead() {
    Result r = check(MultiCorpus.apply(MultiCorpus.mutations().get(0)));
    assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
    List<Op> witness = r.verdict(Property.LinearizableWrites).witness();
    assertTrue(witness.stream().allMatch(o -> o.f().equals("multi")), witness.toString());
    assertTrue(witness.size() <= 4, witness.toString());
  }

  @Test
  void infoMultiThatNobodyObservedIsTakenNotToHaveHappened() {
    String good = MultiCorpus.GOOD;
    String cut = good.substring(0, good.indexOf("{:type :invoke :process 1 :session 2 :f :multi :value [{:f :get-data :path \"/k0\"} {:f :get-data :path \"/k1\"} {:f :get-data :path \"/e\"}]"));
    assertTrue(check(MultiCorpus.parse(cut)).valid());
  }

  @Test
  void infoMultiSeenOnlyHalfIsAViolation() {
    // the :info multi set both keys to "i" at zxid 8; a read shows /k0 at "i" and /k1 still at "c"
    String bad = MultiCorpus.GOOD.replace("{:type :ok :value \"i\" :stat {:version 3 :mzxid 8}}", "{:type :ok :value \"c\" :stat {:version 2 :mzxid 6}}");
    Result r = check(MultiCorpus.parse(bad));
    assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
  }

  @Test
  void failedMultiResultsOutOfZooKeepersLayoutAreReported() {
    String bad = MultiCorpus.GOOD.replace("[{:type :fail :error :bad-version} {:type :fail :error :runtime-inconsistency} {:type :fail :error :runtime-inconsistency}]",
        "[{:type :fail :error :bad-version} {:type :ok} {:type :fail :error :runtime-inconsistency}]");
    Result r = check(MultiCorpus.parse(bad));
    assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
  }

  @Test
  void malformedMultiIsBadInputNamingTheOp() {
    List<Op> ops = MultiCorpus.parse("""
        {:type :invoke :process 0 :session 1 :f :multi :value [{:f :frobnicate :path "/a"}] :time 0}
        {:type :ok :process 0 :session 1 :f :multi :value [{:type :ok}] :time 1 :zxid 1}
        """);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> check(ops));
    assertTrue(e.getMessage().contains("#1") && e.getMessage().contains(":frobnicate"), e.getMessage());
  }

  @Test
  void readOnlyMultiWithoutZxidMustSeeStatesThatCoexisted() {
    // the campaign records no reply zxid: the sub-reads are then checked against each other
    String noZxid = MultiCorpus.GOOD.replace(":time 11 :zxid 5}", ":time 11}");
    assertTrue(check(MultiCorpus.parse(noZxid)).valid(), check(MultiCorpus.parse(noZxid)).table());
    String half = noZxid.replace("{:type :ok :value \"a\" :stat {:version 1 :mzxid 4}}] :time 11}",
        "{:type :ok :value \"x\" :stat {:version 0 :mzxid 2}}] :time 11}");
    Result r = check(MultiCorpus.parse(half));
    assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
    assertTrue(r.verdict(Property.LinearizableWrites).explanation().contains("never coexisted"), r.table());
  }
}
