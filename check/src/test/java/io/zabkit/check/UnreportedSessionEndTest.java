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
}
