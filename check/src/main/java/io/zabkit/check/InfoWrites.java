package io.zabkit.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes that ended in :info: they may or may not have taken effect. Each is resolved from later observations:
 * a read whose Stat shows a zxid no known write has places it (its data must match); a version or sequence
 * number that jumps, or an outcome that only makes sense if it happened, consumes it. An :info write nothing
 * ever needed is assumed not to have happened, which is always a valid choice for a write nobody observed.
 */
final class InfoWrites {
  /** An observation of a child change under its path (from a parent Stat's pzxid): an :info create or delete fits it. */
  static final String CHILD_CHANGE = "node-children-changed";
  /** The value of a forced placement that says the operation never took effect. */
  static final long FORCED_ABSENT = Long.MIN_VALUE;

  private final Map<String, List<Call>> byPath = new HashMap<>();
  private final Map<String, List<Call>> createsByParent = new HashMap<>();
  private final Map<String, List<Call>> byParent = new HashMap<>();
  private final Map<Long, Call> unknownSessionEnds = new HashMap<>();
  /** :info sequential creates whose completion repeats the invoked path: indexed once the whole history is read. */
  private final List<Call> unsettled = new ArrayList<>();
  /** Invoked paths of ok sequential creates whose reply named a prefix under that path (the path was the parent). */
  private final java.util.Set<String> parentNamingInvocations = new java.util.HashSet<>();
  private int count;
  /**
   * Which rules pick candidates: false, the first fit in invocation order (one observation per zxid); true, the
   * candidate that fits every observation of the zxid and was invoked nearest before it (see {@link #resolve}).
   */
  private final boolean nearestFirst;

  InfoWrites() {
    this(false);
  }

  /**
   * What replies and listings said about each path's existence (nearest-first only; null otherwise): a create or delete
   * is a candidate for a change at z only when the evidence just below z leaves it something to change.
   */
  ListingInference existence;

  InfoWrites(boolean nearestFirst) {
    this.nearestFirst = nearestFirst;
    this.versions = nearestFirst ? new VersionFacts() : null;
  }

  /**
   * Per parent, the numbers known sequential creates were given, by zxid (nearest-first only): every create under a
   * parent takes the next number of its counter, so between two known creates numbered n and n + 1 no create can
   * have taken effect (README, "the numbers between two known creates of a parent are a count").
   */
  private final Map<String, java.util.TreeMap<Long, Long>> knownNumbers = new HashMap<>();

  /** True when the known creates of {@code parent} numbered around zxid {@code z} leave no number for a create at z. */
  private boolean noNumberLeft(String parent, long z) {
    java.util.TreeMap<Long, Long> known = knownNumbers.get(parent);
    if (known == null) return false;
    Map.Entry<Long, Long> below = known.lowerEntry(z), above = known.higherEntry(z);
    return below != null && above != null && above.getValue() - below.getValue() <= 1;
  }

  /** The watches' quiet intervals (see {@link ListingInference#quietForOperation}); none for first fit. */
  java.util.function.BiPredicate<Call, Long> quiet = (c, z) -> false;

  /** The versions replies showed (nearest-first only): a conditional set-data is a candidate only where it can succeed. */
  private final VersionFacts versions;

  /** The floor of an invocation time (see {@link ZkChecker.Floor}): the rules prefer the candidate invoked nearest. */
  private java.util.function.LongUnaryOperator floorAt = t -> 0;
  /** The zxid of the write being replayed: where a rule that consumes an :info write needed it (a hint for the search). */
  long replayZxid = -1;
  /** Every indeterminate write and session end without a zxid, in history order, for the :placements map. */
  private final List<Call> all = new ArrayList<>();
  private final List<Call> forcedEnds = new ArrayList<>();
  /**
   * The end of a session that owns ephemerals and whose end the history never reports: a session may expire without
   * its client ever learning it (ZooKeeper's programmer's guide: the cluster expires a session it has not heard
   * from within the timeout; the client is told only if it reconnects). Only the search places these.
   */
  private final List<Call> implicitEnds = new ArrayList<>();

  /** Notes an ok sequential create whose invocation named its parent and whose reply named the prefix under it. */
  void noteCompleted(Call c) {
    if (versions != null) versions.note(c);
    if (versions != null && c.kind == Call.Kind.CREATE && c.sequential() && c.outcome == Op.Type.OK && c.zxid != null && c.createdPath != null) {
      String prefix = sequencePrefix(c.createdPath);
      long seq = prefix == null ? -1 : ModelTree.sequenceOf(c.createdPath, prefix);
      if (seq >= 0) knownNumbers.computeIfAbsent(ModelTree.parent(c.createdPath), k -> new java.util.TreeMap<>()).put(c.zxid, seq);
    }
    if (c.kind != Call.Kind.CREATE || !c.sequential() || c.outcome != Op.Type.OK || c.invoke == null) return;
    String invoked = c.invoke.path();
    if (invoked != null && !invoked.equals(c.path) && ModelTree.parent(c.path).equals(invoked)) parentNamingInvocations.add(invoked);
  }

  void add(Call c) {
    all.add(c);
    if (c.kind == Call.Kind.SESSION_EXPIRED || c.kind == Call.Kind.CLOSE_SESSION) {
      if (c.session != null) unknownSessionEnds.putIfAbsent(c.session, c);
      return;
    }
    if (c.kind == Call.Kind.MULTI) {
      // each write sub-op can be matched by an observation; a match places the whole multi (all or nothing)
      count++;
      for (Call sub : c.subs) if (sub.kind != Call.Kind.CHECK) index(sub);
      return;
    }
    if (c.path == null) return;
    count++;
    if (c.kind == Call.Kind.CREATE && c.sequential()) unsettled.add(c);
    else index(c);
  }

