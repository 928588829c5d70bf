package io.zabkit.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Proposes slots for :info creates, deletes and session ends from what consecutive listings of a parent show (a
 * listing read with a zxid is the parent's children at exactly that zxid). A child listed at z1 and missing at z2 was
 * removed in (z1, z2]; one missing at z1 and listed at z2 was created there. When no known write and no :info write
 * already placed there explains that change, the :info write invoked nearest before it that can (a delete of the
 * child, the end of its owner's session, a create of the child or a sequential create of its prefix) is put at the
 * lowest free zxid of the interval above its floor (an :info write mostly takes effect soon after its invocation).
 *
 * <p>Why: a pzxid names only the last child change before a read, and a busy parent's children change between any
 * two reads, so most :info child changes are seen by no Stat, only by the next listing; left out, every later listing
 * disagrees with the replay. Only a proposal, like the rest of {@link InfoWrites}: the exact replay judges it, so a
 * wrong guess costs violations of the proposal, never a wrong verdict.
 */
final class ListingInference {
  /** One listing: its zxid, its completion time, its children as ids of the parent's name table, sorted. */
  private record Listing(long zxid, long completeTime, int[] children) {}

  /** Per parent: the names seen (id = index) and the listings, in history order. */
  private static final class Parent {
    final Map<String, Integer> ids = new HashMap<>();
    final List<String> names = new ArrayList<>();
    final List<Listing> listings = new ArrayList<>();

    int id(String name) {
      Integer i = ids.get(name);
      if (i != null) return i;
      ids.put(name, names.size());
      names.add(name);
      return names.size() - 1;
    }
  }

  private final Map<String, Parent> parents = new HashMap<>();

  /** Per path: what replies said about its existence at a zxid, as three parallel growing arrays. */
  private static final class Facts {
    long[] zxids = new long[8];
    long[] times = new long[8];
    boolean[] present = new boolean[8];
    int n;

    void add(long zxid, long time, boolean there) {
      if (n == zxids.length) {
        zxids = Arrays.copyOf(zxids, n * 2);
        times = Arrays.copyOf(times, n * 2);
        present = Arrays.copyOf(present, n * 2);
      }
      zxids[n] = zxid;
      times[n] = time;
      present[n++] = there;
    }
  }

  private final Map<String, Facts> facts = new HashMap<>();

  /** Per session: the parents whose child watch it set with a listing read at a known zxid, and that zxid. */
  private final Map<Long, Map<String, Long>> childWatches = new HashMap<>();
  /** Per session: the paths whose data watch (getData or exists) it set with a read at a known zxid, and that zxid. */
  private final Map<Long, Map<String, Long>> dataWatches = new HashMap<>();
  /** The key of a path's data quiet intervals in {@link #quiet} (a parent's child intervals are keyed by the path itself). */
  private static String dataKey(String path) {
    return "\u0000data " + path;
  }
  /**
   * Per parent: intervals (set, fired) of zxids in which none of its children changed, strictly inside both ends: a
   * child watch set by a listing at zxid {@code set} fires for the first child change after it, and fired at
   * {@code fired} (ZooKeeper's Watcher contract; a reconnect's SetWatches may report a change late, so a reconnect
   * forgets the session's pending watches). Kept as a map from start to the largest end until {@link #place}.
   */
  private final Map<String, TreeMap<Long, Long>> quiet = new HashMap<>();
  /** The same intervals merged and sorted, per parent: starts and ends (built by {@link #place}). */
  private final Map<String, long[][]> quietSorted = new HashMap<>();

  /** A candidate and the interval (lo, hi] of zxids it must take, from the changes it explains. */
  private record Request(Call call, long lo, long hi, String named, int order, String parent) {}

  /** ZK_CHECK_DEBUG_CALLS=i,j: print where the listings put the operations invoked at those indexes (diagnostics). */
  private static final Set<Long> DEBUG = debugCalls();

  /** The invocation indexes ZK_CHECK_DEBUG_CALLS names; empty when it is unset. */
  static Set<Long> debugCalls() {
    String value = System.getenv("ZK_CHECK_DEBUG_CALLS");
    Set<Long> calls = new java.util.HashSet<>();
    if (value == null) return calls;
    for (String i : value.split(",")) {
      try {
        calls.add(Long.parseLong(i.trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("ZK_CHECK_DEBUG_CALLS must list invocation indexes like 12,40, got '" + value + "'");
      }
    }
    return calls;
  }

  private final Map<Call, Request> requests = new java.util.IdentityHashMap<>();
  private final Map<String, List<long[]>> requestedByPath = new HashMap<>();
  /** Per parent: the sequence numbers of the names requested so far, and how many :info creates were placed per zxid. */
  private final Map<String, TreeMap<Long, Long>> requestedNumbers = new HashMap<>();
  private final Map<String, TreeMap<Long, Integer>> placedCreates = new HashMap<>();
  /** Per parent: the sequence numbers known creates took, and their zxids (a name's number bounds its slot). */
  private final Map<String, TreeMap<Long, Long>> numbers = new HashMap<>();

  /**
   * Collects what an operation says about a node's existence at a zxid (pass 1): a read with its zxid (exists, get-data:
   * there or not); a known write (an ok create: absent just before its zxid, there at it; an ok delete: the reverse;
   * node-exists: there; no-node: absent); an ok listing with its zxid (its parent's children then).
   */
  void note(Call c) {
    noteWatch(c);
    if (c.zxid == null || c.path == null || c.subs != null || c.outcome == Op.Type.INFO) return;
    boolean noNode = "no-node".equals(c.error);
    switch (c.kind) {
      case EXISTS -> fact(c.path, c.zxid, c.completeTime, c.outcome == Op.Type.OK && Boolean.TRUE.equals(c.done.value()));
      case GET_DATA -> { if (c.outcome == Op.Type.OK || noNode) fact(c.path, c.zxid, c.completeTime, !noNode); }
      case SET_DATA -> { if (c.outcome == Op.Type.OK || noNode) fact(c.path, c.zxid, c.completeTime, !noNode); }
      case CREATE -> {
        if (c.outcome == Op.Type.OK && c.createdPath != null) {
          if (c.ephemeral() && c.session != null) ephemeralOwners.put(c.createdPath, c.session);
          fact(c.createdPath, c.zxid - 1, c.completeTime, false);
          fact(c.createdPath, c.zxid, c.completeTime, true);
        } else if ("node-exists".equals(c.error) && !c.sequential()) {
          fact(c.path, c.zxid, c.completeTime, true);
        }
      }
      case DELETE -> {
        if (c.outcome == Op.Type.OK) {
          fact(c.path, c.zxid - 1, c.completeTime, true);
          fact(c.path, c.zxid, c.completeTime, false);
        } else if (noNode) {
          fact(c.path, c.zxid, c.completeTime, false);
        }
      }
      default -> { }
    }
    if (c.kind != Call.Kind.GET_CHILDREN || c.outcome != Op.Type.OK) return;
    if (!(c.done.value() instanceof List<?> names)) return;
    Parent p = parents.computeIfAbsent(c.path, k -> new Parent());
    int[] ids = new int[names.size()];
    int n = 0;
    for (Object name : names) if (name instanceof String s) ids[n++] = p.id(s);
    ids = Arrays.copyOf(ids, n);
    Arrays.sort(ids);
    p.listings.add(new Listing(c.zxid, c.completeTime, ids));
  }

  /** Pairs a session's child watch with the event that fired it: the zxids between saw no child change (pass 1). */
  private void noteWatch(Call c) {
    if (c.session == null) return;
    if (c.kind == Call.Kind.CONNECT) { // a reconnect re-sets its watches: a change missed while away is reported late
      childWatches.remove(c.session);
      dataWatches.remove(c.session);
      return;
    }
    if (c.kind == Call.Kind.GET_CHILDREN && c.watch && c.outcome == Op.Type.OK && c.zxid != null && c.path != null) {
      childWatches.computeIfAbsent(c.session, k -> new HashMap<>()).putIfAbsent(c.path, c.zxid); // one watch per path
      return;
    }
    // a data watch (getData, or exists on a node that is there or not) fires for the first set-data, create or delete
    // of its path after it was set (ZooKeeper's Watcher contract, as for child watches)
    if ((c.kind == Call.Kind.GET_DATA || c.kind == Call.Kind.EXISTS) && c.watch && c.outcome == Op.Type.OK && c.zxid != null && c.path != null) {
      dataWatches.computeIfAbsent(c.session, k -> new HashMap<>()).putIfAbsent(c.path, c.zxid);
      return;
    }
    if (c.kind != Call.Kind.WATCH_EVENT || c.outcome != Op.Type.OK || c.zxid == null) return;
    if (!(c.done.value() instanceof Map<?, ?> m) || !(m.get(Keyword.of("event")) instanceof Keyword k)) return;
    String path = m.get(Keyword.of("path")) instanceof String p ? p : c.path;
    if (path == null) return;
    boolean child = InfoWrites.CHILD_CHANGE.equals(k.name());
    if (!child && !DATA_EVENTS.contains(k.name())) return;
    Map<String, Long> pending = (child ? childWatches : dataWatches).get(c.session);
    Long set = pending == null ? null : pending.remove(path);
    if (set != null && c.zxid > set + 1) quiet.computeIfAbsent(child ? path : dataKey(path), x -> new TreeMap<>()).merge(set, c.zxid, Math::max);
  }

  private static final Set<String> DATA_EVENTS = Set.of("node-data-changed", "node-created", "node-deleted");

  /** True when a data watch on {@code path} shows that the node was not set, created or deleted at zxid {@code z}. */
  boolean dataQuietAt(String path, long z) {
    return quietAt(dataKey(path), z);
  }

  /**
   * The quiet intervals alone (child and data watches), for slots chosen after the proposal (see
   * {@link ZkChecker#decidedAll}): true when an operation on {@code path} of this kind cannot take effect at z.
   */
  java.util.function.BiPredicate<Call, Long> quietForOperation() {
    sortQuiet();
    Map<String, long[][]> q = quietSorted; // (not the listings: the lambda outlives them)
    return (c, z) -> {
      if (c.path == null || c.multi != null) return false;
      if (c.kind == Call.Kind.SET_DATA) return quietIn(q, dataKey(c.path), z);
      if (c.kind == Call.Kind.CREATE || c.kind == Call.Kind.DELETE) {
        String path = c.namedPath != null ? c.namedPath : c.path;
        return quietIn(q, ModelTree.parent(path), z) || (!c.sequential() || c.namedPath != null) && quietIn(q, dataKey(path), z);
      }
      return false;
    };
  }

  /** True when a child watch on {@code parent} shows that no child of it changed at zxid {@code z}. */
  boolean quietAt(String parent, long z) {
    return quietIn(quietSorted, parent, z);
  }

  private static boolean quietIn(Map<String, long[][]> quietSorted, String parent, long z) {
    long[][] q = quietSorted.get(parent);
    if (q == null) return false;
    int i = Arrays.binarySearch(q[0], z);
    int last = i >= 0 ? i - 1 : -i - 2; // the last interval starting strictly below z
    return last >= 0 && z < q[1][last];
  }

  /** Merges each parent's quiet intervals into sorted disjoint ones (open at both ends). */
  private void sortQuiet() {
    for (Map.Entry<String, TreeMap<Long, Long>> e : quiet.entrySet()) {
      long[] lo = new long[e.getValue().size()], hi = new long[lo.length];
      int n = 0;
      for (Map.Entry<Long, Long> iv : e.getValue().entrySet()) {
        if (n > 0 && iv.getKey() + 1 < hi[n - 1]) { // overlaps the previous one (both open): one interval
          hi[n - 1] = Math.max(hi[n - 1], iv.getValue());
          continue;
        }
        lo[n] = iv.getKey();
        hi[n++] = iv.getValue();
      }
      quietSorted.put(e.getKey(), new long[][] {Arrays.copyOf(lo, n), Arrays.copyOf(hi, n)});
    }
  }

  /**
   * What the latest evidence strictly below {@code z} says about {@code path}'s existence: a reply about the path (see
   * {@link #note}) or a listing of its parent. Null when there is none. A delete that takes effect at z needs the node
   * just before z, a create needs it absent (else it fails: an error transaction that changes no child).
   */
  Boolean existedBefore(String path, long z) {
    long best = Long.MIN_VALUE;
    Boolean there = null;
    long[][] f = factsByZxid(path);
    int i = f == null ? -1 : lastBelow(f[0], z);
    if (i >= 0) {
      best = f[0][i];
      there = f[1][i] != 0;
    }
    Parent p = parents.get(ModelTree.parent(path));
    if (p == null) return there;
    Listing[] ls = listingsByZxid(ModelTree.parent(path), p);
    int at = firstAbove(ls, z - 1) - 1; // the last listing strictly below z
    if (at < 0 || ls[at].zxid <= best) return there;
    Integer id = p.ids.get(ModelTree.childName(path));
    return id != null && Arrays.binarySearch(ls[at].children, id) >= 0;
  }

  /**
   * The earliest evidence at or above {@code z} about {@code path}'s existence (a reply at that zxid or later, or a
   * listing of its parent), as {@link #existedBefore} the latest below: null when there is none.
   */
  Boolean existedAfter(String path, long z) {
    long best = Long.MAX_VALUE;
    Boolean there = null;
    long[][] f = factsByZxid(path);
    if (f != null) {
      int i = lastBelow(f[0], z) + 1; // the first fact at or above z
      if (i < f[0].length) {
        best = f[0][i];
        there = f[1][i] != 0;
      }
    }
    Parent p = parents.get(ModelTree.parent(path));
    if (p == null) return there;
    Listing[] ls = listingsByZxid(ModelTree.parent(path), p);
    int at = firstAbove(ls, z - 1); // the first listing at or above z
    if (at >= ls.length || ls[at].zxid >= best) return there;
    Integer id = p.ids.get(ModelTree.childName(path));
    return id != null && Arrays.binarySearch(ls[at].children, id) >= 0;
  }

  /** The session that created each ephemeral node a known create named (pass 1). */
  private final Map<String, Long> ephemeralOwners = new HashMap<>();

  /**
   * The reported ends without a zxid of the sessions owning an ephemeral child of {@code parent} that the latest
   * listing below {@code z} shows and {@code listed} (a listing at pzxid z) lacks: a session end removes its
   * ephemerals, one child change of the parent at the end's zxid.
   */
  List<Call> endsThatEmptied(String parent, long z, java.util.Collection<String> listed, InfoWrites info) {
    Parent p = parents.get(parent);
    if (p == null) return null;
    Listing[] ls = listingsByZxid(parent, p);
    int at = firstAbove(ls, z - 1) - 1;
    if (at < 0) return null;
    List<Call> out = null;
    for (int id : ls[at].children) {
      String child = p.names.get(id);
      if (listed.contains(child)) continue;
      String path = parent.equals("/") ? "/" + child : parent + "/" + child;
      Long owner = ephemeralOwners.get(path);
      List<Call> ends = owner == null ? info.endsOfInfoOwners(path) : java.util.Collections.singletonList(info.unknownEndOf(owner));
      for (Call end : ends) {
        if (end == null) continue;
        if (out == null) out = new ArrayList<>();
        if (!out.contains(end)) out.add(end);
      }
    }
    return out;
  }

  private final Map<String, Listing[]> byZxid = new HashMap<>();
  private final Map<String, long[][]> factsSorted = new HashMap<>();

  /** A path's facts sorted by zxid: zxids and 1 (there) or 0, computed once; null when it has none. */
  private long[][] factsByZxid(String path) {
    Facts f = facts.get(path);
    if (f == null) return null;
    return factsSorted.computeIfAbsent(path, k -> {
      Integer[] order = new Integer[f.n];
      for (int i = 0; i < f.n; i++) order[i] = i;
      Arrays.sort(order, (x, y) -> Long.compare(f.zxids[x], f.zxids[y]));
      long[][] out = new long[2][f.n];
      for (int i = 0; i < f.n; i++) {
        out[0][i] = f.zxids[order[i]];
        out[1][i] = f.present[order[i]] ? 1 : 0;
      }
      return out;
    });
  }

  /** The index of the last element of sorted {@code zs} strictly below {@code z}, or -1. */
  private static int lastBelow(long[] zs, long z) {
    int lo = 0, hi = zs.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (zs[mid] < z) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** A parent's listings sorted by zxid, computed once (the listings are complete after pass 1). */
  private Listing[] listingsByZxid(String parent, Parent p) {
    return byZxid.computeIfAbsent(parent, k -> {
      Listing[] a = p.listings.toArray(new Listing[0]);
      Arrays.sort(a, (x, y) -> Long.compare(x.zxid, y.zxid));
      return a;
    });
  }

  private void fact(String path, long zxid, long time, boolean there) {
    if (path.equals("/")) return;
    facts.computeIfAbsent(path, k -> new Facts()).add(zxid, time, there);
  }

  boolean isEmpty() {
    return parents.isEmpty() && facts.isEmpty();
  }

  /**
   * Places what the listings need. {@code writes}: the known writes, sorted by zxid; {@code taken}: zxids no :info
   * write may take (known writes, slots already given, zxids an observation names); {@code floor}: see
   * {@link ZkChecker.Floor}.
   */
  void place(List<Call> writes, InfoWrites info, java.util.function.LongPredicate taken, ZkChecker.Floor floor) {
    sortQuiet();
    factsSorted.clear(); // (place adds facts)
    // known child changes: path -> zxids at which a known write (or a known session end) created or removed it
    Map<String, List<Long>> changes = new HashMap<>();
    Map<Long, Long> knownEnd = new HashMap<>();
    for (Call w : writes) {
      if ((w.kind == Call.Kind.CLOSE_SESSION || w.kind == Call.Kind.SESSION_EXPIRED) && w.session != null) knownEnd.putIfAbsent(w.session, w.effectiveZxid());
    }
    Map<String, TreeMap<Long, Long>> ephemeralOwner = new HashMap<>(); // path -> (creation zxid -> session)
    for (Call w : writes) {
      for (Call part : w.subs != null ? w.subs : List.of(w)) {
        if (part.outcome == Op.Type.FAIL || w.outcome != Op.Type.OK) continue;
        String path = part.kind == Call.Kind.CREATE ? (part.createdPath != null ? part.createdPath : part.sequential() ? null : part.path)
            : part.kind == Call.Kind.DELETE ? part.path : null;
        if (path == null || (!parents.containsKey(ModelTree.parent(path)) && !facts.containsKey(path))) continue;
        changes.computeIfAbsent(path, k -> new ArrayList<>()).add(w.effectiveZxid());
        String prefix = part.kind == Call.Kind.CREATE ? InfoWrites.sequencePrefix(path) : null;
        if (prefix != null && part.sequential()) {
          numbers.computeIfAbsent(ModelTree.parent(path), k -> new TreeMap<>()).put(ModelTree.sequenceOf(path, prefix), w.effectiveZxid());
        }
        if (part.kind == Call.Kind.CREATE && part.ephemeral() && w.session != null) {
          ephemeralOwner.computeIfAbsent(path, k -> new TreeMap<>()).put(w.effectiveZxid(), w.session);
          Long end = knownEnd.get(w.session);
          if (end != null) changes.get(path).add(end);
        }
      }
    }
    for (List<Long> zs : changes.values()) zs.sort(null);
    java.util.Set<Long> given = new java.util.HashSet<>();
    for (Map.Entry<String, Parent> e : new TreeMap<>(parents).entrySet()) {
      Parent p = e.getValue();
      List<Listing> ls = new ArrayList<>(p.listings);
      ls.sort((a, b) -> Long.compare(a.zxid, b.zxid));
      for (int i = 1; i < ls.size(); i++) {
        Listing a = ls.get(i - 1), b = ls.get(i);
        if (a.zxid == b.zxid) continue;
        diff(a.children, b.children, id -> changed(e.getKey(), p.names.get(id), false, a, b, changes, ephemeralOwner, info, taken, given, floor));
        diff(b.children, a.children, id -> changed(e.getKey(), p.names.get(id), true, a, b, changes, ephemeralOwner, info, taken, given, floor));
      }
    }
    List<String> paths = new ArrayList<>(facts.keySet());
    paths.sort(null); // the order of placements must not depend on hashing
    for (String path : paths) {
      // a sequential name did not exist before its parent's counter reached its number: absent at the known create
      // numbered just below it (a node created and deleted between two listings is seen by its delete alone)
      String prefix = InfoWrites.sequencePrefix(path);
      TreeMap<Long, Long> known = prefix == null ? null : numbers.get(ModelTree.parent(path));
      Map.Entry<Long, Long> below = known == null ? null : known.lowerEntry(ModelTree.sequenceOf(path, prefix));
      if (below != null) facts.get(path).add(below.getValue(), 0, false);
    }
    // a listing is a fact about every child it could name: the listings nearest before and after each of a path's
    // facts say whether it was there then (a node created and deleted between two listings, which the diff of
    // consecutive listings never sees: its known create, then its absence from the next listing, say it was deleted)
    Map<String, Listing[]> sorted = new HashMap<>();
    for (String path : paths) {
      Parent p = parents.get(ModelTree.parent(path));
      if (p == null) continue;
      Listing[] ls = sorted.computeIfAbsent(ModelTree.parent(path), k -> {
        Listing[] a = p.listings.toArray(new Listing[0]);
        Arrays.sort(a, (x, y) -> Long.compare(x.zxid, y.zxid));
        return a;
      });
      Integer id = p.ids.get(ModelTree.childName(path));
      Facts f = facts.get(path);
      for (int i = 0, n = f.n; i < n; i++) {
        int at = firstAbove(ls, f.zxids[i]);
        for (int j : new int[] {at - 1, at}) {
          if (j < 0 || j >= ls.length || ls[j].zxid == f.zxids[i]) continue;
          f.add(ls[j].zxid, ls[j].completeTime, id != null && Arrays.binarySearch(ls[j].children, id) >= 0);
        }
      }
    }
    for (String path : paths) facts(path, facts.get(path), changes, ephemeralOwner, info, taken, given, floor);
    // slots by earliest deadline first: for unit jobs with release times and deadlines, giving each in turn (by
    // interval end) the lowest free slot of its interval places them all whenever any assignment can
    List<Request> byEnd = new ArrayList<>(requests.values());
    byEnd.sort((x, y) -> x.hi != y.hi ? Long.compare(x.hi, y.hi) : x.lo != y.lo ? Long.compare(x.lo, y.lo) : Integer.compare(x.order, y.order));
    for (Request r : byEnd) {
      for (long s = r.lo + 1, n = 0; s <= r.hi && n < 100_000; s++, n++) {
        if ((s & 0xffffffffL) == 0 || taken.test(s) || given.contains(s) || quietAt(r.parent, s)) continue; // (counter 0 of an epoch: no transaction)
        String node = r.named != null ? r.named : r.call.path != null && !r.call.sequential() ? r.call.path : null;
        if (node != null && dataQuietAt(node, s)) continue; // a data watch on the node saw no create or delete there
        given.add(s);
        if (DEBUG.contains(r.call.invokeIndex())) System.err.println("listing request #" + r.call.invokeIndex() + " (" + Findings.hex(r.lo) + ", " + Findings.hex(r.hi) + "] " + r.named + " at " + Findings.hex(s));
        info.placeAt(r.call, s, r.named);
        r.call.slotLo = r.lo;
        r.call.slotHi = r.hi;
        String parent = r.parent;
        r.call.slotAlternatives = z -> !quietAt(parent, z) && (node == null || !dataQuietAt(node, z));
        break;
      }
    }
  }

  /** A path's facts in zxid order: each change between two of them that nothing placed yet. */
  private void facts(String path, Facts f, Map<String, List<Long>> changes, Map<String, TreeMap<Long, Long>> ephemeralOwner,
      InfoWrites info, java.util.function.LongPredicate taken, java.util.Set<Long> given, ZkChecker.Floor floor) {
    Integer[] order = new Integer[f.n];
    for (int i = 0; i < f.n; i++) order[i] = i;
    Arrays.sort(order, (x, y) -> Long.compare(f.zxids[x], f.zxids[y]));
    for (int k = 1; k < order.length; k++) {
      int i = order[k - 1], j = order[k];
      if (f.present[i] == f.present[j] || f.zxids[i] == f.zxids[j]) continue;
      Listing a = new Listing(f.zxids[i], f.times[i], null), b = new Listing(f.zxids[j], f.times[j], null);
      changed(ModelTree.parent(path), ModelTree.childName(path), f.present[j], a, b, changes, ephemeralOwner, info, taken, given, floor);
    }
  }

  /** True when some zxid in (lo, hi] is neither taken nor counter 0 of an epoch (searched from hi down, bounded). */
  static boolean freeSlot(long lo, long hi, java.util.function.LongPredicate taken) {
    for (long s = hi, n = 0; s > lo && n < 100_000; s--, n++) {
      if ((s & 0xffffffffL) != 0 && !taken.test(s)) return true;
    }
    return false;
  }

  /** The index of the first listing (sorted by zxid) whose zxid is above {@code z}. */
  private static int firstAbove(Listing[] ls, long z) {
    int lo = 0, hi = ls.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ls[mid].zxid <= z) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Calls {@code sink} with every id in sorted {@code x} that sorted {@code y} lacks. */
  private static void diff(int[] x, int[] y, java.util.function.IntConsumer sink) {
    int j = 0;
    for (int id : x) {
      while (j < y.length && y[j] < id) j++;
      if (j >= y.length || y[j] != id) sink.accept(id);
    }
  }

  private void changed(String parent, String child, boolean created, Listing a, Listing b, Map<String, List<Long>> changes,
      Map<String, TreeMap<Long, Long>> ephemeralOwner, InfoWrites info, java.util.function.LongPredicate taken,
      java.util.Set<Long> given, ZkChecker.Floor floor) {
    String path = parent.equals("/") ? "/" + child : parent + "/" + child;
    List<Long> changedAt = changes.get(path);
    if (changedAt != null) {
      int i = java.util.Collections.binarySearch(changedAt, a.zxid + 1);
      int at = i >= 0 ? i : -i - 1;
      if (at < changedAt.size() && changedAt.get(at) <= b.zxid) return; // a known write explains it
    }
    if (info.placedChangeOf(path, a.zxid, b.zxid)) return;
    for (long[] q : requestedByPath.getOrDefault(path, List.of())) {
      if (q[2] == (created ? 1 : 0) && q[0] < b.zxid && a.zxid < q[1]) return; // the same change, seen by another pair
    }
    Call best = null;
    long bestFloor = Long.MIN_VALUE;
    List<Call> candidates = new ArrayList<>(created ? info.createsOf(path) : info.deletesOf(path));
    // a delete of the node explains its removal alone; its owner's session end removes every ephemeral of the
    // session at once, which other reads may contradict: the end only when no delete can
    candidates.removeIf(c -> c.resolvedZxid >= 0 || c.infoConsumed || c.forced || c.forcedAbsent || c.invokeTime > b.completeTime
        || floor.at(c.invokeTime) >= b.zxid);
    if (!created && candidates.isEmpty()) {
      TreeMap<Long, Long> owners = ephemeralOwner.get(path);
      Map.Entry<Long, Long> owner = owners == null ? null : owners.floorEntry(a.zxid);
      Call end = owner == null ? null : info.unknownEndOf(owner.getValue());
      if (end != null) candidates.add(end);
    }
    // the parent's counter names sequential children in zxid order: a sequential create of this name took effect
    // between the known creates numbered around it
    long seqLo = a.zxid, seqHi = b.zxid;
    String prefix = created ? InfoWrites.sequencePrefix(path) : null;
    TreeMap<Long, Long> known = prefix == null ? null : numbers.get(parent);
    long number = -1;
    if (known != null) {
      number = ModelTree.sequenceOf(path, prefix);
      Map.Entry<Long, Long> below = known.lowerEntry(number), above = known.higherEntry(number);
      if (below != null) seqLo = Math.max(seqLo, below.getValue());
      if (above != null) seqHi = Math.min(seqHi, above.getValue() - 1);
      if (below != null && above != null) {
        // the counter between two known creates has above - below - 1 numbers, each taken by one create under the
        // parent: when :info creates placed there (an unnamed one too: placed by a pzxid) and the names already
        // requested fill them all, this name is one of those, and another create in the interval would count twice
        long numbers = above.getKey() - below.getKey() - 1;
        long filled = requestedNumbers.computeIfAbsent(parent, k -> new TreeMap<>()).subMap(below.getKey(), false, above.getKey(), false).size();
        for (int n : placedCreates.computeIfAbsent(parent, info::placedCreatesUnder).subMap(below.getValue(), false, above.getValue(), false).values()) filled += n;
        if (filled >= numbers) return;
      }
    }
    for (Call c : candidates) {
      // a create or delete makes one change: one already asked for elsewhere is taken (a session end removes all its
      // ephemerals at once, so it may explain several, in the intersection of their intervals)
      if (requests.containsKey(c) && c.kind != Call.Kind.CLOSE_SESSION && c.kind != Call.Kind.SESSION_EXPIRED) continue;
      if (c.resolvedZxid >= 0 || c.infoConsumed || c.forced || c.forcedAbsent || c.invokeTime > b.completeTime) continue;
      long f = floor.at(c.invokeTime);
      if (f >= (c.sequential() ? seqHi : b.zxid)) continue; // it was invoked after its slot's last zxid committed
      // nor after the last zxid of its interval that no known write or named observation holds: the nearest
      // candidate whose interval has no free slot would leave the change unplaced (a counter number no create took)
      if (!freeSlot(Math.max(c.sequential() ? seqLo : a.zxid, f), c.sequential() ? seqHi : b.zxid, z -> taken.test(z) || quietAt(parent, z))) continue;
      if (f > bestFloor) {
        best = c;
        bestFloor = f;
      }
    }
    if (best == null) return;
    long lo = Math.max(best.sequential() ? seqLo : a.zxid, bestFloor), hi = best.sequential() ? seqHi : b.zxid;
    Request r = requests.get(best);
    if (r == null) {
      requests.put(best, new Request(best, lo, hi, created && best.sequential() ? path : null, requests.size(), parent));
    } else { // one session end for several of its ephemerals: it must fit every interval
      requests.put(best, new Request(best, Math.max(r.lo, lo), Math.min(r.hi, hi), r.named, r.order, r.parent));
    }
    requestedByPath.computeIfAbsent(path, k -> new ArrayList<>()).add(new long[] {a.zxid, b.zxid, created ? 1 : 0});
    if (number >= 0 && best.sequential()) requestedNumbers.computeIfAbsent(parent, k -> new TreeMap<>()).put(number, number);
  }
}
