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
    Set<String> notRegisters = new HashSet<>();
    Set<String> paths = new HashSet<>();
    new Pairer().run(History.file(history), c -> {
      String p = c.path == null ? "" : c.path;
      if (c.kind == Call.Kind.DELETE || c.kind == Call.Kind.GET_CHILDREN || c.kind == Call.Kind.MULTI || c.sequential() || c.ephemeral()) {
        notRegisters.add(p);
      }
      if (c.kind == Call.Kind.CREATE || c.kind == Call.Kind.SET_DATA) paths.add(p);
      if (!p.isEmpty()) notRegisters.add(ModelTree.parent(p));
    });
    paths.removeAll(notRegisters);
    List<Op> projected = new ArrayList<>();
    Path edn = Path.of(jsonl.toString().replaceAll("\\.jsonl$", "") + ".edn");
    long[] count = {0};
    try (BufferedWriter w = Files.newBufferedWriter(jsonl, StandardCharsets.UTF_8)) {
      new Pairer().run(History.file(history), c -> {
        String p = c.path == null ? "" : c.path;
        if (!paths.contains(p) || (c.kind != Call.Kind.CREATE && c.kind != Call.Kind.SET_DATA)) return;
        if (c.invoke != null) projected.add(c.invoke);
        if (c.done.time() != Long.MAX_VALUE) projected.add(c.done);
        try {
          w.write(json(c, p));
          w.write('\n');
          count[0]++;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + jsonl, e);
    }
    projected.sort((a, b) -> Long.compare(a.index(), b.index()));
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
    System.out.printf("projection: %d register operations on %d registers -> %s and %s%n", count[0], paths.size(), jsonl, edn);
    System.out.println("java LinearizableWrites on the projection: " + (v.valid() ? "linearizable" : "VIOLATED: " + v.explanation()));
    return v.valid() ? 0 : 1;
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
