package io.zabkit.check;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a history against ZooKeeper's client guarantees and returns one {@link Verdict} per {@link Property}.
 *
 * <p>Two streaming passes over the history. Pass 1 pairs invocations with completions, checks FifoClientOrder
 * per session and keeps the writes (nothing else). The writes are then sorted by zxid (the order ZooKeeper
 * claims), the claim is checked against real time, :info writes are resolved from what reads observed, and
 * the writes are replayed on a model data tree that records every state each znode went through. Pass 2 checks
 * every read, sync and watch event against those states. Cost: O(n log n) time, memory proportional to the
 * number of writes plus the number of sessions.
 *
 * <pre>{@code
 * Result r = new ZkChecker().check(History.file(Path.of("history.edn")));
 * if (!r.valid()) System.out.print(r.table());
 * }</pre>
 */
public final class ZkChecker {
  private final Set<Property> properties;
  private java.util.function.Consumer<String> progress;

  /** Checks every property. */
  public ZkChecker() {
    this(EnumSet.allOf(Property.class));
  }

  /** Checks only these properties (the others are still computed internally but not reported). */
  public ZkChecker(Set<Property> properties) {
    if (properties.isEmpty()) throw new IllegalArgumentException("no property to check");
    this.properties = EnumSet.copyOf(properties);
  }

  /** Reports progress of long runs (one line per million operations and per phase) to {@code sink}. */
  public ZkChecker withProgress(java.util.function.Consumer<String> sink) {
    this.progress = sink;
    return this;
  }

  private void report(String what) {
    if (progress != null) progress.accept(what);
  }

  /** ZK_CHECK_DEBUG_FIRST=N prints the nearest-candidate placement's N earliest violations (diagnostics only). */
  private static final int DEBUG_FIRST = debugFirst(System.getenv("ZK_CHECK_DEBUG_FIRST"));
  /** ZK_CHECK_DEBUG_CALLS=i,j prints where the nearest-candidate placement put those invocations (diagnostics only). */
  private static final java.util.Set<Long> DEBUG_CALLS = ListingInference.debugCalls();

  private static int debugFirst(String value) {
    try {
      return value == null ? 0 : Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("ZK_CHECK_DEBUG_FIRST must be a count of violations, got '" + value + "'");
    }
  }

  /** Convenience: checks a history file. */
  public static Result checkFile(Path history) {
    return new ZkChecker().check(History.file(history));
  }

