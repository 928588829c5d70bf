package io.zabkit.check;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The proof that the exhaustive search's reductions are sound: a brute-force oracle that shares no code with zk-check
 * (its own tree model, its own history generator, every zxid tried for every :info write) must agree with zk-check's
 * verdict on hundreds of small histories, honest ones and ones with a violation planted independently of the checker.
 * zk-check may answer UNKNOWN only when its budget ran out; any other disagreement fails the test with the history.
 */
class DifferentialOracleTest {
  private static final int HISTORIES = 400;
  private static final int INFOS_MAX = 4;
  private static final long EPOCH = 1L << 32;
  private static final ExhaustiveSearch.Budget BUDGET = new ExhaustiveSearch.Budget(2_000_000, 60_000);

  // ---------------------------------------------------------------- the oracle's own model of the data tree
  /** One znode; {@code children} only matters for /a. */
  record Node(String data, long version, long czxid, long mzxid, long pzxid, long cversion, TreeSet<String> children) {}

  /** A write: SET (path, data), CREATE (path, data), DELETE (path). */
  record Txn(String kind, String path, String data) {}

  static String parent(String p) {
    return p.substring(0, p.lastIndexOf('/')).isEmpty() ? "/" : p.substring(0, p.lastIndexOf('/'));
  }

  /** Applies txn at zxid z; false (and no change) when ZooKeeper would fail it. */
  static boolean apply(Map<String, Node> t, Txn x, long z) {
    Node n = t.get(x.path());
    switch (x.kind()) {
      case "SET" -> {
        if (n == null) return false;
        t.put(x.path(), new Node(x.data(), n.version() + 1, n.czxid(), z, n.pzxid(), n.cversion(), n.children()));
        return true;
      }
      case "CREATE" -> {
        Node p = t.get(parent(x.path()));
        if (n != null || p == null) return false;
        t.put(x.path(), new Node(x.data(), 0, z, z, z, 0, new TreeSet<>()));
        TreeSet<String> kids = new TreeSet<>(p.children());
        kids.add(x.path().substring(x.path().lastIndexOf('/') + 1));
        t.put(parent(x.path()), new Node(p.data(), p.version(), p.czxid(), p.mzxid(), z, p.cversion() + 1, kids));
        return true;
      }
      case "DELETE" -> {
        if (n == null || !n.children().isEmpty()) return false;
        t.remove(x.path());
        Node p = t.get(parent(x.path()));
        TreeSet<String> kids = new TreeSet<>(p.children());
        kids.remove(x.path().substring(x.path().lastIndexOf('/') + 1));
        t.put(parent(x.path()), new Node(p.data(), p.version(), p.czxid(), p.mzxid(), z, p.cversion() + 1, kids));
        return true;
      }
      default -> throw new AssertionError(x.kind());
    }
  }

  static Map<String, Node> root() {
    Map<String, Node> t = new HashMap<>();
    t.put("/", new Node("", 0, 0, 0, 0, 0, new TreeSet<>()));
    return t;
  }

  // ---------------------------------------------------------------- what the oracle checks
  /** A read: what it saw at zxid z (null data = :no-node). */
  record Read(long zxid, String path, boolean children, String data, long version, long mzxid, long czxid, List<String> kids, long cversion,
      long pzxid) {}

  /** A known write: its zxid and the reply's Stat (version, mzxid; -1 when the reply has none). */
  record Known(long zxid, Txn txn, long version) {}

  /** An :info write: the largest zxid seen before it was invoked. */
  record Info(Txn txn, long floor) {}

  record Plan(List<Known> known, List<Info> infos, List<Read> reads, long maxZxid) {}

  /** True when some placement of the :info writes (absent, or any free zxid above its floor) explains every observation. */
  static boolean oracleValid(Plan p) {
    Set<Long> taken = new HashSet<>();
    for (Known k : p.known()) taken.add(k.zxid());
    List<List<Long>> domains = new ArrayList<>();
    for (int i = 0; i < p.infos().size(); i++) {
      List<Long> d = new ArrayList<>();
      d.add(-1L);
      for (long z = p.infos().get(i).floor() + 1; z <= p.maxZxid() + p.infos().size(); z++) if (!taken.contains(z)) d.add(z);
      domains.add(d);
    }
    return search(p, domains, new long[p.infos().size()], 0);
  }