  /**
   * Indexes the :info sequential creates. One invoked with a path that ok sequential creates of the history show to
   * be their parent (the client named the prefix only in ok replies) counts for that parent's sequence numbers
   * alone: taken as a prefix, it would name a node the client never asked for.
   */
  private void settle() {
    for (Call c : unsettled) {
      String invoked = c.invoke != null ? c.invoke.path() : null;
      if (c.path.equals(invoked) && parentNamingInvocations.contains(c.path)) {
        c.prefixUnknown = true;
        createsByParent.computeIfAbsent(c.path, k -> new ArrayList<>()).add(c);
      } else {
        index(c);
      }
    }
    unsettled.clear();
  }

  private void index(Call c) {
    byPath.computeIfAbsent(c.path, k -> new ArrayList<>()).add(c);
    byParent.computeIfAbsent(ModelTree.parent(c.path), k -> new ArrayList<>()).add(c);
    if (c.kind == Call.Kind.CREATE) createsByParent.computeIfAbsent(ModelTree.parent(c.path), k -> new ArrayList<>()).add(c);
  }

  /**
   * Where this explanation put each indeterminate operation, keyed by the :index of its invocation (of its line for
   * a completion-only session end): the zxid it was placed at, or {@link Result#ABSENT} when nothing needed it.
   * One consumed to explain a version or sequence jump happened at a zxid this resolution does not name: left out.
   */
  java.util.Map<Long, Object> placements() {
    java.util.Map<Long, Object> out = new java.util.TreeMap<>();
    for (Call c : all) {
      long z = c.multi == null ? c.resolvedZxid : c.multi.resolvedZxid;
      if (c.zxid != null && isSessionEnd(c)) continue; // reported with its zxid: not indeterminate
      if (z >= 0) out.put(c.key(), z);
      else if (!consumed(c)) out.put(c.key(), Result.ABSENT);
    }
    return out;
  }

  /**
   * The indeterminate writes the placement search may put at a slot: not consumed, replayable at a
   * zxid (a path, or a multi of paths; a session end and a sequential create whose name is unknown are left out).
   */
  List<Call> placeable() {
    List<Call> out = new ArrayList<>();
    out.addAll(implicitEnds);
    for (Call c : all) {
      if (isSessionEnd(c)) {
        // the first end reported for its session, without a zxid: its ephemerals go at the slot
        if (c.session != null && unknownSessionEnds.get(c.session) == c && c.zxid == null) out.add(c);
        continue;
      }
      if (c.invoke == null || c.prefixUnknown) continue;
      if (c.kind != Call.Kind.MULTI && c.path == null) continue;
      // a sequential create is placeable too: the replay names its node from the parent's cversion at the slot
      if (consumed(c)) continue;
      out.add(c); // (one an observation placed may still be moved: first fit can pick the wrong observation)
    }
    return out;
  }

  /**
   * The indeterminate operations {@link #placeable()} leaves out and the exhaustive search therefore cannot decide:
   * sequential creates whose prefix is unknown (the client named only the parent), and writes without a path.
   * Repeated reports of one session's end are not among them (the first one stands for the session).
   */
  List<Call> unplaceable() {
    List<Call> out = new ArrayList<>();
    for (Call c : all) {
      if (isSessionEnd(c)) continue;
      if (c.invoke == null || c.prefixUnknown || (c.kind != Call.Kind.MULTI && c.path == null)) out.add(c);
    }
    return out;
  }

  private static boolean isSessionEnd(Call c) {
    return c.kind == Call.Kind.SESSION_EXPIRED || c.kind == Call.Kind.CLOSE_SESSION;
  }

  /** Adds the unreported end of a session that owns ephemerals (see {@link #implicitEnds}); its key is negative. */
  void addImplicitEnd(Call end) {
    assert end.key() < 0 && isSessionEnd(end) : "an implicit end has no history line";
    implicitEnds.add(end);
  }

  /** The non-multi :info creates that would make {@code path}: of the path itself, or sequential ones of its prefix. */
  List<Call> createsOf(String path) {
    List<Call> out = new ArrayList<>();
    for (Call c : byPath.getOrDefault(path, List.of())) if (c.kind == Call.Kind.CREATE && c.multi == null && !c.sequential()) out.add(c);
    String prefix = sequencePrefix(path);
    if (prefix != null) for (Call c : byPath.getOrDefault(prefix, List.of())) if (c.kind == Call.Kind.CREATE && c.multi == null && c.sequential()) out.add(c);
    return out;
  }

  /** The non-multi :info deletes of {@code path}. */
  List<Call> deletesOf(String path) {
    List<Call> out = new ArrayList<>();
    for (Call c : byPath.getOrDefault(path, List.of())) if (c.kind == Call.Kind.DELETE && c.multi == null) out.add(c);
    return out;
  }

  private Map<String, List<Call>> endingCreates;