  /**
   * Checks the history. Throws IllegalArgumentException (or {@link History.BadLineException}) on a malformed
   * history, naming the operation or line. The first explanation (known writes at their zxids, :info writes placed
   * where observations show them, with rules that excuse what they cannot place) only proposes a placement: it is
   * replayed again with every indeterminate operation decided (at its slot, or absent) and no excuse for them. That
   * exact replay is VALID or its violations go to the {@link ExhaustiveSearch}, the only source of INVALID.
   */
  public Result check(History history) {
    long start = System.nanoTime();
    // first the nearest-candidate proposal (listings, floors, every observation of a zxid): when its exact replay is
    // clean it is the verdict's witness, with no search at all
    Attempt nearest = attempt(history, Map.of(), true, true);
    Map<Long, Long> nearestPlaced = decidedAll(nearest);
    Attempt nearestExact = attempt(history, nearestPlaced, false);
    reportNearestDiagnostics(nearest, nearestPlaced, nearestExact);
    if (nearestExact.findings.total() == 0) return nearestExact.result(properties, System.nanoTime() - start, null);
    report("the exact replay of the nearest-candidate placement leaves " + nearestExact.findings.total() + " violations; the first-fit placement next");
    // else the first-fit proposal, from which the repair and the search start as they always did: measured, neither
    // proposal's violations are a subset of the other's, and the repair's moves were tuned from this one
    Attempt proposal = attempt(history, Map.of(), true);
    Map<Long, Long> base = decidedAll(proposal);
    Attempt exact = attempt(history, base, false);
    if (exact.findings.total() == 0) return exact.result(properties, System.nanoTime() - start, null);
    report("the exact replay of the first-fit placement leaves " + exact.findings.total() + " violations; local moves next");
    List<Op> inMemory = new ArrayList<>(); // the repair and the search replay many times: read a file once
    for (Op op : history) inMemory.add(op);
    History h = History.of(inMemory);
    // local moves first (a quarter of the step budget): a placement whose exact replay is clean is the verdict's witness
    long perReplay = Math.max(1, exact.ops);
    long deadline = start + exhaustiveBudget.wallMillis() * 1_000_000;
    ExhaustiveSearch.Floors floors = ExhaustiveSearch.floors(h);
    PlacementRepair repair = new PlacementRepair(this, h, floors, exhaustiveBudget.steps() / 4 / perReplay, deadline);
    PlacementRepair.Repaired fixed = repair.run(exact, base);
    int replays = repair.replays;
    if (fixed.exact().findings.total() > 0) {
      // the other ranking of equally early placements (nearer reads before fewer violations) from the same start,
      // with as many replays again; the search starts from whichever leaves fewer violations
      PlacementRepair nearer = new PlacementRepair(this, h, floors, exhaustiveBudget.steps() / 4 / perReplay, deadline).nearerFirst();
      PlacementRepair.Repaired other = nearer.run(exact, base);
      replays += nearer.replays;
      if (other.exact().findings.total() < fixed.exact().findings.total()) fixed = other;
    }
    report("the proposed placement leaves " + exact.findings.total() + " violations; " + replays + " replays of local moves leave "
        + fixed.exact().findings.total());
    if (fixed.exact().findings.total() == 0) return fixed.exact().result(properties, System.nanoTime() - start, null);
    report("exhaustive search over the indeterminate operations");
    // the search gets what the repair left of both budgets: the steps (deterministic) and the wall-clock safety net
    long spentMillis = (System.nanoTime() - start) / 1_000_000;
    ExhaustiveSearch.Budget left = new ExhaustiveSearch.Budget(Math.max(0, exhaustiveBudget.steps() - (long) replays * perReplay),
        Math.max(0, exhaustiveBudget.wallMillis() - spentMillis));
    return decide(h, fixed.exact(), fixed.placement(), start, left);
  }

  /**
   * Every indeterminate operation of the proposal decided: at the zxid it was placed at; one a rule consumed to
   * explain a later write's outcome at the highest free zxid below that write (above the writes that completed before
   * it was invoked); else absent. Only a starting point for the search: the exact replay judges it.
   */
  static Map<Long, Long> decidedAll(Attempt proposal) {
    Map<Long, Long> out = new java.util.TreeMap<>();
    java.util.Set<Long> used = new java.util.HashSet<>();
    List<Call> consumed = new ArrayList<>();
    for (Call c : proposal.indeterminate) {
      Object at = proposal.placements.get(c.key());
      if (proposal.nearestFirst && at instanceof Long z && binaryHas(proposal.knownZxids, z)) {
        // a rule ended a session at the zxid of the known write that needed it (a create finding the node there):
        // the end took effect below that write, like a consumed operation
        c.consumedAt = z;
        at = null;
      }
      out.put(c.key(), at instanceof Long z ? z : InfoWrites.FORCED_ABSENT);
      if (at instanceof Long z) used.add(z);
      else if (c.consumedAt > 0) consumed.add(c);
    }
    // each consumed operation's window is (floor, consumedAt); unit jobs in windows: taken by latest floor first, each
    // at the highest free slot of its window (earliest deadline first, mirrored), they all fit whenever any assignment
    // fits; by consumedAt alone, a wide window could take the only slot of a narrow one below it
    Map<Call, Long> floors = new HashMap<>();
    for (Call c : consumed) {
      Call floorWrite = c.invoke == null ? null : proposal.completed.lastCompletedBefore(c.invokeTime);
      floors.put(c, Math.max(floorWrite == null ? 0 : floorWrite.effectiveZxid(), c.consumedAbove));
    }
    consumed.sort((a, b) -> !floors.get(a).equals(floors.get(b)) ? Long.compare(floors.get(b), floors.get(a)) : Long.compare(b.consumedAt, a.consumedAt));
    Map<Long, Call> holder = null;
    for (Call c : consumed) {
      long floor = floors.get(c);
      boolean done = false;
      for (long z = c.consumedAt - 1, n = 0; z > floor && n < 100_000; z--, n++) {
        // a watch set before z and fired after it saw no change of this operation's path (or parent's children) there
        if (!free(proposal, used, z) || proposal.quiet.test(c, z)) continue;
        out.put(c.key(), z);
        used.add(z);
        done = true;
        break;
      }
      if (done) continue;
      if (holder == null) holder = holders(proposal);
      if (!displace(proposal, c, floor, out, used, holder)) swapWithEventPlaced(proposal, c, floor, out, used);
    }
    return out;
  }

