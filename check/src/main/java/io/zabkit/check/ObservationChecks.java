package io.zabkit.check;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * The second pass: every read is checked against the replayed data tree (LinearizableWrites, MonotonicReads,
 * SyncReads, EphemeralLifetime) and every watch against the changes that should fire it (WatchOrdering).
 * Memory: one entry per session plus its pending watches.
 */
final class ObservationChecks {
  /** How far from its claimed zxid a read's state is searched for, in states of that path. */
  private static final int SEARCH_STATES_MAX = 4096;

  private static final class Watch {
    final String path;
    final boolean child;
    final Call registration;
    long due; // zxid of the first matching change after registration, or Long.MAX_VALUE (moved only by a re-arm)
    /**
     * The earliest zxid the first matching change after registration can have. Equal to {@link #due} when the
     * registration zxid is known; a read without a zxid registered its watch at some point p of the interval it
     * could have been served at, so its first change lies anywhere in [dueMin, due] (due: for the latest p).
     */
    final long dueMin;
    Call dueWrite;
    final boolean maybe; // registered by a read that ended :info
    /**
     * An exist watch: set by an exists that found no node. The client keeps it in its exist-watch list, and on a
     * reconnect ZooKeeper's SetWatches fires it (NodeCreated) only if the node exists then; otherwise it re-adds it
     * silently, so a node created and deleted while the session was away is missed (see {@link #rearm}).
     */
    final boolean exist;
    /** An exist watch resumed by a reconnect, waiting for the session's next reply to bound where it was re-added. */
    boolean rearm;
    boolean done;
    /** Re-registered by SetWatches on a reconnect: a change missed meanwhile arrives as one event at a later zxid. */
    boolean resumed;

    Watch(String path, boolean child, Call registration, long dueMin, long due, Call dueWrite, boolean maybe) {
      assert dueMin <= due : "a watch's earliest first change lies after its latest";
      this.exist = !child && registration.kind == Call.Kind.EXISTS && Boolean.FALSE.equals(observedExists(registration));
      this.path = path;
      this.child = child;
      this.registration = registration;
      this.dueMin = dueMin;
      this.due = due;
      this.dueWrite = dueWrite;
      this.maybe = maybe;
    }
  }

  private static final class Session {
    long seen = -1;
    Call seenBy;
    long syncFloor = -1;
    Call syncBy;
    Call syncWrite;
    long lastEventZxid = -1;
    Call lastEvent;
    /**
     * From a reconnect of this session until its next reply: the events SetWatches fires. ZooKeeper's
     * DataTree.setWatches fires them in the order of its watch lists (data, then exist, then child watches), not in
     * zxid order, so among themselves they are only checked against {@link #floorBeforeReconnect}.
     */
    boolean setWatchesWindow;
    long floorBeforeReconnect = -1;
    Call floorEvent;
    final Map<String, Watch> watches = new HashMap<>();
    final PriorityQueue<Watch> byDue = new PriorityQueue<>((a, b) -> Long.compare(a.due, b.due));
    final Map<String, Call> lastFired = new HashMap<>();
    /** Persistent watches by path (the addWatch reply), and persistent-recursive ones. */
    final Map<String, Call> persistent = new HashMap<>();
    final Map<String, Call> recursive = new HashMap<>();
  }

  private final Map<Long, Session> sessions = new HashMap<>();
  private final ModelTree tree;
  private final WriteIndex writes;
  private final InfoWrites info;
  private final Findings findings;

  ObservationChecks(ModelTree tree, WriteIndex writes, InfoWrites info, Findings findings) {
    this.tree = tree;
    this.writes = writes;
    this.info = info;
    this.findings = findings;
  }

  private Session session(Call c) {
    // Without session ids (e.g. Jepsen's register workload) each process stands for its own session.
    return sessions.computeIfAbsent(c.session != null ? c.session : Long.MIN_VALUE + c.done.process() + 1, s -> new Session());
  }

  void accept(Call c) {
    if (c.kind != Call.Kind.WATCH_EVENT && c.kind != Call.Kind.CONNECT && c.invoke != null && c.outcome != Op.Type.INFO && !lostConnection(c)) {
      session(c).setWatchesWindow = false; // a server's reply: SetWatches' events, sent before it, are over
    }
    answeredAfterItsEnd(c);
    switch (c.kind) {
      case WATCH_EVENT -> event(c);
      case SESSION_EXPIRED, CLOSE_SESSION -> {
        // Only a session end that happened clears its watches: an :info close-session may never have
        // taken effect (the session can reconnect and be sent the events of its watches, as SetWatches does)
        if (c.outcome == Op.Type.OK) endSession(c);
      }
      case SYNC -> sync(c);
      case GET_DATA, EXISTS, GET_CHILDREN -> read(c);
      case MULTI_READ -> readMulti(c);
      case CONNECT -> {
        if (c.session != null && sessions.containsKey(c.session)) {
          Session s = session(c);
          for (Watch w : s.watches.values()) {
            w.resumed = true;
            if (w.exist && !w.done) { // SetWatches may re-add it silently: its reply obligation waits (rearm)
              w.rearm = true;
              s.byDue.remove(w);
            }
          }
          // still in the window of the last reconnect (no server reply since): the connection broke while SetWatches'
          // events were being sent, so an event it fired may have been lost with it; its watch is still registered at
          // the client, and this reconnect's SetWatches fires it again, below events the lost window did deliver
          // (5-server sim seed 3783015: / at 0x200000009 re-fired after /k0 at 0x20000000b). The floor stays the last
          // one before that window.
          if (!s.setWatchesWindow) {
            s.floorBeforeReconnect = s.lastEventZxid;
            s.floorEvent = s.lastEvent;
          }
          s.setWatchesWindow = true;
        }
      }
      case ADD_WATCH -> {
        addWatch(c);
        if (c.zxid != null && c.outcome == Op.Type.OK) {
          replyArrived(c);
          see(session(c), c.zxid, c);
        }
      }
      default -> {
        if (c.zxid != null && c.outcome != Op.Type.INFO) {
          replyArrived(c);
          see(session(c), c.zxid, c);
        }
      }
    }
  }