  /**
   * The reported ends without a zxid of the sessions whose :info ephemeral create may have made {@code path} (a create
   * of the path, or a sequential one of its prefix, invoked before the end): its owner when no known create names it.
   */
  List<Call> endsOfInfoOwners(String path) {
    if (endingCreates == null) {
      endingCreates = new HashMap<>();
      for (Call c : all) {
        if (c.kind != Call.Kind.CREATE || !c.ephemeral() || c.session == null || c.path == null || unknownEndOf(c.session) == null) continue;
        endingCreates.computeIfAbsent(c.path, k -> new ArrayList<>()).add(c);
      }
    }
    List<Call> out = new ArrayList<>();
    String prefix = sequencePrefix(path);
    for (String key : prefix == null ? List.of(path) : List.of(path, prefix)) {
      for (Call c : endingCreates.getOrDefault(key, List.of())) {
        if (key.equals(prefix) != c.sequential()) continue;
        Call end = unknownEndOf(c.session);
        if (end.invokeTime > c.invokeTime && !out.contains(end)) out.add(end);
      }
    }
    return out;
  }

  /** The end of {@code session} the history reports without a zxid, or null. */
  Call unknownEndOf(long session) {
    Call end = unknownSessionEnds.get(session);
    return end != null && end.zxid == null ? end : null;
  }

  /** True when an :info create or delete of {@code path} is already placed in (lo, hi]. */
  boolean placedChangeOf(String path, long lo, long hi) {
    List<Call> all = new ArrayList<>(byPath.getOrDefault(path, List.of()));
    String prefix = sequencePrefix(path);
    if (prefix != null) for (Call c : byPath.getOrDefault(prefix, List.of())) if (path.equals(c.namedPath)) all.add(c);
    for (Call c : all) {
      long z = c.multi == null ? c.resolvedZxid : c.multi.resolvedZxid;
      if ((c.kind == Call.Kind.CREATE || c.kind == Call.Kind.DELETE) && z > lo && z <= hi) return true;
    }
    return false;
  }

  /**
   * Per zxid, how many of the :info creates under {@code parent} (a multi's sub-op at its multi's zxid) this
   * resolution has placed there: each took one number of the parent's counter.
   */
  java.util.TreeMap<Long, Integer> placedCreatesUnder(String parent) {
    java.util.TreeMap<Long, Integer> out = new java.util.TreeMap<>();
    for (Call c : createsByParent.getOrDefault(parent, List.of())) {
      long z = c.multi == null ? c.resolvedZxid : c.multi.resolvedZxid;
      if (z >= 0) out.merge(z, 1, Integer::sum);
    }
    return out;
  }

  /** Puts an indeterminate operation at zxid {@code z} (a sequential create naming {@code named}, or null). */
  void placeAt(Call c, long z, String named) {
    assert c.multi == null && c.resolvedZxid < 0 : "placed once, and never a multi's sub-op";
    c.resolvedZxid = z;
    c.namedPath = named;
    if (isSessionEnd(c)) forcedEnds.add(c);
  }

  /** Session ends the search put at a slot: replayed in zxid order with the writes. */
  void forEachForcedEnd(java.util.function.Consumer<Call> sink) {
    forcedEnds.forEach(sink);
  }

  private static boolean sequentialCreate(Call c) {
    if (c.kind == Call.Kind.CREATE && c.sequential()) return true;
    if (c.subs != null) for (Call sub : c.subs) if (sub.kind == Call.Kind.CREATE && sub.sequential()) return true;
    return false;
  }

  private static boolean consumed(Call c) {
    if (c.infoConsumed) return true;
    if (c.subs != null) for (Call sub : c.subs) if (sub.infoConsumed) return true;
    return false;
  }

  int size() {
    return count;
  }

  /** Every :info write that an observation placed at a zxid. */
  void forEachResolved(java.util.function.Consumer<Call> sink) {
    java.util.Set<Call> multis = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (List<Call> list : byPath.values()) {
      for (Call c : list) {
        if (c.resolvedZxid < 0) continue;
        if (c.multi == null) sink.accept(c);
        else if (multis.add(c.multi)) sink.accept(c.multi);
      }
    }
  }

  /**
   * True when an :info write invoked before {@code w} completed touches {@code path}, its parent or its
   * children: it may have changed what {@code w} found, so a mismatch there is not reported (lenient).
   */
  boolean pendingAround(Call w, String path, boolean ephemeralThere) {
    for (List<Call> list : java.util.Arrays.asList(byPath.get(path), byPath.get(ModelTree.parent(path)), byParent.get(path))) {
      if (list == null) continue;
      for (Call c : list) if (c.resolvedZxid < 0 && !c.infoConsumed && !c.forced && c.invokeTime < w.completeTime && c.multi != w) return true;
    }
    return ephemeralThere && hasUnknownSessionEnds(); // its owner's session may have ended unreported
  }

  /** Places :info writes at the zxids that reads or watch events observed but no known write explains. */
  void resolve(Map<Long, List<Observation>> observed, java.util.function.LongPredicate knownZxid) {
    resolve(observed, knownZxid, Map.of(), t -> 0);
  }