  /**
   * The last resort of a consumed create or delete with no slot: a child change at z that an observation gave to
   * another :info create or delete under the same parent (a children event or a pzxid names the parent, not the
   * child) may have been this one's. It takes z, and the other moves to the lowest free slot above z outside its quiet
   * intervals (it was invoked nearer z, so it takes effect after; an :info write's slot in a dense history is one no
   * known write has). Only a proposal: the exact replay judges it.
   */
  private static void swapWithEventPlaced(Attempt proposal, Call c, long floor, Map<Long, Long> out, java.util.Set<Long> used) {
    if ((c.kind != Call.Kind.CREATE && c.kind != Call.Kind.DELETE) || c.path == null || c.multi != null || c.sequential()) return;
    String parent = ModelTree.parent(c.path);
    Map<Long, Call> byZxid = new HashMap<>();
    for (Call h : proposal.indeterminate) {
      if (h.resolvedZxid > floor && h.resolvedZxid < c.consumedAt) byZxid.put(h.resolvedZxid, h);
    }
    for (long z = c.consumedAt - 1, n = 0; z > floor && n < 100_000; z--, n++) {
      Call h = byZxid.get(z);
      if (h == null || h == c || h.multi != null || h.path == null || h.sequential() || h.namedPath != null || h.slotAlternatives != null) continue;
      if ((h.kind != Call.Kind.CREATE && h.kind != Call.Kind.DELETE) || !parent.equals(ModelTree.parent(h.path))) continue;
      if (!Long.valueOf(z).equals(out.get(h.key())) || proposal.quiet.test(c, z)) continue;
      for (long s = z + 1, m = 0; m < 100_000; s++, m++) {
        if (!free(proposal, used, s) || proposal.quiet.test(h, s)) continue;
        out.put(h.key(), s);
        used.add(s);
        out.put(c.key(), z);
        return;
      }
      return;
    }
  }

  private static boolean free(Attempt proposal, java.util.Set<Long> used, long z) {
    return (z & 0xffffffffL) != 0 && !binaryHas(proposal.knownZxids, z) && !used.contains(z);
  }

  /** The operations placed by listings (see {@link Call#slotAlternatives}), by the slot they were given. */
  private static Map<Long, Call> holders(Attempt proposal) {
    Map<Long, Call> out = new HashMap<>();
    for (Call c : proposal.indeterminate) {
      if (c.slotAlternatives != null && c.resolvedZxid >= 0) out.put(c.resolvedZxid, c);
    }
    return out;
  }

  /**
   * A consumed operation that found no free slot below the write that needed it (a standalone or generated history's
   * zxids are dense: the only free ones are the indeterminate operations' own) takes the slot of an operation a
   * listing placed, when that one can move to another free slot between the two facts that showed its change: the
   * earliest-deadline pass chose the lowest of those slots without knowing which ones the replay's rules would need.
   */
  private static boolean displace(Attempt proposal, Call c, long floor, Map<Long, Long> out, java.util.Set<Long> used, Map<Long, Call> holder) {
    for (long z = c.consumedAt - 1, n = 0; z > floor && n < 100_000; z--, n++) {
      Call h = holder.get(z);
      if (h == null || h == c || proposal.quiet.test(c, z)) continue;
      for (long s = h.slotHi, m = 0; s > h.slotLo && m < 100_000; s--, m++) {
        if (s == z || !free(proposal, used, s) || !h.slotAlternatives.test(s)) continue;
        out.put(h.key(), s);
        used.add(s);
        holder.remove(z);
        holder.put(s, h);
        out.put(c.key(), z);
        return true;
      }
    }
    return false;
  }

