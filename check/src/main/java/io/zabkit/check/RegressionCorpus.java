package io.zabkit.check;

import java.util.List;

/**
 * Correct histories that an earlier zk-check rejected (false violations), cut down by hand from the history that
 * showed the bug to the few operations that still show it, in the documented format with small zxids. Each must
 * pass; they guard the :info resolution, where such bugs live.
 */
public final class RegressionCorpus {
  private RegressionCorpus() {}

  /** A correct history and where it came from. */
  public record Case(String name, String description, String history) {}

  public static List<Case> cases() {
    return List.of(
        new Case("plain-info-create-fills-sequence-gap",
            "an :info plain create of /e0 took sequence number 0 of /: it created /e0, not a node named /e00000000000"
                + " (simulator ensemble, seed 2)",
            """
            {:type :invoke :process 0 :session 1 :f :create :path "/e0" :value {:data "a" :mode :ephemeral} :time 0}
            {:type :info :process 0 :session 1 :f :create :path "/e0" :value {:data "a" :mode :ephemeral} :time 1 :error :connection-loss}
            {:type :invoke :process 1 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential} :time 2}
            {:type :ok :process 1 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential :created-path "/s-0000000001"} :time 3 :zxid 2}
            {:type :invoke :process 1 :session 2 :f :create :path "/e0" :value {:data "b" :mode :ephemeral} :time 4}
            {:type :fail :process 1 :session 2 :f :create :path "/e0" :value {:data "b" :mode :ephemeral} :time 5 :zxid 3 :error :node-exists}
            {:type :ok :process 2 :session 1 :f :session-expired :time 8 :zxid 4}
            {:type :invoke :process 1 :session 2 :f :exists :path "/e0" :time 9}
            {:type :ok :process 1 :session 2 :f :exists :path "/e0" :value false :time 10 :zxid 4}
            """),
        new Case("info-create-placed-by-exists-stat",
            "the seed-2 shape: an exists Stat (czxid = mzxid, no data) shows where an :info ephemeral create took"
                + " effect, before a sequence gap and a create that fails with node-exists (simulator ensemble, seed 2)",
            """
            {:type :invoke :process 0 :session 1 :f :create :path "/e0" :value {:data "a" :mode :ephemeral} :time 0}
            {:type :info :process 0 :session 1 :f :create :path "/e0" :value {:data "a" :mode :ephemeral} :time 1 :error :connection-loss}
            {:type :invoke :process 1 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential} :time 2}
            {:type :ok :process 1 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential :created-path "/s-0000000001"} :time 3 :zxid 2}
            {:type :invoke :process 1 :session 2 :f :create :path "/e0" :value {:data "b" :mode :ephemeral} :time 4}
            {:type :fail :process 1 :session 2 :f :create :path "/e0" :value {:data "b" :mode :ephemeral} :time 5 :zxid 3 :error :node-exists}
            {:type :invoke :process 1 :session 2 :f :exists :path "/e0" :time 6}
            {:type :ok :process 1 :session 2 :f :exists :path "/e0" :value true :time 7 :zxid 3 :stat {:czxid 1 :mzxid 1 :version 0 :ephemeral-owner 1}}
            {:type :ok :process 2 :session 1 :f :session-expired :time 8 :zxid 4}
            {:type :invoke :process 1 :session 2 :f :exists :path "/e0" :time 9}
            {:type :ok :process 1 :session 2 :f :exists :path "/e0" :value false :time 10 :zxid 4}
            """),
        new Case("plain-info-create-among-gap-candidates",
            "an :info sequential create took the missing number; the :info plain create of /e0 invoked before it"
                + " did not take effect, so /e0 can be created later (simulator, seed 16: a guess that created /e0"
                + " broke this)",
            """
            {:type :invoke :process 0 :session 1 :f :create :path "/e0" :value {:data "a" :mode :ephemeral} :time 0}
            {:type :info :process 0 :session 1 :f :create :path "/e0" :value {:data "a" :mode :ephemeral} :time 1 :error :connection-loss}
            {:type :invoke :process 1 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential} :time 2}
            {:type :info :process 1 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential} :time 3 :error :connection-loss}
            {:type :invoke :process 2 :session 3 :f :create :path "/s-" :value {:data "t" :mode :persistent-sequential} :time 4}
            {:type :ok :process 2 :session 3 :f :create :path "/s-" :value {:data "t" :mode :persistent-sequential :created-path "/s-0000000001"} :time 5 :zxid 2}
            {:type :invoke :process 2 :session 3 :f :create :path "/e0" :value {:data "b" :mode :ephemeral} :time 6}
            {:type :ok :process 2 :session 3 :f :create :path "/e0" :value {:data "b" :mode :ephemeral :created-path "/e0"} :time 7 :zxid 3}
            """),
        new Case("info-delete-explains-failed-multi",
            "an :info delete of /e0 took effect, so a multi's create of /e0 succeeded before its next sub-op failed"
                + " (simulator ensemble, seed 5: a delete failing with not-empty)",
            MULTI_AFTER_INFO_DELETE),
        new Case("info-child-create-placed-by-parent-pzxid",
            "a parent's Stat (pzxid, cversion, num-children) shows that an :info create of a child took effect: it"
                + " explains the parent's not-empty delete and its one child (simulator ensemble, seed 50)",
            CHILD_PLACED_BY_PZXID),
        new Case("needed-info-create-takes-a-guessed-gap-number",
            "two :info plain creates could have taken the missing number; the guess took the first (/k3), but a"
                + " delete then needs the second (/e0): it took the number, so the next name is /s-0000000002"
                + " (simulator ensemble, seed 72: /e0 was counted again and /es-0000000013 reported)",
            GUESSED_GAP_NUMBER),
        new Case("info-delete-explains-no-node-over-bad-version",
            "an :info delete of /k took effect, so a set-data with a stale version fails with no-node (looked up"
                + " before the version is compared), not bad-version (simulator ensemble, seed 109)",
            NO_NODE_OVER_BAD_VERSION),
        new Case("info-set-data-explains-bad-version-over-not-empty",
            "an :info set-data of /k took effect, so a delete of /k (which has a child) at the old version fails"
                + " with bad-version (compared before the children are counted), not not-empty (simulator ensemble,"
                + " seed 135)",
            BAD_VERSION_OVER_NOT_EMPTY),
        new Case("info-create-explains-bad-version",
            "an :info create of /k took effect, so a set-data expecting another version fails with bad-version"
                + " where the replay had no node (simulator ensemble, seeds 113 and 126)",
            BAD_VERSION_NEEDS_INFO_CREATE),
        new Case("info-ephemeral-create-explains-no-children-for-ephemerals",
            "an :info ephemeral create of /e took effect, so a create under it fails with"
                + " no-children-for-ephemerals where the replay had no parent (simulator ensemble, seeds 100 and 187)",
            EPHEMERAL_PARENT_NEEDS_INFO_CREATE),
        new Case("info-create-placed-by-node-created-event",
            "a node-created event names the :info create of /k/c and its zxid, which the parent's pzxid alone"
                + " would give to an earlier :info delete under /k (simulator ensemble, seed 168)",
            PLACED_BY_CREATED_EVENT),
        new Case("info-sequential-create-placed-by-the-name-an-event-gives",
            "a node-created event names /k/s-0000000000, which no create op names: the :info sequential create of"
                + " prefix /k/s- made it there, and the next sequential name follows it (simulator ensemble, seed 5)",
            SEQUENTIAL_NAMED_BY_EVENT),
        new Case("set-watches-events-in-watch-list-order",
            "after a reconnect, SetWatches fires the missed changes in the order of its watch lists (data watches,"
                + " then exist watches), not in zxid order: /k's data change at zxid 3, then /a's creation at zxid 2"
                + " (simulator ensemble, seed 13)",
            SET_WATCHES_ORDER),
        new Case("info-sequential-create-invoked-with-its-parent-fills-a-gap",
            "the campaign's session workload invokes a sequential create with the parent /session and names the prefix"
                + " only in an ok reply: its :info create of \"/session\" took number 1 of /session, not a node under /"
                + " (fault campaigns zabkit-session-kill-n3, zabkit-session-n5, zookeeper-session-partition-n3)",
            SEQUENTIAL_INVOKED_WITH_PARENT));
  }