  /**
   * As {@link #resolve(Map, java.util.function.LongPredicate)}, after first putting the writes the placement search
   * chose ({@code forced}: invocation :index to zxid) at their slots. {@code floorAt} gives, for an invocation time,
   * the largest zxid an operation completed before it had shown: an operation invoked then takes effect above it.
   *
   * <p>Zxids are taken in increasing order, and each gets the candidate that fits every observation of it (a children
   * event and a node-created event at one zxid name one create; a listing whose parent's pzxid is the zxid says which
   * child changed there: a create of a listed child or a delete of an unlisted one), among those the one invoked
   * nearest before it (the largest floor below the zxid; an :info write mostly takes effect soon after its
   * invocation). Only a proposal: the exact replay judges it.
   */
  void resolve(Map<Long, List<Observation>> observed, java.util.function.LongPredicate knownZxid, Map<Long, Long> forced,
      java.util.function.LongUnaryOperator floorAt) {
    this.floorAt = floorAt;
    settle();
    for (Call c : forced.isEmpty() ? List.<Call>of() : placeable()) {
      Long z = forced.get(c.key());
      if (z == null) continue;
      c.forced = true;
      if (c.subs != null) for (Call sub : c.subs) sub.forced = true;
      if (z == FORCED_ABSENT) {
        c.forcedAbsent = true;
        if (c.subs != null) for (Call sub : c.subs) sub.forcedAbsent = true;
        continue;
      }
      c.resolvedZxid = z;
      if (c.subs != null) for (Call sub : c.subs) sub.resolvedZxid = z;
      if (isSessionEnd(c)) forcedEnds.add(c);
    }
    if (count == 0) return;
    if (!nearestFirst) {
      firstFit(observed, knownZxid);
      return;
    }
    long[] zs = new long[observed.size()];
    int n = 0;
    for (long z : observed.keySet()) zs[n++] = z;
    java.util.Arrays.sort(zs);
    // zxids whose observations show data first: the data names the write (as Elle propagates from unique values),
    // where an event or a bare Stat fits any candidate of the path and, taken first, could take the named one
    // then those an event or a Stat names a path at (node-created, node-deleted, data changed, a czxid), and last those
    // only a child change of a parent names (a children event, a pzxid): it fits any create or delete under the parent
    for (int pass = 0; pass < 3; pass++) {
      for (long z : zs) {
        if (knownZxid.test(z) || specificity(observed.get(z)) != pass) continue;
        resolveAt(z, observed.get(z));
      }
    }
  }

  /** 0: an observation of the zxid shows data; 1: one names the changed path; 2: only child changes of a parent. */
  private static int specificity(List<Observation> os) {
    if (showsData(os)) return 0;
    for (Observation o : os) if (!CHILD_CHANGE.equals(o.event)) return 1;
    return 2;
  }

  private static boolean showsData(List<Observation> os) {
    for (Observation o : os) if (o.data != null && o.event == null && !o.creation) return true;
    return false;
  }

  /** Gives zxid {@code z} the candidate that fits its observations best (see {@link #resolve}). */
  private void resolveAt(long z, List<Observation> os) {
    long before = Long.MAX_VALUE;
    for (Observation o : os) before = Math.min(before, o.completeTime);
    Call best = null;
    String bestNamed = null;
    int bestScore = 0;
    long bestFloor = Long.MIN_VALUE;
    for (Observation o : os) {
      boolean children = CHILD_CHANGE.equals(o.event);
      String prefix = children || !(o.creation || "node-created".equals(o.event)) ? null : sequencePrefix(o.path);
      // a listing whose pzxid is z and that lacks an ephemeral present just before: its owner's end is a candidate too
      List<Call> ends = children && o.children != null && existence != null ? existence.endsThatEmptied(o.path, z, o.children, this) : null;
      for (List<Call> list : java.util.Arrays.asList(children ? byParent.get(o.path) : byPath.get(o.path), prefix == null ? null : byPath.get(prefix), ends)) {
        if (list == null) continue;
        for (Call c : list) {
          if (c.resolvedZxid >= 0 || c.infoConsumed || c.forcedAbsent || c.invokeTime > before) continue;
          long floor = floorAt.applyAsLong(c.invokeTime);
          if (floor >= z) continue; // it was invoked after zxid z was already committed
          if (!couldChange(c, z, o)) continue;
          int score = 0;
          String named = null;
          for (Observation each : os) {
            String nm = list == ends ? (CHILD_CHANGE.equals(each.event) && each.path.equals(o.path) ? "" : null) : accepts(c, each);
            if (nm == null) continue;
            score++;
            if (!nm.isEmpty()) named = nm;
          }
          // the evidence just after z counts too, at half an observation: a create whose node the next reply or
          // listing shows absent (a delete whose node it shows there) needs another change soon after to fit it
          score = 2 * score - (contradictedAfter(c, z) ? 1 : 0);
          // on a tie, a write without an expected version before a conditional one: the conditional one may have
          // failed on another version (an error transaction changes nothing), the other cannot fail on an existing node
          boolean surer = best != null && floor == bestFloor && best.expectedVersion >= 0 && c.expectedVersion < 0;
          if (score > bestScore || (score == bestScore && score > 0 && (floor > bestFloor || surer))) {
            best = c;
            bestScore = score;
            bestFloor = floor;
            bestNamed = named;
          }
        }
      }
    }
    if (best == null) return;
    best.resolvedZxid = z;
    best.namedPath = bestNamed;
    if (best.multi != null) {
      best.multi.resolvedZxid = z;
      for (Call sibling : best.multi.subs) sibling.resolvedZxid = z;
    }
  }

  private boolean contradictedAfter(Call c, long z) {
    if (existence == null || c.multi != null || c.path == null || c.sequential()) return false;
    if (c.kind == Call.Kind.CREATE) return Boolean.FALSE.equals(existence.existedAfter(c.path, z));
    if (c.kind == Call.Kind.DELETE) return Boolean.TRUE.equals(existence.existedAfter(c.path, z));
    return false;
  }

