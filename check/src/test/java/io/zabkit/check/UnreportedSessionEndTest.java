package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A session may expire without its client ever learning it, and the history then never reports its end: the
 * checker must be able to place that end wherever it owns ephemerals, also ones a multi created (3-server sim seed
 * 3782042: an :info multi's ephemeral gone from a later listing, its session expired after the client moved on).
 */
class UnreportedSessionEndTest {
  /** An :info multi creates /p and /e, both persistent; a later listing shows /p alone: half a multi. */
  private static final String MULTI_HALF_APPLIED = """
      {:type :invoke :process 0 :session 1 :f :multi :value [{:f :create :path "/p" :data "p" :mode :persistent} {:f :create :path "/e" :data "e" :mode :persistent}] :time 0}
      {:type :info :process 0 :session 1 :f :multi :value [{:f :create :path "/p" :data "p" :mode :persistent} {:f :create :path "/e" :data "e" :mode :persistent}] :time 1 :error :connection-loss}
      {:type :invoke :process 1 :session 2 :f :get-children :path "/" :time 5}
      {:type :ok :process 1 :session 2 :f :get-children :path "/" :value ["p" "zookeeper"] :time 6 :zxid 3 :stat {:pzxid 2 :num-children 2}}
      """;

  private static History history(String lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines.strip().split("\n")) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return History.of(ops);
  }

  @Test
  void theSweepsHistoryWithAMultisEphemeralGoneIsValid() throws Exception {
    // 3-server sim seed 3782042 (make sim-replay SEED=3782042 SERVERS=3 VARIANT=Zab HISTORY=...): INVALID before the
    // multi's ephemeral create counted for its session's unreported end; the simulator's own checks pass that run
    java.nio.file.Path p = java.nio.file.Path.of(getClass().getResource(
        "/histories/sim-s3-seed3782042-multi-ephemeral-unreported-end.edn").toURI());
    Result r = new ZkChecker().check(History.file(p));
    assertEquals(Result.Status.VALID, r.status(), r.table());
  }

  @Test
  void aPersistentNodeOfTheSameMultiCannotGoThatWay() {
    // the teeth: no session end removes a persistent node, so /p alone shows a half-applied multi
    Result r = new ZkChecker().check(history(MULTI_HALF_APPLIED));
    assertEquals(Result.Status.INVALID, r.status(), r.table());
  }

  /** An :info multi of session 1 creates the persistent /p and the ephemeral /e; session 2 then lists / with /p and
   *  without /e: the multi took effect and session 1 expired unseen afterwards, which removed /e. */
  private static final String MULTI_THEN_UNSEEN_END = """
      {:type :invoke :process 0 :session 1 :f :multi :value [{:f :create :path "/p" :data "p" :mode :persistent} {:f :create :path "/e" :data "e" :mode :ephemeral}] :time 0}
      {:type :info :process 0 :session 1 :f :multi :value [{:f :create :path "/p" :data "p" :mode :persistent} {:f :create :path "/e" :data "e" :mode :ephemeral}] :time 1 :error :connection-loss}
      {:type :invoke :process 1 :session 2 :f :get-children :path "/" :time 5}
      {:type :ok :process 1 :session 2 :f :get-children :path "/" :value %s :time 6 :zxid 3 :stat {:pzxid %d :num-children %d}}
      """;

  /** Session 1 is seen alive after the listing (an ok read of its own at a later zxid), so it had not expired. */
  private static final String SESSION_SEEN_ALIVE_LATER = """
      {:type :invoke :process 2 :session 1 :f :exists :path "/q" :time 7}
      {:type :ok :process 2 :session 1 :f :exists :path "/q" :value false :time 8 :zxid 4}
      """;

  @Test
  void anInfoMultiAndItsSessionsUnseenEndArePlacedTogether() {
    // the multi at 1 creates /p and /e; the end at 2 removes /e (pzxid 2: the last child change of /)
    Result r = new ZkChecker().check(history(MULTI_THEN_UNSEEN_END.formatted("[\"p\" \"zookeeper\"]", 2, 2)));
    assertEquals(Result.Status.VALID, r.status(), r.table());
  }

  @Test
  void theMultiIsAllOrNothingSoAListingWithoutBothStaysInvalid() {
    // teeth: neither /p nor /e, yet / shows a child change at 2 that nothing else explains... the plain form: a
    // listing lacking /p but showing pzxid 2 and one more child than the root had
    Result r = new ZkChecker().check(history(MULTI_THEN_UNSEEN_END.formatted("[\"zookeeper\"]", 2, 1)));
    assertEquals(Result.Status.INVALID, r.status(), r.table());
  }

  @Test
  void aSessionSeenAliveAfterTheListingCannotHaveEndedBeforeIt() {
    // teeth: session 1's ok reply at zxid 4, after the listing at 3, shows it alive past 3, so /e was not removed by 3
    Result r = new ZkChecker().check(history(
        MULTI_THEN_UNSEEN_END.formatted("[\"p\" \"zookeeper\"]", 2, 2) + SESSION_SEEN_ALIVE_LATER));
    assertEquals(Result.Status.INVALID, r.status(), r.table());
  }

  /** Session 1 creates /a at 1 and is reported expired at 2; session 1 is then answered at zxid %d. */
  private static final String ANSWERED_AROUND_ITS_END = """
      {:type :invoke :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent :created-path "/a"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :get-data :path "/a" :time 2}
      {:type :ok :process 0 :session 1 :f :get-data :path "/a" :value "a" :time 3 :zxid %d :stat {:version 0 :mzxid 1 :czxid 1}}
      {:type :ok :process 0 :session 1 :f :session-expired :time 4 :zxid 2}
      """;

  @Test
  void aSessionIsAnsweredOnlyBeforeItsEnd() {
    // at the end's own zxid is allowed (a read served between applying the closeSession and closing the connection)
    Result at = new ZkChecker().check(history(ANSWERED_AROUND_ITS_END.formatted(2, 2)));
    assertEquals(Result.Status.VALID, at.status(), at.table());
    Result after = new ZkChecker().check(history(ANSWERED_AROUND_ITS_END.formatted(3, 3)));
    assertEquals(Result.Status.INVALID, after.status(), after.table());
    assertEquals(false, after.verdict(Property.EphemeralLifetime).valid(), after.table());
  }
}
