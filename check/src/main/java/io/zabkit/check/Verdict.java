package io.zabkit.check;

import java.util.List;

/**
 * The decision for one property.
 *
 * @param valid true when no violation was found (see {@link #status}: a property that checked nothing is n/a, not ok)
 * @param violations how many violations were found (0 when valid)
 * @param explanation the first violation, in one sentence; or what was checked when valid
 * @param witness the fewest operations that show the first violation (empty when valid)
 * @param checked how many operations this property looked at
 */
public record Verdict(Property property, boolean valid, long violations, String explanation, List<Op> witness, long checked) {
  /** ok: checked and held; VIOLATED; n/a: nothing in the history could be checked for it (unknown, never ok). */
  public enum Status { OK, VIOLATED, NOT_APPLICABLE }

  public Verdict {
    witness = List.copyOf(witness);
    if (valid && violations != 0) throw new IllegalArgumentException("a valid verdict has no violations");
    if (!valid && witness.isEmpty()) throw new IllegalArgumentException("a violation needs a witness");
  }

  public Status status() {
    if (!valid) return Status.VIOLATED;
    return checked == 0 ? Status.NOT_APPLICABLE : Status.OK;
  }

  /** The word the verdict table prints. */
  public String label() {
    return switch (status()) {
      case OK -> "ok";
      case VIOLATED -> "VIOLATED";
      case NOT_APPLICABLE -> "n/a";
    };
  }
}
