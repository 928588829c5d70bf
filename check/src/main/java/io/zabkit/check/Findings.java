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

  /**
   * One violation with the calls that show it (what the exhaustive search judges locality by). {@code countGap}, for a
   * sequential name that does not fit its parent's counter, is the name's number minus the replay's counter there
   * (how many creates under the parent the placement lacks below the name's zxid; negative: has too many), else 0.
   */
  record Found(Property property, String explanation, List<Call> witness, long countGap, int mismatch) {
    Found(Property property, String explanation, List<Call> witness) {
      this(property, explanation, witness, 0, 0);
    }

    Found {
      assert mismatch >= 0 : "a mismatch is a count of differing parts";
    }

    /** The largest zxid among the witness operations, or Long.MAX_VALUE when one of them has none. */
    long determinedAt() {
      long max = 0;
      for (Call c : witness) {
        long z = c.kind.isWrite() ? c.effectiveZxid() : (c.zxid == null ? -1 : c.zxid);
        if (z < 0) return Long.MAX_VALUE;
        max = Math.max(max, z);
      }
      return max;
    }
  }

  /**
   * Every violation up to {@link #KEPT_MAX}, in the order found. Past the cap {@link #overflowed()} is true: a reader
   * that needs every violation (the exhaustive search) must then treat the unseen ones as unknown.
   */
  static final int KEPT_MAX = 4096;
  private final List<Found> kept = new ArrayList<>();
  private boolean overflowed;

  Findings() {
    for (Property p : Property.values()) slots.put(p, new Slot());
  }

  void checked(Property p) {
    slots.get(p).checked++;
  }

  /** Records one violation; the witness calls are listed in history order. */
  void violation(Property p, String explanation, Call... witness) {
    counterViolation(p, explanation, 0, witness);
  }

  /** Records a sequential name that does not fit its parent's counter; the first witness is the create. */
  void counterViolation(Property p, String explanation, long countGap, Call... witness) {
    record(p, explanation, countGap, 0, witness);
  }

  /**
   * Records a read whose returned state differs from the replay's in {@code mismatch} parts (for a listing: the names
   * it shows that the replay lacks plus those the replay has that it does not show). Only the placement repair reads
   * the figure: a move that leaves the same violations but a smaller mismatch is progress.
   */
  void mismatchViolation(Property p, String explanation, int mismatch, Call... witness) {
    record(p, explanation, 0, mismatch, witness);
  }

  private void record(Property p, String explanation, long countGap, int mismatch, Call... witness) {
    assert countGap == 0 || (witness.length > 0 && witness[0].kind == Call.Kind.CREATE) : "a counter gap names its create first";
    Slot s = slots.get(p);
    s.violations++;
    if (kept.size() < KEPT_MAX) {
      List<Call> calls = new ArrayList<>();
      for (Call c : witness) if (c != null) calls.add(c);
      kept.add(new Found(p, explanation, calls, countGap, mismatch));
    } else {
      overflowed = true;
    }
    if (s.explanation != null) return;
    List<Op> w = new ArrayList<>();
    for (Call c : witness) if (c != null) c.addTo(w);
    w.sort((a, b) -> Long.compare(a.index(), b.index()));
    s.explanation = explanation;
    s.witness = w;
  }

  List<Found> kept() {
    return kept;
  }

  boolean overflowed() {
    return overflowed;
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
