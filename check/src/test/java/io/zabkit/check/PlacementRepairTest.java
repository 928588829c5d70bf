package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Local moves on the proposal: they only propose, the exact replay judges, and they respect the search's floors. */
class PlacementRepairTest {
  /**
   * Two :info deletes under "/", and a children event on "/" at zxid 5 that no known write has: the proposal gives
   * the change to the first candidate (/a), but /a is read later (zxid 6) and /b is gone. The repair moves /a out
   * and /b in.
   */
  private static final String WRONG_PICK = """
      {:type :invoke :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent :created-path "/a"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :create :path "/b" :value {:data "b" :mode :persistent} :time 2}
      {:type :ok :process 0 :session 1 :f :create :path "/b" :value {:data "b" :mode :persistent :created-path "/b"} :time 3 :zxid 2}
      {:type :invoke :process 1 :session 2 :f :get-children :path "/" :watch true :time 4}
      {:type :ok :process 1 :session 2 :f :get-children :path "/" :watch true :value ["a" "b" "zookeeper"] :time 5 :zxid 2}
      {:type :invoke :process 0 :session 1 :f :delete :path "/a" :version -1 :time 10}
      {:type :invoke :process 3 :session 3 :f :delete :path "/b" :version -1 :time 10}
      {:type :info :process 0 :session 1 :f :delete :path "/a" :version -1 :time 11 :error :connection-loss}
      {:type :info :process 3 :session 3 :f :delete :path "/b" :version -1 :time 11 :error :connection-loss}
      {:type :ok :process 9 :session 2 :f :watch-event :path "/" :value {:event :node-children-changed :path "/"} :time 12 :zxid 5}
      {:type :invoke :process 1 :session 2 :f :get-data :path "/a" :time 13}
      {:type :ok :process 1 :session 2 :f :get-data :path "/a" :value "a" :time 14 :zxid 6 :stat {:version 0 :mzxid 1}}
      {:type :invoke :process 1 :session 2 :f :exists :path "/b" :time 15}
      {:type :ok :process 1 :session 2 :f :exists :path "/b" :value false :time 16 :zxid 6}
      """;

