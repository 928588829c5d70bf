package io.zabkit.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides a violation of the first explanation by a complete search over the placements of the indeterminate
 * operations it could depend on. The only source of INVALID: a violation is CONFIRMED when every placement of
 * those operations has been ruled out; EXPLAINED when one placement removes every violation on its paths;
 * UNDECIDED (reported :unknown) when the budget ran out or an operation cannot be placed by this search.
 *
 * <p>The reduction, and why each step is sound (nothing that could explain the history is skipped):
 * <ol>
 * <li><b>Locality.</b> State is split into facets: a node's own state, and its children (list, cversion, pzxid).
 * S starts as the facets a violation's checks read ({@link #scope}) and is closed under "an indeterminate operation
 * changes a facet of S" ({@link #changes}: a set-data its node; a create or delete its node and its parent's
 * children; a session end its ephemerals; a sequential create any node of its prefix), adding the facets that decide
 * what the operation does ({@link #depends}: a create needs its parent's node, a sequential one its parent's
 * children, a delete its node's children). The operations so collected are R. Every check of the replay reads
 * only the facets of its scope, so a violation whose scope lies in S (an S-local violation) depends on
 * the placement of R alone: an operation outside R changes no state on S. A placement of R under which an S-local
 * violation remains therefore leaves it under every placement of the other operations.</li>
 * <li><b>Slots.</b> An indeterminate operation never took effect, or took effect at one free zxid (no known write
 * has it) above its floor: the largest zxid any operation that completed before it was invoked had seen (a
 * write's own, or a read's, a sync's, an event's: that zxid was committed before the invocation, and the leader
 * numbers later proposals higher). The points are every zxid an observation on S names (reply zxids, Stat
 * czxid/mzxid/pzxid, event zxids, known writes on S; every zxid of the history when S has a read without a zxid,
 * whose window the replay takes from all writes) and the floors. Two free zxids between the same consecutive points
 * are interchangeable: no check on S compares a zxid strictly between points, so moving an operation inside such a
 * gap (keeping its order with the other operations in the gap) changes no S-local check. A free point is its own
 * slot. The search therefore tries, per operation: never, each free point above its floor, each gap above its floor
 * (with every order of the operations sharing a gap).</li>
 * <li><b>Sweep and pruning.</b> Slots are decided in zxid order. After the slots up to point p are decided, the
 * replay runs with the undecided operations absent; an S-local violation whose witness operations all have zxids at
 * most p is fixed already, so the branch is cut. Why: every check compares the zxids its witness names (reply
 * zxids, Stat fields, event zxids, a session end's zxid) with the model state at those zxids, and the state at a
 * zxid at most p contains only operations at or below it, all decided; an undecided operation can only take a slot
 * above p, where no such check looks (a watch missed while its session lived stays missed whether the session ends
 * above p or never; an end at or below p is decided). A violation with a witness without a zxid (a read or event
 * without one, an operation left absent) is judged at the leaves only.</li>
 * <li><b>Memo of failed states.</b> When the sweep reaches point p, the replay of the current placement (undecided
 * operations absent) gives each path of S its log: every state, data event and child change in zxid order, as the
 * checks read them. Two branches at the same point with equal <i>memo keys</i> have the same future, so once one
 * has failed the other is cut ({@link Sweep#memoKey}). The key: the point's index; which operations are still
 * undecided; the counters the bound reads (operations placed, placed off the base placement); the operations
 * outside R evicted from their slots; and, per path of S, its log up to p in canonical form (a zxid strictly
 * inside a gap between points written as that gap; a state's cause only as "an operation of R" or the known write
 * it is). Why equal keys give equal futures: a later slot lies above p, so a future placement adds the same
 * operations, at the same zxids, to logs equal up to p; the model steps only on the state there, so the logs stay
 * equal after. Every check reads a path's state, events and changes through its log, and zxids only by comparing
 * them with points (step 2: two zxids of one gap are interchangeable; the order of operations on different paths
 * inside a gap changes nothing on S, which is why commuting operations are tried in one order), so it finds the
 * same violations with the same properties and, up to points, the same zxids (the cut and the leaf read nothing
 * else). A witness that is an operation of R lies in S (its changes and depends are), so which operation of R
 * caused a state changes no violation's locality. The evicted holders decide what lies outside S, hence whether
 * the findings overflow their cap. Not used when S has a read without a zxid: such a read may pick any zxid, and
 * the order of operations on different paths inside a gap is then visible to a session's monotonic choice. The
 * key holds a 128-bit digest of the logs, not the logs: a collision (odds about n^2 / 2^128 for n keys) is the one
 * way it could cut a branch it should not. A memo of failures only: a full memo is cleared, which only costs
 * replays. Keyed at points only: a key needs the replay of its placement, which the point's cut reads anyway;
 * inside a gap it would cost a replay of its own, and the logs there keep the order of the gap's operations, so
 * measured, it saved 282 of 3,724 replays of the 65-operation group of 5-server seed 3782023 and cost 18 more
 * than 168 on 1-server seed 3782023. At points only, the first three rounds of the latter took 1,440 replays,
 * not 2,262.</li>
 * </ol>
 */
public final class ExhaustiveSearch {
  /**
   * How much one history's search may cost. {@code steps} is the budget proper: operations replayed, summed over
   * every replay of the repair and the search (a replay of an n-operation history costs n). It is deterministic: the
   * same history gets the same verdict on an idle and on a loaded machine, and it scales with the history (a replay
   * of a million operations costs as much as a thousand replays of a thousand). {@code wallMillis} is only an outer
   * safety net against a pathological history; a verdict it cuts says so, since it depends on the machine.
   */
  public record Budget(long steps, long wallMillis) {
    /** 15 million operations replayed (about 20,000 replays of a 700-operation simulator history), a 10-minute safety net. */
    public static final Budget DEFAULT = new Budget(15_000_000, 600_000);

    public Budget {
      if (steps < 0 || wallMillis < 0) throw new IllegalArgumentException("a budget is not negative");
    }
  }

  enum Outcome { CONFIRMED, EXPLAINED, UNDECIDED }

  /** The decision on one group of violations (those sharing a closure S). */
  record Decision(Outcome outcome, Findings.Found violation, String reason, long replays, Map<Long, Long> placement, Set<String> paths) {}

  private static final Set<Property> SESSION_BOUND = Set.of(Property.WatchOrdering, Property.EphemeralLifetime);
  /** Violations searched per history (each costs a search); the rest stay undecided. */
  private static final boolean DEBUG = System.getenv("ZK_CHECK_DEBUG_SEARCH") != null;
  private static final int ROUNDS_MAX = 1000;
  /** Replays remembered per group (each holds a placement and its local violations). */
  private static final int CACHE_MAX = 8192;
  /** Failed memo keys remembered per sweep round (about 100 bytes each). */
  private static final int MEMO_MAX = 1 << 18;

  private final ZkChecker checker;
  private final History history;
  private final Budget budget;
  private long deadlineNanos;
  /** The placement of every indeterminate operation outside the group being searched. */
  private Map<Long, Long> base = Map.of();
  /** The facets and operations of every group explained so far. */
  private final Map<Set<String>, Set<Long>> explainedGroups = new HashMap<>();
  private int replays;
  /** What reads pin of the indeterminate operations (see {@link Propagation}), by key. */
  private Map<Long, Propagation.Pin> pins = Map.of();
  private long steps;
  /** The cost of one replay: the history's operations. */
  private long opsPerReplay = 1;
  /** Set when the wall-clock safety net, not the step budget, stopped the search. */
  private boolean wallTripped;

  private static final class OutOfBudget extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfBudget() {
      super(null, null, false, false);
    }
  }

  ExhaustiveSearch(ZkChecker checker, History history, Budget budget) {
    this.checker = checker;
    this.history = history;
    this.budget = budget;
  }

  /** The placement the searched groups' explanations add up to (each group started from the previous one's). */
  Map<Long, Long> base() {
    return base;
  }

  int replays() {
    return replays;
  }

  long steps() {
    return steps;
  }

  /** The floor of a slot: the largest zxid seen by an operation that completed strictly before a time. */
  interface Floors {
    long floor(long time);
  }

  /** The floors of a history (what {@link PlacementRepair} shares with the search). */
  static Floors floors(History history) {
    Facts facts = new Facts();
    new Pairer().run(history, facts::add);
    facts.index();
    return facts;
  }

  /** Facts of the history the search needs: observations by path, floors, ephemeral owners. */
  static final class Facts implements Floors {
    final Map<String, List<Long>> pointsByPath = new HashMap<>();
    final List<Long> allPoints = new ArrayList<>();
    final Set<String> zxidlessReadPaths = new HashSet<>();
    final List<long[]> seen = new ArrayList<>(); // {completion time, zxid} of operations that completed with a zxid
    final Map<Long, Set<String>> ephemeralsBySession = new HashMap<>();
    long[] seenTimes;
    long[] seenMaxZxid;

    void add(Call c) {
      if (c.subs != null) for (Call sub : c.subs) addObservation(sub, c.zxid);
      addObservation(c, c.zxid);
      if (c.zxid != null && c.outcome != Op.Type.INFO && c.completeTime != Call.NEVER) seen.add(new long[] {c.completeTime, c.zxid});
      // what a session end removes: the ephemerals its session may own, created by a create or by a multi's create
      // sub-op (an :info multi and its session's unreported end must be searched together: the end removes the
      // multi's ephemeral and leaves its persistent nodes)
      if (c.session != null && c.outcome != Op.Type.FAIL) {
        for (Call part : c.kind == Call.Kind.MULTI && c.subs != null ? c.subs : List.of(c)) {
          if (part.kind != Call.Kind.CREATE || !part.ephemeral()) continue;
          for (String p : pathsOf(part)) ephemeralsBySession.computeIfAbsent(c.session, k -> new HashSet<>()).add(p);
        }
      }
      if (c.kind.isRead() && c.outcome == Op.Type.OK && c.zxid == null && c.path != null) zxidlessReadPaths.add(c.path);
    }

    private void addObservation(Call c, Long zxid) {
      List<Long> zs = new ArrayList<>(4);
      if (zxid != null) zs.add(zxid);
      if (c.stat != null) {
        if (c.stat.czxid() != null) zs.add(c.stat.czxid());
        if (c.stat.mzxid() != null) zs.add(c.stat.mzxid());
        if (c.stat.pzxid() != null) zs.add(c.stat.pzxid());
      }
      if (zs.isEmpty()) return;
      allPoints.addAll(zs);
      for (String p : pathsOf(c)) pointsByPath.computeIfAbsent(p, k -> new ArrayList<>()).addAll(zs);
    }

    void index() {
      seen.sort(Comparator.comparingLong(a -> a[0]));
      seenTimes = new long[seen.size()];
      seenMaxZxid = new long[seen.size()];
      long max = 0;
      for (int i = 0; i < seen.size(); i++) {
        seenTimes[i] = seen.get(i)[0];
        max = Math.max(max, seen.get(i)[1]);
        seenMaxZxid[i] = max;
      }
    }

    /** The largest zxid seen by an operation that completed strictly before {@code time}; 0 when none. */
    @Override
    public long floor(long time) {
      int i = Arrays.binarySearch(seenTimes, time);
      if (i < 0) i = -i - 1;
      else while (i > 0 && seenTimes[i - 1] == time) i--;
      return i == 0 ? 0 : seenMaxZxid[i - 1];
    }
  }

  /** The facet of a node's own state: existence, data, version, czxid, mzxid, ephemeral owner. */
  static String node(String path) {
    return "n:" + path;
  }

  /** The facet of a node's children: the list, cversion, pzxid, num-children. */
  static String kids(String path) {
    return "c:" + path;
  }

  /** The paths of a set of facets. */
  static Set<String> paths(Set<String> facets) {
    Set<String> out = new HashSet<>();
    for (String f : facets) out.add(f.substring(2));
    return out;
  }

  private static boolean readsChildren(Call c) {
    if (c.kind == Call.Kind.GET_CHILDREN || c.kind == Call.Kind.DELETE || c.kind == Call.Kind.WATCH_EVENT) return true;
    return c.stat != null && (c.stat.pzxid() != null || c.stat.cversion() != null || c.stat.numChildren() != null);
  }

  /**
   * The facets whose model state a violation's checks read: each witness's node; its children when it lists them,
   * shows them in a Stat, deletes (not-empty) or is a watch event; for a create the parent's node (it must exist and
   * not be ephemeral) and, for a sequential create, the parent's children (the cversion names the node).
   */
  static Set<String> scope(Findings.Found g) {
    Set<String> out = new HashSet<>();
    for (Call c : g.witness()) {
      for (Call part : c.subs != null ? c.subs : List.of(c)) {
        for (String p : pathsOf(part)) {
          out.add(node(p));
          if (readsChildren(part) || readsChildren(c)) out.add(kids(p));
          if (part.kind == Call.Kind.CREATE) {
            out.add(node(ModelTree.parent(p)));
            if (part.sequential()) out.add(kids(ModelTree.parent(p)));
          }
        }
      }
    }
    return out;
  }

  /** The facets an indeterminate operation changes when it takes effect. */
  private static Set<String> changes(Call c, Facts facts) {
    Set<String> out = new HashSet<>();
    if (isSessionEnd(c)) {
      for (String e : facts.ephemeralsBySession.getOrDefault(c.session, Set.of())) {
        out.add(node(e));
        out.add(kids(ModelTree.parent(e)));
      }
      return out;
    }
    for (Call s : c.subs != null ? c.subs : List.of(c)) {
      if (s.path == null || s.kind == Call.Kind.CHECK) continue;
      out.add(node(s.path));
      if (changesChildren(s)) out.add(kids(ModelTree.parent(s.path)));
    }
    return out;
  }

  /** The facets that decide what an indeterminate operation does at its slot. */
  private static Set<String> depends(Call c) {
    Set<String> out = new HashSet<>();
    if (isSessionEnd(c)) return out;
    for (Call s : c.subs != null ? c.subs : List.of(c)) {
      if (s.path == null) continue;
      out.add(node(s.path));
      if (s.kind == Call.Kind.DELETE) out.add(kids(s.path));
      if (s.kind == Call.Kind.CREATE) {
        out.add(node(ModelTree.parent(s.path)));
        if (s.sequential()) out.add(kids(ModelTree.parent(s.path)));
      }
    }
    return out;
  }

  /** True when c changes a facet of S; a sequential create changes the node it names, any of its prefix. */
  private static boolean changesAny(Call c, Set<String> s, Facts facts) {
    for (String f : changes(c, facts)) if (s.contains(f)) return true;
    for (Call part : c.subs != null ? c.subs : List.of(c)) {
      if (part.kind != Call.Kind.CREATE || part.path == null || !(part.sequential() || part.prefixUnknown)) continue;
      for (String f : s) {
        if (!f.startsWith("n:")) continue;
        String p = f.substring(2);
        if (part.prefixUnknown ? ModelTree.parent(p).equals(part.path) : part.path.equals(InfoWrites.sequencePrefix(p))) return true;
      }
    }
    return false;
  }

  static Set<String> pathsOf(Call c) {
    Set<String> out = new HashSet<>();
    if (c.path != null) out.add(c.path);
    if (c.createdPath != null) out.add(c.createdPath);
    if (c.subs != null) for (Call s : c.subs) out.addAll(pathsOf(s));
    return out;
  }

  private static boolean isSessionEnd(Call c) {
    return c.kind == Call.Kind.SESSION_EXPIRED || c.kind == Call.Kind.CLOSE_SESSION;
  }

  /**
   * True when the order of a and b at two adjacent slots changes no state at any point: neither changes a facet the
   * other reads or changes, except one parent's child list, where adding or removing two different children commutes
   * (the list as a set, cversion and num-children as counts, pzxid as the later slot's zxid in either order). A session
   * end, or an operation whose node is not known (a sequential create names its node from the cversion), commutes
   * with nothing that touches its parent: those facets are in its depends, so the test below sees them.
   */
  static boolean commutes(Call a, Call b, Facts facts) {
    if (isSessionEnd(a) || isSessionEnd(b)) return false;
    Set<String> ca = changes(a, facts), cb = changes(b, facts), da = depends(a), db = depends(b);
    for (String f : ca) {
      if (db.contains(f)) return false;
      if (f.startsWith("n:") && cb.contains(f)) return false;
    }
    for (String f : cb) if (da.contains(f)) return false;
    return !unnamed(a) && !unnamed(b) || disjointParents(a, b);
  }

  private static boolean unnamed(Call c) {
    for (Call s : c.subs != null ? c.subs : List.of(c)) if (s.kind == Call.Kind.CREATE && (s.sequential() || s.prefixUnknown)) return true;
    return false;
  }

  /** True when no path of a shares a parent with, or is the parent of, a path of b. */
  private static boolean disjointParents(Call a, Call b) {
    Set<String> pa = new HashSet<>();
    for (String p : pathsOf(a)) {
      pa.add(p);
      pa.add(ModelTree.parent(p));
    }
    for (String p : pathsOf(b)) if (pa.contains(p) || pa.contains(ModelTree.parent(p))) return false;
    return true;
  }

  private static boolean changesChildren(Call c) {
    return c.kind == Call.Kind.CREATE || c.kind == Call.Kind.DELETE;
  }

  /** Decides every group of the first explanation's violations. */
  List<Decision> decide(ZkChecker.Attempt first, Map<Long, Long> proposed) {
    this.base = proposed;
    opsPerReplay = Math.max(1, first.ops);
    deadlineNanos = System.nanoTime() + budget.wallMillis() * 1_000_000;
    Facts facts = new Facts();
    Propagation propagation = new Propagation();
    new Pairer().run(history, c -> {
      facts.add(c);
      propagation.add(c);
    });
    for (Call c : first.indeterminate) {
      if (c.kind == Call.Kind.CREATE && c.ephemeral() && c.session != null && c.path != null) {
        facts.ephemeralsBySession.computeIfAbsent(c.session, k -> new HashSet<>()).add(c.path);
      }
    }
    facts.index();
    pins = propagation.pins(first.indeterminate, first.knownZxids, facts);
    if (DEBUG) System.err.println("search: " + pins.size() + " of " + first.indeterminate.size() + " indeterminate operations pinned by what reads saw");
    List<Decision> out = new ArrayList<>();
    Set<String> settled = new HashSet<>(); // violations decided CONFIRMED or UNDECIDED: not searched again
    Map<Set<String>, Decision> confirmedGroups = new HashMap<>();
    ZkChecker.Attempt cur = first;
    for (int round = 0; round < ROUNDS_MAX; round++) {
      Findings.Found f = null;
      for (Findings.Found g : cur.findings.kept()) {
        if (!settled.contains(identity(g))) {
          f = g;
          break;
        }
      }
      if (f == null) break;
      Decision d = decideOne(f, cur, facts, confirmedGroups);
      out.add(d);
      if (DEBUG) System.err.println("search: " + d.outcome() + " " + identity(f) + " " + f.explanation() + " S=" + d.paths() + " replays=" + d.replays() + " " + (d.reason() == null ? "" : d.reason()));
      if (d.outcome() == Outcome.EXPLAINED) {
        spend();
        cur = checker.attempt(history, base, false); // the next violation is one this explanation leaves
        if (DEBUG) System.err.println("search: after it " + cur.findings.total() + " violations");
      } else {
        settled.add(identity(f));
        if (d.outcome() == Outcome.CONFIRMED) confirmedGroups.putIfAbsent(d.paths(), d);
      }
    }
    return out;
  }

  /** A violation's identity across replays: its property and the :index of its witness operations. */
  private static String identity(Findings.Found f) {
    StringBuilder b = new StringBuilder(f.property().name());
    f.witness().stream().mapToLong(Call::key).sorted().forEach(k -> b.append(' ').append(k));
    return b.toString();
  }

  private Decision decideOne(Findings.Found f, ZkChecker.Attempt cur, Facts facts, Map<Set<String>, Decision> confirmedGroups) {
    if (steps >= budget.steps() || System.nanoTime() > deadlineNanos) {
      return new Decision(Outcome.UNDECIDED, f, "the search's budget (" + budgetText() + ") ran out before this violation", 0, Map.of(), Set.of());
    }
    Set<String> w = new TreeSet<>();
    for (Call c : f.witness()) w.addAll(pathsOf(c));
    if (w.isEmpty()) {
      return new Decision(Outcome.UNDECIDED, f, "its witness names no path, so no search can tie it to the operations that decide it", 0, Map.of(), w);
    }
    Set<String> s = new TreeSet<>(scope(f));
    List<Call> r = closure(s, f, cur, facts);
    // a group sharing an operation with one explained before is searched together with it: otherwise each
    // explanation could undo the other's, and the two searches would take turns forever
    for (boolean merged = true; merged; ) {
      merged = false;
      Set<Long> keys = new HashSet<>();
      for (Call c : r) keys.add(c.key());
      for (Map.Entry<Set<String>, Set<Long>> e : explainedGroups.entrySet()) {
        if (s.containsAll(e.getKey()) || e.getValue().stream().noneMatch(keys::contains)) continue;
        s.addAll(e.getKey());
        r = closure(s, f, cur, facts);
        merged = true;
      }
    }
    Decision known = confirmedGroups.get(s);
    // every placement of R(S) was ruled out already, under the property that search reported
    if (known != null && known.violation().property() == f.property()) return new Decision(Outcome.CONFIRMED, f, null, 0, Map.of(), s);
    return decideGroup(f, s, r, cur, facts);
  }

  /** Grows S (facets) to its closure and returns R, the indeterminate operations that change a facet of it. */
  private static List<Call> closure(Set<String> s, Findings.Found f, ZkChecker.Attempt first, Facts facts) {
    Set<Long> sessions = new HashSet<>();
    for (Call c : f.witness()) if (c.session != null) sessions.add(c.session);
    List<Call> r = new ArrayList<>();
    Set<Call> in = new HashSet<>();
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Call c : first.indeterminate) {
        if (in.contains(c)) continue;
        // a session end also decides what the session's watches may still receive and what it may still create
        boolean relevant = changesAny(c, s, facts) || (isSessionEnd(c) && sessions.contains(c.session) && SESSION_BOUND.contains(f.property()));
        if (!relevant) continue;
        in.add(c);
        r.add(c);
        if (s.addAll(changes(c, facts))) grew = true;
        if (s.addAll(depends(c))) grew = true;
      }
    }
    return r;
  }

  private Decision decideGroup(Findings.Found f, Set<String> s, List<Call> r, ZkChecker.Attempt first, Facts facts) {
    for (Call u : first.unplaceable) {
      boolean touches = u.path == null || changesAny(u, s, facts) || (u.prefixUnknown && s.contains(kids(u.path)));
      if (touches) {
        return new Decision(Outcome.UNDECIDED, f, "indeterminate operation #" + u.key() + " (" + u.kind + " " + u.path
            + ") touches its paths and this search cannot place it (a sequential create invoked with its parent's path)", 0, Map.of(), s);
      }
    }
    Sweep sweep = new Sweep(f, s, r, first, facts);
    try {
      Map<Long, Long> found = sweep.run();
      if (found != null) {
        base = found; // later groups start from this group's explanation (and keep clear of its slots)
        Set<Long> keys = new HashSet<>();
        for (Call c : r) keys.add(c.key());
        explainedGroups.put(new TreeSet<>(s), keys);
        return new Decision(Outcome.EXPLAINED, f, null, sweep.replays, found, s);
      }
      if (!sweep.always.contains(f.property()) && !sweep.ops.isEmpty()) {
        // cuts on other properties came first: sweep again cutting only on this one, to see whether it is always broken
        Sweep own = new Sweep(f, s, r, first, facts);
        own.only = f.property();
        if (own.run() == null && own.always.contains(f.property())) return new Decision(Outcome.CONFIRMED, f, null, sweep.replays + own.replays, Map.of(), s);
      }
      // every placement left an S-local violation; report it under a property every placement broke, if one did
      Findings.Found shown = sweep.always.contains(f.property()) || sweep.ops.isEmpty() ? f
          : sweep.always.isEmpty() ? null : sweep.firstRejection.get(sweep.always.iterator().next());
      if (shown == null) {
        // the history is still invalid: each placement breaks one of these properties, none breaks the same one
        java.util.EnumSet<Property> seen = java.util.EnumSet.copyOf(sweep.firstRejection.isEmpty() ? Set.of(f.property()) : sweep.firstRejection.keySet());
        return new Decision(Outcome.CONFIRMED, f, "each placement breaks one of " + seen + ", not always the same", sweep.replays, Map.of(), s);
      }
      return new Decision(Outcome.CONFIRMED, shown, null, sweep.replays, Map.of(), s);
    } catch (OutOfBudget e) {
      return new Decision(Outcome.UNDECIDED, f, "the exhaustive search over " + r.size() + " indeterminate operations on " + s
          + " ran out of budget (" + budgetText() + ")", sweep.replays, Map.of(), s);
    }
  }

  /** Charges one replay of the history ({@code ops} operations) to the budget. */
  private void spend() {
    assert opsPerReplay > 0 : "a replay costs the history's operations";
    replays++;
    steps += opsPerReplay;
    if (steps > budget.steps()) throw new OutOfBudget();
    if (System.nanoTime() > deadlineNanos) {
      wallTripped = true;
      throw new OutOfBudget();
    }
  }

  /** What ran out, in the user's terms: the deterministic step budget, or the wall-clock safety net (machine-dependent). */
  private String budgetText() {
    if (wallTripped) return "the wall-clock safety net of " + budget.wallMillis() / 1000 + " s tripped, after " + steps + " operations replayed; the verdict depends on the machine's speed";
    return budget.steps() + " operations replayed per history, " + replays + " replays";
  }

  /** What the future of a branch at a point depends on (class comment, step 4). */
  record MemoKey(int point, java.util.BitSet undecided, int placed, int deviating, List<Long> evicted, long logs1, long logs2) {}

  /** One group's sweep over the slots in zxid order (see the class comment, step 3). */
  private final class Sweep {
    final Findings.Found target;
    final Set<String> s;
    final List<Call> ops;
    final long[] floors;
    final long[] baseZ; // where the base placement has each operation (FORCED_ABSENT: nowhere), tried first
    final long[] points; // sorted, distinct
    final long[] known; // every known write's zxid, sorted
    final ZkChecker.Attempt first;
    final Map<Map<Long, Long>, Local> cache = new HashMap<>(); // forced placement -> its S-local violations
    /** When set, only a violation of this property cuts a branch (a second sweep, for attribution). */
    Property only;
    /** The properties every placement ruled out so far violated (on S). */
    final java.util.EnumSet<Property> always = java.util.EnumSet.allOf(Property.class);
    /** For each property, the first S-local violation of it that ruled out a placement (the reported witness). */
    final Map<Property, Findings.Found> firstRejection = new java.util.EnumMap<>(Property.class);
    final Map<Long, Long> placed = new LinkedHashMap<>();
    /** zxid -> key of an operation outside R that the base placement put there (evicted when an R operation needs the slot). */
    final Map<Long, Long> occupied = new HashMap<>();
    final boolean[] isPlaced;
    /** Per operation: what a read pins of it (it took effect, at or below a zxid, or exactly at one), else null. */
    final Propagation.Pin[] pinned;
    /** commute[a][b]: a and b change and read disjoint facets (up to one parent's child list), so their order in a gap changes nothing on S. */
    final boolean[][] commute;
    /** This round's bound (see {@link #run} and {@link #withinBound}), and whether it cut a branch. */
    int limit;
    boolean boundHit;
    /** Per operation: placed at a slot other than the base placement's; and how many placed operations are. */
    final boolean[] deviates;
    int deviatingPlaced;
    long replays;
    /** The keys of branches at a point that failed in this round (step 4); null when the memo is off. */
    final Set<MemoKey> failed;
    final Set<Long> inR = new HashSet<>();
    long memoHits;

    Sweep(Findings.Found target, Set<String> s, List<Call> ops, ZkChecker.Attempt first, Facts facts) {
      this.target = target;
      this.s = s;
      this.ops = ops;
      this.first = first;
      this.known = first.knownZxids;
      this.floors = new long[ops.size()];
      this.baseZ = new long[ops.size()];
      for (int k = 0; k < ops.size(); k++) baseZ[k] = base.getOrDefault(ops.get(k).key(), InfoWrites.FORCED_ABSENT);
      this.isPlaced = new boolean[ops.size()];
      this.deviates = new boolean[ops.size()];
      this.pinned = new Propagation.Pin[ops.size()];
      for (int k = 0; k < ops.size(); k++) pinned[k] = pins.get(ops.get(k).key());
      this.commute = new boolean[ops.size()][ops.size()];
      for (int a = 0; a < ops.size(); a++) {
        for (int b = a + 1; b < ops.size(); b++) commute[a][b] = commute[b][a] = commutes(ops.get(a), ops.get(b), facts);
      }
      TreeSet<Long> pts = new TreeSet<>();
      Set<String> onPaths = paths(s);
      boolean global = onPaths.stream().anyMatch(facts.zxidlessReadPaths::contains);
      if (global) {
        pts.addAll(facts.allPoints);
        for (long z : known) pts.add(z);
      } else {
        for (String p : onPaths) pts.addAll(facts.pointsByPath.getOrDefault(p, List.of()));
      }
      for (int i = 0; i < ops.size(); i++) {
        Call c = ops.get(i);
        floors[i] = c.invoke == null ? 0 : facts.floor(c.invokeTime);
        pts.add(floors[i]);
        if (pinned[i] != null && pinned[i].exact() > 0) pts.add(pinned[i].exact()); // its one slot must be a point to be tried
      }
      pts.add(0L);
      points = pts.stream().mapToLong(Long::longValue).toArray();
      for (Call c : ops) inR.add(c.key());
      failed = global ? null : new HashSet<>();
      for (Map.Entry<Long, Long> e : base.entrySet()) {
        if (!inR.contains(e.getKey()) && e.getValue() != InfoWrites.FORCED_ABSENT) occupied.put(e.getValue(), e.getKey());
      }
      assert points.length > 0 && points[0] == 0 : "the sweep starts below every slot";
    }

    /** A placement of every operation in R that leaves no violation on S, or null when every placement was ruled out. */
    Map<Long, Long> run() {
      if (ops.isEmpty()) {
        // nothing indeterminate touches S: the first explanation's replay is the only one, and it has the violation
        return null;
      }
      for (int k = 0; k < ops.size(); k++) {
        if (usePins() && pinned[k] != null && pinned[k].last() <= floors[k]) { // it had to take effect where it cannot
          pinCut(k);
          return null;
        }
      }
      // iterative deepening around two anchors: explanations where few :info writes took effect (most never reached
      // the leader), and explanations that differ from the base placement in few operations (limited discrepancy
      // search: the proposal is mostly right). A round keeps a branch while either count is within its bound, so a
      // wrong early choice no longer costs its whole subtree; a round the bound never cut is complete.
      for (int bound = 0; ; bound = Math.min(ops.size(), Math.max(1, bound * 2))) {
        limit = bound;
        boundHit = false;
        if (failed != null) failed.clear(); // a key holds the bound's counters, not the bound: one round's failures only
        Map<Long, Long> found = gap(0, points[0], -1);
        if (DEBUG) System.err.println("search: round " + bound + ": " + replays + " replays, " + memoHits + " memo hits" + (failed == null ? " (memo off)" : ""));
        if (found != null || !boundHit) return found;
        assert bound < ops.size() : "the bound cuts nothing once it admits every operation";
      }
    }

    private boolean free(long z) {
      return (z & 0xffffffffL) != 0 && Arrays.binarySearch(known, z) < 0;
    }

    /**
     * Decides gap (points[i], points[i+1]): place zero or more operations there (in every order, except that of two
     * operations that commute only the one with the smaller index goes first: the other order gives the same states
     * at every point), then move on. {@code last} is the operation placed last in this gap, -1 for none.
     */
    private Map<Long, Long> gap(int i, long lastUsed, int last) {
      long hi = i + 1 < points.length ? points[i + 1] : Long.MAX_VALUE;
      long next = nextFree(lastUsed, hi);
      // the base placement first (operations it put in this gap), then moving on, then every other operation here
      for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; next >= 0 && k < ops.size(); k++) {
          if (isPlaced[k] || floors[k] > points[i]) continue;
          if (last >= 0 && k < last && commute[k][last]) continue; // the order last, k is tried as k, last
          if (usePins() && pinned[k] != null && (pinned[k].exact() != 0 || !pinned[k].allows(next))) continue;
          boolean preferred = baseZ[k] > points[i] && baseZ[k] < hi;
          if (preferred != (pass == 0)) continue;
          place(k, next, !preferred);
          if (!withinBound(points[i] + 1)) {
            unplace(k, next);
            continue;
          }
          Map<Long, Long> found = gap(i, next, k);
          unplace(k, next);
          if (found != null) return found;
        }
        if (pass == 0) {
          Map<Long, Long> found = i + 1 >= points.length ? leaf() : pin(i + 1);
          if (found != null) return found;
        }
      }
      return null;
    }

    /** Decides point points[i]: when free, place none or one operation exactly there; then cut or go on. */
    private Map<Long, Long> pin(int i) {
      long p = points[i];
      if (stranded(p) || !withinBound(p)) return null;
      MemoKey key = memoKey(i);
      if (seenFailing(key)) return null;
      return failing(key, decidePoint(i, p));
    }

    /** True (a memo hit) when a branch with this key failed before in this round. */
    private boolean seenFailing(MemoKey key) {
      if (key == null || !failed.contains(key)) return false;
      memoHits++;
      return true;
    }

    /** Records a failed branch's key; returns what the branch found. */
    private Map<Long, Long> failing(MemoKey key, Map<Long, Long> found) {
      if (found != null || key == null) return found;
      if (failed.size() >= MEMO_MAX) failed.clear();
      failed.add(key);
      return null;
    }

    private Map<Long, Long> decidePoint(int i, long p) {
      // the base placement first (the operation it put exactly here), then nothing here, then every other operation
      for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; free(p) && k < ops.size(); k++) {
          if (isPlaced[k] || floors[k] >= p || (baseZ[k] == p) != (pass == 0)) continue;
          if (usePins() && pinned[k] != null && !pinned[k].allows(p)) continue;
          place(k, p, baseZ[k] != p);
          if (!withinBound(p)) {
            unplace(k, p);
            continue;
          }
          Map<Long, Long> found = cutAt(p) ? null : gap(i, p, -1);
          unplace(k, p);
          if (found != null) return found;
        }
        if (pass == 0 && !cutAt(p)) {
          Map<Long, Long> found = gap(i, p, -1);
          if (found != null) return found;
        }
      }
      return null;
    }

    /**
     * The smallest free zxid above {@code after} and below {@code hi} that no operation outside R holds, else the
     * smallest free one (its holder is evicted: it lies outside S, so no S-local check sees the difference), or -1.
     */
    private long nextFree(long after, long hi) {
      long held = -1;
      for (long z = after + 1, n = 0; z < hi && n < 100_000; z++, n++) {
        if (!free(z)) continue;
        if (!occupied.containsKey(z)) return z;
        if (held < 0) held = z;
      }
      return held;
    }

    /**
     * True when the branch is within this round's bound: at most {@code limit} operations placed, or at most
     * {@code limit} operations whose slot differs from the base placement's (placed elsewhere, or unplaced though the
     * sweep has passed their base slot, below {@code passed}). Notes when the bound cuts a branch.
     */
    private boolean withinBound(long passed) {
      if (placed.size() <= limit) return true;
      int deviating = deviatingPlaced;
      for (int k = 0; k < ops.size() && deviating <= limit; k++) {
        if (!isPlaced[k] && baseZ[k] != InfoWrites.FORCED_ABSENT && baseZ[k] < passed) deviating++;
      }
      if (deviating <= limit) return true;
      boundHit = true;
      return false;
    }

    private void place(int k, long z, boolean offBase) {
      isPlaced[k] = true;
      deviates[k] = offBase;
      if (offBase) deviatingPlaced++;
      placed.put(ops.get(k).key(), z);
    }

    private void unplace(int k, long z) {
      isPlaced[k] = false;
      if (deviates[k]) deviatingPlaced--;
      deviates[k] = false;
      Long was = placed.remove(ops.get(k).key());
      assert was != null && was == z : "unplace undoes the last place";
    }

    /** The current placement: every decided operation at its zxid, every other one absent. */
    private Map<Long, Long> forced() {
      Map<Long, Long> m = new java.util.TreeMap<>(base);
      for (Call c : ops) m.put(c.key(), placed.getOrDefault(c.key(), InfoWrites.FORCED_ABSENT));
      for (long z : placed.values()) {
        Long holder = occupied.get(z);
        if (holder != null) m.put(holder, InfoWrites.FORCED_ABSENT); // outside S: never took effect, for this replay
      }
      return m;
    }

    /** A zxid as the checks can tell it apart: a point (or 0, or a sentinel) as itself, one strictly inside a gap as the gap. */
    private long canonical(long z) {
      if (z <= 0 || z == Long.MAX_VALUE) return z;
      int i = Arrays.binarySearch(points, z);
      return i >= 0 ? z : i; // inside the gap below points[-i-1]: a negative number per gap
    }

    /** Per path of S, the digest of its canonical log up to and including each zxid it has an entry at. */
    private Map<String, LogDigest> digests(ModelTree tree) {
      Map<String, LogDigest> out = new HashMap<>();
      for (String path : paths(s)) {
        ModelTree.PathLog l = tree.log(path);
        java.util.TreeMap<Long, List<long[]>> items = new java.util.TreeMap<>();
        for (int j = 0; l != null && j < l.n; j++) {
          ModelTree.Snap x = l.snaps[j];
          long cause = x.cause == null ? 0 : inR.contains(x.cause.key()) ? 1 : 2 + x.cause.key(); // keys of known writes are >= 0
          items.computeIfAbsent(x.zxid, q -> new ArrayList<>()).add(new long[] {1, canonical(x.zxid), x.exists ? 1 : 0,
              text(Edn.write(x.data), 0x9E3779B97F4A7C15L), text(Edn.write(x.data), 0xC2B2AE3D27D4EB4FL), x.version, x.cversion, canonical(x.czxid), canonical(x.mzxid), canonical(x.pzxid),
              x.ephemeralOwner, x.numChildren, x.childHash, x.approx ? 1 : 0, x.bySessionEnd ? 1 : 0, cause});
        }
        for (int j = 0; l != null && j < l.nData; j++) {
          items.computeIfAbsent(l.dataChanges[j], q -> new ArrayList<>()).add(new long[] {2, canonical(l.dataChanges[j]), l.dataEvents[j]});
        }
        for (int j = 0; l != null && j < l.nChild; j++) items.computeIfAbsent(l.childChanges[j], q -> new ArrayList<>()).add(new long[] {3, canonical(l.childChanges[j])});
        LogDigest d = new LogDigest(new long[items.size()], new long[items.size()], new long[items.size()]);
        long h1 = 0x9E3779B97F4A7C15L, h2 = 0xC2B2AE3D27D4EB4FL;
        int j = 0;
        for (Map.Entry<Long, List<long[]>> e : items.entrySet()) {
          for (long[] item : e.getValue()) {
            for (long v : item) {
              h1 = mix(h1 ^ v, 0xFF51AFD7ED558CCDL);
              h2 = mix(h2 + v, 0xC4CEB9FE1A85EC53L);
            }
          }
          d.zxids()[j] = e.getKey();
          d.h1()[j] = h1;
          d.h2()[j++] = h2;
        }
        out.put(path, d);
      }
      return out;
    }

    /** A 64-bit digest of a text (the data as EDN): every character counts, not a 32-bit hash code. */
    private static long text(String t, long seed) {
      long h = seed ^ t.length();
      for (int k = 0; k < t.length(); k++) h = mix(h ^ t.charAt(k), 0xFF51AFD7ED558CCDL);
      return h;
    }

    private static long mix(long h, long m) {
      h *= m;
      return h ^ (h >>> 33);
    }

    /** The memo key of the branch at point points[i] (class comment, step 4), or null when the memo is off. */
    private MemoKey memoKey(int i) {
      if (failed == null) return null;
      Local l = evaluate(); // the replay the point's cut reads anyway: the key costs no replay of its own
      long p = points[i];
      long h1 = 0, h2 = 0;
      for (String path : new TreeSet<>(l.logs().keySet())) {
        LogDigest d = l.logs().get(path);
        int j = d.at(p);
        long a = j < 0 ? 0 : d.h1()[j], b = j < 0 ? 0 : d.h2()[j];
        h1 = mix(h1 ^ path.hashCode() ^ a, 0xFF51AFD7ED558CCDL);
        h2 = mix(h2 + path.hashCode() + b, 0xC4CEB9FE1A85EC53L);
      }
      java.util.BitSet undecided = new java.util.BitSet(ops.size());
      for (int k = 0; k < ops.size(); k++) if (!isPlaced[k]) undecided.set(k);
      List<Long> evicted = new ArrayList<>();
      for (long z : placed.values()) if (occupied.containsKey(z)) evicted.add(occupied.get(z));
      evicted.sort(null);
      assert placed.size() + undecided.cardinality() == ops.size() : "every operation is placed or undecided";
      return new MemoKey(i, undecided, placed.size(), deviatingPlaced, evicted, h1, h2);
    }

    /** One replay's S-local violations, and the zxid from which each is fixed. */
    /** {@code logs}: per path of S, its canonical log's digest after each zxid of it (step 4); null when the memo is off. */
    record Local(List<Findings.Found> found, long[] fixedAt, boolean unseen, Map<String, LogDigest> logs) {}

    /** A path's canonical log digested: after the entries at zxids[j] and every earlier one, the digest (h1[j], h2[j]). */
    record LogDigest(long[] zxids, long[] h1, long[] h2) {
      int at(long p) {
        int j = Arrays.binarySearch(zxids, p);
        return j >= 0 ? j : -j - 2;
      }
    }

    private Local evaluate() {
      Map<Long, Long> m = forced();
      Local hit = cache.get(m);
      if (hit != null) return hit;
      if (cache.size() >= CACHE_MAX) cache.clear(); // a memo, not a record: past this size it costs more heap (and GC) than replays
      spend();
      replays++;
      ZkChecker.Attempt a = checker.attempt(history, m, false);
      List<Findings.Found> found = new ArrayList<>();
      for (Findings.Found g : a.findings.kept()) {
        Set<String> w = scope(g);
        if (!w.isEmpty() && s.containsAll(w)) found.add(g);
      }
      long[] fixedAt = new long[found.size()];
      for (int i = 0; i < fixedAt.length; i++) fixedAt[i] = found.get(i).determinedAt();
      // past the cap, an unseen violation may be local: such a replay explains nothing (it is never a leaf's answer)
      hit = new Local(found, fixedAt, a.findings.overflowed(), failed == null ? null : digests(a.tree));
      cache.put(m, hit);
      return hit;
    }

    /**
     * Cuts when some S-local violation is fixed at or below p; records which properties every ruled-out
     * placement violated, so that a confirmation is reported under a property each placement breaks.
     */
    private boolean cutAt(long p) {
      Local l = evaluate();
      java.util.EnumSet<Property> here = java.util.EnumSet.noneOf(Property.class);
      for (int i = 0; i < l.fixedAt().length; i++) {
        if (l.fixedAt()[i] > p || (only != null && l.found().get(i).property() != only)) continue;
        here.add(l.found().get(i).property());
        firstRejection.putIfAbsent(l.found().get(i).property(), l.found().get(i));
      }
      if (here.isEmpty()) return false;
      always.retainAll(here);
      return true;
    }

    /** Pins apply unless this sweep cuts on one other property only (a pin cut stands for a LinearizableWrites read). */
    private boolean usePins() {
      return only == null || only == Property.LinearizableWrites;
    }

    /** True (and the branch is cut) when a pinned operation is still unplaced though no slot from p up allows it. */
    private boolean stranded(long p) {
      if (!usePins()) return false;
      for (int k = 0; k < ops.size(); k++) {
        if (!isPlaced[k] && pinned[k] != null && pinned[k].last() < p) {
          pinCut(k);
          return true;
        }
      }
      return false;
    }

    /** A branch cut by a pin: the read that pinned the operation is unexplained there (a LinearizableWrites violation). */
    private void pinCut(int k) {
      Call read = pinned[k].because();
      firstRejection.putIfAbsent(Property.LinearizableWrites, new Findings.Found(Property.LinearizableWrites, "read #" + read.key()
          + " saw what only :info operation #" + ops.get(k).key() + " could have written, and no placement of it there explains the rest",
          List.of(read, ops.get(k))));
      always.retainAll(java.util.EnumSet.of(Property.LinearizableWrites));
    }

    private Map<Long, Long> leaf() {
      if (stranded(Long.MAX_VALUE) || !withinBound(Long.MAX_VALUE)) return null;
      Local l = evaluate();
      if (l.found().isEmpty() && !l.unseen()) return forced();
      java.util.EnumSet<Property> here = java.util.EnumSet.noneOf(Property.class);
      for (Findings.Found g : l.found()) {
        here.add(g.property());
        firstRejection.putIfAbsent(g.property(), g);
      }
      if (l.unseen()) here = java.util.EnumSet.noneOf(Property.class); // unseen violations: any property
      always.retainAll(here);
      return null;
    }
  }
}