  /**
   * The verdict when the first explanation has violations the guided search did not explain: only a violation the
   * {@link ExhaustiveSearch} confirmed is reported VIOLATED; the others are UNKNOWN with the search's reason, or,
   * when each is explained and one placement explains them all, the history is VALID.
   */
  private Result decide(History history, Attempt first, Map<Long, Long> base, long start, ExhaustiveSearch.Budget budget) {
    ExhaustiveSearch search = new ExhaustiveSearch(this, history, budget);
    List<ExhaustiveSearch.Decision> decisions = onDeepStack(() -> search.decide(first, base));
    report("exhaustive search: " + search.replays() + " replays (" + search.steps() + " operations) over " + decisions.size() + " groups of violations");
    Map<Property, ExhaustiveSearch.Decision> confirmed = new java.util.EnumMap<>(Property.class);
    Map<Property, Long> confirmedCount = new java.util.EnumMap<>(Property.class);
    Map<Property, String> undecided = new java.util.EnumMap<>(Property.class);
    for (ExhaustiveSearch.Decision d : decisions) {
      Property p = d.violation().property();
      switch (d.outcome()) {
        case CONFIRMED -> {
          confirmed.putIfAbsent(p, d);
          confirmedCount.merge(p, 1L, Long::sum);
        }
        case UNDECIDED -> undecided.putIfAbsent(p, d.reason());
        case EXPLAINED -> {
          undecided.putIfAbsent(p, "explained by a placement of the indeterminate operations on " + d.paths() + "; the other violations were not");
        }
      }
    }
    if (confirmed.isEmpty()) {
      // every group is explained on its own paths: one replay with all those placements must explain the whole history
      Attempt all = attempt(history, search.base(), false);
      if (all.findings.total() == 0) return all.result(properties, System.nanoTime() - start, null);
      for (Property p : Property.values()) {
        if (first.findings.violated(p)) undecided.putIfAbsent(p, "the search stopped after " + decisions.size() + " violations with some left");
      }
    }
    List<Verdict> out = new ArrayList<>();
    for (Verdict v : first.findings.verdicts(properties)) {
      ExhaustiveSearch.Decision d = confirmed.get(v.property());
      if (d != null) {
        List<Op> witness = new ArrayList<>();
        for (Call c : d.violation().witness()) c.addTo(witness);
        witness.sort((x, y) -> Long.compare(x.index(), y.index()));
        out.add(new Verdict(v.property(), false, confirmedCount.get(v.property()), d.violation().explanation()
            + " (no placement explains it: the search ruled out every placement of the indeterminate operations on "
            + d.paths() + " in " + d.replays() + " replays" + (d.reason() == null ? "" : "; " + d.reason()) + ")", witness, v.checked()));
      } else if (!v.valid()) {
        String why = undecided.getOrDefault(v.property(), "its violations were not confirmed by the exhaustive search");
        out.add(new Verdict(v.property(), false, v.violations(), v.explanation(), v.witness(), v.checked(), why));
      } else {
        out.add(v);
      }
    }
    String reason = confirmed.isEmpty() ? "violations of the first explanation that no complete search confirmed: " + String.join("; ", new java.util.LinkedHashSet<>(undecided.values())) : null;
    return new Result(out, first.ops, System.nanoTime() - start, reason, first.placements);
  }

  /** The sweep recurses once per zxid point of a path: run it on a thread with a stack to match. */
  private static <T> T onDeepStack(java.util.function.Supplier<T> work) {
    Object[] box = new Object[1];
    Throwable[] failed = new Throwable[1];
    Thread t = new Thread(null, () -> {
      try {
        box[0] = work.get();
      } catch (Throwable e) {
        failed[0] = e;
      }
    }, "zk-check-exhaustive-search", 1L << 30);
    t.start();
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    if (failed[0] instanceof RuntimeException re) throw re;
    if (failed[0] instanceof Error er) throw er;
    if (failed[0] != null) throw new IllegalStateException(failed[0]);
    @SuppressWarnings("unchecked")
    T out = (T) box[0];
    return out;
  }

  private ExhaustiveSearch.Budget exhaustiveBudget = ExhaustiveSearch.Budget.DEFAULT;