  /**
   * A session is answered only while it lives: once its closeSession transaction (a close or an expiry) is applied at
   * zxid e, the server closes its connection, and a later request gets SESSIONEXPIRED. So an ok reply of the session
   * whose zxid (the serving server's last processed zxid, or a write's own) is above e contradicts the end; it bounds
   * an unreported end from below, as a listing without the session's ephemeral bounds it from above. A reply at e
   * itself is allowed: ZooKeeper's FinalRequestProcessor applies the closeSession before it closes the connection, and
   * a read served in between (CommitProcessor runs reads on worker threads) reports e as its zxid.
   */
  private void answeredAfterItsEnd(Call c) {
    if (c.outcome != Op.Type.OK || c.zxid == null || c.session == null || c.invoke == null) return; // requests' replies only
    if (c.kind == Call.Kind.WATCH_EVENT || c.kind == Call.Kind.CONNECT || c.kind == Call.Kind.SESSION_EXPIRED || c.kind == Call.Kind.CLOSE_SESSION) return;
    Call end = tree.sessionEnd(c.session);
    if (end == null || end == c) return;
    long e = end.effectiveZxid();
    assert e >= 0 || end.zxid == null : "a reported end has its zxid";
    findings.checked(Property.EphemeralLifetime);
    if (e >= 0 && e < c.zxid) {
      findings.violation(Property.EphemeralLifetime, "session 0x" + Long.toHexString(c.session) + " ended at zxid " + Findings.hex(e)
          + " but was answered at zxid " + Findings.hex(c.zxid) + " (a server answers no request of a session after its end)", end, c);
    }
  }

  /** A failure the client made up when its connection broke: no server sent it, so it ends no SetWatches window. */
  private static boolean lostConnection(Call c) {
    return c.outcome == Op.Type.FAIL && c.zxid == null && ("connection-loss".equals(c.error) || "operation-timeout".equals(c.error));
  }

  private static void see(Session s, long zxid, Call by) {
    if (zxid > s.seen) {
      s.seen = zxid;
      s.seenBy = by;
    }
  }

  // ---- reads ----

  private void read(Call r) {
    boolean watches = r.watch && r.path != null && (r.outcome == Op.Type.OK || r.outcome == Op.Type.INFO);
    if (watches && (r.zxid != null || r.outcome == Op.Type.INFO)) register(r);
    if (r.outcome == Op.Type.INFO || r.path == null) return;
    Boolean exists = observedExists(r);
    if (exists == null) { // an error that says nothing about the node, nor about when the watch was set
      if (watches && r.zxid == null) registerWithin(r, -1, Long.MAX_VALUE);
      return;
    }
    if (r.zxid == null) {
      long[] served = readWithoutZxid(r, session(r), exists);
      if (watches) registerWithin(r, served == null ? -1 : served[0], served == null ? Long.MAX_VALUE : served[1]);
      return;
    }
    replyArrived(r);
    Session s = session(r);
    findings.checked(Property.LinearizableWrites);
    findings.checked(Property.MonotonicReads);
    if (!checkState(r, s, exists)) {
      if (r.zxid < s.seen) {
        findings.violation(Property.MonotonicReads, "read at zxid " + Findings.hex(r.zxid) + " is older than zxid "
            + Findings.hex(s.seen) + " its session had already seen", s.seenBy, r);
      } else if (r.zxid < s.syncFloor) {
        findings.violation(Property.SyncReads, "read after sync at zxid " + Findings.hex(r.zxid) + " misses zxid "
            + Findings.hex(s.syncFloor) + " (a write completed before the sync was invoked)", s.syncWrite, s.syncBy, r);
      }
    }
    if (s.syncBy != null) findings.checked(Property.SyncReads);
    Call future = writes.lastInvokedUpTo(r.zxid);
    if (future != null && future.invokeTime > r.completeTime) {
      findings.violation(Property.LinearizableWrites, "read completed before write #" + future.invokeIndex()
          + " was invoked, yet claims zxid " + Findings.hex(r.zxid) + " which includes that write", r, future);
    }
    see(s, r.zxid, r);
  }

