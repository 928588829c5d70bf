package io.zabkit.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The verdicts of every checked property for one history, plus counts. */
public record Result(List<Verdict> verdicts, long operations, long elapsedNanos) {
  public Result {
    verdicts = List.copyOf(verdicts);
  }

  /** True when every property holds. */
  public boolean valid() {
    return verdicts.stream().allMatch(Verdict::valid);
  }

  public Verdict verdict(Property p) {
    for (Verdict v : verdicts) if (v.property() == p) return v;
    throw new IllegalArgumentException(p + " was not checked");
  }

  public List<Property> failed() {
    List<Property> out = new ArrayList<>();
    for (Verdict v : verdicts) if (!v.valid()) out.add(v.property());
    return out;
  }

  /** The human table the command prints. */
  public String table() {
    StringBuilder b = new StringBuilder();
    b.append(String.format("%-22s %-9s %10s %10s  %s%n", "property", "verdict", "checked", "violations", "first violation"));
    for (Verdict v : verdicts) {
      b.append(String.format("%-22s %-9s %10d %10d  %s%n", v.property(), v.valid() ? "ok" : "VIOLATED", v.checked(),
          v.violations(), v.valid() ? "" : v.explanation()));
      for (Op o : v.witness()) b.append(String.format("%-22s %-9s %10s %10s    %s%n", "", "", "", "", o.brief()));
    }
    b.append(String.format("%d operations checked in %.2f s: %s%n", operations, elapsedNanos / 1e9,
        valid() ? "VALID" : "INVALID (" + failed() + ")"));
    return b.toString();
  }

  /**
   * The results map in the shape of Jepsen's results.edn: {@code :valid?} at the top, one entry per property
   * keyed by its name as a keyword, each with {@code :valid?}, {@code :count}, {@code :violations},
   * {@code :explanation} and {@code :witness} (the operations, as history maps).
   */
  public Map<Object, Object> toEdn() {
    Map<Object, Object> m = new LinkedHashMap<>();
    m.put(Keyword.of("valid?"), valid());
    m.put(Keyword.of("op-count"), operations);
    m.put(Keyword.of("elapsed-ns"), elapsedNanos);
    List<Object> failed = new ArrayList<>();
    for (Property p : failed()) failed.add(Keyword.of(p.name()));
    m.put(Keyword.of("failures"), failed);
    for (Verdict v : verdicts) {
      Map<Object, Object> r = new LinkedHashMap<>();
      r.put(Keyword.of("valid?"), v.valid());
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
    return m;
  }
}