  /** Bounds the repair and the exhaustive search (operations replayed, and a wall-clock safety net); past it a violation is UNKNOWN. */
  public ZkChecker withBudget(ExhaustiveSearch.Budget b) {
    this.exhaustiveBudget = b;
    return this;
  }

  /** One explanation of the history: the writes the search forced into slots, and what the replay then found. */
  static final class Attempt {
    final Map<Long, Long> forced;
    final Findings findings;
    final long ops;
    final long[] knownZxids; // sorted: the slots of known writes (an :info write's slot is the search's to choose)
    final List<Call> placeable; // :info writes still without a slot
    final WriteIndex completed; // known writes, for the real-time lower bound of a slot
    final Map<Long, Object> placements;
    final Map<Long, java.util.Set<String>> ephemeralsBySession;
    /** Set by {@link #attempt}: the indeterminate operations as the search may place them, before any replay rule consumed one. */
    List<Call> indeterminate = List.of();
    /** Indeterminate operations the search cannot place (see {@link InfoWrites#unplaceable()}). */
    List<Call> unplaceable = List.of();
    /** Set by {@link #attempt}: the replayed tree (the repair reads a parent's counter from it). */
    ModelTree tree;
    /** Set by {@link #attempt}: which rules placed the undecided operations (see {@link InfoWrites#resolve}). */
    boolean nearestFirst;
    /** The nearest-candidate proposal's watch quiet intervals (see {@link ListingInference#quietForOperation}); else none. */
    java.util.function.BiPredicate<Call, Long> quiet = (c, z) -> false;

    Attempt(Map<Long, Long> forced, Findings findings, long ops, long[] knownZxids, List<Call> placeable, WriteIndex completed,
        Map<Long, Object> placements, Map<Long, java.util.Set<String>> ephemeralsBySession) {
      this.ephemeralsBySession = ephemeralsBySession;
      this.forced = forced;
      this.findings = findings;
      this.ops = ops;
      this.knownZxids = knownZxids;
      this.placeable = placeable;
      this.completed = completed;
      this.placements = placements;
    }

    Result result(Set<Property> properties, long nanos, String undecided) {
      return new Result(findings.verdicts(properties), ops, nanos, undecided, placements);
    }
  }

  /** ZK_CHECK_DEBUG_CALLS and ZK_CHECK_DEBUG_FIRST: where the nearest-candidate placement put given invocations, and its earliest violations. */
  private void reportNearestDiagnostics(Attempt nearest, Map<Long, Long> placed, Attempt exact) {
    for (Call c : nearest.indeterminate) {
      if (DEBUG_CALLS.contains(c.invokeIndex())) report("  call #" + c.invokeIndex() + " at " + Findings.hex(placed.getOrDefault(c.key(), -1L)) + " consumedAt " + Findings.hex(c.consumedAt) + " " + c.path);
    }
    if (DEBUG_FIRST > 0 && exact.findings.total() > 0) {
      List<Findings.Found> first = new ArrayList<>(exact.findings.kept());
      first.sort(java.util.Comparator.comparingLong(Findings.Found::determinedAt));
      for (Findings.Found f : first.subList(0, Math.min(DEBUG_FIRST, first.size()))) report("  first: " + f.property() + " " + f.explanation());
    }
  }

  /** Runs the two passes once, with {@code forced} :info writes (invocation :index to zxid) put at their slots first. */
  Attempt attempt(History history, Map<Long, Long> forced, boolean withProgress) {
    return attempt(history, forced, withProgress, false);
  }

