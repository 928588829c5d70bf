package io.zabkit.check;

import io.zabkit.check.model.ReferenceModel;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The zk-check command (check/bin/zk-check). Exit codes: 0 valid; 1 a property is violated; 2 bad usage, a
 * malformed history, or nothing decided (no property checked anything, or the placement search ran out of budget).
 *
 * <pre>
 * zk-check HISTORY.edn [--properties P,Q] [--quiet] [--out FILE]
 *                                                      check; writes the summary to FILE, by default zk-check.edn
 *                                                      beside history.edn (NAME.zk-check.edn beside NAME.edn), never
 *                                                      over Jepsen's results.edn or over the history itself
 * zk-check generate --out FILE [--seed S] [--ops N] [--sessions K] [--info-probability P] [--expiry-probability P]
 * zk-check corpus --out DIR [--seed S]                 good and mutated (bad) histories, see Corpus
 * zk-check register-projection HISTORY.edn OUT.jsonl [--perturb SEED]   the write/CAS projection for Porcupine, plus our verdict
 * zk-check bench [--ops N] [--sessions K] [--seed S] [--keep FILE]
 * </pre>
 */
@Command(name = "zk-check", mixinStandardHelpOptions = true, version = "zk-check (history format v1)", sortOptions = false,
    description = "Checks a ZooKeeper client history against ZooKeeper's guarantees (see check/README.md).%n"
        + "Exit 0 valid, 1 a property is violated, 2 bad usage, malformed history or nothing decided.",
    subcommands = {Cli.Generate.class, Cli.CorpusCmd.class, Cli.Projection.class, Cli.BenchCmd.class})
public final class Cli implements Callable<Integer> {
  /** Exit code when no property was violated but the verdict is not VALID (nothing checkable, or out of budget). */
  static final int EXIT_UNDECIDED = 2;

  @Parameters(index = "0", arity = "0..1", paramLabel = "HISTORY", description = "the history (EDN, one operation per line)")
  Path history;

  @Option(names = "--properties", split = ",", paramLabel = "P", description = "check only these properties: ${COMPLETION-CANDIDATES}")
  List<Property> properties;

  @Option(names = "--quiet", description = "print the verdict table only when a property is violated")
  boolean quiet;

  @Option(names = "--out", paramLabel = "FILE", description = "summary file (default: zk-check.edn beside history.edn, NAME.zk-check.edn beside NAME.edn)")
  Path out;

  @Option(names = "--search-steps", paramLabel = "N", defaultValue = "${env:ZK_CHECK_SEARCH_STEPS:-15000000}",
      description = "budget of the placement search per history, in operations replayed (default ${DEFAULT-VALUE}; env ZK_CHECK_SEARCH_STEPS):"
          + " deterministic, the same verdict on any machine; past it a violation is :unknown, never ok")
  long searchSteps;