  /**
   * A read whose reply carries no zxid (the official Java client does not expose it) was still served at some zxid p:
   * the replay's state of the path at p must be what it returned (data, and every Stat field it shows: mzxid,
   * pzxid, version, cversion bound p from both sides). Each session must be able to pick non-decreasing points, at
   * or above everything it has seen (its replies' zxids, its own writes, its watch events: MonotonicReads) and the
   * floor a sync set (SyncReads); and p cannot include a write invoked after the read completed
   * (LinearizableWrites). Taking the smallest feasible point for each read in turn is optimal for a chain: any later
   * point feasible for the next read stays feasible from a smaller floor.
   *
   * @return the hull [lo, hi) of the points the read could have been served at (where a watch it set was
   *     registered), or null when no state explains it
   */
  private long[] readWithoutZxid(Call r, Session s, boolean exists) {
    findings.checked(Property.LinearizableWrites);
    findings.checked(Property.MonotonicReads);
    if (s.syncBy != null) findings.checked(Property.SyncReads);
    long floor = Math.max(s.seen, s.syncFloor);
    ModelTree.PathLog log = tree.log(r.path);
    int n = log == null ? 0 : log.n;
    int from = log == null ? -1 : Math.max(-1, log.indexAt(Math.max(floor, 0)));
    long cap = writes.firstZxidInvokedAfter(r.completeTime); // the read was served below every write invoked after it
    long lo = -1, hi = -1;
    for (int j = from; j < n; j++) { // states that last past the floor, in zxid order: the first that matches is the point
      long start = j < 0 ? 0 : log.zxids[j];
      Call future = writes.lastInvokedUpTo(start);
      if (future != null && future.invokeTime > r.completeTime) break; // this state and every later one hold a future write
      if (!matches(j < 0 ? ModelTree.Snap.absent(0, null, false) : log.snaps[j], r, exists)) continue;
      if (lo < 0) lo = Math.max(start, floor);
      hi = Math.min(cap, j + 1 < n ? log.zxids[j + 1] : Long.MAX_VALUE);
    }
    if (lo >= 0) {
      see(s, lo, r);
      assert hi > lo || hi == cap : "a matching state's interval is empty";
      return new long[] {lo, Math.max(hi, lo + 1)};
    }
    if (info.mayExplain(r, exists, 0, tree)) return null; // an :info write nobody placed could explain it: lenient
    for (int j = from - 1, k = 0; j >= -1 && k < SEARCH_STATES_MAX; j--, k++) { // an older state: a stale read
      if (!matches(j < 0 ? ModelTree.Snap.absent(0, null, false) : log.snaps[j], r, exists)) continue;
      ModelTree.Snap ended = log.snaps[j + 1];
      if (ended.bySessionEnd) {
        findings.violation(Property.EphemeralLifetime, "read (no zxid) still sees ephemeral " + r.path + " although its session ended at zxid "
            + Findings.hex(ended.zxid) + ", before what the session had already seen", r, ended.cause, s.seenBy);
      } else if (ended.zxid <= s.seen) {
        findings.violation(Property.MonotonicReads, "read (no zxid) returned the state that zxid " + Findings.hex(ended.zxid)
            + " replaced, but its session had already seen zxid " + Findings.hex(s.seen), s.seenBy, ended.cause, r);
      } else {
        findings.violation(Property.SyncReads, "read (no zxid) after sync returned the state that zxid " + Findings.hex(ended.zxid)
            + " replaced, though the sync promised zxid " + Findings.hex(s.syncFloor), s.syncWrite, s.syncBy, ended.cause, r);
      }
      return null;
    }
    findings.violation(Property.LinearizableWrites, "read (no zxid) returned " + describe(r, exists)
        + ", which no state of the write order that it could have seen gives", r);
    return null;
  }

  /** Every sub-read of a read-only multi sees the tree at the multi's one zxid: none makes another look stale. */
  private void readMulti(Call m) {
    if (m.zxid == null && m.outcome == Op.Type.OK) {
      coexisted(m);
      return;
    }
    Session s = m.zxid == null || m.outcome != Op.Type.OK ? null : session(m);
    long seen = s == null ? -1 : s.seen;
    Call seenBy = s == null ? null : s.seenBy;
    for (Call sub : m.subs) {
      read(sub);
      if (s != null) {
        s.seen = seen;
        s.seenBy = seenBy;
      }
    }
    if (s != null) see(s, m.zxid, m);
  }

  /**
   * The cversion a client sees. ZooKeeper stores the number of child creations (the sequence counter) and
   * reports {@code 2 * stored - numChildren}, i.e. creations plus deletions of children (DataNode.copyStat).
   */
  static long visibleCversion(ModelTree.Snap snap) {
    return 2 * snap.cversion - snap.numChildren;
  }

