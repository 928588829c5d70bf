package io.zabkit.check;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Improves the proposed placement before the exhaustive search, by local moves that the exact replay judges: each
 * round takes the earliest violation of the current placement (in zxid order: the largest zxid its witnesses name)
 * and tries moving each indeterminate operation on its paths or their parents (the same path, a parent, a child or
 * a sibling) to absent, or onto
 * a zxid its witnesses name, to the highest free zxid below one, or to the first free zxid above its floor (an
 * :info write mostly takes effect soon after its invocation). A move is progress when the earliest violation
 * lies later afterwards, or as early but with fewer violations in all or with the reads there nearer to the replay
 * ({@link #better}; no placement is visited twice): fixing
 * violations in zxid order, as the replay meets them, lets a sequential name's count be repaired before the names
 * that follow it. The best placement seen (fewest violations) is the result. The result is only a proposal: a
 * history is VALID through it only when its exact replay has no violation, and INVALID still needs the complete
 * search. Slots respect the same floors as the search (above every zxid seen by an operation that completed before
 * the invocation), so a placement this finds is one the search could have found.
 *
 * <p>Why: the proposal's rules pick one candidate per observation (e.g. a children event on "/" at a zxid no known
 * write has is given to the first :info create or delete under "/"), and a wrong pick early in zxid order costs the
 * zxid-ordered exhaustive search every combination of the operations between it and the violation it causes.
 */
final class PlacementRepair {
  private static final boolean DEBUG = System.getenv("ZK_CHECK_DEBUG_SEARCH") != null;
  private final ZkChecker checker;
  private final History history;
  private final ExhaustiveSearch.Floors floors;
  private final long deadlineNanos;
  private long replaysLeft;
  int replays;

  /** Which of two placements as wrong at the earliest violation is progress: the nearer reads first, or fewer violations first. */
  private boolean nearerFirst;

  PlacementRepair(ZkChecker checker, History history, ExhaustiveSearch.Floors floors, long maxReplays, long deadlineNanos) {
    this.checker = checker;
    this.history = history;
    this.floors = floors;
    this.replaysLeft = maxReplays;
    this.deadlineNanos = deadlineNanos;
  }

  /**
   * The second of two local searches {@link ZkChecker} runs from the same proposal (a portfolio: both only propose,
   * and the search starts from whichever leaves fewer violations). This one ranks placements equally early by how near
   * the reads there are to the replay before the count of violations (the first: the count first, so a move that
   * shifts later names does not win over one that leaves fewer of them), and fills a counter gap from free zxids only
   * (the first may also take another operation's slot). Measured: neither alone decides every history the other does
   * (check/README.md, "False alarms").
   */
  PlacementRepair nearerFirst() {
    this.nearerFirst = true;
    return this;
  }

  /** The improved placement and its exact replay (the input ones when no move helped). */
  record Repaired(Map<Long, Long> placement, ZkChecker.Attempt exact) {}

  Repaired run(ZkChecker.Attempt exact, Map<Long, Long> base) {
    Map<Long, Long> cur = new TreeMap<>(base);
    ZkChecker.Attempt curA = exact;
    Set<Long> unplaceable = new HashSet<>();
    for (Call u : exact.unplaceable) unplaceable.add(u.key());
    Map<Long, Long> fewest = cur;
    ZkChecker.Attempt fewestA = curA;
    Set<String> stuck = new HashSet<>(); // violations no move improved: the next round takes another one
    while (curA.findings.total() > 0 && !curA.findings.overflowed() && budgetLeft()) {
      Findings.Found f = null;
      for (Findings.Found g : curA.findings.kept()) {
        if (!stuck.contains(identity(g)) && (f == null || g.determinedAt() < f.determinedAt())) f = g;
      }
      if (f == null) break;
      Map<Long, Long> best = null;
      ZkChecker.Attempt bestA = null;
      List<Map<Long, Long>> tried = new ArrayList<>(counterMoves(f, curA, cur, unplaceable));
      tried.addAll(listedNameMoves(f, curA, cur, unplaceable));
      List<Map<Long, Long>> recreateList = recreateMoves(f, curA, cur, unplaceable);
      tried.addAll(recreateList); // in their order (a set's would depend on identity hashes: the verdict must not)
      Set<Map<Long, Long>> recreate = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      recreate.addAll(recreateList);
      tried.addAll(moves(f, curA, cur, unplaceable));
      for (Map<Long, Long> move : tried) {
        if (!budgetLeft()) break;
        replaysLeft--;
        replays++;
        ZkChecker.Attempt a = checker.attempt(history, move, false);
        if (recreate.contains(move) && !better(a, bestA == null ? curA : bestA)) {
          // the create the move placed took a number of its parent's counter: the compensating counter move belongs to it
          for (Findings.Found g : a.findings.kept()) {
            if (g.countGap() == 0 || Math.abs(g.countGap()) > 1 || g.determinedAt() != earliest(a) || !budgetLeft()) continue;
            for (Map<Long, Long> then : counterMoves(g, a, move, unplaceable)) {
              if (!budgetLeft()) break;
              replaysLeft--;
              replays++;
              ZkChecker.Attempt b = checker.attempt(history, then, false);
              if (better(b, bestA == null ? curA : bestA)) {
                best = then;
                bestA = b;
              }
            }
            break;
          }
        }
        if (better(a, bestA == null ? curA : bestA)) {
          best = move;
          bestA = a;
          if (a.findings.total() == 0) break;
        }
      }
      if (DEBUG) System.err.println("repair: " + f.explanation() + " gap=" + f.countGap() + " moves=" + tried.size() + (best == null ? " stuck" : " -> " + bestA.findings.total()));
      if (best == null) {
        stuck.add(identity(f));
        continue;
      }
      assert better(bestA, curA) : "a kept move is progress";
      cur = best;
      curA = bestA;
      stuck.clear();
      if (curA.findings.total() < fewestA.findings.total()) {
        fewest = cur;
        fewestA = curA;
      }
    }
    return new Repaired(fewest, fewestA);
  }

  /**
   * Progress: the earliest violation lies later; or as early, with fewer violations in all, or the reads there
   * nearer to the replay (fewer parts differ: a listing in fewer names), in the order {@link #nearerFirst} sets. A
   * strict lexicographic order, so no placement is visited twice. Why nearness: a listing wrong in several names (a
   * delete placed too early, a sequential create missing) needs one move per name, and each alone leaves the listing
   * violated, one name less wrong.
   */
  private boolean better(ZkChecker.Attempt a, ZkChecker.Attempt than) {
    if (a.findings.overflowed()) return false;
    if (a.findings.total() == 0) return than.findings.total() > 0;
    long ea = earliest(a), et = earliest(than);
    if (ea != et) return ea > et;
    long ma = mismatchAt(a, ea), mt = mismatchAt(than, et);
    long ta = a.findings.total(), tt = than.findings.total();
    if (nearerFirst) return ma != mt ? ma < mt : ta < tt;
    return ta != tt ? ta < tt : ma < mt;
  }

  /** The parts in which the violations determined at zxid z differ from the replay. */
  private static long mismatchAt(ZkChecker.Attempt a, long z) {
    long n = 0;
    for (Findings.Found g : a.findings.kept()) if (g.determinedAt() == z) n += g.mismatch();
    return n;
  }

  private static long earliest(ZkChecker.Attempt a) {
    long min = Long.MAX_VALUE;
    for (Findings.Found g : a.findings.kept()) min = Math.min(min, g.determinedAt());
    return min;
  }


  private boolean budgetLeft() {
    return replaysLeft > 0 && System.nanoTime() < deadlineNanos;
  }

  private static String identity(Findings.Found f) {
    StringBuilder b = new StringBuilder(f.property().name());
    f.witness().stream().mapToLong(Call::key).sorted().forEach(k -> b.append(' ').append(k));
    return b.toString();
  }

  /** Candidate placements: one operation related to the violation moved (evicting any operation on its new slot). */
  private List<Map<Long, Long>> moves(Findings.Found f, ZkChecker.Attempt a, Map<Long, Long> cur, Set<Long> unplaceable) {
    Set<String> paths = new HashSet<>();
    Set<Long> sessions = new HashSet<>();
    TreeSet<Long> named = new TreeSet<>();
    for (Call c : f.witness()) {
      for (Call part : c.subs != null ? c.subs : List.of(c)) {
        for (String p : ExhaustiveSearch.pathsOf(part)) {
          paths.add(p);
          if (!p.equals("/")) paths.add(ModelTree.parent(p)); // a sibling's create or delete moves the parent's children
        }
      }
      if (c.session != null) sessions.add(c.session);
      if (c.zxid != null) named.add(c.zxid);
      if (c.kind.isWrite() && c.effectiveZxid() > 0) named.add(c.effectiveZxid());
      if (c.stat != null) {
        if (c.stat.czxid() != null) named.add(c.stat.czxid());
        if (c.stat.mzxid() != null) named.add(c.stat.mzxid());
        if (c.stat.pzxid() != null) named.add(c.stat.pzxid());
      }
    }
    Map<Long, Long> holder = slotHolders(cur);
    Set<Long> used = holder.keySet();
    List<Map<Long, Long>> out = new ArrayList<>();
    for (Call c : a.indeterminate) {
      if (unplaceable.contains(c.key()) || !related(c, paths, sessions)) continue;
      Long at = cur.getOrDefault(c.key(), InfoWrites.FORCED_ABSENT);
      long floor = c.invoke == null ? 0 : floors.floor(c.invokeTime);
      Set<Long> targets = new java.util.LinkedHashSet<>();
      targets.add(InfoWrites.FORCED_ABSENT);
      for (long z = floor + 1, n = 0; n < 10_000; z++, n++) { // the first free zxid above the floor: soon after invocation
        if (slot(z, a) && !used.contains(z)) {
          targets.add(z);
          break;
        }
      }
      for (long w : named) {
        if (w > floor && slot(w, a)) targets.add(w);
        for (long z = w - 1, n = 0; z > floor && n < 10_000; z--, n++) { // the highest free zxid below w
          if (slot(z, a) && !used.contains(z)) {
            targets.add(z);
            break;
          }
        }
      }
      for (long z : targets) {
        if (z == at) continue;
        Map<Long, Long> m = new TreeMap<>(cur);
        m.put(c.key(), z);
        Long other = z == InfoWrites.FORCED_ABSENT ? null : holder.get(z);
        if (other != null && other != c.key()) m.put(other, InfoWrites.FORCED_ABSENT);
        out.add(m);
      }
    }
    return out;
  }

  /** Compound moves tried per counter gap: a gap of k among m candidates has C(m, k) fillings. */
  static final int COUNTER_MOVES_MAX = 3000;

  /**
   * For a sequential name that does not fit its parent's counter ({@link Findings.Found#countGap}): every way to add
   * (or remove) exactly that many creates under the parent below the name's zxid, as one move. Why: every create
   * under a parent takes one number, so a gap of k needs k of the pending creates at once, and no single move makes
   * progress (the name stays wrong, by one less). Which creates fill the gap is decided by the replay of each
   * filling, so the subsets are tried, smallest first in the order of their invocation nearest the name.
   */
  private List<Map<Long, Long>> counterMoves(Findings.Found f, ZkChecker.Attempt a, Map<Long, Long> cur, Set<Long> unplaceable) {
    long gap = f.countGap();
    long z = f.determinedAt();
    if (gap == 0 || z == Long.MAX_VALUE || Math.abs(gap) > 4) return List.of();
    Call named = f.witness().get(0);
    assert named.kind == Call.Kind.CREATE && named.path != null : "a counter gap's first witness is the sequential create";
    String parent = ModelTree.parent(named.path);
    Map<Long, Long> holder = slotHolders(cur);
    Set<Long> used = holder.keySet();
    List<Call> cands = new ArrayList<>();
    for (Call c : a.indeterminate) {
      if (unplaceable.contains(c.key()) || !createsUnder(c, parent)) continue;
      long at = cur.getOrDefault(c.key(), InfoWrites.FORCED_ABSENT);
      boolean below = at != InfoWrites.FORCED_ABSENT && at < z;
      long floor = c.invoke == null ? 0 : floors.floor(c.invokeTime);
      if (gap > 0 ? !below && floor < z : below) cands.add(c);
    }
    cands.sort((x, y) -> Long.compare(Math.abs(y.invokeTime), Math.abs(x.invokeTime))); // latest invoked first: nearest the name
    int k = (int) Math.abs(gap);
    List<Map<Long, Long>> out = new ArrayList<>();
    if (cands.size() < k) return out;
    int[] pick = new int[k];
    for (int i = 0; i < k; i++) pick[i] = i;
    // the parent's last child change below the name, in this replay: the gap's creates lie between it and the name
    Call last = f.witness().size() > 1 ? f.witness().get(f.witness().size() - 1) : null;
    long lo = last == null || last == named ? 0 : Math.max(0, last.effectiveZxid());
    while (out.size() < COUNTER_MOVES_MAX) {
      for (boolean early : new boolean[] {true, false}) out.addAll(filling(cands, pick, gap, z, early ? lo : -1, cur, used, holder, a));
      int i = k - 1; // the next k-subset in lexicographic order
      while (i >= 0 && pick[i] == cands.size() - k + i) i--;
      if (i < 0) break;
      pick[i]++;
      for (int j = i + 1; j < k; j++) pick[j] = pick[j - 1] + 1;
    }
    return out;
  }

  /**
   * One filling of a counter gap: the picked candidates placed (gap > 0) or left out (gap < 0). Placed ones go next to
   * the name (lo < 0: the highest free zxids below z) or early (the lowest free zxids above lo and their floors:
   * an :info write mostly takes effect soon after its invocation, e.g. before its session ends).
   */
  /** Each zxid slot the placement gives an :info write, and the write that holds it (forced absences hold none). */
  private static Map<Long, Long> slotHolders(Map<Long, Long> cur) {
    Map<Long, Long> holder = new java.util.HashMap<>();
    for (Map.Entry<Long, Long> e : cur.entrySet()) {
      if (e.getValue() != InfoWrites.FORCED_ABSENT) {
        Long before = holder.put(e.getValue(), e.getKey());
        assert before == null : "two :info writes placed at zxid " + e.getValue();
      }
    }
    return holder;
  }

  private List<Map<Long, Long>> filling(List<Call> cands, int[] pick, long gap, long z, long lo, Map<Long, Long> cur, Set<Long> used,
      Map<Long, Long> holder, ZkChecker.Attempt a) {
    if (gap < 0 && lo >= 0) return List.of();
    Map<Long, Long> m = new TreeMap<>(cur);
    Set<Long> taken = new HashSet<>(used);
    Set<Long> filled = new HashSet<>(); // the slots this filling gave its candidates
    // candidates are sorted latest invoked first: the early slots go to the earliest invoked, the late ones to the latest
    for (int j = 0; j < pick.length; j++) {
      Call c = cands.get(pick[lo < 0 ? j : pick.length - 1 - j]);
      if (gap < 0) {
        m.put(c.key(), InfoWrites.FORCED_ABSENT);
        continue;
      }
      long slot = lo < 0 ? fillSlot(c, z, taken, a) : earlySlot(c, lo, z, taken, a);
      // no free zxid left there (a standalone server's zxids are dense: the only free ones are the :info writes'):
      // the create takes a slot another indeterminate operation holds, which is left out (the replay judges it)
      if (slot < 0 && !nearerFirst) slot = lo < 0 ? fillSlot(c, z, filled, a) : earlySlot(c, lo, z, filled, a);
      if (slot < 0) return List.of();
      assert !filled.contains(slot) : "one create per slot";
      taken.add(slot);
      filled.add(slot);
      m.put(c.key(), slot);
      Long other = holder.get(slot);
      if (other != null && other != c.key()) m.put(other, InfoWrites.FORCED_ABSENT);
    }
    return List.of(m);
  }

  /**
   * For a listing that shows a sequential name the replay has no node for (prefix and ten digits: n): an :info create
   * of that prefix takes the slot of the indeterminate create under the parent that took number n in this replay
   * (which is left out: the counter stays as it was, only the name changes). Every name the listing lacks at once:
   * a listing is one observation, and fixing one of its names leaves it as wrong as before.
   */
  private List<Map<Long, Long>> listedNameMoves(Findings.Found f, ZkChecker.Attempt a, Map<Long, Long> cur, Set<Long> unplaceable) {
    Call r = f.witness().get(0);
    if (r.kind != Call.Kind.GET_CHILDREN || r.zxid == null || r.path == null || a.tree == null || !(r.done.value() instanceof List<?> kids)) return List.of();
    String parent = r.path;
    Map<Long, Call> byKey = new java.util.HashMap<>();
    for (Call c : a.indeterminate) byKey.put(c.key(), c);
    List<List<long[]>> perName = new ArrayList<>(); // per absent name: its swaps {create's key, slot, key of the one left out}
    for (Object k : kids) {
      String name = String.valueOf(k);
      String child = parent.equals("/") ? "/" + name : parent + "/" + name;
      if (name.length() <= 10 || a.tree.stateAt(child, r.zxid).exists) continue;
      String prefix = child.substring(0, child.length() - 10);
      long n = ModelTree.sequenceOf(child, prefix);
      if (n < 0) continue;
      List<long[]> swaps = new ArrayList<>();
      for (Call c : a.indeterminate) {
        if (unplaceable.contains(c.key()) || !createsPrefix(c, prefix)) continue;
        long floor = c.invoke == null ? 0 : floors.floor(c.invokeTime);
        for (Map.Entry<Long, Long> e : cur.entrySet()) { // the create that took number n
          long s = e.getValue();
          if (s == InfoWrites.FORCED_ABSENT || s >= r.zxid || s <= floor) continue;
          Call h = byKey.get(e.getKey());
          if (h == null || !createsUnder(h, parent) || a.tree.stateAt(parent, s - 1).cversion != n) continue;
          swaps.add(new long[] {c.key(), s, h.key()});
        }
      }
      if (!swaps.isEmpty()) perName.add(swaps);
    }
    // a name the replay has and the listing does not: the indeterminate create that made it gives its slot (and so its
    // number) to another create under the parent that nothing placed, whose node may be gone by the listing
    java.util.SortedSet<String> extra = a.tree.childrenAt(parent, r.zxid);
    for (Object k : kids) extra.remove(String.valueOf(k));
    for (String name : extra) {
      String child = parent.equals("/") ? "/" + name : parent + "/" + name;
      List<long[]> swaps = new ArrayList<>();
      for (Map.Entry<Long, Long> e : cur.entrySet()) {
        long s = e.getValue();
        Call h = byKey.get(e.getKey());
        if (s == InfoWrites.FORCED_ABSENT || s >= r.zxid || h == null || !createsUnder(h, parent)) continue;
        if (!a.tree.stateAt(child, s).exists || a.tree.stateAt(child, s - 1).exists) continue; // h did not create it
        for (Call c : a.indeterminate) {
          long floor = c.invoke == null ? 0 : floors.floor(c.invokeTime);
          boolean unplaced = cur.getOrDefault(c.key(), InfoWrites.FORCED_ABSENT) == InfoWrites.FORCED_ABSENT;
          if (c == h || !unplaced || floor >= s || unplaceable.contains(c.key()) || !createsUnder(c, parent)) continue;
          swaps.add(new long[] {c.key(), s, h.key()});
        }
      }
      if (!swaps.isEmpty()) perName.add(swaps);
    }
    List<Map<Long, Long>> out = new ArrayList<>();
    combine(perName, 0, new TreeMap<>(cur), new HashSet<>(), out);
    return out;
  }

  /** Compound moves tried per re-created node (creators times deleters). */
  static final int RECREATE_MOVES_MAX = 400;

  /**
   * For a read whose Stat shows its node created at a zxid cz that no known write has, while the replay has no node
   * created there: an indeterminate create of the path must take effect at cz, and, when the replay's path is occupied
   * just before cz, an indeterminate delete of it (or the end of its ephemeral owner's session) between that node's
   * creation and cz, at once. Why at once: ZooKeeper's create fails on an existing node, so the create alone changes
   * nothing, and the delete alone takes away the node the read shows; neither single move is progress.
   */
  private List<Map<Long, Long>> recreateMoves(Findings.Found f, ZkChecker.Attempt a, Map<Long, Long> cur, Set<Long> unplaceable) {
    Call r = f.witness().get(0);
    if (r.kind.isWrite() || r.stat == null || r.stat.czxid() == null || r.zxid == null || r.path == null || a.tree == null) return List.of();
    long cz = r.stat.czxid();
    if (cz <= 0 || cz > r.zxid || !slot(cz, a)) return List.of();
    ModelTree.Snap there = a.tree.stateAt(r.path, cz);
    if (there.exists && there.czxid == cz) return List.of(); // the replay has the node the read shows: nothing to re-create
    ModelTree.Snap before = a.tree.stateAt(r.path, cz - 1);
    Map<Long, Long> holder = slotHolders(cur);
    List<Call> creators = new ArrayList<>(), deleters = new ArrayList<>();
    for (Call c : a.indeterminate) {
      if (unplaceable.contains(c.key())) continue;
      long floor = c.invoke == null ? 0 : floors.floor(c.invokeTime);
      if (floor >= cz) continue;
      if (touches(c, Call.Kind.CREATE, r.path)) creators.add(c);
      boolean endsOwner = (c.kind == Call.Kind.SESSION_EXPIRED || c.kind == Call.Kind.CLOSE_SESSION) && c.session != null
          && before.exists && c.session == before.ephemeralOwner;
      if (before.exists && (touches(c, Call.Kind.DELETE, r.path) || endsOwner)) deleters.add(c);
    }
    List<Map<Long, Long>> out = new ArrayList<>();
    for (Call c : creators) {
      if (!before.exists) {
        out.add(placed(cur, holder, c.key(), cz));
        continue;
      }
      for (Call d : deleters) {
        if (d == c || out.size() >= RECREATE_MOVES_MAX) continue;
        long floor = Math.max(before.czxid, d.invoke == null ? 0 : floors.floor(d.invokeTime));
        long s = -1;
        for (long z = cz - 1, n = 0; z > floor && n < 100_000; z--, n++) { // the highest free zxid below cz
          Long h = holder.get(z);
          if (slot(z, a) && (h == null || h == d.key())) {
            s = z;
            break;
          }
        }
        if (s < 0) continue;
        Map<Long, Long> m = placed(cur, holder, c.key(), cz);
        m.put(d.key(), s);
        assert m.get(c.key()) == cz && s < cz : "the delete goes before the create";
        out.add(m);
      }
    }
    return out;
  }

  /** cur with operation key at slot z, and the operation that held z left out. */
  private static Map<Long, Long> placed(Map<Long, Long> cur, Map<Long, Long> holder, long key, long z) {
    Map<Long, Long> m = new TreeMap<>(cur);
    m.put(key, z);
    Long other = holder.get(z);
    if (other != null && other != key) m.put(other, InfoWrites.FORCED_ABSENT);
    return m;
  }

  /** True when c (or a sub-operation of its multi) is a non-sequential operation of this kind on exactly this path. */
  private static boolean touches(Call c, Call.Kind kind, String path) {
    for (Call part : c.subs != null ? c.subs : List.of(c)) {
      if (part.kind == kind && !part.sequential() && !part.prefixUnknown && path.equals(part.path)) return true;
    }
    return false;
  }

  private static void combine(List<List<long[]>> perName, int i, Map<Long, Long> m, Set<Long> moved, List<Map<Long, Long>> out) {
    if (out.size() >= COUNTER_MOVES_MAX) return;
    if (i == perName.size()) {
      if (!moved.isEmpty()) out.add(new TreeMap<>(m));
      return;
    }
    boolean any = false;
    for (long[] sw : perName.get(i)) {
      if (moved.contains(sw[0]) || moved.contains(sw[2])) continue; // each operation moves once per combined move
      any = true;
      Long was0 = m.get(sw[0]), was2 = m.get(sw[2]);
      m.put(sw[2], InfoWrites.FORCED_ABSENT);
      m.put(sw[0], sw[1]);
      moved.add(sw[0]);
      moved.add(sw[2]);
      combine(perName, i + 1, m, moved, out);
      moved.remove(sw[0]);
      moved.remove(sw[2]);
      restore(m, sw[0], was0);
      restore(m, sw[2], was2);
    }
    if (!any) combine(perName, i + 1, m, moved, out);
  }

  private static void restore(Map<Long, Long> m, long key, Long was) {
    if (was == null) m.remove(key);
    else m.put(key, was);
  }

  /** True when c (or a sub-operation of its multi) is a sequential create of the prefix. */
  private static boolean createsPrefix(Call c, String prefix) {
    for (Call part : c.subs != null ? c.subs : List.of(c)) {
      if (part.kind == Call.Kind.CREATE && part.sequential() && !part.prefixUnknown && prefix.equals(part.path)) return true;
    }
    return false;
  }

  /** The lowest free zxid above lo and c's floor, below z, that no other operation holds, or -1. */
  private long earlySlot(Call c, long lo, long z, Set<Long> taken, ZkChecker.Attempt a) {
    long floor = Math.max(lo, c.invoke == null ? 0 : floors.floor(c.invokeTime));
    for (long s = floor + 1, n = 0; s < z && n < 100_000; s++, n++) {
      if (slot(s, a) && !taken.contains(s)) return s;
    }
    return -1;
  }

  /**
   * The highest free zxid below z, above c's floor, that no other operation holds, or -1: next to the name, so that
   * the filling changes no counter a name below it saw.
   */
  private long fillSlot(Call c, long z, Set<Long> taken, ZkChecker.Attempt a) {
    long floor = c.invoke == null ? 0 : floors.floor(c.invokeTime);
    for (long s = z - 1, n = 0; s > floor && n < 100_000; s--, n++) {
      if (slot(s, a) && !taken.contains(s)) return s;
    }
    return -1;
  }

  /** True when c (or a sub-operation of its multi) creates a child of parent, and so takes one of its numbers. */
  private static boolean createsUnder(Call c, String parent) {
    for (Call part : c.subs != null ? c.subs : List.of(c)) {
      if (part.kind != Call.Kind.CREATE || part.path == null) continue;
      if (part.prefixUnknown ? part.path.equals(parent) : !part.path.equals("/") && ModelTree.parent(part.path).equals(parent)) return true;
    }
    return false;
  }

  /** A zxid an indeterminate operation may take: not a known write's, and not the epoch's zero counter. */
  private static boolean slot(long z, ZkChecker.Attempt a) {
    return (z & 0xffffffffL) != 0 && java.util.Arrays.binarySearch(a.knownZxids, z) < 0;
  }

  /** True when c changes the witness's paths, a parent or a child of one, or ends a witness's session. */
  private static boolean related(Call c, Set<String> paths, Set<Long> sessions) {
    if (c.kind == Call.Kind.SESSION_EXPIRED || c.kind == Call.Kind.CLOSE_SESSION) return c.session != null && sessions.contains(c.session);
    for (Call part : c.subs != null ? c.subs : List.of(c)) {
      for (String p : ExhaustiveSearch.pathsOf(part)) {
        if (paths.contains(p) || paths.contains(ModelTree.parent(p))) return true;
        for (String w : paths) if (!w.equals("/") && ModelTree.parent(w).equals(p)) return true;
        if (part.prefixUnknown || part.sequential()) {
          for (String w : paths) if (ModelTree.parent(w).equals(ModelTree.parent(p))) return true;
        }
      }
    }
    return false;
  }
}