  /** ZkCheckerTest: without the :info create, or with one invoked too late, the gap is a violation. */
  static final String SEQUENTIAL_INVOKED_WITH_PARENT = """
      {:type :invoke :process 0 :session 1 :f :create :path "/session" :value {:data "" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/session" :value {:data "" :mode :persistent :created-path "/session"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :create :path "/session" :value {:mode :ephemeral-sequential} :time 2}
      {:type :ok :process 0 :session 1 :f :create :path "/session/e-1-" :value {:mode :ephemeral-sequential :data "" :created-path "/session/e-1-0000000000"} :time 3 :zxid 2}
      {:type :invoke :process 1 :session 2 :f :create :path "/session" :value {:mode :ephemeral-sequential} :time 4}
      {:type :info :process 1 :session 2 :f :create :path "/session" :value {:mode :ephemeral-sequential} :time 5 :error :connection-loss}
      {:type :invoke :process 2 :session 3 :f :create :path "/session" :value {:mode :ephemeral-sequential} :time 6}
      {:type :ok :process 2 :session 3 :f :create :path "/session/e-3-" :value {:mode :ephemeral-sequential :data "" :created-path "/session/e-3-0000000002"} :time 7 :zxid 4}
      {:type :invoke :process 2 :session 3 :f :exists :path "/session/e-3-0000000002" :time 8}
      {:type :ok :process 2 :session 3 :f :exists :path "/session/e-3-0000000002" :value true :time 9 :zxid 4 :stat {:czxid 4 :mzxid 4 :pzxid 4 :version 0 :ephemeral-owner 3}}
      """;