  /**
   * As {@link #attempt(History, Map, boolean)}; {@code nearestFirst} picks the rules that place the undecided :info
   * writes (see {@link InfoWrites#resolve}), and with no forced slots adds the {@link ListingInference}.
   */
  Attempt attempt(History history, Map<Long, Long> forced, boolean withProgress, boolean nearestFirst) {
    Findings findings = new Findings();
    InfoWrites info = new InfoWrites(nearestFirst);
    SessionOrder fifo = new SessionOrder(findings);
    List<Call> writes = new ArrayList<>();
    Map<Long, List<InfoWrites.Observation>> observed = new HashMap<>();
    Floor floor = new Floor();
    ListingInference listings = forced.isEmpty() && nearestFirst ? new ListingInference() : null; // a proposal's only
    Map<Long, java.util.Set<String>> ephemerals = new HashMap<>();
    java.util.Set<Long> ended = new java.util.HashSet<>();

    long ops = new Pairer(n -> { if (withProgress) report("pass 1 (pairing, FifoClientOrder, collecting writes): " + n + " operations"); }).run(history, c -> {
      fifo.accept(c);
      info.noteCompleted(c);
      if (isSessionEnd(c) && c.session != null) ended.add(c.session);
      // an :info ephemeral create may have taken effect: its session's unreported end must be placeable too; an
      // ephemeral created by a multi's create sub-op just as well (3-server sim seed 3782042: an :info multi's /e2,
      // removed by its session's expiry, which the history never reports)
      if ((c.outcome == Op.Type.OK || c.outcome == Op.Type.INFO) && c.session != null) {
        if (c.kind == Call.Kind.CREATE && c.ephemeral() && c.path != null) {
          ephemerals.computeIfAbsent(c.session, k -> new java.util.HashSet<>()).add(c.path);
        } else if (c.kind == Call.Kind.MULTI && c.subs != null) {
          for (Call sub : c.subs) {
            if (sub.kind == Call.Kind.CREATE && sub.ephemeral() && sub.path != null) {
              ephemerals.computeIfAbsent(c.session, k -> new java.util.HashSet<>()).add(sub.path);
            }
          }
        }
      }
      if (c.kind.isWrite()) {
        boolean placed = c.zxid != null && (c.outcome != Op.Type.INFO || c.kind == Call.Kind.SESSION_EXPIRED);
        if (placed) writes.add(c);
        else if (c.outcome == Op.Type.INFO || c.kind == Call.Kind.SESSION_EXPIRED) info.add(c);
        // a :fail without a zxid never reached the log: it changed nothing
      }
      observe(c, observed, nearestFirst);
      floor.note(c);
      if (listings != null) listings.note(c);
    });

    writes.sort((a, b) -> Long.compare(a.effectiveZxid(), b.effectiveZxid()));
    long implicitKey = -1;
    for (Long session : new java.util.TreeSet<>(ephemerals.keySet())) {
      if (ended.contains(session)) continue;
      info.addImplicitEnd(new Call(null, new Op(implicitKey--, Op.Type.OK, Op.NEMESIS, "session-expired", null, Long.MAX_VALUE, session,
          null, null, null, null, null, false)));
    }
    info.existence = listings;
    if (listings != null) info.quiet = listings.quietForOperation(); // (watches are all paired by now)
    java.util.Set<Long> forcedSlots = new java.util.HashSet<>(forced.values());
    info.resolve(observed, z -> binaryHas(writes, z) || forcedSlots.contains(z), forced, floor::at); // (no first fit onto a forced slot)
    if (listings != null && !listings.isEmpty()) {
      java.util.Set<Long> slots = new java.util.HashSet<>(observed.keySet());
      info.forEachResolved(c -> slots.add(c.effectiveZxid()));
      listings.place(writes, info, z -> binaryHas(writes, z) || slots.contains(z), floor);
    }
    List<Call> indeterminate = info.placeable();
    List<Call> unplaceable = info.unplaceable();
    observed.clear();
    WriteIndex completed = new WriteIndex(writes);
    List<Call> ordered = orderWrites(writes, history, info, findings);
    checkRealTime(ordered, findings);
    if (withProgress) report("replaying " + ordered.size() + " writes in zxid order (" + info.size() + " :info writes)");
    ModelTree tree = new ModelTree(findings, info);
    for (Call w : ordered) {
      info.replayZxid = w.effectiveZxid();
      tree.apply(w, w.effectiveZxid());
    }

    ObservationChecks pass2 = new ObservationChecks(tree, new WriteIndex(ordered), info, findings);
    new Pairer(n -> { if (withProgress) report("pass 2 (reads, sync, watches): " + n + " operations"); }).run(history, pass2::accept);
    long[] known = new long[writes.size()];
    for (int i = 0; i < known.length; i++) known[i] = writes.get(i).effectiveZxid();
    Attempt out = new Attempt(forced, findings, ops, known, info.placeable(), completed, info.placements(), ephemerals);
    out.indeterminate = indeterminate;
    out.unplaceable = unplaceable;
    out.nearestFirst = nearestFirst;
    if (listings != null) out.quiet = listings.quietForOperation();
    out.tree = tree;
    return out;
  }

