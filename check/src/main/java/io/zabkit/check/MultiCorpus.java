package io.zabkit.check;

import java.util.ArrayList;
import java.util.List;

/**
 * Multi histories for the proof corpus: one correct history with ok, failed, :info and read-only multis
 * (sequential and ephemeral creates inside a multi, a check that fails, a session that ends), and mutations of
 * it in one place each that must fail with their property. The reference model does not issue multis, so
 * these are written by hand, in the documented format, with small zxids.
 */
public final class MultiCorpus {
  private MultiCorpus() {}

  /** Correct: every result follows from replaying the writes atomically in zxid order. */
  public static final String GOOD = """
      {:type :invoke :process 0 :session 1 :f :create :path "/k0" :value {:data "x" :mode :persistent} :time 0}
      {:type :ok :process 0 :session 1 :f :create :path "/k0" :value {:data "x" :mode :persistent :created-path "/k0"} :time 1 :zxid 1}
      {:type :invoke :process 0 :session 1 :f :create :path "/k1" :value {:data "x" :mode :persistent} :time 2}
      {:type :ok :process 0 :session 1 :f :create :path "/k1" :value {:data "x" :mode :persistent :created-path "/k1"} :time 3 :zxid 2}
      {:type :invoke :process 0 :session 1 :f :create :path "/q" :value {:data "" :mode :persistent} :time 4}
      {:type :ok :process 0 :session 1 :f :create :path "/q" :value {:data "" :mode :persistent :created-path "/q"} :time 5 :zxid 3}
      {:type :invoke :process 0 :session 1 :f :multi :value [{:f :check :path "/k0" :version 0} {:f :set-data :path "/k0" :data "a" :version -1} {:f :set-data :path "/k1" :data "a" :version -1}] :time 6}
      {:type :ok :process 0 :session 1 :f :multi :value [{:type :ok} {:type :ok :stat {:version 1 :mzxid 4}} {:type :ok :stat {:version 1 :mzxid 4}}] :time 7 :zxid 4}
      {:type :invoke :process 1 :session 2 :f :multi :value [{:f :check :path "/k0" :version 0} {:f :set-data :path "/k0" :value "b" :version -1} {:f :set-data :path "/k1" :value "b" :version -1}] :time 8}
      {:type :fail :process 1 :session 2 :f :multi :value [{:type :fail :error :bad-version} {:type :fail :error :runtime-inconsistency} {:type :fail :error :runtime-inconsistency}] :time 9 :zxid 5 :error :bad-version}
      {:type :invoke :process 5 :session 5 :f :multi :value [{:f :get-data :path "/k0"} {:f :get-data :path "/k1"}] :time 10}
      {:type :ok :process 5 :session 5 :f :multi :value [{:type :ok :value "a" :stat {:version 1 :mzxid 4}} {:type :ok :value "a" :stat {:version 1 :mzxid 4}}] :time 11 :zxid 5}
      {:type :invoke :process 2 :session 3 :f :multi :value [{:f :create :path "/q/s-" :data "s" :mode :persistent-sequential} {:f :create :path "/e" :data "e" :mode :ephemeral} {:f :set-data :path "/k1" :data "c" :version 1}] :time 12}
      {:type :ok :process 2 :session 3 :f :multi :value [{:f :create :path "/q/s-" :created-path "/q/s-0000000000"} {:f :create :path "/e" :created-path "/e"} {:f :set-data :path "/k1"}] :time 13 :zxid 6}
      {:type :invoke :process 2 :session 3 :f :multi :value [{:f :set-data :path "/k0" :data "d" :version -1} {:f :delete :path "/q" :version -1}] :time 14}
      {:type :fail :process 2 :session 3 :f :multi :value [{:f :set-data :path "/k0" :error :ok} {:f :delete :path "/q" :error :not-empty}] :time 15 :zxid 7 :error :not-empty}
      {:type :invoke :process 3 :session 4 :f :multi :value [{:f :set-data :path "/k0" :data "i" :version -1} {:f :set-data :path "/k1" :data "i" :version -1}] :time 16}
      {:type :info :process 3 :session 4 :f :multi :value [{:f :set-data :path "/k0" :data "i" :version -1} {:f :set-data :path "/k1" :data "i" :version -1}] :time 17 :error :connection-loss}
      {:type :invoke :process 1 :session 2 :f :multi :value [{:f :get-data :path "/k0"} {:f :get-data :path "/k1"} {:f :get-data :path "/e"}] :time 18}
      {:type :ok :process 1 :session 2 :f :multi :value [{:type :ok :value "i" :stat {:version 2 :mzxid 8}} {:type :ok :value "i" :stat {:version 3 :mzxid 8}} {:type :ok :value "e" :stat {:version 0 :mzxid 6 :czxid 6}}] :time 19 :zxid 8}
      {:type :invoke :process 4 :session 3 :f :close-session :time 20}
      {:type :ok :process 4 :session 3 :f :close-session :time 21 :zxid 9}
      {:type :invoke :process 1 :session 2 :f :get-children :path "/" :time 22}
      {:type :ok :process 1 :session 2 :f :get-children :path "/" :value ["k0" "k1" "q" "zookeeper"] :time 23 :zxid 9}
      {:type :invoke :process 1 :session 2 :f :sync :path "/k0" :time 24}
      {:type :ok :process 1 :session 2 :f :sync :path "/k0" :time 25 :zxid 9}
      {:type :invoke :process 1 :session 2 :f :get-data :path "/k0" :watch true :time 26}
      {:type :ok :process 1 :session 2 :f :get-data :path "/k0" :watch true :value "i" :time 27 :zxid 9 :stat {:version 2 :mzxid 8}}
      {:type :invoke :process 0 :session 1 :f :multi :value [{:f :set-data :path "/k0" :data "w" :version 2} {:f :delete :path "/q/s-0000000000" :version 0}] :time 28}
      {:type :ok :process 1 :session 2 :f :watch-event :value {:event :node-data-changed :path "/k0"} :time 29 :path "/k0" :zxid 10}
      {:type :ok :process 0 :session 1 :f :multi :value [{:type :ok :stat {:version 3 :mzxid 10}} {:type :ok}] :time 30 :zxid 10}
      """;