  /**
   * False when the latest evidence below {@code z} (see {@link ListingInference#existedBefore}) shows that {@code c}
   * would change nothing there: a delete of a node already gone, a create of a node already there, a conditional
   * set-data on a version the node's Stats rule out at z (see {@link VersionFacts}; each fails, an error transaction,
   * and changes nothing an observation could show). Sequential creates and multis are not judged (their names are not known here).
   */
  private boolean couldChange(Call c, long z, Observation o) {
    if (c.multi != null || c.path == null) return true;
    if (quiet.test(c, z)) return false; // a watch set before z and fired after it saw no such change at z
    if (c.kind == Call.Kind.SET_DATA && c.expectedVersion >= 0 && versions != null) return versions.couldSucceed(c.path, z, c.expectedVersion);
    // a create that would succeed takes a number of its parent's counter: none is left between consecutive known ones
    // (one that fails on an existing node takes none, and changes nothing an observation could name)
    if (c.kind == Call.Kind.CREATE && !c.prefixUnknown && noNumberLeft(ModelTree.parent(c.path), z)) return false;
    if (existence == null) return true;
    if (c.kind == Call.Kind.DELETE) return !Boolean.FALSE.equals(existence.existedBefore(c.path, z));
    if (c.kind == Call.Kind.CREATE && !c.sequential()) return !Boolean.TRUE.equals(existence.existedBefore(c.path, z));
    if (c.kind == Call.Kind.CREATE && o.children != null && CHILD_CHANGE.equals(o.event)) {
      // a sequential create at the parent's pzxid z made a child the listing shows and nothing showed before z
      String prefix = ModelTree.childName(c.path), parent = ModelTree.parent(c.path);
      for (String listed : o.children) {
        if (!listed.startsWith(prefix) || listed.length() != prefix.length() + 10) continue;
        if (!Boolean.TRUE.equals(existence.existedBefore(parent.equals("/") ? "/" + listed : parent + "/" + listed, z))) return true;
      }
      return false;
    }
    return true;
  }

  /** The first-fit rules: per zxid its first observation, the first candidate in invocation order that fits it. */
  private void firstFit(Map<Long, List<Observation>> observed, java.util.function.LongPredicate knownZxid) {
    for (Map.Entry<Long, List<Observation>> e : observed.entrySet()) {
      long z = e.getKey();
      if (knownZxid.test(z)) continue;
      Observation o = e.getValue().get(0);
      boolean children = CHILD_CHANGE.equals(o.event);
      if (place(children ? byParent.get(o.path) : byPath.get(o.path), o, z, children, null)) continue;
      // a sequential create is indexed by the prefix it was invoked with: a creation that names prefix + number
      // places an :info sequential create of that prefix (the replay checks the number against the parent's cversion)
      String prefix = children || !(o.creation || "node-created".equals(o.event)) ? null : sequencePrefix(o.path);
      if (prefix != null) place(byPath.get(prefix), o, z, false, o.path);
    }
  }

  /** Places the first candidate that fits the observation at {@code z}; {@code named} is the sequential name seen. */
  private static boolean place(List<Call> candidates, Observation o, long z, boolean children, String named) {
    if (candidates == null) return false;
    for (Call c : candidates) {
      if (c.resolvedZxid >= 0 || c.infoConsumed || c.forcedAbsent || c.invokeTime > o.completeTime) continue;
      if (named != null ? !(c.kind == Call.Kind.CREATE && c.sequential() && c.multi == null) : !fits(c, o, children)) continue;
      c.resolvedZxid = z;
      c.namedPath = named;
      if (c.multi != null) {
        c.multi.resolvedZxid = z;
        for (Call sibling : c.multi.subs) sibling.resolvedZxid = z;
      }
      return true;
    }
    return false;
  }

  /**
   * Whether an :info write (or, for a multi's sub-op, one of its write sub-ops) could have made the change an
   * observation saw: null when not; the sequential name it would have created when the observation names one; else
   * the empty string.
   */
  private static String accepts(Call c, Observation o) {
    for (Call part : c.multi != null ? c.multi.subs : List.of(c)) {
      if (part.kind == Call.Kind.CHECK || part.path == null) continue;
      String nm = acceptsPart(part, o);
      if (nm != null) return nm;
    }
    return null;
  }

  private static String acceptsPart(Call c, Observation o) {
    boolean seqCreate = c.kind == Call.Kind.CREATE && c.sequential();
    if (CHILD_CHANGE.equals(o.event)) {
      if ((c.kind != Call.Kind.CREATE && c.kind != Call.Kind.DELETE) || !ModelTree.parent(c.path).equals(o.path)) return null;
      if (o.children == null) return "";
      // the parent's pzxid is this zxid and the listing was read at or after it: the child changed here is listed
      // when created, unlisted when deleted
      String child = ModelTree.childName(c.path);
      if (seqCreate) {
        for (String listed : o.children) if (listed.startsWith(child) && listed.length() == child.length() + 10) return "";
        return null;
      }
      boolean listed = o.children.contains(child);
      return c.kind == Call.Kind.CREATE == listed ? "" : null;
    }
    String prefix = o.creation || "node-created".equals(o.event) ? sequencePrefix(o.path) : null;
    if (seqCreate) return prefix != null && prefix.equals(c.path) && c.multi == null ? o.path : null;
    return c.path.equals(o.path) && fits(c, o, false) ? "" : null;
  }

  /** The prefix of a sequential name (path ending in ten digits), or null. */
  static String sequencePrefix(String path) {
    int n = path.length();
    if (n < 11) return null;
    for (int i = n - 10; i < n; i++) if (!Character.isDigit(path.charAt(i))) return null;
    return path.substring(0, n - 10);
  }

