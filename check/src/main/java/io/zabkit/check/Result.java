package io.zabkit.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The verdicts of every checked property for one history, plus counts.
 *
 * @param undecided why the checker could not decide (the placement search ran out of budget), or null
 * @param placements for each indeterminate write (its invocation's :index) and each session end without a zxid (its
 *     line's :index), the zxid the checker's explanation placed it at (a Long) or {@link #ABSENT}
 */
public record Result(List<Verdict> verdicts, long operations, long elapsedNanos, String undecided, Map<Long, Object> placements) {
  /** The placement of an indeterminate operation that the explanation says never took effect. */
  public static final Keyword ABSENT = Keyword.of("absent");

  /** VALID: something was checked and nothing violated; INVALID: a property is violated; UNKNOWN: neither. */
  public enum Status { VALID, INVALID, UNKNOWN }

  public Result {
    verdicts = List.copyOf(verdicts);
    placements = new TreeMap<>(placements);
    for (Object v : placements.values()) assert v instanceof Long || ABSENT.equals(v) : "a placement is a zxid or :absent: " + v;
  }

  public Result(List<Verdict> verdicts, long operations, long elapsedNanos) {
    this(verdicts, operations, elapsedNanos, null, Map.of());
  }

  /**
   * UNKNOWN when the placement search ran out of budget (the violations listed are those of the first explanation,
   * which some untried placement might explain); else INVALID when a property is violated; else VALID when at least
   * one property checked something. A history with nothing checkable is UNKNOWN, never VALID.
   */
  public Status status() {
    if (!failed().isEmpty()) return Status.INVALID; // confirmed by a complete search: no placement explains it
    if (undecided != null) return Status.UNKNOWN; // its violations are only those no placement tried so far explains
    if (verdicts.stream().anyMatch(v -> v.status() == Verdict.Status.UNKNOWN)) return Status.UNKNOWN;
    return verdicts.stream().anyMatch(v -> v.status() == Verdict.Status.OK) ? Status.VALID : Status.UNKNOWN;
  }

  /** True when the status is VALID: every property holds and at least one was checked. */
  public boolean valid() {
    return status() == Status.VALID;
  }

  public Verdict verdict(Property p) {
    for (Verdict v : verdicts) if (v.property() == p) return v;
    throw new IllegalArgumentException(p + " was not checked");
  }

  public List<Property> failed() {
    List<Property> out = new ArrayList<>();
    for (Verdict v : verdicts) if (v.status() == Verdict.Status.VIOLATED) out.add(v.property());
    return out;
  }

  private String why() {
    return switch (status()) {
      case VALID -> "VALID";
      case INVALID -> "INVALID (" + failed() + ")";
      case UNKNOWN -> "UNKNOWN (" + (undecided != null ? undecided : "nothing in the history could be checked") + ")";
    };
  }

  /** The human table the command prints. */
  public String table() {
    StringBuilder b = new StringBuilder();
    b.append(String.format("%-22s %-9s %10s %10s  %s%n", "property", "verdict", "checked", "violations", "first violation"));
    for (Verdict v : verdicts) {
      String note = switch (v.status()) {
        case VIOLATED -> v.explanation();
        case UNKNOWN -> "undecided (" + v.undecided() + "): " + v.explanation();
        case NOT_APPLICABLE -> "nothing in the history could be checked for it";
        case OK -> "";
      };
      b.append(String.format("%-22s %-9s %10d %10d  %s%n", v.property(), v.label(), v.checked(), v.violations(), note));
      for (Op o : v.witness()) b.append(String.format("%-22s %-9s %10s %10s    %s%n", "", "", "", "", o.brief()));
    }
    b.append(String.format("%d operations checked in %.2f s: %s%n", operations, elapsedNanos / 1e9, why()));
    return b.toString();
  }

  private static Object validity(boolean decided, boolean valid) {
    return decided ? (Object) valid : Keyword.of("unknown");
  }

  /**
   * The results map in the shape of Jepsen's results.edn: {@code :valid?} at the top (true, false or
   * {@code :unknown}), one entry per property keyed by its name as a keyword, each with {@code :valid?} (true,
   * false, or {@code :unknown} when it checked nothing), {@code :count}, {@code :violations}, {@code :explanation}
   * and {@code :witness} (the operations, as history maps); and {@code :placements} (see the record's doc).
   */
  public Map<Object, Object> toEdn() {
    Map<Object, Object> m = new LinkedHashMap<>();
    Status s = status();
    m.put(Keyword.of("valid?"), validity(s != Status.UNKNOWN, s == Status.VALID));
    if (s == Status.UNKNOWN) m.put(Keyword.of("unknown-reason"), undecided != null ? undecided : "nothing in the history could be checked");
    m.put(Keyword.of("op-count"), operations);
    m.put(Keyword.of("elapsed-ns"), elapsedNanos);
    List<Object> failed = new ArrayList<>();
    for (Property p : failed()) failed.add(Keyword.of(p.name()));
    m.put(Keyword.of("failures"), failed);
    for (Verdict v : verdicts) {
      Map<Object, Object> r = new LinkedHashMap<>();
      r.put(Keyword.of("valid?"), validity(v.status() == Verdict.Status.OK || v.status() == Verdict.Status.VIOLATED, v.valid()));
      if (v.undecided() != null) r.put(Keyword.of("unknown-reason"), v.undecided());
      r.put(Keyword.of("count"), v.checked());
      r.put(Keyword.of("violations"), v.violations());
      if (!v.valid()) {
        r.put(Keyword.of("explanation"), v.explanation());
        List<Object> w = new ArrayList<>();
        for (Op o : v.witness()) w.add(o.toEdn());
        r.put(Keyword.of("witness"), w);
      }
      m.put(Keyword.of(v.property().name()), r);
    }
    m.put(Keyword.of("placements"), new LinkedHashMap<Object, Object>(placements));
    return m;
  }
}