  /**
   * A read-only multi without a zxid (the campaign records none) still read one state of the tree: the states its
   * sub-reads returned must have coexisted, i.e. the zxid intervals in which the replay has each of them overlap.
   */
  private void coexisted(Call m) {
    long from = 0, to = Long.MAX_VALUE;
    Call lateFrom = null, earlyTo = null;
    for (Call r : m.subs) {
      Boolean exists = observedExists(r);
      if (exists == null || r.path == null || (exists && r.stat == null)) continue; // data alone may repeat: no span
      if (info.mayExplain(r, exists, 0, tree)) return; // an :info write nobody placed could explain it: lenient
      ModelTree.PathLog log = tree.log(r.path);
      long[] span = log == null ? (exists ? null : new long[] {0, Long.MAX_VALUE}) : latestSpan(log, r, exists);
      findings.checked(Property.LinearizableWrites);
      if (span == null) {
        findings.violation(Property.LinearizableWrites, "read-only multi returned for " + r.path
            + " a state the write order never gives", m);
        return;
      }
      if (span[0] > from) {
        from = span[0];
        lateFrom = r;
      }
      if (span[1] < to) {
        to = span[1];
        earlyTo = r;
      }
    }
    if (from >= to) {
      findings.violation(Property.LinearizableWrites, "read-only multi saw " + lateFrom.path + " as of zxid " + Findings.hex(from)
          + " but " + earlyTo.path + " in a state that ended at zxid " + Findings.hex(to) + ": the states never coexisted", m);
    }
  }

  /** The zxid interval [first, end) of the latest state of the path that matches the read, or null. */
  private static long[] latestSpan(ModelTree.PathLog log, Call r, boolean exists) {
    for (int j = log.n - 1; j >= -1; j--) {
      ModelTree.Snap cand = j < 0 ? ModelTree.Snap.absent(0, null, false) : log.snaps[j];
      if (matches(cand, r, exists)) return new long[] {j < 0 ? 0 : log.zxids[j], j + 1 < log.n ? log.zxids[j + 1] : Long.MAX_VALUE};
    }
    return null;
  }

  private static Boolean observedExists(Call r) {
    if (r.outcome == Op.Type.FAIL) return "no-node".equals(r.error) ? Boolean.FALSE : null;
    if (r.kind == Call.Kind.EXISTS) {
      Object v = r.done.value();
      if (v instanceof Boolean b) return b;
      return r.stat != null;
    }
    return Boolean.TRUE;
  }

  /** True when a violation was reported for this read's returned state. */
  private boolean checkState(Call r, Session s, boolean exists) {
    ModelTree.PathLog log = tree.log(r.path);
    ModelTree.Snap at = tree.stateAt(r.path, r.zxid);
    if (matches(at, r, exists)) return false;
    if (info.mayExplain(r, exists, at.ephemeralOwner, tree)) return false;
    int i = log == null ? -1 : log.indexAt(r.zxid);
    // Older states: a stale read (allowed only if nothing newer was seen by the session or promised by sync).
    for (int j = i - 1, k = 0; log != null && j >= -1 && k < SEARCH_STATES_MAX; j--, k++) {
      ModelTree.Snap cand = j < 0 ? ModelTree.Snap.absent(0, null, false) : log.snaps[j];
      if (!matches(cand, r, exists)) continue;
      ModelTree.Snap ended = log.snaps[j + 1];
      stale(r, s, cand, ended);
      return true;
    }
    // Newer states: the read shows something its zxid does not yet contain.
    for (int j = i + 1, k = 0; log != null && j < log.n && k < SEARCH_STATES_MAX; j++, k++) {
      if (!matches(log.snaps[j], r, exists)) continue;
      findings.violation(Property.LinearizableWrites, "read claims zxid " + Findings.hex(r.zxid) + " but returned the state written at zxid "
          + Findings.hex(log.snaps[j].zxid) + ", later than that", r, log.snaps[j].cause);
      return true;
    }
    if (exists && !at.exists && i >= 0 && log.snaps[i].bySessionEnd) { // (reached only when no older state matched)
      findings.violation(Property.EphemeralLifetime, "read at zxid " + Findings.hex(r.zxid) + " still sees ephemeral " + r.path
          + " although its session ended at zxid " + Findings.hex(log.snaps[i].zxid), r, log.snaps[i].cause);
      return true;
    }
    java.util.SortedSet<String> absent = new java.util.TreeSet<>(), had = new java.util.TreeSet<>();
    listingDifference(r, exists, absent, had);
    String names = (absent.isEmpty() ? "" : " (listed without a node there: " + String.join(", ", absent) + ")")
        + (had.isEmpty() ? "" : " (not listed though the replay has them: " + String.join(", ", had) + ")");
    findings.mismatchViolation(Property.LinearizableWrites, "read at zxid " + Findings.hex(r.zxid) + " returned " + describe(r, exists)
        + " which no write produced; the data tree there is " + at.describe() + names, fieldsDiffering(at, r, exists) + absent.size() + had.size(),
        r, at.cause);
    return true;
  }

  /**
   * For a listing: the names it shows that the replay has no node for at the read's zxid (what a user looks for first)
   * into {@code absent}, and the names the replay has there that it does not show into {@code had}.
   */
  private void listingDifference(Call r, boolean exists, java.util.Set<String> absent, java.util.Set<String> had) {
    if (!exists || r.kind != Call.Kind.GET_CHILDREN || r.zxid == null) return;
    Object listed = r.multi != null ? r.data : r.done.value();
    if (!(listed instanceof List<?> kids)) return;
    had.addAll(tree.childrenAt(r.path, r.zxid));
    for (Object k : kids) if (!had.remove(String.valueOf(k))) absent.add(String.valueOf(k));
    had.remove("zookeeper");
    assert java.util.Collections.disjoint(absent, had) : "a name is either listed or not";
  }

