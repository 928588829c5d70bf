package io.zabkit.check;

import io.zabkit.check.model.ReferenceModel;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The zk-check command (check/bin/zk-check). Exit codes: 0 valid, 1 a property is violated, 2 bad usage or a
 * malformed history.
 *
 * <pre>
 * zk-check HISTORY.edn [--properties P,Q] [--quiet] [--out FILE]
 *                                                      check; writes the summary to FILE, by default zk-check.edn
 *                                                      beside history.edn (NAME.zk-check.edn beside NAME.edn), never
 *                                                      over Jepsen's results.edn or over the history itself
 * zk-check generate --out FILE [--seed S] [--ops N] [--sessions K] [--info-probability P]
 * zk-check corpus --out DIR [--seed S]                 good and mutated (bad) histories, see Corpus
 * zk-check register-projection HISTORY.edn OUT.jsonl [--perturb SEED]   the write/CAS projection for Porcupine, plus our verdict
 * zk-check bench [--ops N] [--sessions K] [--seed S] [--keep FILE]
 * </pre>
 */
public final class Cli {
  private Cli() {}

  public static void main(String[] args) {
    int code;
    try {
      code = run(args);
    } catch (UsageException e) {
      System.err.println("zk-check: " + e.getMessage());
      System.err.println("usage: zk-check HISTORY.edn [--properties P,Q] [--quiet] [--out FILE] | generate | corpus | register-projection | bench (see check/README.md)");
      code = 2;
    } catch (History.BadLineException | IllegalArgumentException | UncheckedIOException e) {
      System.err.println("zk-check: " + e.getMessage());
      code = 2;
    }
    System.exit(code);
  }

  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String m) {
      super(m);
    }
  }

  static int run(String[] args) {
    if (args.length == 0) throw new UsageException("no history given");
    Args a = new Args(args);
    switch (args[0]) {
      case "generate" -> {
        Path outFile = Path.of(a.required("--out"));
        ReferenceModel.Options o = options(a);
        long n = writeHistory(outFile, o);
        System.out.printf("wrote %d operations (seed %d, %d invocations, %d sessions) to %s%n", n, o.seed(), o.operations(), o.sessions(), outFile);
        return 0;
      }
      case "corpus" -> {
        return Corpus.writeAll(Path.of(a.required("--out")), a.longOpt("--seed", 1));
      }
      case "register-projection" -> {
        if (a.positional.size() != 2) throw new UsageException("register-projection HISTORY.edn OUT.jsonl [--perturb SEED]");
        return RegisterProjection.run(Path.of(a.positional.get(0)), Path.of(a.positional.get(1)), a.longOpt("--perturb", -1));
      }
      case "bench" -> {
        return Bench.run(a.longOpt("--ops", 1_000_000), (int) a.longOpt("--sessions", 100), a.longOpt("--seed", 42), a.opt("--keep"));
      }
      default -> {
        if (a.positional.size() != 1) throw new UsageException("give exactly one history file");
        Path history = Path.of(a.positional.get(0));
        return check(history, a.opt("--properties"), a.flag("--quiet"), a.opt("--out") == null ? resultsPath(history) : Path.of(a.opt("--out")));
      }
    }
  }

  static ReferenceModel.Options options(Args a) {
    return new ReferenceModel.Options(a.longOpt("--seed", 1), a.longOpt("--ops", 10_000), (int) a.longOpt("--sessions", 10), 3,
        a.doubleOpt("--info-probability", 0.01), a.doubleOpt("--expiry-probability", 0.0005));
  }

  static long writeHistory(Path file, ReferenceModel.Options o) {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      long[] n = {0};
      ReferenceModel.generate(o, op -> {
        try {
          w.write(op.toEdnLine());
          w.write('\n');
          n[0]++;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      return n[0];
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  static int check(Path history, String properties, boolean quiet, Path results) {
    refuseToOverwrite(history, results);
    Set<Property> wanted = EnumSet.allOf(Property.class);
    if (properties != null) {
      wanted.clear();
      for (String p : properties.split(",")) {
        try {
          wanted.add(Property.valueOf(p.trim()));
        } catch (IllegalArgumentException e) {
          throw new UsageException("unknown property '" + p + "'; known: " + java.util.Arrays.toString(Property.values()));
        }
      }
    }
    Result r = new ZkChecker(wanted).withProgress(m -> System.err.println("zk-check: " + m)).check(History.file(history));
    writeResults(r, results);
    if (!quiet || !r.valid()) System.out.print(r.table());
    System.out.println("results: " + results);
    return r.valid() ? 0 : 1;
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

  /** Minimal flag parsing: --name value, --flag, positionals. */
  static final class Args {
    final List<String> positional = new ArrayList<>();
    final java.util.Map<String, String> named = new java.util.HashMap<>();
    final Set<String> flags = new java.util.HashSet<>();

    Args(String[] args) {
      boolean sub = List.of("generate", "corpus", "register-projection", "bench").contains(args[0]);
      for (int i = sub ? 1 : 0; i < args.length; i++) {
        String s = args[i];
        if (s.equals("--quiet")) {
          flags.add(s);
        } else if (s.startsWith("--")) {
          if (i + 1 >= args.length) throw new UsageException(s + " needs a value");
          named.put(s, args[++i]);
        } else {
          positional.add(s);
        }
      }
    }

    String opt(String k) {
      return named.get(k);
    }

    boolean flag(String k) {
      return flags.contains(k);
    }

    String required(String k) {
      String v = named.get(k);
      if (v == null) throw new UsageException(k + " is required");
      return v;
    }

    long longOpt(String k, long d) {
      String v = named.get(k);
      try {
        return v == null ? d : Long.parseLong(v);
      } catch (NumberFormatException e) {
        throw new UsageException(k + " must be an integer, got '" + v + "'");
      }
    }

    double doubleOpt(String k, double d) {
      String v = named.get(k);
      try {
        return v == null ? d : Double.parseDouble(v);
      } catch (NumberFormatException e) {
        throw new UsageException(k + " must be a number, got '" + v + "'");
      }
    }
  }
}
