package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What two Stats of one incarnation say about the version a conditional set-data can find between them. */
class VersionFactsTest {
  /** /k (created at zxid 1) read at version 3 (mzxid 10), then at version 5 (mzxid 20); later re-created at 30. */
  private static final String READS = """
      {:type :invoke :process 0 :session 1 :f :get-data :path "/k" :time 0}
      {:type :ok :process 0 :session 1 :f :get-data :path "/k" :value "a" :time 1 :zxid 12 :stat {:czxid 1 :mzxid 10 :version 3}}
      {:type :invoke :process 0 :session 1 :f :get-data :path "/k" :time 2}
      {:type :ok :process 0 :session 1 :f :get-data :path "/k" :value "b" :time 3 :zxid 22 :stat {:czxid 1 :mzxid 20 :version 5}}
      {:type :invoke :process 0 :session 1 :f :get-data :path "/k" :time 4}
      {:type :ok :process 0 :session 1 :f :get-data :path "/k" :value "c" :time 5 :zxid 31 :stat {:czxid 30 :mzxid 30 :version 0}}
      """;

  private static VersionFacts facts() {
    List<Op> ops = new ArrayList<>();
    for (String l : READS.strip().split("\n")) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    VersionFacts f = new VersionFacts();
    new Pairer().run(History.of(ops), f::note);
    return f;
  }

  @Test
  void betweenTwoStatsOfOneIncarnationOnlyTheirVersionsFit() {
    VersionFacts f = facts();
    assertTrue(f.couldSucceed("/k", 15, 3) && f.couldSucceed("/k", 15, 4), "between versions 3 and 5 the node is at 3 or 4");
    assertFalse(f.couldSucceed("/k", 15, 2), "the node was already at 3");
    assertFalse(f.couldSucceed("/k", 15, 5), "version 5 is the state at 20, made by a later write");
    assertTrue(f.couldSucceed("/k", 20, 4) && !f.couldSucceed("/k", 20, 3), "the write at 20 itself found exactly version 4");
  }

  @Test
  void aRecreationOrNoLaterStatLeavesTheVersionOpen() {
    VersionFacts f = facts();
    assertTrue(f.couldSucceed("/k", 25, 0) && f.couldSucceed("/k", 25, 99), "the next Stat is of another incarnation");
    assertTrue(f.couldSucceed("/k", 40, 7), "nothing read after 40");
    assertTrue(f.couldSucceed("/other", 15, 7), "nothing read of /other");
  }
}
