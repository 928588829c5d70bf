package io.zabkit.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The search for an explanation of a history's indeterminate writes (Knossos and Porcupine style, with the replay of
 * {@link ZkChecker} as the model). Known writes fix their zxid slots; an :info write is either absent or takes one
 * free slot (a zxid no write has) above every write that completed before it was invoked. The first explanation
 * (:info writes placed where observations show them) is the root; while a violation remains, each :info write
 * touching the violation's paths (the path, its parent or a child) is tried in a free slot at or below the violation's
 * zxid, depth first; a child is explored only when it removes that violation without adding more. Each set of
 * forced placements is tried once (memoized). A history is VALID when some set explains every observation,
 * INVALID when the tree is exhausted, and UNKNOWN when the budget runs out first.
 *
 * <p>Session ends without a zxid are placed the same way (their session's ephemerals go at the slot). Not yet placed
 * by this search (the first explanation's rules still handle them): sequential creates (their name depends on the
 * slot), and :info writes the first explanation consumed to explain a version or sequence jump.
 */
public final class PlacementSearch {
  /** How much search a history may cost before the verdict is UNKNOWN. */
  public record Budget(int attempts, long wallMillis) {
    public static final Budget DEFAULT = new Budget(400, 60_000);

    public Budget {
      if (attempts < 0 || wallMillis < 0) throw new IllegalArgumentException("a budget is not negative");
    }

    String describe() {
      return attempts + " replays or " + wallMillis / 1000 + " s";
    }
  }

  /** :info writes tried per violation, and free slots tried per write (nearest the violation's zxid, nearest above the write's floor). */
  private static final int WRITES_PER_VIOLATION_MAX = 8;
  private static final int SLOTS_BELOW = 2;
  private static final int SLOTS_ABOVE = 1;
  private static final int SLOT_SCAN_MAX = 4096;

  private static final class OutOfBudget extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfBudget() {
      super(null, null, false, false);
    }
  }

  private final ZkChecker checker;
  private final History history;
  private final Budget budget;
  private final Set<Map<Long, Long>> visited = new HashSet<>();
  private int attempts;
  private long deadlineNanos;

  PlacementSearch(ZkChecker checker, History history, Budget budget) {
    this.checker = checker;
    this.history = history;
    this.budget = budget;
  }

  /**
   * The attempt that explains every observation; else {@code first} (no placement explains its violations); or null
   * when the budget ran out before either was known.
   */
  ZkChecker.Attempt explain(ZkChecker.Attempt first) {
    if (first.findings.total() == 0) return first;
    deadlineNanos = System.nanoTime() + budget.wallMillis() * 1_000_000;
    try {
      ZkChecker.Attempt found = dfs(first);
      return found != null ? found : first;
    } catch (OutOfBudget e) {
      return null;
    }
  }

  int attempts() {
    return attempts;
  }

  private ZkChecker.Attempt dfs(ZkChecker.Attempt a) {
    long total = a.findings.total();
    assert total > 0 : "a search node has a violation to explain";
    Verdict v = firstViolation(a);
    for (long[] p : candidates(a, v)) {
      Map<Long, Long> forced = new TreeMap<>(a.forced);
      forced.put(p[0], p[1]);
      if (!visited.add(forced)) continue;
      spend();
      ZkChecker.Attempt next = checker.attempt(history, forced, false);
      long t = next.findings.total();
      if (t == 0) return next;
      if (t > total || sameViolation(firstViolation(next), v)) continue; // no progress: this slot explains nothing
      ZkChecker.Attempt found = dfs(next);
      if (found != null) return found;
    }
    return null;
  }

  private void spend() {
    if (++attempts > budget.attempts() || System.nanoTime() > deadlineNanos) throw new OutOfBudget();
  }

  private static Verdict firstViolation(ZkChecker.Attempt a) {
    for (Verdict v : a.findings.verdicts(EnumSet.allOf(Property.class))) if (!v.valid()) return v;
    return null;
  }

  private static boolean sameViolation(Verdict x, Verdict y) {
    return x != null && y != null && x.property() == y.property() && x.explanation().equals(y.explanation());
  }

  /** (invocation :index, slot) pairs to try for violation {@code v}, most promising first. */
  private static List<long[]> candidates(ZkChecker.Attempt a, Verdict v) {
    Set<String> paths = new LinkedHashSet<>();
    long hi = -1;
    long lastInvoked = Long.MIN_VALUE;
    for (Op o : v.witness()) {
      if (o.path() != null) paths.add(o.path());
      if (o.zxid() != null) hi = Math.max(hi, o.zxid());
      lastInvoked = Math.max(lastInvoked, o.time());
    }
    List<long[]> out = new ArrayList<>();
    if (hi < 0 || paths.isEmpty()) return out; // nothing places the violation in zxid order: no slot could explain it
    final long before = lastInvoked;
    List<Call> related = new ArrayList<>();
    for (Call c : a.placeable) {
      // an expiry reported without an invocation may have happened long before it was reported
      boolean invokedInTime = c.invoke == null || c.invokeTime < before;
      if (invokedInTime && (touches(c, paths) || endsAnEphemeralAt(a, c, paths))) related.add(c);
    }
    related.sort(Comparator.comparingLong((Call c) -> c.invokeTime).reversed());
    Set<Long> taken = new HashSet<>(a.forced.values());
    for (Call c : related.subList(0, Math.min(related.size(), WRITES_PER_VIOLATION_MAX))) {
      Call floorWrite = c.invoke == null ? null : a.completed.lastCompletedBefore(c.invokeTime);
      long lo = floorWrite == null ? 0 : floorWrite.effectiveZxid();
      for (long z : freeSlots(a.knownZxids, taken, lo, hi)) out.add(new long[] {c.key(), z});
    }
    return out;
  }

  /** A session end touches the ephemerals its session created: a witness path, or a child of one. */
  private static boolean endsAnEphemeralAt(ZkChecker.Attempt a, Call end, Set<String> paths) {
    if (end.kind != Call.Kind.SESSION_EXPIRED && end.kind != Call.Kind.CLOSE_SESSION) return false;
    Set<String> owned = a.ephemeralsBySession.get(end.session);
    if (owned == null) return false;
    for (String p : owned) if (paths.contains(p) || paths.contains(ModelTree.parent(p))) return true;
    return false;
  }

  private static boolean touches(Call c, Set<String> paths) {
    if (c.kind == Call.Kind.SESSION_EXPIRED || c.kind == Call.Kind.CLOSE_SESSION) return false;
    if (c.subs != null) {
      for (Call sub : c.subs) if (sub.path != null && touchesPath(sub.path, paths)) return true;
      return false;
    }
    return touchesPath(c.path, paths);
  }

  private static boolean touchesPath(String p, Set<String> paths) {
    return paths.contains(p) || paths.contains(ModelTree.parent(p)) || paths.stream().anyMatch(q -> ModelTree.parent(q).equals(p));
  }

  /**
   * Free zxids above lo and at most hi (an event or Stat names the zxid of the change itself): the nearest to hi
   * first, then the nearest above lo.
   */
  static List<Long> freeSlots(long[] known, Set<Long> taken, long lo, long hi) {
    List<Long> out = new ArrayList<>();
    for (long z = hi, n = 0; z > lo && n < SLOT_SCAN_MAX && out.size() < SLOTS_BELOW; z--, n++) {
      if (free(known, taken, z)) out.add(z);
    }
    int below = out.size();
    for (long z = lo + 1, n = 0; z <= hi && n < SLOT_SCAN_MAX && out.size() < below + SLOTS_ABOVE; z++, n++) {
      if (free(known, taken, z) && !out.contains(z)) out.add(z);
    }
    return out;
  }

  private static boolean free(long[] known, Set<Long> taken, long z) {
    return (z & 0xffffffffL) != 0 && !ZkChecker.binaryHas(known, z) && !taken.contains(z);
  }
}