  /**
   * The largest zxid shown by an operation that completed before a given time (a reply zxid of a write, read or sync,
   * an event's zxid): a write invoked after that took effect above it. A step function kept as its steps only.
   */
  static final class Floor {
    private long[] times = new long[1024];
    private long[] zxids = new long[1024];
    private int n;
    private long max = 0;

    void note(Call c) {
      if (c.zxid == null || c.outcome == Op.Type.INFO || c.completeTime == Call.NEVER || c.zxid <= max) return;
      max = c.zxid;
      if (n > 0 && times[n - 1] >= c.completeTime) { // the same time (or a clock that stepped back): one step
        zxids[n - 1] = max;
        return;
      }
      if (n == times.length) {
        times = java.util.Arrays.copyOf(times, n * 2);
        zxids = java.util.Arrays.copyOf(zxids, n * 2);
      }
      times[n] = c.completeTime;
      zxids[n++] = max;
    }

    /** The floor of an operation invoked at {@code time}: 0 when nothing completed before it. */
    long at(long time) {
      int i = java.util.Arrays.binarySearch(times, 0, n, time);
      int last = i >= 0 ? i - 1 : -i - 2; // the last step that completed strictly before time
      return last < 0 ? 0 : zxids[last];
    }
  }

  private static void observe(Call c, Map<Long, List<InfoWrites.Observation>> observed, boolean dataEvents) {
    if (c.kind == Call.Kind.MULTI_READ && c.outcome == Op.Type.OK) {
      for (Call sub : c.subs) observe(sub, observed, dataEvents);
      return;
    }
    if (c.kind == Call.Kind.WATCH_EVENT && c.outcome == Op.Type.OK && c.zxid != null) {
      // a node-created, node-deleted or children event names the path and the zxid of its change; so does a data
      // event, which does not say which data: first fit leaves it out, nearest-first proposes the :info set-data
      // invoked nearest before it (a read whose Stat shows that zxid with its data overrides the guess, as the
      // candidate must fit every observation of the zxid)
      if (c.done.value() instanceof Map<?, ?> m && m.get(Keyword.of("event")) instanceof Keyword k) {
        String path = m.get(Keyword.of("path")) instanceof String p ? p : c.path;
        String event = k.name();
        boolean namesWrite = event.equals("node-created") || event.equals("node-deleted") || (dataEvents && event.equals("node-data-changed"))
            || event.equals(InfoWrites.CHILD_CHANGE);
        if (path != null && namesWrite) add(observed, c.zxid, new InfoWrites.Observation(path, null, false, c.completeTime, event));
      }
      return;
    }
    if (c.stat == null || c.path == null || c.outcome != Op.Type.OK) return;
    boolean hasData = c.kind == Call.Kind.GET_DATA || c.kind == Call.Kind.SET_DATA || c.kind == Call.Kind.CREATE;
    Object data = hasData ? c.data : null;
    // a reply without the data (exists, getChildren2) whose mzxid is its czxid only says a create happened there:
    // recorded as a data observation it would ask for a write with no data, which no :info create fits
    boolean createdOnly = !hasData && c.stat.mzxid() != null && c.stat.mzxid().equals(c.stat.czxid());
    if (c.stat.mzxid() != null && !createdOnly) add(observed, c.stat.mzxid(), new InfoWrites.Observation(c.path, data, false, c.completeTime, null));
    if (c.stat.czxid() != null) add(observed, c.stat.czxid(), new InfoWrites.Observation(c.path, null, true, c.completeTime, null));
    // ZooKeeper moves a node's pzxid to the zxid of each child create and child delete: a pzxid no known write has
    // is a child change there, which only an :info create or delete under the node can explain; a listing read at a
    // zxid (so at or after that change, with no child change since) says which child: a listed one created, or an
    // unlisted one deleted
    Long pzxid = c.stat.pzxid();
    if (pzxid != null && !pzxid.equals(c.stat.czxid())) {
      java.util.Set<String> listed = null;
      if (c.kind == Call.Kind.GET_CHILDREN && c.zxid != null && c.done.value() instanceof List<?> names) {
        listed = new java.util.HashSet<>();
        for (Object name : names) if (name instanceof String nm) listed.add(nm);
      }
      add(observed, pzxid, new InfoWrites.Observation(c.path, null, false, c.completeTime, InfoWrites.CHILD_CHANGE, listed));
    }
  }

