package io.zabkit.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a {@code :multi} operation (see check/README.md, "Multi"): the invocation's {@code :value} is a vector
 * of sub-operations {@code {:f F :path P ...}}, the completion's {@code :value} a vector of per-op results in
 * the same order. Both the simulator's shape (each result repeats its sub-operation and adds {@code :error}
 * or {@code :created-path}) and the campaign's (results {@code {:type :ok :stat S}} / {@code {:type :fail
 * :error E}}, with {@code :error :ok} for the ops before the failing one) read the same way.
 */
final class MultiOps {
  private MultiOps() {}

  private static final Keyword F = Keyword.of("f"), PATH = Keyword.of("path"), DATA = Keyword.of("data"),
      VALUE = Keyword.of("value"), MODE = Keyword.of("mode"), VERSION = Keyword.of("version"), TYPE = Keyword.of("type"),
      ERROR = Keyword.of("error"), CREATED = Keyword.of("created-path"), STAT = Keyword.of("stat");

  /** ZooKeeper's result for the ops after the failing one of a failed multi. */
  static final String NOT_REACHED = "runtime-inconsistency";

  /** One sub-operation as requested, with its result when the completion carried one. */
  record Sub(Call.Kind kind, String path, Object data, String mode, long expectedVersion,
      boolean hasResult, String error, String createdPath, Stat stat, Object readData) {}

  static List<Sub> parse(Op invoke, Op done) {
    Object req = (invoke != null ? invoke : done).value();
    if (!(req instanceof List<?> ops) || ops.isEmpty()) {
      throw new IllegalArgumentException(":multi :value must be a non-empty vector of sub-operations {:f F :path P ...}, got "
          + Edn.write(req));
    }
    boolean withResults = done.type() == Op.Type.OK || done.type() == Op.Type.FAIL;
    List<?> results = withResults && done.value() instanceof List<?> l ? l : null;
    if (results != null && results.size() != ops.size()) {
      throw new IllegalArgumentException(":multi completion has " + results.size() + " results for " + ops.size() + " sub-operations");
    }
    List<Sub> out = new ArrayList<>(ops.size());
    for (int i = 0; i < ops.size(); i++) {
      out.add(sub(i, ops.get(i), results == null ? null : results.get(i)));
    }
    return out;
  }

  private static Sub sub(int i, Object o, Object result) {
    if (!(o instanceof Map<?, ?> m)) throw new IllegalArgumentException(":multi sub-operation " + i + " must be a map, got " + Edn.write(o));
    if (!(m.get(F) instanceof Keyword f)) throw new IllegalArgumentException(":multi sub-operation " + i + " needs :f");
    if (!(m.get(PATH) instanceof String path)) throw new IllegalArgumentException(":multi sub-operation " + i + " needs :path (a string)");
    Call.Kind kind = switch (f.name()) {
      case "create" -> Call.Kind.CREATE;
      case "delete" -> Call.Kind.DELETE;
      case "set-data" -> Call.Kind.SET_DATA;
      case "check" -> Call.Kind.CHECK;
      case "get-data" -> Call.Kind.GET_DATA;
      case "get-children" -> Call.Kind.GET_CHILDREN;
      default -> throw new IllegalArgumentException(":multi sub-operation " + i + " has :f :" + f.name()
          + "; expected :create :delete :set-data :check (a write multi) or :get-data :get-children (a read multi)");
    };
    Object data = m.containsKey(DATA) ? m.get(DATA) : m.get(VALUE); // the campaign writes set-data's data as :value
    Object mo = m.get(MODE);
    String mode = kind != Call.Kind.CREATE ? null : mo instanceof Keyword k ? k.name() : "persistent";
    Object v = m.get(VERSION);
    if (v != null && !(v instanceof Long)) throw new IllegalArgumentException(":multi sub-operation " + i + " :version must be an integer");
    long version = v == null ? -1 : (Long) v;
    if (result == null) return new Sub(kind, path, data, mode, version, false, null, null, null, null);
    if (!(result instanceof Map<?, ?> r)) throw new IllegalArgumentException(":multi result " + i + " must be a map, got " + Edn.write(result));
    Object e = r.get(ERROR);
    String error = e instanceof Keyword ek && !ek.name().equals("ok") ? ek.name() : null;
    if (error == null && r.get(TYPE) instanceof Keyword t && t.name().equals("fail") && e == null) error = "unknown";
    String created = r.get(CREATED) instanceof String cp ? cp : null;
    Object read = kind == Call.Kind.GET_DATA ? r.get(VALUE) : kind == Call.Kind.GET_CHILDREN ? r.get(VALUE) : null;
    return new Sub(kind, path, data, mode, version, true, error, created, Stat.fromEdn(r.get(STAT)), read);
  }

  static boolean readOnly(List<Sub> subs) {
    return subs.stream().allMatch(s -> s.kind().isRead());
  }

  /**
   * The sub-operations as {@link Call}s of their multi. In an ok multi every sub-op succeeded; in a failed one
   * each keeps its own result; an :info multi's sub-ops are :info too (all or nothing, decided by the replay).
   */
  static List<Call> calls(Call multi, List<Sub> subs) {
    List<Call> out = new ArrayList<>(subs.size());
    for (Sub s : subs) {
      Op.Type t = multi.outcome == Op.Type.INFO ? multi.outcome
          : s.kind().isRead() && s.hasResult() ? (s.error() == null ? Op.Type.OK : Op.Type.FAIL) // a read fails alone
          : multi.outcome == Op.Type.OK ? Op.Type.OK
          : s.error() == null && s.hasResult() ? Op.Type.OK : Op.Type.FAIL;
      String error = t == Op.Type.FAIL ? s.error() : null;
      Object data = s.kind().isRead() ? s.readData() : s.data();
      out.add(new Call(multi, s.kind(), s.path(), data, s.mode(), s.expectedVersion(), t, error,
          t == Op.Type.OK ? s.createdPath() : null, s.stat()));
    }
    return out;
  }

  /**
   * The zxid of an ok write multi when the completion has no {@code :zxid}: the Stat of a sub-result shows it
   * (mzxid of a set-data, czxid of a create). Null when no sub-result carries one.
   */
  static Long zxidFromResults(List<Sub> subs) {
    for (Sub s : subs) {
      if (s.stat() == null) continue;
      if (s.kind() == Call.Kind.SET_DATA && s.stat().mzxid() != null) return s.stat().mzxid();
      if (s.kind() == Call.Kind.CREATE && s.stat().czxid() != null) return s.stat().czxid();
    }
    return null;
  }

  /**
   * For a failed multi: the index of the sub-op that failed and its error (the first result that is neither ok
   * nor {@link #NOT_REACHED}), or -1 when the completion carried no per-op results. Throws when the results
   * break ZooKeeper's layout (ok before the failing op, runtime-inconsistency after it): that is reported, not
   * guessed around.
   */
  static int failedIndex(Call multi) {
    int failed = -1;
    for (int i = 0; i < multi.subs.size(); i++) {
      Call s = multi.subs.get(i);
      if (s.outcome == Op.Type.OK) {
        if (failed >= 0) return -2;
      } else if (s.error == null) {
        return -1; // no per-op results
      } else if (s.error.equals(NOT_REACHED)) {
        if (failed < 0) return -2;
      } else {
        if (failed >= 0) return -2;
        failed = i;
      }
    }
    return failed < 0 ? -2 : failed;
  }
}