  private static boolean search(Plan p, List<List<Long>> domains, long[] at, int i) {
    if (i == at.length) return explains(p, at);
    for (long z : domains.get(i)) {
      boolean clash = false;
      for (int j = 0; j < i; j++) clash |= z >= 0 && at[j] == z;
      if (clash) continue;
      at[i] = z;
      if (search(p, domains, at, i + 1)) return true;
    }
    return false;
  }

  private static boolean explains(Plan p, long[] at) {
    TreeSet<Long> zs = new TreeSet<>();
    Map<Long, Txn> txnAt = new HashMap<>();
    Map<Long, Known> knownAt = new HashMap<>();
    for (Known k : p.known()) {
      zs.add(k.zxid());
      txnAt.put(k.zxid(), k.txn());
      knownAt.put(k.zxid(), k);
    }
    for (int i = 0; i < at.length; i++) {
      if (at[i] < 0) continue;
      zs.add(at[i]);
      txnAt.put(at[i], p.infos().get(i).txn());
    }
    List<Read> reads = new ArrayList<>(p.reads());
    reads.sort((a, b) -> Long.compare(a.zxid(), b.zxid()));
    Map<String, Node> t = root();
    int r = 0;
    for (long z : zs) {
      while (r < reads.size() && reads.get(r).zxid() < z) if (!sees(t, reads.get(r++))) return false;
      boolean ok = apply(t, txnAt.get(z), z);
      Known k = knownAt.get(z);
      if (k != null && (!ok || (k.version() >= 0 && t.get(k.txn().path()).version() != k.version()))) return false;
    }
    while (r < reads.size()) if (!sees(t, reads.get(r++))) return false;
    return true;
  }

  private static boolean sees(Map<String, Node> t, Read r) {
    Node n = t.get(r.path());
    if (r.data() == null) return n == null;
    if (n == null) return false;
    if (r.children()) return n.children().equals(new TreeSet<>(r.kids())) && n.cversion() == r.cversion() && n.pzxid() == r.pzxid();
    return n.data().equals(r.data()) && n.version() == r.version() && n.mzxid() == r.mzxid() && n.czxid() == r.czxid();
  }

  // ---------------------------------------------------------------- honest histories from a random schedule
  /** One history line and, for the oracle, what it observed or wrote. */
  static final class Gen {
    final Random rnd;
    final List<String> lines = new ArrayList<>();
    final List<Known> known = new ArrayList<>();
    final List<Info> infos = new ArrayList<>();
    final List<Read> reads = new ArrayList<>();
    final Map<String, Node> tree = root();
    final List<Object[]> pending = new ArrayList<>(); // {Txn, steps left}
    final long[] process = {10, 20, 30};
    long zxid = EPOCH; // the last zxid assigned
    long seen = 0; // largest zxid any completed operation showed
    long time = 0;
    int values = 0;

    Gen(long seed) {
      rnd = new Random(seed);
    }

    long next() {
      zxid++;
      return zxid;
    }

    void known(long session, long proc, String f, Txn x, String invokeValue, String okValue, String extra) {
      long z = next();
      boolean ok = apply(tree, x, z);
      assert ok : "the generator only issues writes that succeed";
      Node n = tree.get(x.path());
      long version = n == null ? -1 : n.version();
      String stat = x.kind().equals("SET") ? " :stat {:version " + version + " :mzxid " + z + " :czxid " + n.czxid() + "}" : "";
      lines.add(op("invoke", proc, session, f, x.path(), invokeValue, extra, ""));
      lines.add(op("ok", proc, session, f, x.path(), okValue, extra, " :zxid " + z + stat));
      known.add(new Known(z, x, x.kind().equals("SET") ? version : -1));
      seen = Math.max(seen, z);
    }