  private void stale(Call r, Session s, ModelTree.Snap cand, ModelTree.Snap ended) {
    long hi = ended.zxid;
    Call endedBy = ended.cause;
    if (ended.bySessionEnd) {
      findings.violation(Property.EphemeralLifetime, "read at zxid " + Findings.hex(r.zxid) + " still sees ephemeral " + r.path
          + " although its session ended at zxid " + Findings.hex(hi), r, endedBy, cand.cause);
    } else if (s.seen >= hi) {
      findings.violation(Property.MonotonicReads, "read at zxid " + Findings.hex(r.zxid) + " returned the state before zxid "
          + Findings.hex(hi) + " but its session had already seen zxid " + Findings.hex(s.seen), s.seenBy, endedBy, r);
    } else if (s.syncFloor >= hi) {
      findings.violation(Property.SyncReads, "read after sync returned the state before zxid " + Findings.hex(hi)
          + " though that write completed before the sync was invoked", endedBy, s.syncBy, r);
    } else {
      findings.violation(Property.LinearizableWrites, "read claims zxid " + Findings.hex(r.zxid) + " but misses write #"
          + (endedBy == null ? "?" : endedBy.invokeIndex()) + " at zxid " + Findings.hex(hi) + " (lost or reordered write)", endedBy, r);
    }
  }

  private static String describe(Call r, boolean exists) {
    if (!exists) return "no node";
    if (r.kind == Call.Kind.GET_CHILDREN) return "children " + Edn.write(r.done.value());
    if (r.kind == Call.Kind.GET_DATA) return "data " + Edn.write(r.data);
    return "a node";
  }

  private static boolean matches(ModelTree.Snap snap, Call r, boolean exists) {
    if (snap.exists != exists) return false;
    if (!exists) return true;
    if (r.kind == Call.Kind.GET_DATA && !Objects.equals(snap.data, r.data)) return false;
    if (r.kind == Call.Kind.GET_CHILDREN) {
      Object listed = r.multi != null ? r.data : r.done.value(); // a multi's sub-read holds its own result
      if (!(listed instanceof List<?> kids)) return false;
      if (kids.size() != snap.numChildren) return false;
      long h = 0;
      for (Object k : kids) h += ModelTree.nameHash(String.valueOf(k));
      if (h != snap.childHash) return false;
    }
    Stat st = r.stat;
    if (st == null) return true;
    return eq(st.version(), snap.version) && eq(st.mzxid(), snap.mzxid) && eq(st.czxid(), snap.czxid)
        && eq(st.cversion(), visibleCversion(snap)) && eq(st.pzxid(), snap.pzxid) && eq(st.numChildren(), snap.numChildren)
        && eq(st.ephemeralOwner(), snap.ephemeralOwner);
  }

  /** Existence, data and the seven Stat fields compared. */
  static final int ALL_FIELDS = 9;

  /**
   * In how many of the fields the read shows (existence, data, version, czxid, mzxid, cversion, pzxid, num-children,
   * ephemeral owner) the replay's state differs: a node missing or extra differs in all of them. A measure of how
   * near a placement is to explaining the read (see {@link Findings#mismatchViolation}), never a verdict.
   */
  private static int fieldsDiffering(ModelTree.Snap snap, Call r, boolean exists) {
    if (snap.exists != exists) return ALL_FIELDS;
    if (!exists) return 0;
    int n = r.kind == Call.Kind.GET_DATA && !Objects.equals(snap.data, r.data) ? 1 : 0;
    Stat st = r.stat;
    if (st == null) return n;
    n += (eq(st.version(), snap.version) ? 0 : 1) + (eq(st.mzxid(), snap.mzxid) ? 0 : 1) + (eq(st.czxid(), snap.czxid) ? 0 : 1)
        + (eq(st.cversion(), visibleCversion(snap)) ? 0 : 1) + (eq(st.pzxid(), snap.pzxid) ? 0 : 1)
        + (eq(st.numChildren(), snap.numChildren) ? 0 : 1) + (eq(st.ephemeralOwner(), snap.ephemeralOwner) ? 0 : 1);
    assert n <= ALL_FIELDS : "at most every field differs";
    return n;
  }

  private static boolean eq(Long seen, long model) {
    return seen == null || seen == model;
  }

  // ---- sync ----

  private void sync(Call c) {
    if (c.outcome != Op.Type.OK) return;
    Session s = session(c);
    Call before = writes.lastCompletedBefore(c.invokeTime);
    long floor = c.zxid != null ? c.zxid : -1;
    if (c.zxid != null) {
      replyArrived(c);
      findings.checked(Property.SyncReads);
    }
    // without a zxid the sync still promises every write that completed before it was invoked to the later reads
    if (before != null) {
      long bz = before.effectiveZxid();
      if (c.zxid != null && c.zxid < bz) {
        findings.violation(Property.SyncReads, "sync returned zxid " + Findings.hex(c.zxid) + " but write #" + before.invokeIndex()
            + " at zxid " + Findings.hex(bz) + " completed before the sync was invoked", before, c);
      }
      floor = Math.max(floor, bz);
    }
    if (floor > s.syncFloor) {
      s.syncFloor = floor;
      s.syncBy = c;
      s.syncWrite = before;
    }
  }

