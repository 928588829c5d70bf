package io.zabkit.check;

import java.util.List;

/**
 * The decision for one property.
 *
 * @param valid true when no violation was found
 * @param violations how many violations were found (0 when valid)
 * @param explanation the first violation, in one sentence; or what was checked when valid
 * @param witness the fewest operations that show the first violation (empty when valid)
 * @param checked how many operations this property looked at
 */
public record Verdict(Property property, boolean valid, long violations, String explanation, List<Op> witness, long checked) {
  public Verdict {
    witness = List.copyOf(witness);
    if (valid && violations != 0) throw new IllegalArgumentException("a valid verdict has no violations");
    if (!valid && witness.isEmpty()) throw new IllegalArgumentException("a violation needs a witness");
  }
}
