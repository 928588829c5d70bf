package io.zabkit.check;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Collects violations per property: a count, and the first violation with its witness operations. */
final class Findings {
  private static final class Slot {
    long violations;
    long checked;
    String explanation;
    List<Op> witness = List.of();
  }

  private final Map<Property, Slot> slots = new EnumMap<>(Property.class);

  Findings() {
    for (Property p : Property.values()) slots.put(p, new Slot());
  }

  void checked(Property p) {
    slots.get(p).checked++;
  }

  /** Records one violation; the witness calls are listed in history order. */
  void violation(Property p, String explanation, Call... witness) {
    Slot s = slots.get(p);
    s.violations++;
    if (s.explanation != null) return;
    List<Op> w = new ArrayList<>();
    for (Call c : witness) if (c != null) c.addTo(w);
    w.sort((a, b) -> Long.compare(a.index(), b.index()));
    s.explanation = explanation;
    s.witness = w;
  }

  /** Violations found, over every property. */
  long total() {
    long n = 0;
    for (Slot s : slots.values()) n += s.violations;
    return n;
  }

  boolean violated(Property p) {
    return slots.get(p).violations > 0;
  }

  List<Verdict> verdicts(java.util.Set<Property> wanted) {
    List<Verdict> out = new ArrayList<>();
    for (Property p : Property.values()) {
      if (!wanted.contains(p)) continue;
      Slot s = slots.get(p);
      out.add(s.violations == 0
          ? new Verdict(p, true, 0, "", List.of(), s.checked)
          : new Verdict(p, false, s.violations, s.explanation, s.witness, s.checked));
    }
    return out;
  }

  static String hex(long zxid) {
    return "0x" + Long.toHexString(zxid);
  }
}