  // ---- watches ----

  private void register(Call r) {
    boolean child = r.kind == Call.Kind.GET_CHILDREN;
    if (r.outcome == Op.Type.OK && r.kind == Call.Kind.GET_DATA && !Boolean.TRUE.equals(observedExists(r))) return;
    if (r.zxid == null && r.outcome == Op.Type.OK) return;
    Session s = session(r);
    String key = (child ? "c" : "d") + r.path;
    Watch old = s.watches.get(key);
    if (old != null && !old.done) return; // ZooKeeper keeps one watch per path and kind for a session
    long reg = r.zxid != null ? r.zxid : -1;
    long due = Long.MAX_VALUE;
    Call dueWrite = null;
    boolean approx = false;
    ModelTree.PathLog log = tree.log(r.path);
    if (log != null && reg >= 0) {
      long[] changes = child ? log.childChanges : log.dataChanges;
      int n = child ? log.nChild : log.nData;
      int i = java.util.Arrays.binarySearch(changes, 0, n, reg + 1);
      if (i < 0) i = -i - 1;
      if (i < n) {
        due = changes[i];
        ModelTree.Snap st = tree.stateAt(r.path, due);
        dueWrite = st.cause;
        approx = st.approx;
      }
    }
    // A change the replay inferred (an :info write) has an approximate zxid: such a watch is checked loosely.
    boolean inferred = approx;
    Watch w = new Watch(r.path, child, r, due, due, dueWrite, r.outcome == Op.Type.INFO || reg < 0 || inferred);
    s.watches.put(key, w);
    if (!w.maybe) s.byDue.add(w);
  }

  /**
   * The watch of an ok read without a zxid: ZooKeeper registers it when the read is served, at some point p in
   * [lo, hi) (the hull of the points the read could have been served at). Its first matching change is then any
   * change after lo up to the first change at or after hi ({@link Watch#dueMin}, {@link Watch#due}); which one is
   * left open, so an event is checked against that range and a reply only against the latest. With no interval
   * (lo &lt; 0: the read matched no state) nothing about the watch can be decided: it is only a possible watch.
   */
  private void registerWithin(Call r, long lo, long hi) {
    assert r.zxid == null && r.outcome == Op.Type.OK : "only an ok read without a zxid has an interval";
    boolean child = r.kind == Call.Kind.GET_CHILDREN;
    if (r.kind == Call.Kind.GET_DATA && !Boolean.TRUE.equals(observedExists(r))) return; // getData on no node sets none
    Session s = session(r);
    String key = (child ? "c" : "d") + r.path;
    Watch old = s.watches.get(key);
    if (old != null && !old.done) return; // ZooKeeper keeps one watch per path and kind for a session
    long dueMin = Long.MAX_VALUE, due = Long.MAX_VALUE;
    Call dueWrite = null;
    boolean approx = lo < 0;
    ModelTree.PathLog log = tree.log(r.path);
    if (log != null && lo >= 0) {
      long[] changes = child ? log.childChanges : log.dataChanges;
      int n = child ? log.nChild : log.nData;
      int i = firstAbove(changes, n, lo);
      if (i < n) {
        dueMin = changes[i];
        approx |= tree.stateAt(r.path, dueMin).approx;
      }
      int k = hi == Long.MAX_VALUE ? n : firstAbove(changes, n, hi - 1);
      if (k < n) {
        due = changes[k];
        ModelTree.Snap st = tree.stateAt(r.path, due);
        dueWrite = st.cause;
        approx |= st.approx;
      }
    }
    Watch w = new Watch(r.path, child, r, dueMin, due, dueWrite, approx);
    s.watches.put(key, w);
    if (!w.maybe && due != Long.MAX_VALUE) s.byDue.add(w);
  }

  /** The index of the first of the n sorted changes above {@code zxid}, or n. */
  private static int firstAbove(long[] changes, int n, long zxid) {
    int i = java.util.Arrays.binarySearch(changes, 0, n, zxid + 1);
    return i < 0 ? -i - 1 : i;
  }

  /** A reply at zxid z: every watch whose change is at or below z must already have fired. */
  private void replyArrived(Call c) {
    if (c.session == null) return;
    Session s = session(c);
    long z = c.zxid;
    rearm(s, z);
    while (!s.byDue.isEmpty()) {
      Watch w = s.byDue.peek();
      if (w.done) {
        s.byDue.poll();
        continue;
      }
      if (w.due > z) break;
      s.byDue.poll();
      w.done = true;
      findings.violation(Property.WatchOrdering, "reply at zxid " + Findings.hex(z) + " reflects the change at zxid " + Findings.hex(w.due)
          + " to " + w.path + " but the watch set by #" + w.registration.invokeIndex() + " had not fired", w.registration, w.dueWrite, c);
    }
  }