  @Option(names = "--search-seconds", paramLabel = "S", defaultValue = "${env:ZK_CHECK_SEARCH_SECONDS:-600}",
      description = "wall-clock safety net of the search per history (default ${DEFAULT-VALUE}; env ZK_CHECK_SEARCH_SECONDS);"
          + " a verdict it cuts is :unknown and says that it depends on the machine")
  long searchSeconds;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Parses and runs; returns the exit code. Usage errors and bad input print one line to stderr and return 2. */
  static int run(String[] args) {
    CommandLine cl = new CommandLine(new Cli()).setCaseInsensitiveEnumValuesAllowed(false);
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof UsageException || e instanceof History.BadLineException || e instanceof IllegalArgumentException
          || e instanceof UncheckedIOException) {
        cmd.getErr().println("zk-check: " + e.getMessage());
        return 2;
      }
      throw e;
    });
    cl.setParameterExceptionHandler((e, a) -> {
      e.getCommandLine().getErr().println("zk-check: " + e.getMessage());
      e.getCommandLine().getErr().println("try: zk-check --help");
      return 2;
    });
    return cl.execute(args);
  }

  @Override
  public Integer call() {
    if (history == null) throw new UsageException("no history given (zk-check --help)");
    Set<Property> wanted = properties == null || properties.isEmpty() ? EnumSet.allOf(Property.class) : EnumSet.copyOf(properties);
    if (searchSeconds <= 0) throw new UsageException("--search-seconds must be positive, got " + searchSeconds);
    if (searchSteps < 0) throw new UsageException("--search-steps must not be negative, got " + searchSteps);
    return check(history, wanted, quiet, out == null ? resultsPath(history) : out, new ExhaustiveSearch.Budget(searchSteps, searchSeconds * 1000));
  }

  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String m) {
      super(m);
    }
  }

  @Command(name = "generate", mixinStandardHelpOptions = true, description = "write a history of the reference model ZooKeeper")
  static final class Generate implements Callable<Integer> {
    @Option(names = "--out", required = true, paramLabel = "FILE") Path out;
    @Option(names = "--seed", defaultValue = "1") long seed;
    @Option(names = "--ops", defaultValue = "10000", description = "invocations") long ops;
    @Option(names = "--sessions", defaultValue = "10") int sessions;
    @Option(names = "--info-probability", defaultValue = "0.01") double infoProbability;
    @Option(names = "--expiry-probability", defaultValue = "0.0005") double expiryProbability;
    @Option(names = "--truth", paramLabel = "FILE", description = "also write the ground truth of each :info write: its invocation's :index and the zxid it took effect at (-1: never), one pair a line")
    Path truth;

    @Override
    public Integer call() {
      ReferenceModel.Options o = new ReferenceModel.Options(seed, ops, sessions, 3, infoProbability, expiryProbability);
      long n = writeHistory(out, o, truth);
      System.out.printf("wrote %d operations (seed %d, %d invocations, %d sessions) to %s%n", n, o.seed(), o.operations(), o.sessions(), out);
      return 0;
    }
  }

  @Command(name = "corpus", mixinStandardHelpOptions = true, description = "write good and mutated (known-bad) histories plus expected.tsv")
  static final class CorpusCmd implements Callable<Integer> {
    @Option(names = "--out", required = true, paramLabel = "DIR") Path out;
    @Option(names = "--seed", defaultValue = "1") long seed;

    @Override
    public Integer call() {
      return Corpus.writeAll(out, seed);
    }
  }

  @Command(name = "register-projection", mixinStandardHelpOptions = true, description = "the write/CAS projection for Porcupine, plus our verdict")
  static final class Projection implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "HISTORY") Path history;
    @Parameters(index = "1", paramLabel = "OUT.jsonl") Path out;
    @Option(names = "--perturb", defaultValue = "-1", paramLabel = "SEED") long perturb;

    @Override
    public Integer call() {
      return RegisterProjection.run(history, out, perturb);
    }
  }

  @Command(name = "bench", mixinStandardHelpOptions = true, description = "generate a history, check it from disk, print ops/s, wall and CPU time, peak heap")
  static final class BenchCmd implements Callable<Integer> {
    @Option(names = "--ops", defaultValue = "1000000") long ops;
    @Option(names = "--sessions", defaultValue = "100") int sessions;
    @Option(names = "--seed", defaultValue = "42") long seed;
    @Option(names = "--info-probability", defaultValue = "0.01") double infoProbability;
    @Option(names = "--keep", paramLabel = "FILE") String keep;

    @Override
    public Integer call() {
      return Bench.run(ops, sessions, seed, infoProbability, keep);
    }
  }

  static long writeHistory(Path file, ReferenceModel.Options o) {
    return writeHistory(file, o, null);
  }

  static long writeHistory(Path file, ReferenceModel.Options o, Path truthFile) {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      long[] n = {0};
      StringBuilder truth = new StringBuilder();
      ReferenceModel.generate(o, op -> {
        try {
          w.write(op.toEdnLine());
          w.write('\n');
          n[0]++;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, (index, zxid) -> truth.append(index).append(' ').append(zxid).append('\n'));
      if (truthFile != null) Files.writeString(truthFile, truth);
      return n[0];
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  static int check(Path history, Set<Property> wanted, boolean quiet, Path results, ExhaustiveSearch.Budget budget) {
    refuseToOverwrite(history, results);
    Result r = new ZkChecker(wanted).withBudget(budget)
        .withProgress(m -> System.err.println("zk-check: " + m)).check(History.file(history));
    writeResults(r, results);
    if (!quiet || r.status() != Result.Status.VALID) System.out.print(r.table());
    System.out.println("results: " + results);
    return exitCode(r);
  }

  /** 0 valid, 1 violated, 2 undecided (nothing checkable, or the search ran out of budget): never 0 without a check. */
  static int exitCode(Result r) {
    return switch (r.status()) {
      case VALID -> 0;
      case INVALID -> 1;
      case UNKNOWN -> EXIT_UNDECIDED;
    };
  }

  /**
   * history.edn gets zk-check.edn next to it, beside (never over) the results.edn Jepsen writes into the same
   * store; NAME.edn gets NAME.zk-check.edn.
   */
  public static Path resultsPath(Path history) {
    String name = history.getFileName().toString();
    String out = name.equals("history.edn") ? "zk-check.edn" : (name.endsWith(".edn") ? name.substring(0, name.length() - 4) : name) + ".zk-check.edn";
    Path parent = history.toAbsolutePath().getParent();
    return parent.resolve(out);
  }

  /** The summary never replaces the history it was computed from, nor a Jepsen results.edn. */
  static void refuseToOverwrite(Path history, Path results) {
    Path in = history.toAbsolutePath().normalize();
    Path out = results.toAbsolutePath().normalize();
    if (in.equals(out)) throw new UsageException("--out " + results + " is the history itself; give another file");
    if (out.getFileName().toString().equals("results.edn"))
      throw new UsageException("--out " + results + " would overwrite Jepsen's results.edn; zk-check writes zk-check.edn beside it");
  }

  public static void writeResults(Result r, Path file) {
    try {
      Files.writeString(file, EdnPretty.results(r.toEdn()), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