    String op(String type, long proc, long session, String f, String path, String value, String extra, String tail) {
      return "{:type :" + type + " :process " + proc + " :session " + session + " :f :" + f + " :path \"" + path + "\""
          + (value == null ? "" : " :value " + value) + extra + " :time " + (time++) + tail + "}";
    }

    Txn randomWrite() {
      int k = rnd.nextInt(4);
      String data = "v" + (values++);
      if (k < 2) return new Txn("SET", k == 0 ? "/a" : "/b", data);
      boolean exists = tree.containsKey("/a/c");
      return exists ? new Txn("DELETE", "/a/c", null) : new Txn("CREATE", "/a/c", data);
    }

    void step() {
      for (int i = pending.size() - 1; i >= 0; i--) {
        Object[] pw = pending.get(i);
        if ((int) pw[1] > 0) {
          pw[1] = (int) pw[1] - 1;
          continue;
        }
        pending.remove(i);
        if (!apply(tree, (Txn) pw[0], zxid + 1)) next(); // a failed txn still takes a zxid
        else next();
      }
      if (rnd.nextInt(10) == 0) next(); // a transaction no client of the history made (a session create, say)
      int s = rnd.nextInt(3);
      long session = s + 1;
      double u = rnd.nextDouble();
      if (u < 0.25 && infos.size() < INFOS_MAX) {
        Txn x = randomWrite();
        long proc = process[s];
        process[s] += 100; // a process that got :info is retired
        String[] fv = fv(x);
        infos.add(new Info(x, seen));
        lines.add(op("invoke", proc, session, fv[0], x.path(), fv[1], fv[3], ""));
        if (rnd.nextBoolean()) pending.add(new Object[] {x, rnd.nextInt(3)}); // it takes effect, maybe later
        lines.add(op("info", proc, session, fv[0], x.path(), fv[1], fv[3], " :error :connection-loss"));
      } else if (u < 0.55) {
        Txn x = randomWrite();
        String[] fv = fv(x);
        known(session, process[s], fv[0], x, fv[1], fv[2], fv[3]);
      } else {
        read(session, process[s]);
      }
    }

    /** {:f, invocation :value, ok :value, extra keys} of a write. */
    String[] fv(Txn x) {
      return switch (x.kind()) {
        case "SET" -> new String[] {"set-data", "\"" + x.data() + "\"", "\"" + x.data() + "\"", " :version -1"};
        case "CREATE" -> new String[] {"create", "{:data \"" + x.data() + "\" :mode :persistent}",
            "{:data \"" + x.data() + "\" :mode :persistent :created-path \"" + x.path() + "\"}", ""};
        default -> new String[] {"delete", null, null, " :version -1"};
      };
    }

    void read(long session, long proc) {
      int k = rnd.nextInt(4);
      long z = zxid;
      seen = Math.max(seen, z);
      if (k == 3) {
        Node a = tree.get("/a");
        lines.add(op("invoke", proc, session, "get-children", "/a", null, "", ""));
        String kids = a.children().isEmpty() ? "[]" : "[\"" + String.join("\" \"", a.children()) + "\"]";
        lines.add(op("ok", proc, session, "get-children", "/a", kids, "",
            " :zxid " + z + " :stat {:pzxid " + a.pzxid() + " :cversion " + a.cversion() + " :num-children " + a.children().size() + "}"));
        reads.add(new Read(z, "/a", true, "", 0, 0, 0, new ArrayList<>(a.children()), a.cversion(), a.pzxid()));
        return;
      }
      String path = k == 0 ? "/a" : k == 1 ? "/b" : "/a/c";
      Node n = tree.get(path);
      lines.add(op("invoke", proc, session, "get-data", path, null, "", ""));
      if (n == null) {
        lines.add(op("fail", proc, session, "get-data", path, null, "", " :zxid " + z + " :error :no-node"));
        reads.add(new Read(z, path, false, null, 0, 0, 0, null, 0, 0));
      } else {
        lines.add(op("ok", proc, session, "get-data", path, "\"" + n.data() + "\"", "",
            " :zxid " + z + " :stat {:version " + n.version() + " :mzxid " + n.mzxid() + " :czxid " + n.czxid() + "}"));
        reads.add(new Read(z, path, false, n.data(), n.version(), n.mzxid(), n.czxid(), null, 0, 0));
      }
    }

