package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pins from unique written values, the order of commuting operations in a gap, and the deterministic budget. */
class PropagationTest {
  /** An :info set-data of /k wrote "u", and a read at zxid 5 returned it: only that write can have done so. */
  private static final String UNIQUE = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent :created-path "/k"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :set-data :path "/k" :value "u" :version -1 :time 2}
      {:type :info :process 0 :session 1 :f :set-data :path "/k" :value "u" :version -1 :time 3 :error :connection-loss}
      {:type :invoke :process 1 :session 2 :f :set-data :path "/j" :value "x" :version -1 :time 4}
      {:type :info :process 1 :session 2 :f :set-data :path "/j" :value "x" :version -1 :time 5 :error :connection-loss}
      {:type :invoke :process 2 :session 3 :f :get-data :path "/k" :time 6}
      {:type :ok :process 2 :session 3 :f :get-data :path "/k" :value "u" :time 7 :zxid 5}
      """;

  private static List<Op> ops(String lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines.strip().split("\n")) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return ops;
  }

  private static List<Call> calls(String lines) {
    List<Call> out = new ArrayList<>();
    new Pairer().run(History.of(ops(lines)), out::add);
    return out;
  }

  private static Call byPath(List<Call> calls, Call.Kind kind, String path) {
    for (Call c : calls) if (c.kind == kind && path.equals(c.path)) return c;
    throw new AssertionError("no " + kind + " of " + path);
  }

  @Test
  void aValueOnlyOneInfoWriteWrotePinsItAtOrBelowTheRead() {
    List<Call> cs = calls(UNIQUE);
    Propagation p = new Propagation();
    cs.forEach(p::add);
    Call setK = byPath(cs, Call.Kind.SET_DATA, "/k");
    Call setJ = byPath(cs, Call.Kind.SET_DATA, "/j");
    Map<Long, Propagation.Pin> pins = p.pins(List.of(setK, setJ), new long[] {1}, t -> t >= 7 ? 5 : 1);
    Propagation.Pin pin = pins.get(setK.key());
    assertNotNull(pin, "the read of \"u\" pins the only write of it");
    assertEquals(5, pin.upper());
    assertTrue(pin.allows(5) && !pin.allows(6));
    assertNull(pins.get(setJ.key()), "nothing read /j: its write stays free");
  }

  @Test
  void aSecondPossibleWriterOfTheValuePinsNothing() {
    String two = UNIQUE.replace(":path \"/j\" :value \"x\"", ":path \"/k\" :value \"u\"");
    List<Call> cs = calls(two);
    Propagation p = new Propagation();
    cs.forEach(p::add);
    List<Call> info = cs.stream().filter(c -> c.outcome == Op.Type.INFO).toList();
    assertEquals(2, info.size());
    assertTrue(p.pins(info, new long[] {1}, t -> 1).isEmpty(), "two :info writes of \"u\": either may be the one read");
    String known = UNIQUE + """
        {:type :invoke :process 3 :session 4 :f :set-data :path "/k" :value "u" :version -1 :time 8}
        {:type :ok :process 3 :session 4 :f :set-data :path "/k" :value "u" :version -1 :time 9 :zxid 6}
        """;
    List<Call> ks = calls(known);
    Propagation q = new Propagation();
    ks.forEach(q::add);
    assertTrue(q.pins(ks.stream().filter(c -> c.outcome == Op.Type.INFO).toList(), new long[] {1, 6}, t -> 1).isEmpty(),
        "a known write of the same value could be the one read: no pin");
  }

  @Test
  void pinnedHistoriesKeepTheirVerdicts() {
    // the pinned write explains the read: VALID
    assertEquals(Result.Status.VALID, new ZkChecker().check(History.of(ops(UNIQUE))).status());
    // the value read at zxid 5, and the write's node seen without it later at a zxid above: that write both happened
    // and did not (a planted violation the pin must not hide)
    String both = UNIQUE + """
        {:type :invoke :process 2 :session 3 :f :get-data :path "/k" :time 8}
        {:type :ok :process 2 :session 3 :f :get-data :path "/k" :value "a" :time 9 :zxid 7 :stat {:version 0 :mzxid 1 :czxid 1}}
        """;
    assertEquals(Result.Status.INVALID, new ZkChecker().check(History.of(ops(both))).status());
  }

  @Test
  void writesOfDifferentNodesCommuteAndConflictingOnesDoNot() {
    String lines = """
        {:type :invoke :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent} :time 0}
        {:type :info :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent} :time 1}
        {:type :invoke :process 1 :session 1 :f :create :path "/b" :value {:data "b" :mode :persistent} :time 0}
        {:type :info :process 1 :session 1 :f :create :path "/b" :value {:data "b" :mode :persistent} :time 1}
        {:type :invoke :process 2 :session 1 :f :delete :path "/a" :version -1 :time 0}
        {:type :info :process 2 :session 1 :f :delete :path "/a" :version -1 :time 1}
        {:type :invoke :process 3 :session 1 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential} :time 0}
        {:type :info :process 3 :session 1 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential} :time 1}
        {:type :invoke :process 4 :session 1 :f :create :path "/a/c" :value {:data "c" :mode :persistent} :time 0}
        {:type :info :process 4 :session 1 :f :create :path "/a/c" :value {:data "c" :mode :persistent} :time 1}
        """;
    List<Call> cs = calls(lines);
    ExhaustiveSearch.Facts facts = new ExhaustiveSearch.Facts();
    Call a = byPath(cs, Call.Kind.CREATE, "/a"), b = byPath(cs, Call.Kind.CREATE, "/b"), del = byPath(cs, Call.Kind.DELETE, "/a");
    Call seq = byPath(cs, Call.Kind.CREATE, "/s-"), child = byPath(cs, Call.Kind.CREATE, "/a/c");
    assertTrue(ExhaustiveSearch.commutes(a, b, facts), "two children of / added: the same list, cversion and pzxid in either order");
    assertFalse(ExhaustiveSearch.commutes(a, del, facts), "create and delete of one node");
    assertFalse(ExhaustiveSearch.commutes(seq, b, facts), "the sequential name counts the creates before it");
    assertFalse(ExhaustiveSearch.commutes(child, a, facts), "a child needs its parent");
    assertFalse(ExhaustiveSearch.commutes(child, del, facts), "a delete needs its node childless");
  }

  @Test
  void theBudgetIsCountedInOperationsReplayedNotInSeconds() {
    // the same budget gives the same verdict and reason whatever the wall clock: only the step count decides
    String hard = ExhaustiveSearchTest.NEEDS_SEARCH;
    ExhaustiveSearch.Budget tiny = new ExhaustiveSearch.Budget(1, 600_000);
    Result r1 = new ZkChecker().withBudget(tiny).check(History.of(ops(hard)));
    Result r2 = new ZkChecker().withBudget(tiny).check(History.of(ops(hard)));
    assertEquals(Result.Status.UNKNOWN, r1.status(), r1.table());
    assertEquals(r1.undecided(), r2.undecided());
    assertTrue(r1.undecided().contains("operations replayed"), r1.undecided());
    assertFalse(r1.undecided().contains("wall-clock"), r1.undecided());
    assertEquals(Result.Status.VALID, new ZkChecker().withBudget(new ExhaustiveSearch.Budget(100_000, 600_000)).check(History.of(ops(hard))).status());
  }
}
