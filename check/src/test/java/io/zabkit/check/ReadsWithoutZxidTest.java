package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reads whose reply carries no zxid (how campaigns record them): the returned data and Stat bound the zxid the read
 * was served at, and each session must be able to pick non-decreasing points.
 */
class ReadsWithoutZxidTest {
  /** /r is created with "a" at zxid 1 and set to "b" at zxid 2 by session 1, both acknowledged. */
  private static final String A_THEN_B = """
      {:type :invoke :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent :created-path "/r"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 2}
      {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 3 :zxid 2 :stat {:version 1 :mzxid 2}}
      """;

  private static Result check(String lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines.strip().split("\n")) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return new ZkChecker().check(History.of(ops));
  }

  private static String read(int process, int session, String data, long time) {
    return "{:type :invoke :process " + process + " :session " + session + " :f :get-data :path \"/r\" :time " + time + "}\n"
        + "{:type :ok :process " + process + " :session " + session + " :f :get-data :path \"/r\" :value \"" + data + "\" :time " + (time + 1) + "}\n";
  }

  private static void assertViolates(Property p, Result r) {
    assertEquals(List.of(p), r.failed(), r.table());
  }

  @Test
  void aStaleReadOfAnotherSessionIsAllowedAndCounted() {
    Result r = check(A_THEN_B + read(1, 2, "a", 4) + read(1, 2, "b", 6));
    assertTrue(r.valid(), r.table());
    assertEquals(2, r.verdict(Property.MonotonicReads).checked());
  }

  @Test
  void readYourWritesAfterOwnAcknowledgedWrite() {
    assertViolates(Property.MonotonicReads, check(A_THEN_B + read(0, 1, "a", 4)));
  }

  @Test
  void aSessionNeverGoesBackToAnOlderState() {
    assertViolates(Property.MonotonicReads, check(A_THEN_B + read(1, 2, "b", 4) + read(1, 2, "a", 6)));
  }

  @Test
  void aStatBoundsThePointAsDataDoes() {
    // same data "a" both times, but the Stat of the first read shows version 1 (after a set-data of "a")
    String h = A_THEN_B + """
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "a" :version -1 :time 4}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "a" :version -1 :time 5 :zxid 3 :stat {:version 2 :mzxid 3}}
        {:type :invoke :process 1 :session 2 :f :get-data :path "/r" :time 6}
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :value "a" :time 7 :stat {:version 2 :mzxid 3}}
        {:type :invoke :process 1 :session 2 :f :get-data :path "/r" :time 8}
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :value "a" :time 9 :stat {:version 0 :mzxid 1}}
        """;
    assertViolates(Property.MonotonicReads, check(h));
  }

  @Test
  void aReadAfterSyncSeesWhatCompletedBeforeTheSync() {
    String sync = """
        {:type :invoke :process 1 :session 2 :f :sync :path "/r" :time 4}
        {:type :ok :process 1 :session 2 :f :sync :path "/r" :time 5}
        """;
    assertViolates(Property.SyncReads, check(A_THEN_B + sync + read(1, 2, "a", 6)));
    assertTrue(check(A_THEN_B + sync + read(1, 2, "b", 6)).valid());
  }

  @Test
  void dataNeverWrittenOrNotYetInvokedIsALinearizabilityViolation() {
    assertViolates(Property.LinearizableWrites, check(A_THEN_B + read(1, 2, "zz", 4)));
    String early = """
        {:type :invoke :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent} :time 0}
        {:type :ok :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent :created-path "/r"} :time 1 :zxid 1}
        """ + read(1, 2, "b", 2) + """
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 5}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 6 :zxid 2 :stat {:version 1 :mzxid 2}}
        """;
    assertViolates(Property.LinearizableWrites, check(early));
  }

  @Test
  void anAbsentNodeBeforeItsCreationIsAPoint() {
    String h = """
        {:type :invoke :process 1 :session 2 :f :exists :path "/r" :time 0}
        {:type :ok :process 1 :session 2 :f :exists :path "/r" :value false :time 1}
        """ + A_THEN_B + """
        {:type :invoke :process 1 :session 2 :f :exists :path "/r" :time 10}
        {:type :ok :process 1 :session 2 :f :exists :path "/r" :value false :time 11}
        """;
    assertTrue(check(h).valid(), "another session may still be served before the create");
    String own = A_THEN_B + """
        {:type :invoke :process 0 :session 1 :f :exists :path "/r" :time 10}
        {:type :ok :process 0 :session 1 :f :exists :path "/r" :value false :time 11}
        """;
    assertViolates(Property.MonotonicReads, check(own));
  }
}