    static Gen honest(long seed, int steps) {
      Gen g = new Gen(seed);
      g.known(1, 10, "create", new Txn("CREATE", "/a", "a0"), "{:data \"a0\" :mode :persistent}", "{:data \"a0\" :mode :persistent :created-path \"/a\"}", "");
      g.known(1, 10, "create", new Txn("CREATE", "/b", "b0"), "{:data \"b0\" :mode :persistent}", "{:data \"b0\" :mode :persistent :created-path \"/b\"}", "");
      for (int i = 0; i < steps; i++) g.step();
      return g;
    }

    Plan plan() {
      return new Plan(known, infos, reads, zxid);
    }
  }

  // ---------------------------------------------------------------- violations planted on the lines, and in the oracle's view
  /** Plants one violation in a read; returns its name, or null when the history has no read to plant it in. */
  static String plant(Gen g, Random rnd) {
    List<Integer> okReads = new ArrayList<>();
    for (int i = 0; i < g.reads.size(); i++) if (g.reads.get(i).data() != null) okReads.add(i);
    if (okReads.isEmpty()) return null;
    int ri = okReads.get(rnd.nextInt(okReads.size()));
    Read r = g.reads.get(ri);
    int line = lineOf(g, ri);
    String l = g.lines.get(line);
    String kind;
    Read planted;
    if (r.children()) {
      switch (rnd.nextInt(2)) {
        case 0 -> {
          kind = "ghost-child";
          List<String> kids = new ArrayList<>(r.kids());
          kids.add("ghost");
          planted = new Read(r.zxid(), r.path(), true, "", 0, 0, 0, kids, r.cversion(), r.pzxid());
          l = l.replace(":value [", ":value [\"ghost\" ");
        }
        default -> {
          kind = "cversion";
          planted = new Read(r.zxid(), r.path(), true, "", 0, 0, 0, r.kids(), r.cversion() + 1, r.pzxid());
          l = l.replace(":cversion " + r.cversion() + " ", ":cversion " + (r.cversion() + 1) + " ");
        }
      }
    } else {
      // a value an :info set-data of this path wrote (whether or not it took effect), with the Stat unchanged
      String infoValue = null;
      for (Info in : g.infos) if (in.txn().kind().equals("SET") && in.txn().path().equals(r.path()) && !in.txn().data().equals(r.data())) infoValue = in.txn().data();
      switch (infoValue != null && rnd.nextInt(3) == 0 ? 9 : rnd.nextInt(4)) {
        case 9 -> {
          kind = "info-value";
          planted = new Read(r.zxid(), r.path(), false, infoValue, r.version(), r.mzxid(), r.czxid(), null, 0, 0);
          l = l.replace(":value \"" + r.data() + "\"", ":value \"" + infoValue + "\"");
        }
        case 0 -> {
          kind = "value-never-written";
          planted = new Read(r.zxid(), r.path(), false, "zz", r.version(), r.mzxid(), r.czxid(), null, 0, 0);
          l = l.replace(":value \"" + r.data() + "\"", ":value \"zz\"");
        }
        case 1 -> {
          kind = "version";
          long v = r.version() + (rnd.nextBoolean() || r.version() == 0 ? 1 : -1);
          planted = new Read(r.zxid(), r.path(), false, r.data(), v, r.mzxid(), r.czxid(), null, 0, 0);
          l = l.replace(":stat {:version " + r.version() + " ", ":stat {:version " + v + " ");
        }
        case 2 -> {
          kind = "mzxid";
          long m = r.mzxid() + (rnd.nextBoolean() ? 1 : -1);
          planted = new Read(r.zxid(), r.path(), false, r.data(), r.version(), m, r.czxid(), null, 0, 0);
          l = l.replace(":mzxid " + r.mzxid() + " ", ":mzxid " + m + " ");
        }
        default -> {
          kind = "node-flicker";
          planted = new Read(r.zxid(), r.path(), false, null, 0, 0, 0, null, 0, 0);
          l = l.replaceFirst(":type :ok", ":type :fail").replaceAll(" :value \"[^\"]*\"", "").replaceAll(" :stat \\{[^}]*\\}", " :error :no-node");
        }
      }
    }
    assert !l.equals(g.lines.get(line)) : "the plant changed the line";
    g.lines.set(line, l);
    g.reads.set(ri, planted);
    return kind;
  }

