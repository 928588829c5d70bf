package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zabkit.check.model.ReferenceModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Small hand-written histories for the rules that matter most. Zxids are small integers here. */
class ZkCheckerTest {
  private static final String CREATE_R = """
      {:type :invoke :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/r" :value {:data "a" :mode :persistent :created-path "/r"} :time 1 :zxid 1}
      """;

  private static Result check(String lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines.strip().split("\n")) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return new ZkChecker().check(History.of(ops));
  }

  @Test
  void staleReadOfAnotherSessionIsAllowed() {
    Result r = check(CREATE_R + """
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 2}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 3 :zxid 2 :stat {:version 1 :mzxid 2}}
        {:type :invoke :process 1 :session 2 :f :get-data :path "/r" :time 4}
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :value "a" :time 5 :zxid 1 :stat {:version 0 :mzxid 1}}
        """);
    assertTrue(r.valid(), r.table());
  }

  @Test
  void staleReadAfterOwnWriteBreaksMonotonicReads() {
    Result r = check(CREATE_R + """
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 2}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 3 :zxid 2 :stat {:version 1 :mzxid 2}}
        {:type :invoke :process 0 :session 1 :f :get-data :path "/r" :time 4}
        {:type :ok :process 0 :session 1 :f :get-data :path "/r" :value "a" :time 5 :zxid 1 :stat {:version 0 :mzxid 1}}
        """);
    assertEquals(List.of(Property.MonotonicReads), r.failed(), r.table());
    assertEquals(4, r.verdict(Property.MonotonicReads).witness().size());
  }

  @Test
  void readAfterSyncMustSeeWritesCompletedBeforeTheSync() {
    Result r = check(CREATE_R + """
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 2}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 3 :zxid 2 :stat {:version 1 :mzxid 2}}
        {:type :invoke :process 1 :session 2 :f :sync :path "/r" :time 4}
        {:type :ok :process 1 :session 2 :f :sync :path "/r" :time 5 :zxid 2}
        {:type :invoke :process 1 :session 2 :f :get-data :path "/r" :time 6}
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :value "a" :time 7 :zxid 1 :stat {:version 0 :mzxid 1}}
        """);
    assertEquals(List.of(Property.SyncReads), r.failed(), r.table());
  }

  @Test
  void infoWriteIsResolvedFromALaterRead() {
    String base = CREATE_R + """
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 2}
        {:type :info :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 3 :error :connection-loss}
        {:type :invoke :process 1 :session 2 :f :get-data :path "/r" :time 4}
        """;
    assertTrue(check(base + """
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :value "b" :time 5 :zxid 2 :stat {:version 1 :mzxid 2}}
        """).valid());
    Result phantom = check(base + """
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :value "c" :time 5 :zxid 2 :stat {:version 1 :mzxid 2}}
        """);
    assertEquals(List.of(Property.LinearizableWrites), phantom.failed(), phantom.table());
  }

  @Test
  void infoCreatesFillASequenceGapOnlyAsFarAsTheyGo() {
    // one :info plain create can take one sequence number (RegressionCorpus: it creates its own path), not two
    String history = RegressionCorpus.cases().get(0).history();
    assertTrue(check(history).valid(), check(history).table());
    Result twoMissing = check(history.replace("/s-0000000001", "/s-0000000002"));
    assertEquals(List.of(Property.LinearizableWrites), twoMissing.failed(), twoMissing.table());
  }

  @Test
  void aPlainInfoCreateCannotExplainADeletedSequentialNode() {
    String create = """
        {:type :invoke :process 0 :session 1 :f :create :path "/s-" :value {:data "a" :mode MODE} :time 0}
        {:type :info :process 0 :session 1 :f :create :path "/s-" :value {:data "a" :mode MODE} :time 1 :error :connection-loss}
        {:type :invoke :process 1 :session 2 :f :delete :path "/s-0000000000" :version -1 :time 2}
        {:type :ok :process 1 :session 2 :f :delete :path "/s-0000000000" :version -1 :time 3 :zxid 2}
        """;
    assertTrue(check(create.replace("MODE", ":persistent-sequential")).valid());
    Result plain = check(create.replace("MODE", ":persistent"));
    assertEquals(List.of(Property.LinearizableWrites), plain.failed(), plain.table());
  }

  @Test
  void anExistsStatPlacesTheInfoCreateSoTheNextSequenceNumberIsChecked() {
    // czxid = mzxid = 1 and no data: the :info create of /a took effect at zxid 1 and took sequence number 0
    String history = """
        {:type :invoke :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent} :time 0}
        {:type :info :process 0 :session 1 :f :create :path "/a" :value {:data "a" :mode :persistent} :time 1 :error :connection-loss}
        {:type :invoke :process 2 :session 2 :f :exists :path "/a" :time 2}
        {:type :ok :process 2 :session 2 :f :exists :path "/a" :value true :time 3 :zxid 1 :stat {:czxid 1 :mzxid 1 :version 0}}
        {:type :invoke :process 2 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential} :time 4}
        {:type :ok :process 2 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential :created-path "/s-0000000001"} :time 5 :zxid 2}
        """;
    assertTrue(check(history).valid(), check(history).table());
    Result reused = check(history.replace("/s-0000000001", "/s-0000000000"));
    assertEquals(List.of(Property.LinearizableWrites), reused.failed(), reused.table());
  }

  @Test
  void aFailedMultiIsExplainedByAnInfoDeleteOnlyWhenThereIsOne() {
    String history = RegressionCorpus.MULTI_AFTER_INFO_DELETE;
    assertTrue(check(history).valid(), check(history).table());
    // without the delete, only an unreported end of session 1 could remove /e0 before the multi: session 1 creating
    // another ephemeral after the multi shows it alive (the exhaustive search tries every slot for that end)
    String withoutDelete = history.lines().filter(l -> !l.contains(":f :delete :path \"/e0\"")).collect(java.util.stream.Collectors.joining("\n"))
        + "\n{:type :invoke :process 0 :session 1 :f :create :path \"/e1\" :value {:data \"x\" :mode :ephemeral} :time 8}"
        + "\n{:type :ok :process 0 :session 1 :f :create :path \"/e1\" :value {:data \"x\" :mode :ephemeral :created-path \"/e1\"} :time 9 :zxid 5}\n";
    Result r = check(withoutDelete);
    assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
  }

  @Test
  void aParentPzxidPlacesOnlyAnInfoChildWriteThatExists() {
    String history = RegressionCorpus.CHILD_PLACED_BY_PZXID;
    assertTrue(check(history).valid(), check(history).table());
    // no :info write under /k: nothing explains its child, its pzxid or the not-empty delete
    String withoutCreate = history.lines().filter(l -> !l.contains("/k/c0")).collect(java.util.stream.Collectors.joining("\n"));
    Result none = check(withoutCreate);
    assertEquals(List.of(Property.LinearizableWrites), none.failed(), none.table());
    // one :info create cannot make two children
    String twoChildren = history.replace(":time 9 :zxid 4 :stat {:czxid 1 :mzxid 4 :pzxid 2 :version 1 :cversion 1 :num-children 1}",
        ":time 9 :zxid 4 :stat {:czxid 1 :mzxid 4 :pzxid 2 :version 1 :cversion 2 :num-children 2}");
    assertFalse(twoChildren.equals(history));
    Result two = check(twoChildren);
    assertEquals(List.of(Property.LinearizableWrites), two.failed(), two.table());
  }

  @Test
  void aNeededInfoCreateTakesAGuessedGapNumberOnlyIfItCouldHaveFilledTheGap() {
    String history = RegressionCorpus.GUESSED_GAP_NUMBER;
    assertTrue(check(history).valid(), check(history).table());
    // the /e0 create invoked after /s-0000000001 completed cannot have taken number 0: it took number 2
    String late = history.replace(":time 2}", ":time 6}").replace(":time 3 :error", ":time 7 :error");
    assertFalse(late.equals(history));
    Result r = check(late);
    assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
    // with /s-0000000003 the numbers fit, but the delete at zxid 3 needs /e0, and its create, invoked after zxid 2
    // completed, cannot take a zxid below 3: none lies between 2 and 3 (the exhaustive search tries every slot)
    Result three = check(late.replace("/s-0000000002", "/s-0000000003"));
    assertEquals(List.of(Property.LinearizableWrites), three.failed(), three.table());
  }

  @Test
  void anInfoWriteExplainsAnErrorThatZooKeeperChecksBeforeTheOneTheModelGives() {
    for (String history : List.of(RegressionCorpus.NO_NODE_OVER_BAD_VERSION, RegressionCorpus.BAD_VERSION_OVER_NOT_EMPTY)) {
      assertTrue(check(history).valid(), check(history).table());
      String withoutInfo = history.lines().filter(l -> !l.contains(":time 4}") && !l.contains(":time 5 :error")).collect(java.util.stream.Collectors.joining("\n"));
      assertEquals(history.lines().count() - 2, withoutInfo.lines().count());
      Result r = check(withoutInfo);
      assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
    }
  }

  @Test
  void anInfoCreateExplainsAnErrorThatNeedsTheNode() {
    for (String history : List.of(RegressionCorpus.BAD_VERSION_NEEDS_INFO_CREATE, RegressionCorpus.EPHEMERAL_PARENT_NEEDS_INFO_CREATE)) {
      assertTrue(check(history).valid(), check(history).table());
      String withoutCreate = history.lines().skip(2).collect(java.util.stream.Collectors.joining("\n"));
      Result r = check(withoutCreate);
      assertEquals(List.of(Property.LinearizableWrites), r.failed(), r.table());
    }
    Result persistentParent = check(RegressionCorpus.EPHEMERAL_PARENT_NEEDS_INFO_CREATE.replace(
        ":path \"/e\" :value {:data \"a\" :mode :ephemeral}", ":path \"/e\" :value {:data \"a\" :mode :persistent}"));
    assertEquals(List.of(Property.LinearizableWrites), persistentParent.failed(), persistentParent.table());
    // an :info create gives version 0: a set-data expecting 0 succeeds, so its bad-version is a violation
    Result versionZero = check(RegressionCorpus.BAD_VERSION_NEEDS_INFO_CREATE.replace(":version 3", ":version 0"));
    assertEquals(List.of(Property.LinearizableWrites), versionZero.failed(), versionZero.table());
  }

  @Test
  void aNodeCreatedEventPlacesOnlyTheInfoCreateItNames() {
    String history = RegressionCorpus.PLACED_BY_CREATED_EVENT;
    assertTrue(check(history).valid(), check(history).table());
    String otherPath = history.replace(":path \"/k/c\" :value {:event :node-created :path \"/k/c\"}", ":path \"/k/x\" :value {:event :node-created :path \"/k/x\"}");
    assertFalse(otherPath.equals(history));
    Result r = check(otherPath);
    // nothing creates /k/x: the event is a WatchOrdering violation every placement leaves. /k's child change needs
    // the :info create of /k/c at zxid 2, and a decided create is checked strictly: the exists watch on /k/c was then
    // due at 2 and never fired, so each placement of /k/c breaks LinearizableWrites (absent) or WatchOrdering (at 2)
    assertEquals(Result.Status.INVALID, r.status(), r.table());
    assertTrue(r.failed().contains(Property.WatchOrdering), r.table());
  }

  @Test
  void aSequentialNameAnEventGivesPlacesAnInfoSequentialCreateOnlyIfTheNumberFits() {
    String history = RegressionCorpus.SEQUENTIAL_NAMED_BY_EVENT;
    assertTrue(check(history).valid(), check(history).table());
    Result wrongNumber = check(history.replace("s-0000000000", "s-0000000005"));
    assertTrue(wrongNumber.failed().contains(Property.LinearizableWrites), wrongNumber.table());
    Result otherPrefix = check(history.replace("s-0000000000", "t-0000000000"));
    assertFalse(otherPrefix.valid(), otherPrefix.table());
  }

  @Test
  void onlyTheEventsSetWatchesFiresMayArriveOutOfZxidOrder() {
    String history = RegressionCorpus.SET_WATCHES_ORDER;
    String reconnect = "{:type :ok :process 1 :session 2 :f :connect :time 10}\n";
    assertTrue(history.contains(reconnect));
    assertTrue(check(history).valid(), check(history).table());
    // no reconnect: the events are ordinary deliveries
    Result noReconnect = check(history.replace(reconnect, ""));
    assertEquals(List.of(Property.WatchOrdering), noReconnect.failed(), noReconnect.table());
    assertTrue(noReconnect.table().contains("delivered after an event at zxid 0x3"), noReconnect.table());
    // a reply after the reconnect ends SetWatches' events: later ones are ordered again
    Result afterReply = check(history.replace(reconnect, reconnect
        + "{:type :invoke :process 1 :session 2 :f :exists :path \"/z\" :time 10}\n"
        + "{:type :ok :process 1 :session 2 :f :exists :path \"/z\" :value false :time 10 :zxid 1}\n"));
    assertEquals(List.of(Property.WatchOrdering), afterReply.failed(), afterReply.table());
    assertTrue(afterReply.table().contains("delivered after an event at zxid 0x3"), afterReply.table());
  }

  @Test
  void anInfoSequentialCreateInvokedWithItsParentFillsOnlyAGapItCouldHaveTaken() {
    String history = RegressionCorpus.SEQUENTIAL_INVOKED_WITH_PARENT;
    assertTrue(check(history).valid(), check(history).table());
    String info = "{:type :invoke :process 1 :session 2 :f :create :path \"/session\" :value {:mode :ephemeral-sequential} :time 4}\n"
        + "{:type :info :process 1 :session 2 :f :create :path \"/session\" :value {:mode :ephemeral-sequential} :time 5 :error :connection-loss}\n";
    assertTrue(history.contains(info));
    Result noInfo = check(history.replace(info, ""));
    assertEquals(List.of(Property.LinearizableWrites), noInfo.failed(), noInfo.table());
    // invoked after the create that shows the gap completed: it cannot have taken the number, but the exhaustive
    // search does not place :info sequential creates, so the verdict is UNKNOWN, never VALID
    Result tooLate = check(history.replace(info, "") + info.replace(":time 4", ":time 10").replace(":time 5", ":time 11"));
    assertEquals(Result.Status.UNKNOWN, tooLate.status(), tooLate.table());
  }

  @Test
  void jepsenRegisterAliasesAreUnderstood() {
    String ok = CREATE_R + """
        {:type :invoke :process 0 :session 1 :f :write :path "/r" :value 3 :time 2}
        {:type :ok :process 0 :session 1 :f :write :path "/r" :value 3 :time 3 :zxid 2 :stat {:version 1}}
        {:type :invoke :process 0 :session 1 :f :cas :path "/r" :value [1 4] :time 4}
        {:type :ok :process 0 :session 1 :f :cas :path "/r" :value [1 4] :time 5 :zxid 3 :stat {:version 2}}
        {:type :invoke :process 0 :session 1 :f :read :path "/r" :time 6}
        {:type :ok :process 0 :session 1 :f :read :path "/r" :value 4 :time 7 :zxid 3}
        """;
    assertTrue(check(ok).valid(), check(ok).table());
    Result bad = check(ok.replace(":value [1 4] :time 5 :zxid 3", ":value [1 4] :time 5 :zxid 3 :error :bad-version")
        .replace("{:type :ok :process 0 :session 1 :f :cas", "{:type :fail :process 0 :session 1 :f :cas"));
    assertFalse(bad.valid());
    assertTrue(bad.failed().contains(Property.LinearizableWrites), bad.table());
  }

  @Test
  void withoutSessionIdsEachProcessIsItsOwnSession() {
    String h = """
        {:type :invoke :process 0 :f :create :path "/r" :value {:data 1 :mode :persistent} :time 0}
        {:type :ok :process 0 :f :create :path "/r" :value {:data 1 :mode :persistent :created-path "/r"} :time 1 :zxid 1}
        {:type :invoke :process 0 :f :write :path "/r" :value 2 :time 2}
        {:type :ok :process 0 :f :write :path "/r" :value 2 :time 3 :zxid 2}
        {:type :invoke :process 1 :f :read :path "/r" :time 4}
        {:type :ok :process 1 :f :read :path "/r" :value 1 :time 5 :zxid 1}
        """;
    assertTrue(check(h).valid(), check(h).table());
    Result own = check(h.replace(":process 1", ":process 0"));
    assertEquals(List.of(Property.MonotonicReads), own.failed(), own.table());
  }

  @Test
  void watchMustFireBeforeAReplyReflectingTheChange() {
    String head = CREATE_R + """
        {:type :invoke :process 1 :session 2 :f :get-data :path "/r" :watch true :time 2}
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :watch true :value "a" :time 3 :zxid 1 :stat {:version 0}}
        {:type :invoke :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 4}
        {:type :ok :process 0 :session 1 :f :set-data :path "/r" :value "b" :version -1 :time 5 :zxid 2 :stat {:version 1}}
        """;
    String event = "{:type :ok :process 1 :session 2 :f :watch-event :path \"/r\" :value {:event :node-data-changed :path \"/r\"} :time 6 :zxid 2}\n";
    String read = """
        {:type :invoke :process 1 :session 2 :f :get-data :path "/r" :time 7}
        {:type :ok :process 1 :session 2 :f :get-data :path "/r" :value "b" :time 8 :zxid 2 :stat {:version 1}}
        """;
    assertTrue(check(head + event + read).valid(), check(head + event + read).table());
    Result late = check(head + read + event.replace(":time 6", ":time 9"));
    assertEquals(List.of(Property.WatchOrdering), late.failed(), late.table());
  }

  @Test
  void referenceModelIsDeterministicPerSeed() {
    List<Op> a = ReferenceModel.generate(ReferenceModel.Options.of(7, 500, 4));
    List<Op> b = ReferenceModel.generate(ReferenceModel.Options.of(7, 500, 4));
    List<Op> c = ReferenceModel.generate(ReferenceModel.Options.of(8, 500, 4));
    assertEquals(a, b);
    assertFalse(a.equals(c));
  }
}
