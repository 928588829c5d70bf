package io.zabkit.check;

import io.zabkit.check.model.ReferenceModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The proof corpus: correct histories from the reference model and hand-written ones ({@link MultiCorpus},
 * {@link RegressionCorpus}; they must pass) and one mutated history per {@link Mutations.Mutation} (it must fail
 * with the mutation's property). Written as files so that the command and Porcupine can be run over the same
 * histories the unit tests check.
 */
public final class Corpus {
  private Corpus() {}

  /** Good histories: seeds, invocations, sessions (small enough for CI, big enough to hit every feature). */
  public static final long GOOD_OPERATIONS = 3000;
  public static final int GOOD_SESSIONS = 8;
  public static final int GOOD_SEEDS = 3;
  public static final long BAD_BASE_OPERATIONS = 1500;
  static final int BASE_SEEDS_MAX = 20;

  /** A corpus entry: a history and what checking it must give (null property = must pass). */
  public record Entry(String name, List<Op> ops, Property expected, String description) {}

  public static List<Entry> good(long seed) {
    List<Entry> out = new ArrayList<>();
    for (long s = seed; s < seed + GOOD_SEEDS; s++) {
      out.add(new Entry("reference-seed-" + s, ReferenceModel.generate(ReferenceModel.Options.of(s, GOOD_OPERATIONS, GOOD_SESSIONS)), null,
          "reference model, seed " + s));
    }
    // many lost requests and replies, and session expiries: the :info resolution has to work hard
    out.add(new Entry("reference-info-heavy-seed-" + seed, ReferenceModel.generate(
        new ReferenceModel.Options(seed, GOOD_OPERATIONS, GOOD_SESSIONS, 3, 0.06, 0.003)), null,
        "reference model, seed " + seed + ", 6 % :info, frequent expiry"));
    out.addAll(MultiCorpus.good());
    out.addAll(RegressionCorpus.good());
    return out;
  }

  /** One bad history per mutation, from the first base seed that offers a place to apply it. */
  public static List<Entry> bad(long seed) {
    List<List<Op>> bases = new ArrayList<>();
    List<Entry> out = new ArrayList<>();
    for (Mutations.Mutation m : Mutations.all()) {
      List<Op> bad = null;
      for (int k = 0; k < BASE_SEEDS_MAX && bad == null; k++) {
        if (bases.size() <= k) bases.add(ReferenceModel.generate(ReferenceModel.Options.of(seed + 100 + k, BAD_BASE_OPERATIONS, GOOD_SESSIONS)));
        bad = m.mutate().apply(new Mutations.View(bases.get(k)));
      }
      if (bad == null) throw new IllegalStateException("mutation " + m.name() + " found no place in " + BASE_SEEDS_MAX + " base histories");
      out.add(new Entry(m.expected() + "--" + m.name(), bad, m.expected(), m.description()));
    }
    out.addAll(MultiCorpus.bad());
    return out;
  }

  static int writeAll(Path dir, long seed) {
    try {
      Files.createDirectories(dir.resolve("good"));
      Files.createDirectories(dir.resolve("bad"));
      StringBuilder manifest = new StringBuilder("# file\texpected exit code\texpected property\tdescription\n");
      for (Entry e : good(seed)) manifest.append(write(dir, "good", e));
      for (Entry e : bad(seed)) manifest.append(write(dir, "bad", e));
      Files.writeString(dir.resolve("expected.tsv"), manifest.toString(), StandardCharsets.UTF_8);
      System.out.println("corpus written to " + dir + " (manifest: expected.tsv)");
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write corpus to " + dir, e);
    }
  }

  private static String write(Path dir, String kind, Entry e) throws IOException {
    Path f = dir.resolve(kind).resolve(e.name() + ".edn");
    StringBuilder b = new StringBuilder();
    for (Op o : e.ops()) b.append(o.toEdnLine()).append('\n');
    Files.writeString(f, b.toString(), StandardCharsets.UTF_8);
    return dir.relativize(f) + "\t" + (e.expected() == null ? 0 : 1) + "\t" + (e.expected() == null ? "-" : e.expected()) + "\t" + e.description() + "\n";
  }
}