  /**
   * The missed exists watch across a reconnect (a named ZooKeeper rule). The Programmer's Guide (ZooKeeper Watches):
   * "a watch for the existence of a znode not yet created will be missed if the znode is created and deleted while
   * disconnected"; DataTree.setWatches (3.9.4) fires an exist watch only when the node exists at the reconnect and
   * otherwise re-adds it without an event. The reconnect's point r is unknown but at most the zxid z of the
   * session's first reply after it, so the re-added watch is due at the latest at the first change after z; an
   * event for any change after its registration stays acceptable (it may have fired at the reconnect). When the
   * node exists at z, it existed at r (SetWatches fired) or was created in (r, z] (the re-added watch fired): the
   * event was due before that reply, so the watch keeps its due.
   */
  private void rearm(Session s, long z) {
    for (Watch w : s.watches.values()) {
      if (!w.rearm || w.done) continue;
      w.rearm = false;
      if (tree.stateAt(w.path, z).exists) {
        if (!w.maybe && w.due != Long.MAX_VALUE) s.byDue.add(w);
        continue;
      }
      ModelTree.PathLog log = tree.log(w.path);
      int i = log == null ? 0 : firstAbove(log.dataChanges, log.nData, z);
      long next = log == null || i >= log.nData ? Long.MAX_VALUE : log.dataChanges[i];
      if (next > w.due) {
        w.due = next;
        w.dueWrite = next == Long.MAX_VALUE ? null : tree.stateAt(w.path, next).cause;
      }
      assert w.due >= w.dueMin : "a re-armed watch is due no earlier than before";
      if (!w.maybe && w.due != Long.MAX_VALUE) s.byDue.add(w);
    }
  }

  private void event(Call e) {
    Session s = session(e);
    findings.checked(Property.WatchOrdering);
    Object v = e.done.value();
    String type = null;
    String path = e.path;
    if (v instanceof Map<?, ?> m) {
      if (m.get(Keyword.of("event")) instanceof Keyword k) type = k.name();
      if (m.get(Keyword.of("path")) instanceof String p) path = p;
    }
    if (type == null || path == null) {
      findings.violation(Property.WatchOrdering, "watch event without :event type or :path", e);
      return;
    }
    Long ez = e.zxid;
    long floor = s.setWatchesWindow ? s.floorBeforeReconnect : s.lastEventZxid;
    if (ez != null && ez < floor) {
      findings.violation(Property.WatchOrdering, "watch event at zxid " + Findings.hex(ez) + " delivered after an event at zxid "
          + Findings.hex(floor), s.setWatchesWindow ? s.floorEvent : s.lastEvent, e);
    }
    Watch data = live(s, "d" + path);
    Watch child = live(s, "c" + path);
    Watch chosen = switch (type) {
      case "node-children-changed" -> child;
      case "node-deleted" -> data != null ? data : child;
      default -> data;
    };
    if (chosen == null && persistentCovers(s, path, type, e)) {
      checkPersistentEvent(path, type, e);
    } else if (chosen == null) {
      Call prior = s.lastFired.get(type + path);
      findings.violation(Property.WatchOrdering, prior != null
          ? "watch on " + path + " fired again (:" + type + ") without being set again"
          : ":" + type + " event for " + path + " but the session had no watch there", prior, e);
    } else {
      fire(s, chosen, e, type, ez);
      if (type.equals("node-deleted") && chosen == data && child != null) fire(s, child, e, type, ez);
    }
    s.lastFired.put(type + path, e);
    if (ez != null) {
      if (ez > s.lastEventZxid) {
        s.lastEventZxid = ez;
        s.lastEvent = e;
      }
      see(s, ez, e);
    }
  }

  // ---- persistent watches (addWatch): every matching change fires them; they are never consumed ----

  private void addWatch(Call c) {
    if (c.outcome == Op.Type.FAIL || c.path == null) return;
    Object mode = c.invoke == null ? null : c.invoke.value() instanceof Map<?, ?> m ? m.get(Keyword.of("mode")) : null;
    boolean recursive = mode instanceof Keyword k && k.name().equals("persistent-recursive");
    (recursive ? session(c).recursive : session(c).persistent).putIfAbsent(c.path, c);
  }

  /** A persistent watch on the path, or a recursive one on it or an ancestor (not for children events). */
  private static boolean persistentCovers(Session s, String path, String type, Call e) {
    if (s.persistent.isEmpty() && s.recursive.isEmpty()) return false;
    if (covers(s.persistent.get(path), e)) return true;
    if (type.equals("node-children-changed")) return false; // ZooKeeper sends recursive watchers no children events
    for (String p = path; ; p = ModelTree.parent(p)) {
      if (covers(s.recursive.get(p), e)) return true;
      if (p.equals("/")) return false;
    }
  }

  private static boolean covers(Call added, Call e) {
    // :info addWatch may or may not be in place; an ok one is in place from its reply on
    return added != null && (added.outcome == Op.Type.INFO || added.zxid == null || e.zxid == null || e.zxid > added.zxid);
  }

