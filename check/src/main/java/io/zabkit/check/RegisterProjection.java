package io.zabkit.check;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The write-and-CAS projection of a history's registers, for the Porcupine cross-check. A register is a path
 * that is only ever created, set and read (never deleted, never listed, never a parent); a history without
 * paths (Jepsen's register workload) is one register. Reads are left out: ZooKeeper reads are local and may
 * be stale, so they are not linearizable and would make Porcupine report false failures.
 *
 * <p>Writes two files: OUT.jsonl (one JSON object per operation, read by check/porcupine) and OUT.edn (the
 * projected history itself), and prints our own LinearizableWrites verdict on that projected history, so the
 * two checkers judge exactly the same operations.
 */
final class RegisterProjection {
  private RegisterProjection() {}

  static int run(Path history, Path jsonl) {
    return run(history, jsonl, -1);
  }

  /**
   * @param perturbSeed when >= 0, one write of the projection is perturbed at random first (its reply version,
   *     its outcome, or its expected version), for the differential cross-check; -1 projects as is
   */
  static int run(Path history, Path jsonl, long perturbSeed) {
    Set<String> notRegisters = new HashSet<>();
    Set<String> paths = new HashSet<>();
    new Pairer().run(History.file(history), c -> {
      String p = c.path == null ? "" : c.path;
      if (c.kind == Call.Kind.DELETE || c.kind == Call.Kind.GET_CHILDREN || c.kind == Call.Kind.MULTI || c.sequential() || c.ephemeral()) {
        notRegisters.add(p);
      }
      if (c.kind == Call.Kind.CREATE || c.kind == Call.Kind.SET_DATA) paths.add(p);
      if (!p.isEmpty()) notRegisters.add(ModelTree.parent(p));
      if (c.kind == Call.Kind.MULTI) {
        for (Call sub : c.subs) { // a multi's writes are not register operations: its paths leave the projection
          notRegisters.add(sub.path);
          notRegisters.add(ModelTree.parent(sub.path));
        }
      }
    });
    paths.removeAll(notRegisters);
    List<Call> calls = new ArrayList<>();
    new Pairer().run(History.file(history), c -> {
      String p = c.path == null ? "" : c.path;
      if (paths.contains(p) && (c.kind == Call.Kind.CREATE || c.kind == Call.Kind.SET_DATA)) calls.add(c);
    });
    String perturbed = perturbSeed >= 0 ? perturb(calls, new java.util.SplittableRandom(perturbSeed)) : null;
    List<Op> projected = new ArrayList<>();
    for (Call c : calls) {
      if (c.invoke != null) projected.add(c.invoke);
      if (c.done.time() != Long.MAX_VALUE) projected.add(c.done);
    }
    projected.sort((a, b) -> Long.compare(a.index(), b.index()));
    Path edn = Path.of(jsonl.toString().replaceAll("\\.jsonl$", "") + ".edn");
    try (BufferedWriter w = Files.newBufferedWriter(jsonl, StandardCharsets.UTF_8)) {
      for (Call c : calls) {
        w.write(json(c, c.path == null ? "" : c.path));
        w.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + jsonl, e);
    }
    try (BufferedWriter w = Files.newBufferedWriter(edn, StandardCharsets.UTF_8)) {
      for (Op o : projected) {
        w.write(o.toEdnLine());
        w.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + edn, e);
    }
    Result r = new ZkChecker(EnumSet.of(Property.LinearizableWrites)).check(History.of(projected));
    Verdict v = r.verdict(Property.LinearizableWrites);
    System.out.printf("projection: %d register operations on %d registers -> %s and %s%n", calls.size(), paths.size(), jsonl, edn);
    if (perturbed != null) System.out.println("perturbed: " + perturbed);
    System.out.println("java LinearizableWrites on the projection: " + (v.valid() ? "linearizable" : "VIOLATED: " + v.explanation()));
    return v.valid() ? 0 : 1;
  }

  /** Changes one completed write in place: its reply version, its outcome, or its expected version. */
  private static String perturb(List<Call> calls, java.util.SplittableRandom rnd) {
    List<Integer> candidates = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      Call c = calls.get(i);
      if (c.kind == Call.Kind.SET_DATA && c.invoke != null && c.outcome != Op.Type.INFO) candidates.add(i);
    }
    if (candidates.isEmpty()) return "nothing to perturb";
    int i = candidates.get(rnd.nextInt(candidates.size()));
    Call c = calls.get(i);
    Op done = c.done;
    Op inv = c.invoke;
    String what;
    int kind = rnd.nextInt(3);
    if (kind == 0 && c.outcome == Op.Type.OK && c.stat != null && c.stat.version() != null) {
      long dv = rnd.nextBoolean() ? 1 : -1;
      done = done.withStat(c.stat.withVersion(c.stat.version() + dv));
      what = "reply version " + (dv > 0 ? "+1" : "-1");
    } else if (kind == 1 && c.outcome == Op.Type.OK) {
      done = done.withTypeError(Op.Type.FAIL, "bad-version").withStat(null);
      what = "ok turned into :fail :bad-version";
    } else if (kind == 1 && c.outcome == Op.Type.FAIL) {
      done = done.withTypeError(Op.Type.OK, null);
      what = ":fail turned into ok";
    } else {
      long ev = (c.expectedVersion < 0 ? 0 : c.expectedVersion) + 1 + rnd.nextInt(2);
      inv = withExpected(inv, ev);
      done = withExpected(done, ev);
      what = "expected version set to " + ev;
    }
    calls.set(i, new Call(inv, done));
    return "#" + c.invokeIndex() + " " + what;
  }

  private static Op withExpected(Op o, long version) {
    Object value = o.f().equals("cas") ? List.of(version, ((List<?>) o.value()).get(1)) : o.value();
    return new Op(o.index(), o.type(), o.process(), o.f(), value, o.time(), o.session(), o.path(), o.f().equals("cas") ? null : version,
        o.zxid(), o.stat(), o.error(), o.watch());
  }

  private static String json(Call c, String key) {
    StringBuilder b = new StringBuilder("{");
    b.append("\"client\":").append(c.done.process());
    b.append(",\"call\":").append(c.invokeTime);
    b.append(",\"return\":").append(c.completeTime == Call.NEVER ? -1 : c.completeTime);
    b.append(",\"key\":").append(str(key));
    b.append(",\"f\":").append(str(c.kind == Call.Kind.CREATE ? "create" : "set-data"));
    b.append(",\"expect\":").append(c.expectedVersion);
    b.append(",\"data\":").append(str(Edn.write(c.data)));
    b.append(",\"outcome\":").append(str(c.outcome == Op.Type.OK ? "ok" : c.outcome == Op.Type.FAIL ? "fail" : "info"));
    b.append(",\"error\":").append(str(c.error == null ? "" : c.error));
    b.append(",\"version\":").append(c.stat != null && c.stat.version() != null ? c.stat.version() : -1);
    b.append(",\"index\":").append(c.invokeIndex());
    return b.append('}').toString();
  }

  private static String str(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '"' || ch == '\\') b.append('\\').append(ch);
      else if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
      else b.append(ch);
    }
    return b.append('"').toString();
  }
}
