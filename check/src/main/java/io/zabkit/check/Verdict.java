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
public record Verdict(Property property, boolean valid, long violations, String explanation, List<Op> witness, long checked, String undecided) {
  /**
   * ok: checked and held; VIOLATED: a violation no placement of the indeterminate operations explains; UNKNOWN: a
   * violation of the first explanation that the exhaustive search could not decide ({@link #undecided} says why);
   * n/a: nothing in the history could be checked for it (unknown, never ok).
   */
  public enum Status { OK, VIOLATED, UNKNOWN, NOT_APPLICABLE }

  public Verdict {
    witness = List.copyOf(witness);
    if (valid && violations != 0) throw new IllegalArgumentException("a valid verdict has no violations");
    if (!valid && witness.isEmpty()) throw new IllegalArgumentException("a violation needs a witness");
    if (valid && undecided != null) throw new IllegalArgumentException("an undecided verdict is not valid");
  }

  public Verdict(Property property, boolean valid, long violations, String explanation, List<Op> witness, long checked) {
    this(property, valid, violations, explanation, witness, checked, null);
  }

  public Status status() {
    if (undecided != null) return Status.UNKNOWN;
    if (!valid) return Status.VIOLATED;
    return checked == 0 ? Status.NOT_APPLICABLE : Status.OK;
  }

  /** The word the verdict table prints. */
  public String label() {
    return switch (status()) {
      case OK -> "ok";
      case VIOLATED -> "VIOLATED";
      case UNKNOWN -> "unknown";
      case NOT_APPLICABLE -> "n/a";
    };
  }
}
