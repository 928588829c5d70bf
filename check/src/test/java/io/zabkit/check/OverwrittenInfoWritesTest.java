package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * :info writes that took effect and were overwritten before anyone read them: nothing observes them except the
 * version they add. CI's campaign false alarm (issue 10): a read showed version 48 where the writes placed gave 47.
 */
class OverwrittenInfoWritesTest {
  /** Two :info set-datas of /r; a read at zxid 5 shows the second one's data at version 2: both took effect. */
  static final String GAP_2 = """
      {:type :invoke :process 0 :session 1 :f :create :path "/r" :value {:data "0" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/r" :value {:data "0" :mode :persistent :created-path "/r"} :time 1 :zxid 1}
      {:type :invoke :process 1 :session 1 :f :write :path "/r" :value "a" :time 2}
      {:type :invoke :process 2 :session 2 :f :write :path "/r" :value "b" :time 3}
      {:type :info :process 1 :session 1 :f :write :path "/r" :value "a" :time 4 :error :connection-loss}
      {:type :info :process 2 :session 2 :f :write :path "/r" :value "b" :time 5 :error :connection-loss}
      {:type :invoke :process 3 :session 3 :f :read :path "/r" :time 6}
      {:type :ok :process 3 :session 3 :f :read :path "/r" :value "b" :time 7 :zxid 5 :stat {:czxid 1 :mzxid 5 :version 2}}
      """;

  private static Result check(String lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines.strip().split("\n")) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return new ZkChecker().check(History.of(ops));
  }

  @Test
  void twoOverwrittenInfoWritesExplainAVersionGapOfTwo() {
    Result r = check(GAP_2);
    assertEquals(Result.Status.VALID, r.status(), r.table());
  }

  @Test
  void aVersionGapNoInfoWriteCanFillIsInvalid() {
    // version 3 needs three set-datas after the create; there are two
    Result r = check(GAP_2.replace(":version 2}", ":version 3}"));
    assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
    // and "a" read at version 2 would need "a" to be the later of the two, which its slot allows; "c" was never written
    Result never = check(GAP_2.replace(":value \"b\" :time 7", ":value \"c\" :time 7"));
    assertEquals(List.of(Property.LinearizableWrites), never.failed(), never.table());
  }

  @Test
  void theFirstOfTwoInfoWritesCannotBeTheLaterWhenItsFloorSaysSo() {
    // a read of version 1 "a" at zxid 2 completes before "b" is invoked: "b" comes later, so "a" at version 2 is impossible
    String h = GAP_2.replace("""
        {:type :invoke :process 3 :session 3 :f :read :path "/r" :time 6}
        {:type :ok :process 3 :session 3 :f :read :path "/r" :value "b" :time 7 :zxid 5 :stat {:czxid 1 :mzxid 5 :version 2}}
        """, "")
        .replace("{:type :invoke :process 2 :session 2 :f :write :path \"/r\" :value \"b\" :time 3}\n", "")
        .replace("{:type :info :process 2 :session 2 :f :write :path \"/r\" :value \"b\" :time 5 :error :connection-loss}\n", "")
        + """
        {:type :invoke :process 3 :session 3 :f :read :path "/r" :time 6}
        {:type :ok :process 3 :session 3 :f :read :path "/r" :value "a" :time 7 :zxid 2 :stat {:czxid 1 :mzxid 2 :version 1}}
        {:type :invoke :process 2 :session 2 :f :write :path "/r" :value "b" :time 8}
        {:type :info :process 2 :session 2 :f :write :path "/r" :value "b" :time 9 :error :connection-loss}
        {:type :invoke :process 3 :session 3 :f :read :path "/r" :time 10}
        {:type :ok :process 3 :session 3 :f :read :path "/r" :value "a" :time 11 :zxid 5 :stat {:czxid 1 :mzxid 5 :version 2}}
        """;
    Result r = check(h);
    assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
    Result ok = check(h.replace(":value \"a\" :time 11 :zxid 5 :stat {:czxid 1 :mzxid 5 :version 2}", ":value \"b\" :time 11 :zxid 5 :stat {:czxid 1 :mzxid 5 :version 2}"));
    assertEquals(Result.Status.VALID, ok.status(), ok.table());
  }

  /** The saved CI history (campaign-docker, zabkit register kill+partition): 193 and 194 both took effect. */
  @Test
  void theCampaignHistoryOfTheCiFalseAlarmIsValid() throws Exception {
    Path p = Path.of(getClass().getResource("/histories/campaign-info-version-gap-1.edn").toURI());
    Result r = new ZkChecker().check(History.file(p));
    assertEquals(Result.Status.VALID, r.status(), r.table());
  }
}