  private static History history(String lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines.strip().split("\n")) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return History.of(ops);
  }

  @Test
  void aWrongPickOfTheProposalIsMovedByLocalMoves() {
    History h = history(WRONG_PICK);
    ZkChecker checker = new ZkChecker();
    ZkChecker.Attempt proposal = checker.attempt(h, Map.of(), false);
    Map<Long, Long> base = ZkChecker.decidedAll(proposal);
    ZkChecker.Attempt exact = checker.attempt(h, base, false);
    assertTrue(exact.findings.total() > 0, "the proposal's pick is wrong (else this test shows nothing)");
    PlacementRepair.Repaired fixed = repair(checker, h, exact, base);
    assertEquals(0, fixed.exact().findings.total());
    assertEquals(InfoWrites.FORCED_ABSENT, fixed.placement().get(6L), "the delete of /a never took effect");
    assertEquals(5L, fixed.placement().get(7L), "the delete of /b is the change at zxid 5");
    Result r = checker.check(h);
    assertEquals(Result.Status.VALID, r.status(), r.table());
  }

  @Test
  void noMoveBelowAFloor() {
    // /b's delete is invoked only after a read at zxid 6 completed: its floor is 6, so it cannot be the change at 5,
    // and /a is still read at 6: no placement explains the event (the repair must not find one below the floor)
    String late = """
        {:type :invoke :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent} :time 0}
        {:type :ok :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent :created-path "/a"} :time 1 :zxid 1}
        {:type :invoke :process 0 :session 1 :f :create :path "/b" :value {:data "b" :mode :persistent} :time 2}
        {:type :ok :process 0 :session 1 :f :create :path "/b" :value {:data "b" :mode :persistent :created-path "/b"} :time 3 :zxid 2}
        {:type :invoke :process 1 :session 2 :f :get-children :path "/" :watch true :time 4}
        {:type :ok :process 1 :session 2 :f :get-children :path "/" :watch true :value ["a" "b" "zookeeper"] :time 5 :zxid 2}
        {:type :invoke :process 0 :session 1 :f :delete :path "/a" :version -1 :time 10}
        {:type :info :process 0 :session 1 :f :delete :path "/a" :version -1 :time 11 :error :connection-loss}
        {:type :ok :process 9 :session 2 :f :watch-event :path "/" :value {:event :node-children-changed :path "/"} :time 12 :zxid 5}
        {:type :invoke :process 1 :session 2 :f :get-data :path "/a" :time 13}
        {:type :ok :process 1 :session 2 :f :get-data :path "/a" :value "a" :time 14 :zxid 6 :stat {:version 0 :mzxid 1}}
        {:type :invoke :process 3 :session 3 :f :delete :path "/b" :version -1 :time 17}
        {:type :info :process 3 :session 3 :f :delete :path "/b" :version -1 :time 18 :error :connection-loss}
        {:type :invoke :process 1 :session 2 :f :exists :path "/b" :time 19}
        {:type :ok :process 1 :session 2 :f :exists :path "/b" :value false :time 20 :zxid 7}
        """;
    Result r = new ZkChecker().check(history(late));
    assertEquals(Result.Status.INVALID, r.status(), r.table());
  }

  /**
   * A counter gap of two: /s-0000000000 at zxid 1, then /s-0000000003 at zxid 6, so two creates under "/" took
   * numbers 1 and 2. Three :info creates could have: /a, /b (listed at zxid 7) and /c (not listed, so it never took
   * effect). Starting from "none of them happened", no single move fixes the name (one create leaves it one short),
   * so the repair must add two at once, and the right two: the listing rules out every pair with /c.
   */
  private static final String COUNTER_GAP = """
      {:type :invoke :process 0 :session 1 :f :create :path "/s-" :value {:data "0" :mode :persistent-sequential} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/s-" :value {:data "0" :mode :persistent-sequential :created-path "/s-0000000000"} :time 1 :zxid 1}
      {:type :invoke :process 1 :session 2 :f :create :path "/c" :value {:data "c" :mode :persistent} :time 2}
      {:type :invoke :process 2 :session 3 :f :create :path "/a" :value {:data "a" :mode :persistent} :time 2}
      {:type :invoke :process 3 :session 4 :f :create :path "/b" :value {:data "b" :mode :persistent} :time 2}
      {:type :info :process 1 :session 2 :f :create :path "/c" :value {:data "c" :mode :persistent} :time 3 :error :connection-loss}
      {:type :info :process 2 :session 3 :f :create :path "/a" :value {:data "a" :mode :persistent} :time 3 :error :connection-loss}
      {:type :info :process 3 :session 4 :f :create :path "/b" :value {:data "b" :mode :persistent} :time 3 :error :connection-loss}
      {:type :invoke :process 0 :session 1 :f :create :path "/s-" :value {:data "3" :mode :persistent-sequential} :time 4}
      {:type :ok :process 0 :session 1 :f :create :path "/s-" :value {:data "3" :mode :persistent-sequential :created-path "/s-0000000003"} :time 5 :zxid 6}
      {:type :invoke :process 4 :session 5 :f :get-children :path "/" :time 6}
      {:type :ok :process 4 :session 5 :f :get-children :path "/" :value ["a" "b" "s-0000000000" "s-0000000003" "zookeeper"] :time 7 :zxid 7}
      """;

  @Test
  void aCounterGapOfTwoIsFilledByTwoCreatesAtOnce() {
    History h = history(COUNTER_GAP);
    ZkChecker checker = new ZkChecker();
    Map<Long, Long> none = Map.of(2L, InfoWrites.FORCED_ABSENT, 3L, InfoWrites.FORCED_ABSENT, 4L, InfoWrites.FORCED_ABSENT);
    ZkChecker.Attempt exact = checker.attempt(h, none, false);
    assertTrue(exact.findings.kept().stream().anyMatch(f -> f.countGap() == 2), "the name is two creates ahead of the replay's counter");
    PlacementRepair.Repaired fixed = repair(checker, h, exact, none);
    assertEquals(0, fixed.exact().findings.total(), "two creates placed at once fill the gap");
    assertEquals(InfoWrites.FORCED_ABSENT, fixed.placement().get(2L), "/c is not listed: it never took effect");
    assertTrue(fixed.placement().get(3L) > 1 && fixed.placement().get(3L) < 6, "/a took a number between the names");
    assertTrue(fixed.placement().get(4L) > 1 && fixed.placement().get(4L) < 6, "/b took a number between the names");
  }

  /**
   * A name only a listing shows: /s-0000000002 at zxid 5 says one create under "/" took number 1, and the listing at
   * zxid 6 says it was the :info sequential create (/s-0000000001), not the :info plain create of /c. Starting from
   * the wrong filling (/c at zxid 3), the counter is right and the listing wrong; the repair swaps the two.
   */
  private static final String LISTED_NAME = """
      {:type :invoke :process 0 :session 1 :f :create :path "/s-" :value {:data "0" :mode :persistent-sequential} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/s-" :value {:data "0" :mode :persistent-sequential :created-path "/s-0000000000"} :time 1 :zxid 1}
      {:type :invoke :process 1 :session 2 :f :create :path "/c" :value {:data "c" :mode :persistent} :time 2}
      {:type :invoke :process 2 :session 3 :f :create :path "/s-" :value {:data "1" :mode :persistent-sequential} :time 2}
      {:type :info :process 1 :session 2 :f :create :path "/c" :value {:data "c" :mode :persistent} :time 3 :error :connection-loss}
      {:type :info :process 2 :session 3 :f :create :path "/s-" :value {:data "1" :mode :persistent-sequential} :time 3 :error :connection-loss}
      {:type :invoke :process 0 :session 1 :f :create :path "/s-" :value {:data "2" :mode :persistent-sequential} :time 4}
      {:type :ok :process 0 :session 1 :f :create :path "/s-" :value {:data "2" :mode :persistent-sequential :created-path "/s-0000000002"} :time 5 :zxid 5}
      {:type :invoke :process 4 :session 5 :f :get-children :path "/" :time 6}
      {:type :ok :process 4 :session 5 :f :get-children :path "/" :value ["s-0000000000" "s-0000000001" "s-0000000002" "zookeeper"] :time 7 :zxid 6}
      """;

  @Test
  void aNameOnlyAListingShowsSwapsTheCreateThatTookItsNumber() {
    History h = history(LISTED_NAME);
    ZkChecker checker = new ZkChecker();
    Map<Long, Long> wrong = Map.of(2L, 3L, 3L, InfoWrites.FORCED_ABSENT);
    ZkChecker.Attempt exact = checker.attempt(h, wrong, false);
    assertTrue(exact.findings.total() > 0 && exact.findings.kept().stream().allMatch(f -> f.countGap() == 0), "the counter is right, the listing wrong");
    PlacementRepair.Repaired fixed = repair(checker, h, exact, wrong);
    assertEquals(0, fixed.exact().findings.total(), fixed.exact().findings.kept().toString());
    assertEquals(InfoWrites.FORCED_ABSENT, fixed.placement().get(2L), "/c never took effect");
    assertEquals(3L, fixed.placement().get(3L), "the sequential create took number 1 at /c's old slot");
  }

  /**
   * The simulator's history of `make verify`'s 5-server seed 10 (SimMain --seed 10 --servers 5): 70 :info operations,
   * most of them creates under "/" (sequential names, ephemerals), were UNKNOWN after 20,000 replays of the search;
   * the simulator's ground truth replays with no violation. The local moves reach a clean placement (about 600
   * replays) once an operation may also go to the first free zxid above its floor. A replay budget, not a wall-time
   * one, bounds it here, so the test does not depend on the machine's load.
   */
  @Test
  void makeVerifysFiveServerSeed10IsDecided() throws Exception {
    Result r = checkStored("sim-s5-seed10-many-info-creates-under-root.edn", 40_000_000);
    assertEquals(Result.Status.VALID, r.status(), r.table());
  }

  /**
   * A node re-created: /e was created at zxid 1, and a read at zxid 3 shows it created at zxid 3 by another session.
   * Only an :info delete (before 3) and an :info create (at 3) together explain it: the create alone fails on the
   * existing node, the delete alone takes away the node the read shows, so no single move is progress.
   */
  private static final String RECREATED = """
      {:type :invoke :process 0 :session 1 :f :create :path "/e" :value {:data "old" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/e" :value {:data "old" :mode :persistent :created-path "/e"} :time 1 :zxid 1}
      {:type :invoke :process 1 :session 2 :f :delete :path "/e" :version -1 :time 2}
      {:type :invoke :process 2 :session 3 :f :create :path "/e" :value {:data "new" :mode :ephemeral} :time 2}
      {:type :info :process 1 :session 2 :f :delete :path "/e" :version -1 :time 3 :error :connection-loss}
      {:type :info :process 2 :session 3 :f :create :path "/e" :value {:data "new" :mode :ephemeral} :time 3 :error :connection-loss}
      {:type :invoke :process 4 :session 5 :f :exists :path "/e" :time 6}
      {:type :ok :process 4 :session 5 :f :exists :path "/e" :value true :time 7 :zxid 3 :stat {:czxid 3 :mzxid 3 :pzxid 3 :version 0 :cversion 0 :ephemeral-owner 3 :num-children 0}}
      """;

  @Test
  void aNodeReadAsRecreatedPlacesTheDeleteAndTheCreateTogether() {
    History h = history(RECREATED);
    ZkChecker checker = new ZkChecker();
    Map<Long, Long> wrong = Map.of(2L, InfoWrites.FORCED_ABSENT, 3L, InfoWrites.FORCED_ABSENT);
    ZkChecker.Attempt exact = checker.attempt(h, wrong, false);
    assertEquals(1, exact.findings.total(), "the read sees a node the replay does not have");
    PlacementRepair.Repaired fixed = repair(checker, h, exact, wrong);
    assertEquals(0, fixed.exact().findings.total(), fixed.exact().findings.kept().toString());
    assertEquals(3L, fixed.placement().get(3L), "the create at the read's czxid");
    assertEquals(2L, fixed.placement().get(2L), "the delete just below it");
  }

  /**
   * The simulator's history of `make verify`'s 3-server seed 10 after the D17b changes (SimMain --seed 10 --servers 3):
   * a listing at 0x500000016 wrong in three names (a delete placed before it, two sequential creates missing) and an
   * ephemeral /e0 read as re-created at 0x50000001f by another session. UNKNOWN after the whole budget before the
   * repair counted a listing's wrong names and re-created a node with its delete; the ground truth replays clean.
   */
  @Test
  void makeVerifysThreeServerSeed10IsDecidedByTheRepair() throws Exception {
    Result r = checkStored("sim-s3-seed10-ephemeral-recreated.edn", 15_000_000);
    assertEquals(Result.Status.VALID, r.status(), r.table());
  }

  /**
   * Dense zxids, as on a standalone server: zxid 3 is the only free slot, and it holds an :info create of /x that
   * fails there (/x exists), so /s-0000000003 at zxid 4 is one number ahead of the counter. The counter gap is
   * filled by the :info create of /y, which takes zxid 3 from /x's create (left out): no free zxid is left to fill it.
   */
  private static final String DENSE = """
      {:type :invoke :process 0 :session 1 :f :create :path "/x" :value {:data "x" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/x" :value {:data "x" :mode :persistent :created-path "/x"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :create :path "/s-" :value {:data "0" :mode :persistent-sequential} :time 2}
      {:type :ok :process 0 :session 1 :f :create :path "/s-" :value {:data "0" :mode :persistent-sequential :created-path "/s-0000000001"} :time 3 :zxid 2}
      {:type :invoke :process 1 :session 2 :f :create :path "/x" :value {:data "x2" :mode :persistent} :time 4}
      {:type :invoke :process 2 :session 3 :f :create :path "/y" :value {:data "y" :mode :persistent} :time 4}
      {:type :info :process 1 :session 2 :f :create :path "/x" :value {:data "x2" :mode :persistent} :time 5 :error :connection-loss}
      {:type :info :process 2 :session 3 :f :create :path "/y" :value {:data "y" :mode :persistent} :time 5 :error :connection-loss}
      {:type :invoke :process 0 :session 1 :f :create :path "/s-" :value {:data "1" :mode :persistent-sequential} :time 6}
      {:type :ok :process 0 :session 1 :f :create :path "/s-" :value {:data "1" :mode :persistent-sequential :created-path "/s-0000000003"} :time 7 :zxid 4}
      """;

  @Test
  void aCounterGapWithNoFreeZxidTakesTheSlotOfAnotherIndeterminateOperation() {
    History h = history(DENSE);
    ZkChecker checker = new ZkChecker();
    Map<Long, Long> wrong = Map.of(4L, 3L, 5L, InfoWrites.FORCED_ABSENT);
    ZkChecker.Attempt exact = checker.attempt(h, wrong, false);
    assertTrue(exact.findings.total() > 0 && exact.findings.kept().get(0).countGap() == 1, exact.findings.kept().toString());
    PlacementRepair.Repaired fixed = repair(checker, h, exact, wrong);
    assertEquals(0, fixed.exact().findings.total(), fixed.exact().findings.kept().toString());
    assertEquals(3L, fixed.placement().get(5L), "/y took number 2 at the only free zxid");
    assertEquals(InfoWrites.FORCED_ABSENT, fixed.placement().get(4L), "/x's second create left out");
  }

  /** The repair from one exact attempt, bounded by its own step budget (a minute of wall time is only a backstop). */
  private static PlacementRepair.Repaired repair(ZkChecker checker, History h, ZkChecker.Attempt exact, Map<Long, Long> wrong) {
    return new PlacementRepair(checker, h, ExhaustiveSearch.floors(h), 100, System.nanoTime() + 60_000_000_000L).run(exact, wrong);
  }

  /** zk-check on a stored history under test/resources/histories, with a replay budget (not wall time: load-proof). */
  private Result checkStored(String name, long replays) throws Exception {
    java.nio.file.Path p = java.nio.file.Path.of(getClass().getResource("/histories/" + name).toURI());
    return new ZkChecker().withBudget(new ExhaustiveSearch.Budget(replays, 600_000)).check(History.file(p));
  }
}