  /**
   * Keeps the observations of a zxid, at most a few per kind: the candidate must fit them all, and more of the same
   * (every later read of an unchanged node repeats its Stat) add nothing but memory.
   */
  private static void add(Map<Long, List<InfoWrites.Observation>> observed, long z, InfoWrites.Observation o) {
    List<InfoWrites.Observation> list = observed.computeIfAbsent(z, k -> new ArrayList<>(2));
    for (InfoWrites.Observation seen : list) {
      if (seen.path().equals(o.path()) && java.util.Objects.equals(seen.event(), o.event()) && seen.creation() == o.creation()
          && java.util.Objects.equals(seen.data(), o.data()) && (o.children() == null || java.util.Objects.equals(seen.children(), o.children()))) {
        return;
      }
    }
    list.add(o);
  }

  static boolean binaryHas(long[] sorted, long z) {
    return java.util.Arrays.binarySearch(sorted, z) >= 0;
  }

  private static boolean binaryHas(List<Call> sorted, long z) {
    int lo = 0, hi = sorted.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long m = sorted.get(mid).effectiveZxid();
      if (m < z) lo = mid + 1;
      else if (m > z) hi = mid - 1;
      else return true;
    }
    return false;
  }

  /** Known writes plus resolved :info writes, in zxid order; a zxid claimed twice is a violation. */
  private static List<Call> orderWrites(List<Call> writes, History history, InfoWrites info, Findings findings) {
    List<Call> all = new ArrayList<>(writes.size());
    all.addAll(writes);
    info.forEachResolved(all::add);
    info.forEachForcedEnd(all::add);
    all.sort((a, b) -> Long.compare(a.effectiveZxid(), b.effectiveZxid()));
    List<Call> out = new ArrayList<>(all.size());
    Call prev = null;
    for (Call w : all) {
      if (prev != null && prev.effectiveZxid() == w.effectiveZxid()) {
        boolean sameSessionEnd = isSessionEnd(prev) && isSessionEnd(w) && java.util.Objects.equals(prev.session, w.session);
        if (!sameSessionEnd) {
          findings.violation(Property.LinearizableWrites, "two writes claim the same zxid " + Findings.hex(w.effectiveZxid()), prev, w);
        }
        continue;
      }
      out.add(w);
      prev = w;
    }
    return out;
  }

  private static boolean isSessionEnd(Call c) {
    return c.kind == Call.Kind.CLOSE_SESSION || c.kind == Call.Kind.SESSION_EXPIRED;
  }

  /**
   * The zxid order must respect real time: a write that completed before another was invoked has the smaller
   * zxid. Scanning from the highest zxid down, keep the earliest completion seen so far; a lower-zxid write
   * invoked after it is a violation.
   */
  private static void checkRealTime(List<Call> byZxid, Findings findings) {
    Call earliest = null;
    for (int i = byZxid.size() - 1; i >= 0; i--) {
      Call w = byZxid.get(i);
      if (w.invoke == null) continue; // an expiry event has no invocation: no real-time interval
      findings.checked(Property.LinearizableWrites);
      if (earliest != null && earliest.completeTime < w.invokeTime) {
        findings.violation(Property.LinearizableWrites, "write #" + earliest.invokeIndex() + " at zxid " + Findings.hex(earliest.effectiveZxid())
            + " completed before write #" + w.invokeIndex() + " was invoked, yet the latter has the smaller zxid "
            + Findings.hex(w.effectiveZxid()), earliest, w);
      }
      if (w.completeTime != Call.NEVER && (earliest == null || w.completeTime < earliest.completeTime)) earliest = w;
    }
  }
}
