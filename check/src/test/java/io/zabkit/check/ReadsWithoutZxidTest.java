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

  // ---- a watch set by a read without a zxid: registered at some point of the interval the read was served in ----

  private static String watchedRead(int process, int session, String data, long time) {
    return read(process, session, data, time).replace(":path \"/r\" :time", ":path \"/r\" :watch true :time");
  }

  private static String event(int session, String type, long zxid, long time) {
    return "{:type :ok :process 9 :session " + session + " :f :watch-event :value {:event :" + type + " :path \"/r\"} :zxid "
        + zxid + " :time " + time + "}\n";
  }

  /** /r: "a" at zxid 1; a watched read of session 2 without a zxid returns "a"; then "b" at zxid 2, "c" at zxid 3. */
  private static String watchedThenChanged(String eventAndAfter) {
    return """
        {:type :invoke :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent} :time 0}
        {:type :ok :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent :created-path "/r"} :time 1 :zxid 1}
        """ + watchedRead(1, 2, "a", 2) + """
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 4}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 5 :zxid 2 :stat {:version 1 :mzxid 2}}
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "c" :version -1 :time 6}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "c" :version -1 :time 7 :zxid 3 :stat {:version 2 :mzxid 3}}
        """ + eventAndAfter;
  }

  @Test
  void aWatchSetByAReadWithoutZxidFiresForTheFirstChangeAfterIt() {
    Result r = check(watchedThenChanged(event(2, "node-data-changed", 2, 8)));
    assertTrue(r.valid(), r.table()); // it was once "the session had no watch there"
    assertEquals(1, r.verdict(Property.WatchOrdering).checked());
  }

  @Test
  void aWatchSetByAReadWithoutZxidStillCatchesWrongEvents() {
    // the read completed before "b" was invoked, so its watch's first change is zxid 2: not 3, and a data change
    assertViolates(Property.WatchOrdering, check(watchedThenChanged(event(2, "node-data-changed", 3, 8))));
    assertViolates(Property.WatchOrdering, check(watchedThenChanged(event(2, "node-deleted", 2, 8))));
    // a reply at zxid 3 reflects the change the watch was due for, and no event came first
    String reply = """
        {:type :invoke :process 1 :session 2 :f :get-data :path "/r" :time 8}
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :value "c" :time 9 :zxid 3}
        """;
    assertViolates(Property.WatchOrdering, check(watchedThenChanged(reply)));
    assertTrue(check(watchedThenChanged(event(2, "node-data-changed", 2, 8) + reply)).valid());
  }

  @Test
  void aReadServedSomewhereInAnIntervalAcceptsTheFirstChangeOfAnyPointInIt() {
    // session 2's watched read is concurrent with both writes and returns "a": served at zxid 1 or (stale) later,
    // below zxid 2; an event at 2 is the only first change. Returning "b" it was served in [2, 3): the event is 3.
    String concurrent = """
        {:type :invoke :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent} :time 0}
        {:type :ok :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent :created-path "/r"} :time 1 :zxid 1}
        {:type :invoke :process 1 :session 2 :f :get-data :path "/r" :watch true :time 2}
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 3}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 4 :zxid 2 :stat {:version 1 :mzxid 2}}
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "c" :version -1 :time 5}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "c" :version -1 :time 6 :zxid 3 :stat {:version 2 :mzxid 3}}
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :watch true :value "DATA" :time 7}
        """;
    assertTrue(check(concurrent.replace("DATA", "a") + event(2, "node-data-changed", 2, 8)).valid());
    assertTrue(check(concurrent.replace("DATA", "b") + event(2, "node-data-changed", 3, 8)).valid());
    assertViolates(Property.WatchOrdering, check(concurrent.replace("DATA", "b") + event(2, "node-data-changed", 2, 8)));
  }
}