  /** An event for a persistent watch: the replay must have that kind of change on that path at the event's zxid. */
  private void checkPersistentEvent(String path, String type, Call e) {
    if (e.zxid == null) return;
    ModelTree.PathLog log = tree.log(path);
    boolean child = type.equals("node-children-changed");
    boolean changed = log != null && (child ? java.util.Arrays.binarySearch(log.childChanges, 0, log.nChild, e.zxid) >= 0
        : java.util.Arrays.binarySearch(log.dataChanges, 0, log.nData, e.zxid) >= 0);
    if (!changed && !info.mayExplainEvent(path, child, e.completeTime)) {
      findings.violation(Property.WatchOrdering, "persistent watch got :" + type + " for " + path + " at zxid "
          + Findings.hex(e.zxid) + " but the replay has no such change there", e);
    }
  }

  private static Watch live(Session s, String key) {
    Watch w = s.watches.get(key);
    return w == null || w.done ? null : w;
  }

  private void fire(Session s, Watch w, Call e, String type, Long ez) {
    w.done = true;
    s.watches.remove((w.child ? "c" : "d") + w.path);
    if ((ez == null || ez < w.due) && (ez == null || !changedAt(w, ez)) && info.mayExplainEvent(w.path, w.child, e.completeTime)) {
      return; // the change came from an :info write nobody else observed: the replay could not place it
    }
    if (w.dueMin == Long.MAX_VALUE) {
      if (!w.maybe) {
        findings.violation(Property.WatchOrdering, "watch set by #" + w.registration.invokeIndex() + " on " + w.path
            + " fired, but no change to it follows zxid " + Findings.hex(w.registration.zxid == null ? -1 : w.registration.zxid), w.registration, e);
      }
      return;
    }
    if (w.resumed && (ez == null || ez >= w.dueMin)) {
      // ZooKeeper's SetWatches reports a change missed while away with the zxid of the reconnect, not the change,
      // and with the type the node's state at the reconnect gives (DataTree.setWatches, 3.9.4): a data watch gets
      // NodeDeleted when the node is gone, else NodeDataChanged (also after a delete and re-create); an exist
      // watch NodeCreated; a child watch NodeDeleted or NodeChildrenChanged.
      boolean allowed = w.child ? type.equals("node-deleted") || type.equals("node-children-changed")
          : w.exist ? type.equals("node-created") : type.equals("node-deleted") || type.equals("node-data-changed");
      if (!allowed && !w.maybe) {
        findings.violation(Property.WatchOrdering, "watch set by #" + w.registration.invokeIndex() + " on " + w.path
            + " and resumed by a reconnect fired :" + type + ", which no state of the node at the reconnect gives", w.registration, e);
      }
      return;
    }
    if (ez != null && !w.maybe && (w.dueMin == w.due ? ez != w.due : ez < w.dueMin || ez > w.due || !changedAt(w, ez))) {
      findings.violation(Property.WatchOrdering, "watch set by #" + w.registration.invokeIndex() + " fired for zxid " + Findings.hex(ez)
          + " but the first matching change after its registration is at zxid " + Findings.hex(w.dueMin)
          + (w.dueMin == w.due ? "" : " to " + (w.due == Long.MAX_VALUE ? "none" : Findings.hex(w.due))), w.registration, w.dueWrite, e);
      return;
    }
    long changeAt = w.dueMin == w.due || ez == null ? w.due : ez; // the change that fired it
    if (changeAt == Long.MAX_VALUE) return; // (no zxid on the event, and the latest registration sees no change)
    String expected = expectedEvent(w, changeAt);
    if (!w.maybe && !expected.equals(type) && !(w.child && type.equals("node-deleted") && expected.equals("node-deleted"))) {
      findings.violation(Property.WatchOrdering, "watch set by #" + w.registration.invokeIndex() + " fired :" + type
          + " but the change at zxid " + Findings.hex(changeAt) + " is :" + expected, w.registration, w.dueWrite, e);
    }
  }

  /** True when the replay has a change of the watched kind on the watch's path exactly at {@code zxid}. */
  private boolean changedAt(Watch w, long zxid) {
    ModelTree.PathLog log = tree.log(w.path);
    if (log == null) return false;
    return w.child ? java.util.Arrays.binarySearch(log.childChanges, 0, log.nChild, zxid) >= 0
        : java.util.Arrays.binarySearch(log.dataChanges, 0, log.nData, zxid) >= 0;
  }

  private String expectedEvent(Watch w, long due) {
    ModelTree.PathLog log = tree.log(w.path);
    int i = java.util.Arrays.binarySearch(log.dataChanges, 0, log.nData, due);
    if (!w.child && i >= 0) { // the first data change at that zxid (a multi may change a node twice in one zxid)
      byte ev = log.dataEvents[i];
      return ev == ModelTree.CREATED ? "node-created" : ev == ModelTree.DELETED ? "node-deleted" : "node-data-changed";
    }
    ModelTree.Snap after = tree.stateAt(w.path, due);
    if (!after.exists) return "node-deleted";
    if (w.child) return "node-children-changed";
    return "node-data-changed";
  }

  private void endSession(Call c) {
    if (c.session == null) return;
    Session s = sessions.get(c.session);
    if (s == null) return;
    s.watches.clear();
    s.byDue.clear();
  }
}