  private static boolean fits(Call c, Observation o, boolean children) {
    if (children) return c.kind == Call.Kind.CREATE || c.kind == Call.Kind.DELETE;
    if (o.event != null) {
      return switch (o.event) {
        case "node-data-changed" -> c.kind == Call.Kind.SET_DATA;
        case "node-created" -> c.kind == Call.Kind.CREATE && !c.sequential();
        case "node-deleted" -> c.kind == Call.Kind.DELETE;
        default -> false;
      };
    }
    if (o.creation) return c.kind == Call.Kind.CREATE && !c.sequential();
    return (c.kind == Call.Kind.SET_DATA || (c.kind == Call.Kind.CREATE && !c.sequential())) && Objects.equals(c.data, o.data);
  }

  /** A zxid seen in a Stat (mzxid, or czxid when {@code creation}), with what was read there. */
  record Observation(String path, Object data, boolean creation, long completeTime, String event, java.util.Set<String> children) {
    Observation(String path, Object data, boolean creation, long completeTime, String event) {
      this(path, data, creation, completeTime, event, null);
    }
  }

  private static boolean usable(Call c, long before, Call.Kind kind) {
    return !c.infoConsumed && !c.forcedAbsent && c.resolvedZxid < 0 && c.invokeTime < before && (kind == null || c.kind == kind);
  }

  /** Any :info sequential create (consumed or not) invoked before {@code before}: it may name its node later. */
  private Call anySequentialCreate(List<Call> list, long before) {
    if (list == null) return null;
    return nearest(list, c -> c.resolvedZxid < 0 && !c.forcedAbsent && c.invokeTime < before && c.kind == Call.Kind.CREATE && c.sequential());
  }

  /**
   * Of the candidates {@code ok} accepts that can have taken effect below the write being replayed (their floor is
   * below its zxid), the one invoked nearest before it (the largest floor; the later in history order on a tie): an
   * :info write mostly takes effect soon after its invocation, and a rule that takes the oldest candidate hands a
   * write that never happened the slot of one that did.
   */
  private Call nearest(List<Call> list, java.util.function.Predicate<Call> ok) {
    if (!nearestFirst) {
      for (Call c : list) if (ok.test(c)) return c;
      return null;
    }
    Call best = null;
    long bestFloor = Long.MIN_VALUE;
    for (Call c : list) {
      if (!ok.test(c)) continue;
      long f = floorAt.applyAsLong(c.invokeTime);
      if (replayZxid >= 0 && f >= replayZxid) continue;
      if (f >= bestFloor) {
        best = c;
        bestFloor = f;
      }
    }
    return best;
  }

  private Call take(List<Call> list, long before, Call.Kind kind) {
    if (list == null) return null;
    Call c = nearest(list, x -> usable(x, before, kind));
    if (c == null) return null;
    c.infoConsumed = true;
    c.consumedAt = replayZxid;
    return c;
  }

  /**
   * Consumes n :info set-datas that take the node from {@code fromVersion} to {@code fromVersion + n}: each must
   * be unconditional or expect the version it would apply to. Returns the last one, or null (nothing consumed).
   */
  Call consumeWrites(String path, long n, long before, long fromVersion, long aboveZxid) {
    List<Call> list = byPath.get(path);
    if (list == null) return null;
    List<Call> chosen = new ArrayList<>();
    for (long v = fromVersion; v < fromVersion + n; v++) {
      Call pick = null;
      for (Call c : list) {
        if (usable(c, before, Call.Kind.SET_DATA) && !chosen.contains(c) && (c.expectedVersion == -1 || c.expectedVersion == v)
            && (!nearestFirst || replayZxid < 0 || floorAt.applyAsLong(c.invokeTime) < replayZxid)) { // (it must fit below the write)
          pick = c;
          if (c.expectedVersion == v) break; // prefer the one that names this version
        }
      }
      if (pick == null) return null;
      chosen.add(pick);
    }
    for (Call c : chosen) {
      c.infoConsumed = true;
      c.consumedAt = replayZxid;
      c.consumedAbove = aboveZxid;
    }
    return chosen.isEmpty() ? null : chosen.get(chosen.size() - 1);
  }

  /**
   * Takes n :info creates under the parent (they took the sequence numbers of a gap), in invocation order. A
   * sequential one is consumed (its node, if any, is named by whoever observes it). A plain one stays usable to
   * explain its own node later: which of several candidates filled the gap is a guess, and its node's path is
   * known, so nothing is created here; it only no longer counts for another gap or cversion increment.
   */
  List<Call> consumeChildCreates(String parent, long n, long before) {
    List<Call> list = createsByParent.get(parent);
    if (list == null) return null;
    List<Call> out = new ArrayList<>();
    java.util.Set<Call> chosen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    while (out.size() < n) { // the n invoked nearest before the create that showed the gap
      Call c = nearest(list, x -> usable(x, before, Call.Kind.CREATE) && !x.numberTaken && !chosen.contains(x));
      if (c == null) return null;
      chosen.add(c);
      out.add(c);
    }
    if (nearestFirst) out.sort((a, b) -> Long.compare(a.invokeTime, b.invokeTime)); // they take the gap's numbers in invocation order
    for (Call c : out) {
      c.numberTaken = true;
      c.numberBefore = before;
      c.consumedAt = replayZxid;
      if (c.sequential()) c.infoConsumed = true;
    }
    return out;
  }