  /** A mutation: replace one exact text of {@link #GOOD}; the result must fail with {@code expected}. */
  public record Mutation(String name, Property expected, String description, String from, String to) {}

  public static List<Mutation> mutations() {
    return List.of(
        new Mutation("multi-half-applied", Property.LinearizableWrites,
            "a read-only multi sees one sub-op of an acknowledged multi and not the other",
            "{:type :ok :value \"a\" :stat {:version 1 :mzxid 4}}] :time 11",
            "{:type :ok :value \"x\" :stat {:version 0 :mzxid 2}}] :time 11"),
        new Mutation("failed-multi-visible", Property.LinearizableWrites,
            "a read shows the data of a multi that failed (bad-version on its check)",
            "[{:type :ok :value \"a\" :stat {:version 1 :mzxid 4}} {:type :ok :value \"a\" :stat {:version 1 :mzxid 4}}] :time 11",
            "[{:type :ok :value \"b\" :stat {:version 2 :mzxid 5}} {:type :ok :value \"b\" :stat {:version 2 :mzxid 5}}] :time 11"),
        new Mutation("multi-ok-despite-failed-check", Property.LinearizableWrites,
            "a multi whose check expects a stale version is acknowledged",
            "{:type :fail :process 1 :session 2 :f :multi :value [{:type :fail :error :bad-version} {:type :fail :error :runtime-inconsistency} {:type :fail :error :runtime-inconsistency}] :time 9 :zxid 5 :error :bad-version}",
            "{:type :ok :process 1 :session 2 :f :multi :value [{:type :ok} {:type :ok} {:type :ok}] :time 9 :zxid 5}"),
        new Mutation("multi-fails-at-wrong-op", Property.LinearizableWrites,
            "a failed multi names a sub-op as failing that succeeds in the replay",
            "[{:f :set-data :path \"/k0\" :error :ok} {:f :delete :path \"/q\" :error :not-empty}]",
            "[{:f :set-data :path \"/k0\" :error :no-node} {:f :delete :path \"/q\" :error :runtime-inconsistency}]"),
        new Mutation("multi-sequence-number-reused", Property.SequentialUniqueness,
            "a sequential create inside a multi returns the name an earlier create got",
            "\"zookeeper\"] :time 23 :zxid 9}",
            "\"zookeeper\"] :time 23 :zxid 9}\n{:type :invoke :process 6 :session 6 :f :create :path \"/q/s-\" :value {:data \"t\" :mode :persistent-sequential} :time 31}\n"
                + "{:type :ok :process 6 :session 6 :f :create :path \"/q/s-\" :value {:data \"t\" :mode :persistent-sequential :created-path \"/q/s-0000000000\"} :time 32 :zxid 11}"),
        new Mutation("multi-ephemeral-outlives-session", Property.EphemeralLifetime,
            "an ephemeral created inside a multi is still read after its session closed",
            ":value [\"k0\" \"k1\" \"q\" \"zookeeper\"] :time 23 :zxid 9}", ":value [\"k0\" \"k1\" \"q\" \"zookeeper\"] :time 23 :zxid 9}\n"
                + "{:type :invoke :process 7 :session 7 :f :get-data :path \"/e\" :time 31}\n"
                + "{:type :ok :process 7 :session 7 :f :get-data :path \"/e\" :value \"e\" :time 32 :zxid 11 :stat {:czxid 6 :mzxid 6 :version 0 :ephemeral-owner 3}}"),
        new Mutation("multi-zxid-reused-by-session", Property.FifoClientOrder,
            "a session's multi gets a zxid below its own earlier write",
            ":time 13 :zxid 6}", ":time 13 :zxid 6}\n{:type :invoke :process 2 :session 3 :f :set-data :path \"/k0\" :value \"z\" :version -1 :time 13}\n"
                + "{:type :fail :process 2 :session 3 :f :set-data :path \"/k0\" :value \"z\" :version -1 :time 13 :zxid 5 :error :bad-version}"));
  }

  public static List<Op> parse(String lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines.strip().split("\n")) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return ops;
  }

  /** The mutated history; throws when the text to replace is not in {@link #GOOD} exactly once. */
  public static List<Op> apply(Mutation m) {
    int at = GOOD.indexOf(m.from());
    if (at < 0 || GOOD.indexOf(m.from(), at + 1) >= 0) {
      throw new IllegalStateException("multi mutation " + m.name() + ": its text must occur exactly once in the good history");
    }
    return parse(GOOD.replace(m.from(), m.to()));
  }

  static List<Corpus.Entry> good() {
    return List.of(new Corpus.Entry("multi-reference", parse(GOOD), null,
        "hand-written: ok, failed, :info and read-only multis; sequential and ephemeral creates in a multi"));
  }

  static List<Corpus.Entry> bad() {
    List<Corpus.Entry> out = new ArrayList<>();
    for (Mutation m : mutations()) out.add(new Corpus.Entry(m.expected() + "--" + m.name(), apply(m), m.expected(), m.description()));
    return out;
  }
}