  /** ZkCheckerTest: the same two events out of zxid order outside a reconnect's SetWatches are rejected. */
  static final String SET_WATCHES_ORDER = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent :created-path "/k"} :time 1 :zxid 1}
      {:type :invoke :process 1 :session 2 :f :exists :path "/a" :watch true :time 2}
      {:type :ok :process 1 :session 2 :f :exists :path "/a" :value false :watch true :time 3 :zxid 1}
      {:type :invoke :process 1 :session 2 :f :get-data :path "/k" :watch true :time 4}
      {:type :ok :process 1 :session 2 :f :get-data :path "/k" :value "a" :watch true :time 5 :zxid 1 :stat {:czxid 1 :mzxid 1 :version 0}}
      {:type :invoke :process 0 :session 1 :f :create :path "/a" :value {:data "x" :mode :persistent} :time 6}
      {:type :ok :process 0 :session 1 :f :create :path "/a" :value {:data "x" :mode :persistent :created-path "/a"} :time 7 :zxid 2}
      {:type :invoke :process 0 :session 1 :f :set-data :path "/k" :value "b" :version -1 :time 8}
      {:type :ok :process 0 :session 1 :f :set-data :path "/k" :value "b" :version -1 :time 9 :zxid 3}
      {:type :ok :process 1 :session 2 :f :connect :time 10}
      {:type :ok :process 1 :session 2 :f :watch-event :path "/k" :value {:event :node-data-changed :path "/k"} :time 11 :zxid 3}
      {:type :ok :process 1 :session 2 :f :watch-event :path "/a" :value {:event :node-created :path "/a"} :time 12 :zxid 2}
      {:type :invoke :process 1 :session 2 :f :get-data :path "/k" :time 13}
      {:type :ok :process 1 :session 2 :f :get-data :path "/k" :value "b" :time 14 :zxid 3 :stat {:czxid 1 :mzxid 3 :version 1}}
      """;

  /** ZkCheckerTest: a name whose number does not fit the parent's cversion there places nothing. */
  static final String SEQUENTIAL_NAMED_BY_EVENT = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent :created-path "/k"} :time 1 :zxid 1}
      {:type :invoke :process 1 :session 2 :f :exists :path "/k/s-0000000000" :watch true :time 2}
      {:type :ok :process 1 :session 2 :f :exists :path "/k/s-0000000000" :value false :watch true :time 3 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :create :path "/k/s-" :value {:data "s" :mode :persistent-sequential} :time 4}
      {:type :info :process 0 :session 1 :f :create :path "/k/s-" :value {:data "s" :mode :persistent-sequential} :time 5 :error :connection-loss}
      {:type :ok :process 2 :session 2 :f :watch-event :path "/k/s-0000000000" :value {:event :node-created :path "/k/s-0000000000"} :time 6 :zxid 2}
      {:type :invoke :process 1 :session 2 :f :get-children :path "/k" :time 7}
      {:type :ok :process 1 :session 2 :f :get-children :path "/k" :value ["s-0000000000"] :time 8 :zxid 2}
      {:type :invoke :process 3 :session 3 :f :create :path "/k/s-" :value {:data "t" :mode :persistent-sequential} :time 9}
      {:type :ok :process 3 :session 3 :f :create :path "/k/s-" :value {:data "t" :mode :persistent-sequential :created-path "/k/s-0000000001"} :time 10 :zxid 3}
      """;

  /** ZkCheckerTest: an event naming a path no :info write creates explains nothing. */
  static final String PLACED_BY_CREATED_EVENT = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent :created-path "/k"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :delete :path "/k/d" :version -1 :time 2}
      {:type :info :process 0 :session 1 :f :delete :path "/k/d" :version -1 :time 3 :error :connection-loss}
      {:type :invoke :process 1 :session 1 :f :create :path "/k/c" :value {:data "c" :mode :persistent} :time 4}
      {:type :info :process 1 :session 1 :f :create :path "/k/c" :value {:data "c" :mode :persistent} :time 5 :error :connection-loss}
      {:type :invoke :process 2 :session 2 :f :exists :path "/k/c" :watch true :time 6}
      {:type :ok :process 2 :session 2 :f :exists :path "/k/c" :value false :watch true :time 7 :zxid 1}
      {:type :ok :process 3 :session 2 :f :watch-event :path "/k/c" :value {:event :node-created :path "/k/c"} :time 8 :zxid 2}
      {:type :invoke :process 2 :session 2 :f :get-data :path "/k" :time 9}
      {:type :ok :process 2 :session 2 :f :get-data :path "/k" :value "a" :time 10 :zxid 2 :stat {:czxid 1 :mzxid 1 :pzxid 2 :version 0 :cversion 1 :num-children 1}}
      """;

  /** ZkCheckerTest: without the :info create, the bad-version is a violation. */
  static final String BAD_VERSION_NEEDS_INFO_CREATE = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent} :time 0}
      {:type :info :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent} :time 1 :error :connection-loss}
      {:type :invoke :process 1 :session 2 :f :set-data :path "/k" :value "b" :version 3 :time 2}
      {:type :fail :process 1 :session 2 :f :set-data :path "/k" :value "b" :version 3 :time 3 :zxid 2 :error :bad-version}
      """;

  /**
   * ZkCheckerTest: without the :info create, or with a persistent one, the error is a violation. The child is
   * ephemeral as in seed 187, which also keeps it out of the register projection with its parent.
   */
  static final String EPHEMERAL_PARENT_NEEDS_INFO_CREATE = """
      {:type :invoke :process 0 :session 1 :f :create :path "/e" :value {:data "a" :mode :ephemeral} :time 0}
      {:type :info :process 0 :session 1 :f :create :path "/e" :value {:data "a" :mode :ephemeral} :time 1 :error :connection-loss}
      {:type :invoke :process 1 :session 2 :f :create :path "/e/c" :value {:data "c" :mode :ephemeral} :time 2}
      {:type :fail :process 1 :session 2 :f :create :path "/e/c" :value {:data "c" :mode :ephemeral} :time 3 :zxid 2 :error :no-children-for-ephemerals}
      """;

  /** ZkCheckerTest: without the :info delete, the no-node is a violation. */
  static final String NO_NODE_OVER_BAD_VERSION = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent :created-path "/k"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :set-data :path "/k" :value "b" :version 0 :time 2}
      {:type :ok :process 0 :session 1 :f :set-data :path "/k" :value "b" :version 0 :time 3 :zxid 2 :stat {:czxid 1 :mzxid 2 :version 1}}
      {:type :invoke :process 0 :session 1 :f :delete :path "/k" :version 1 :time 4}
      {:type :info :process 0 :session 1 :f :delete :path "/k" :version 1 :time 5 :error :connection-loss}
      {:type :invoke :process 1 :session 2 :f :set-data :path "/k" :value "c" :version 0 :time 6}
      {:type :fail :process 1 :session 2 :f :set-data :path "/k" :value "c" :version 0 :time 7 :zxid 4 :error :no-node}
      """;

  /**
   * ZkCheckerTest: without the :info set-data, the bad-version is a violation. The child is created by a multi, so
   * that the register projection (which leaves a multi's paths out) has no orphaned child.
   */
  static final String BAD_VERSION_OVER_NOT_EMPTY = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent :created-path "/k"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :multi :value [{:f :create :path "/k/c" :data "c" :mode :persistent}] :time 2}
      {:type :ok :process 0 :session 1 :f :multi :value [{:type :ok :created-path "/k/c"}] :time 3 :zxid 2}
      {:type :invoke :process 0 :session 1 :f :set-data :path "/k" :value "b" :version 0 :time 4}
      {:type :info :process 0 :session 1 :f :set-data :path "/k" :value "b" :version 0 :time 5 :error :connection-loss}
      {:type :invoke :process 1 :session 2 :f :delete :path "/k" :version 0 :time 6}
      {:type :fail :process 1 :session 2 :f :delete :path "/k" :version 0 :time 7 :zxid 4 :error :bad-version}
      """;

  /** The last case's history; ZkCheckerTest moves the /e0 create after the gap, where it cannot fill it. */
  static final String GUESSED_GAP_NUMBER = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k3" :value {:data "k" :mode :persistent} :time 0}
      {:type :info :process 0 :session 1 :f :create :path "/k3" :value {:data "k" :mode :persistent} :time 1 :error :connection-loss}
      {:type :invoke :process 1 :session 1 :f :create :path "/e0" :value {:data "e" :mode :ephemeral} :time 2}
      {:type :info :process 1 :session 1 :f :create :path "/e0" :value {:data "e" :mode :ephemeral} :time 3 :error :connection-loss}
      {:type :invoke :process 2 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential} :time 4}
      {:type :ok :process 2 :session 2 :f :create :path "/s-" :value {:data "s" :mode :persistent-sequential :created-path "/s-0000000001"} :time 5 :zxid 2}
      {:type :invoke :process 2 :session 2 :f :delete :path "/e0" :version -1 :time 10}
      {:type :ok :process 2 :session 2 :f :delete :path "/e0" :version -1 :time 11 :zxid 3}
      {:type :invoke :process 2 :session 2 :f :create :path "/s-" :value {:data "t" :mode :persistent-sequential} :time 12}
      {:type :ok :process 2 :session 2 :f :create :path "/s-" :value {:data "t" :mode :persistent-sequential :created-path "/s-0000000002"} :time 13 :zxid 4}
      """;

  /** The last case's history; ZkCheckerTest checks that a Stat showing more children than writes is still rejected. */
  static final String CHILD_PLACED_BY_PZXID = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/k" :value {:data "a" :mode :persistent :created-path "/k"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :create :path "/k/c0" :value {:data "c" :mode :persistent} :time 2}
      {:type :info :process 0 :session 1 :f :create :path "/k/c0" :value {:data "c" :mode :persistent} :time 3 :error :connection-loss}
      {:type :invoke :process 1 :session 2 :f :delete :path "/k" :version -1 :time 4}
      {:type :fail :process 1 :session 2 :f :delete :path "/k" :version -1 :time 5 :zxid 3 :error :not-empty}
      {:type :invoke :process 1 :session 2 :f :set-data :path "/k" :value "b" :version 0 :time 6}
      {:type :ok :process 1 :session 2 :f :set-data :path "/k" :value "b" :version 0 :time 7 :zxid 4 :stat {:czxid 1 :mzxid 4 :pzxid 2 :version 1 :cversion 1 :num-children 1}}
      {:type :invoke :process 2 :session 3 :f :get-data :path "/k" :time 8}
      {:type :ok :process 2 :session 3 :f :get-data :path "/k" :value "b" :time 9 :zxid 4 :stat {:czxid 1 :mzxid 4 :pzxid 2 :version 1 :cversion 1 :num-children 1}}
      """;

  /** The last case's history; without its :info delete the multi's result is a violation (ZkCheckerTest). */
  static final String MULTI_AFTER_INFO_DELETE = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k" :value {:data "k" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/k" :value {:data "k" :mode :persistent :created-path "/k"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :create :path "/e0" :value {:data "a" :mode :ephemeral} :time 2}
      {:type :ok :process 0 :session 1 :f :create :path "/e0" :value {:data "a" :mode :ephemeral :created-path "/e0"} :time 3 :zxid 2}
      {:type :invoke :process 1 :session 2 :f :delete :path "/e0" :version -1 :time 4}
      {:type :info :process 1 :session 2 :f :delete :path "/e0" :version -1 :time 5 :error :connection-loss}
      {:type :invoke :process 2 :session 3 :f :multi :value [{:f :create :path "/e0" :data "b" :mode :ephemeral} {:f :check :path "/k" :version 5}] :time 6}
      {:type :fail :process 2 :session 3 :f :multi :value [{:f :create :path "/e0" :data "b" :mode :ephemeral} {:f :check :path "/k" :version 5 :error :bad-version}] :time 7 :zxid 4 :error :bad-version}
      """;

  static List<Corpus.Entry> good() {
    return cases().stream()
        .map(c -> new Corpus.Entry("regression-" + c.name(), MultiCorpus.parse(c.history()), null, "regression: " + c.description()))
        .toList();
  }
}