  /**
   * A plain :info create placed by inference (an outcome needs its node) that took no number of a sequence gap.
   * Which candidates filled a gap was a guess in invocation order ({@link #consumeChildCreates}): if this one could
   * have filled it (invoked before the create that showed the gap completed), it takes the number of a plain
   * candidate guessed there whose node nothing ever needed, which is set free. Otherwise its creation would be
   * counted a second time in the parent's cversion. True when it took a number.
   */
  boolean takeGuessedNumber(Call w) {
    if (w.numberTaken || w.sequential() || w.outcome != Op.Type.INFO || w.resolvedZxid >= 0) return false;
    List<Call> list = createsByParent.get(ModelTree.parent(w.path));
    if (list == null) return false;
    for (Call c : list) {
      if (c != w && c.numberTaken && !c.sequential() && !c.infoConsumed && c.resolvedZxid < 0 && w.invokeTime < c.numberBefore) {
        c.numberTaken = false;
        w.numberTaken = true;
        return true;
      }
    }
    return false;
  }

  /** An ephemeral whose owner's session ended at an unknown zxid: end it now, if that explains things. */
  private boolean endUnknownSession(ModelTree tree, ModelTree.Snap node, long z, Call w) {
    if (!node.exists || node.ephemeralOwner == 0) return false;
    Call end = unknownSessionEnds.get(node.ephemeralOwner);
    if (end == null || end.resolvedZxid >= 0 || end.forced) return false;
    // a close-session cannot take effect before it was invoked (an expiry event only says it happened by then)
    if (end.invoke != null && end.invokeTime >= w.completeTime) return false;
    end.resolvedZxid = z;
    tree.endSession(end, node.ephemeralOwner, z, true);
    return true;
  }

  boolean explainsCreateOutcome(ModelTree tree, Call w, long z, String name, String modelError) {
    ModelTree.Snap node = tree.now(name);
    if (w.outcome == Op.Type.OK && "node-exists".equals(modelError)) {
      if (endUnknownSession(tree, node, z, w)) return true;
      Call del = take(byPath.get(name), w.completeTime, Call.Kind.DELETE);
      if (del != null) {
        tree.remove(name, z, del, false);
        return true;
      }
    }
    if ("no-children-for-ephemerals".equals(w.error) && "no-node".equals(modelError)) {
      // the parent was there and ephemeral: an :info ephemeral create of it
      String parentPath = ModelTree.parent(name);
      List<Call> list = byPath.get(parentPath);
      String grandparent = ModelTree.parent(parentPath);
      if (list != null && tree.now(grandparent).exists) {
        for (Call cr : list) {
          if (usable(cr, w.completeTime, Call.Kind.CREATE) && cr.ephemeral()) {
            cr.infoConsumed = true;
            tree.create(cr, z, grandparent, tree.now(grandparent), parentPath);
            return true;
          }
        }
      }
    }
    if ("node-exists".equals(w.error) && modelError == null) {
      Call cr = take(byPath.get(name), w.completeTime, Call.Kind.CREATE);
      if (cr != null) {
        String parentPath = ModelTree.parent(name);
        tree.create(cr, z, parentPath, tree.now(parentPath), name);
        return true;
      }
    }
    return false;
  }

  boolean explainsDeleteOutcome(ModelTree tree, Call w, long z, ModelTree.Snap node, String modelError) {
    if (w.outcome == Op.Type.OK && "no-node".equals(modelError)) {
      Call seq = w.path.length() > 10 ? anySequentialCreate(byPath.get(w.path.substring(0, w.path.length() - 10)), w.completeTime) : null;
      if (seq != null && ModelTree.sequenceOf(w.path, seq.path) >= 0) {
        seq.infoConsumed = true; // its node is named by this delete
        tree.materialize(seq, z, w.path, true);
        return true;
      }
      Call cr = take(byPath.get(w.path), w.completeTime, Call.Kind.CREATE);
      if (cr != null) {
        String parentPath = ModelTree.parent(w.path);
        ModelTree.Snap parent = tree.now(parentPath);
        if (!parent.exists) return false;
        tree.create(cr, z, parentPath, parent, w.path);
        return true;
      }
    }
    return explainsMissingNodeOrVersion(tree, w, z, node, modelError);
  }

  /**
   * A write the client saw fail with no-node where the model still has the node: an ended session, a
   * guessed :info create, or an :info delete explains it; otherwise the version must explain the outcome.
   * ZooKeeper looks the node up before it compares versions or counts children, so no-node also wins over a
   * bad-version or not-empty the model would give.
   */
  private boolean explainsMissingNodeOrVersion(ModelTree tree, Call w, long z, ModelTree.Snap node, String modelError) {
    if (w.error != null && !"no-node".equals(w.error) && "no-node".equals(modelError)) {
      // the client's error (bad-version, not-empty) says the node was there: an :info create of it, and then its
      // version and children must give that error as well
      Call cr = take(byPath.get(w.path), w.completeTime, Call.Kind.CREATE);
      String parentPath = ModelTree.parent(w.path);
      if (cr == null || !tree.now(parentPath).exists) return false;
      tree.create(cr, z, parentPath, tree.now(parentPath), w.path);
      ModelTree.Snap created = tree.now(w.path);
      String now = w.expectedVersion != -1 && w.expectedVersion != created.version ? "bad-version"
          : w.kind == Call.Kind.DELETE && created.numChildren > 0 ? "not-empty" : null;
      return w.error.equals(now) || explainsVersion(tree, w, z, created, now);
    }
    if ("no-node".equals(w.error) && node.exists && !"no-node".equals(modelError)) {
      if (endUnknownSession(tree, node, z, w)) return true;
      if (tree.inferred(w.path)) { // a node only inferred from an :info create: its name or life was a guess
        tree.remove(w.path, z, node.cause, false);
        return true;
      }
      Call del = take(byPath.get(w.path), w.completeTime, Call.Kind.DELETE);
      if (del != null) {
        tree.remove(w.path, z, del, false);
        return true;
      }
    }
    return explainsVersion(tree, w, z, node, modelError);
  }