  /** The line of the ri-th read's completion. */
  private static int lineOf(Gen g, int ri) {
    int seen = -1;
    for (int i = 0; i < g.lines.size(); i++) {
      String l = g.lines.get(i);
      boolean readDone = (l.contains(":f :get-data") || l.contains(":f :get-children")) && !l.contains(":type :invoke");
      if (readDone && ++seen == ri) return i;
    }
    throw new AssertionError("no line for read " + ri);
  }

  /** True when zk-check's first, heuristic explanation has a violation, so that its verdict came from the search. */
  private static boolean needsSearch(List<String> lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return new ZkChecker().attempt(History.of(ops), Map.of(), false).findings.total() > 0;
  }

  private static Result zkCheck(List<String> lines) {
    List<Op> ops = new ArrayList<>();
    for (String l : lines) ops.add(Op.fromEdn(Edn.read(l), ops.size()));
    return new ZkChecker().withBudget(BUDGET).check(History.of(ops));
  }

  @Test
  void zkCheckAgreesWithTheBruteForceOracle() {
    long start = System.nanoTime();
    int agree = 0, unknown = 0, oracleInvalid = 0, withInfo = 0, searched = 0;
    Map<String, int[]> byKind = new HashMap<>();
    List<String> disagreements = new ArrayList<>();
    for (int i = 0; i < HISTORIES; i++) {
      Random rnd = new Random(1000 + i);
      Gen g = Gen.honest(1000 + i, 10 + rnd.nextInt(10));
      String kind = i % 2 == 0 ? "honest" : plant(g, rnd);
      if (kind == null) continue;
      boolean truth = oracleValid(g.plan());
      if (kind.equals("honest")) assertTrue(truth, "the oracle rejects an honest history (its model or generator is wrong):\n" + String.join("\n", g.lines));
      Result r = zkCheck(g.lines);
      if (!g.infos.isEmpty()) withInfo++;
      if (needsSearch(g.lines)) searched++;
      if (!truth) oracleInvalid++;
      int[] k = byKind.computeIfAbsent(kind, x -> new int[3]);
      k[0]++;
      if (!truth) k[1]++;
      boolean budgetOut = r.status() == Result.Status.UNKNOWN && r.undecided() != null && r.undecided().contains("budget");
      Result.Status expected = truth ? Result.Status.VALID : Result.Status.INVALID;
      if (r.status() == expected) {
        agree++;
        if (!truth) k[2]++;
      } else if (budgetOut) {
        unknown++;
      } else {
        disagreements.add("history " + i + " (" + kind + "): oracle " + expected + ", zk-check " + r.status() + "\n" + String.join("\n", g.lines) + "\n" + r.table());
      }
    }
    System.out.printf("differential oracle: %d histories (%d with :info writes, %d where the proposed placement failed and the search decided),"
        + " %d oracle-INVALID, %d agree, %d UNKNOWN (budget), %d disagree, %.1f s%n",
        HISTORIES, withInfo, searched, oracleInvalid, agree, unknown, disagreements.size(), (System.nanoTime() - start) / 1e9);
    byKind.forEach((kind, k) -> System.out.printf("  %-20s %3d histories, %3d oracle-INVALID, %3d of them zk-check INVALID%n", kind, k[0], k[1], k[2]));
    assertTrue(disagreements.isEmpty(), disagreements.size() + " disagreements; the first:\n" + (disagreements.isEmpty() ? "" : disagreements.get(0)));
  }
}