  boolean explainsSetDataOutcome(ModelTree tree, Call w, long z, ModelTree.Snap node, String modelError) {
    if (w.outcome == Op.Type.OK && "no-node".equals(modelError)) {
      Call cr = take(byPath.get(w.path), w.completeTime, Call.Kind.CREATE);
      String parentPath = ModelTree.parent(w.path);
      if (cr != null && tree.now(parentPath).exists) {
        tree.create(cr, z, parentPath, tree.now(parentPath), w.path);
        return explainsVersion(tree, w, z, tree.now(w.path), w.expectedVersion == -1 || w.expectedVersion == 0 ? null : "bad-version")
            || w.expectedVersion == -1 || w.expectedVersion == 0;
      }
    }
    return explainsMissingNodeOrVersion(tree, w, z, node, modelError);
  }

  /** A conditional write whose outcome needs the node's version to have moved by :info set-datas. */
  private boolean explainsVersion(ModelTree tree, Call w, long z, ModelTree.Snap node, String modelError) {
    if (!node.exists) return false;
    // the version is compared before the children are counted: bad-version also wins over the model's not-empty
    if ("bad-version".equals(w.error) && (modelError == null || "not-empty".equals(modelError)) && w.expectedVersion != -1) {
      Call sd = consumeWrites(w.path, 1, w.completeTime, node.version, node.mzxid);
      if (sd == null) return false;
      tree.setData(sd, z, node, sd.data, node.version + 1);
      return true;
    }
    if (w.outcome == Op.Type.OK && "bad-version".equals(modelError) && w.expectedVersion > node.version) {
      Call last = consumeWrites(w.path, w.expectedVersion - node.version, w.completeTime, node.version, node.mzxid);
      if (last == null) return false;
      tree.setData(last, z, node, last.data, w.expectedVersion);
      return true;
    }
    return false;
  }

  /** True when some :info write on the path, or an unknown session end of the node's owner, could explain a read. */
  /** True when an :info delete of the path, invoked before {@code before}, was never placed. */
  boolean mayHaveDeleted(String path, long before) {
    List<Call> list = byPath.get(path);
    if (list == null) return false;
    for (Call c : list) if (c.kind == Call.Kind.DELETE && c.resolvedZxid < 0 && !c.infoConsumed && !c.forced && c.invokeTime < before) return true;
    return false;
  }

  /** True when an :info write on the path (or, for a child watch, under it) could have caused a watch event. */
  boolean mayExplainEvent(String path, boolean child, long before) {
    if (hasUnknownSessionEnds()) return true; // an ephemeral may have gone at an unknown zxid
    List<Call> list = child ? byParent.get(path) : byPath.get(path);
    if (list != null) for (Call c : list) if (c.invokeTime < before && !c.forced) return true;
    return false;
  }

  /**
   * True when an :info write could have produced what a read returned: an :info delete (or an owner's session
   * end at an unknown zxid) for "no node", an :info create or set-data with that data, an :info create or
   * delete of a child for a children list.
   */
  boolean mayExplain(Call r, boolean exists, long ephemeralOwner, ModelTree tree) {
    long before = r.completeTime;
    if (r.kind == Call.Kind.GET_CHILDREN && exists) {
      List<Call> kids = byParent.get(r.path);
      if (kids != null) for (Call c : kids) if (c.invokeTime < before && unplaced(c)) return true;
      // an ephemeral child whose owner's session ended at a zxid nobody reported
      for (Map.Entry<Long, Call> e : unknownSessionEnds.entrySet()) {
        Call end = e.getValue();
        if (end.invokeTime >= before || end.forced) continue;
        if (end.resolvedZxid >= 0 ? r.zxid == null || end.resolvedZxid > r.zxid
            : tree.ephemeralsOf(e.getKey()).stream().anyMatch(p -> ModelTree.parent(p).equals(r.path))) {
          return true;
        }
      }
      return false;
    }
    List<Call> list = byPath.get(r.path);
    if (!exists) {
      Call end = ephemeralOwner != 0 ? unknownSessionEnds.get(ephemeralOwner) : null;
      if (end != null && !end.forced && end.invokeTime < before) return true;
      if (list != null) for (Call c : list) if (c.invokeTime < before && c.kind == Call.Kind.DELETE && unplaced(c)) return true;
      return false;
    }
    if (list == null) return false;
    for (Call c : list) {
      if (c.invokeTime >= before || c.kind == Call.Kind.DELETE || !unplaced(c)) continue;
      if (r.kind != Call.Kind.GET_DATA || Objects.equals(c.data, r.data)) return true;
    }
    return false;
  }

  /** A placed :info write is in the replay at its slot: it cannot also excuse a read that disagrees with the replay. */
  private static boolean unplaced(Call c) {
    if (c.forced) return false; // decided by the search: in the replay at its slot, or never took effect
    return (c.multi == null ? c.resolvedZxid : c.multi.resolvedZxid) < 0;
  }

  private static boolean anyBefore(List<Call> list, long before) {
    if (list == null) return false;
    for (Call c : list) if (c.invokeTime < before) return true;
    return false;
  }

  /** Sessions whose end was reported without a zxid (for children checks). */
  boolean hasUnknownSessionEnds() {
    for (Call end : unknownSessionEnds.values()) if (!end.forced) return true;
    return false;
  }
}
