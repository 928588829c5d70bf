package io.zabkit.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The model data tree the writes are replayed on, in zxid order, plus the per-path index of every state a
 * znode went through, so that reads and watches can later be checked against "the state at zxid z".
 * Mirrors what ZooKeeper's PrepRequestProcessor decides: a sequential name takes the parent's cversion,
 * only creates increment cversion, delete checks existence, then version, then children.
 */
final class ModelTree {
  /** Events a change raises for watchers of the changed path. */
  static final byte NONE = 0, CREATED = 1, DATA_CHANGED = 2, DELETED = 3;

  /** A znode's state from {@code zxid} until the next Snap of the same path. Immutable. */
  static final class Snap {
    final long zxid;
    final boolean exists;
    final Object data;
    final long version, cversion, czxid, mzxid, pzxid, ephemeralOwner;
    final long numChildren, childHash;
    /** The write that produced this state (null for the initial root). */
    final Call cause;
    /** True when this state is an ephemeral's removal because its session ended. */
    final boolean bySessionEnd;
    /** True when an :info write (placed by inference, at an approximate zxid) made this state. */
    boolean approx;

    Snap(long zxid, boolean exists, Object data, long version, long cversion, long czxid, long mzxid, long pzxid,
        long ephemeralOwner, long numChildren, long childHash, Call cause, boolean bySessionEnd) {
      this.zxid = zxid;
      this.exists = exists;
      this.data = data;
      this.version = version;
      this.cversion = cversion;
      this.czxid = czxid;
      this.mzxid = mzxid;
      this.pzxid = pzxid;
      this.ephemeralOwner = ephemeralOwner;
      this.numChildren = numChildren;
      this.childHash = childHash;
      this.cause = cause;
      this.bySessionEnd = bySessionEnd;
    }

    static Snap absent(long zxid, Call cause, boolean bySessionEnd) {
      return new Snap(zxid, false, null, 0, 0, 0, 0, 0, 0, 0, 0, cause, bySessionEnd);
    }

    Snap withChildren(long zxid, long cversion, long pzxid, long numChildren, long childHash, Call cause) {
      return new Snap(zxid, exists, data, version, cversion, czxid, mzxid, pzxid, ephemeralOwner, numChildren, childHash, cause, false);
    }

    String describe() {
      if (!exists) return "absent";
      return "data=" + Edn.write(data) + " version=" + version + " mzxid=" + Findings.hex(mzxid) + " cversion=" + cversion
          + " children=" + numChildren + (ephemeralOwner != 0 ? " ephemeral-owner=0x" + Long.toHexString(ephemeralOwner) : "");
    }
  }

  /** Every state of one path, sorted by zxid; plus the zxids at which watch-relevant changes happened. */
  static final class PathLog {
    long[] zxids = new long[4];
    Snap[] snaps = new Snap[4];
    int n;
    long[] dataChanges = new long[2];
    byte[] dataEvents = new byte[2];
    int nData;
    long[] childChanges = new long[2];
    int nChild;

    void add(Snap s) {
      if (n > 0 && zxids[n - 1] == s.zxid) {
        snaps[n - 1] = s; // several changes in one transaction (session end): keep the final state
        return;
      }
      if (n == zxids.length) {
        zxids = Arrays.copyOf(zxids, n * 2);
        snaps = Arrays.copyOf(snaps, n * 2);
      }
      zxids[n] = s.zxid;
      snaps[n++] = s;
    }

    void dataChange(long zxid, byte event) {
      dataChange(zxid, event, false);
    }

    /**
     * @param firstWins true inside a multi: its sub-ops fire watches in order, so a standard watch gets the first
     *     change at the zxid (set-data then delete: NodeDataChanged)
     */
    void dataChange(long zxid, byte event, boolean firstWins) {
      if (nData > 0 && dataChanges[nData - 1] == zxid) {
        // removed and re-created at one inferred zxid: the last change wins
        if (!firstWins) dataEvents[nData - 1] = event;
        return;
      }
      if (nData == dataChanges.length) {
        dataChanges = Arrays.copyOf(dataChanges, nData * 2);
        dataEvents = Arrays.copyOf(dataEvents, nData * 2);
      }
      dataChanges[nData] = zxid;
      dataEvents[nData++] = event;
    }

    void childChange(long zxid) {
      if (nChild > 0 && childChanges[nChild - 1] == zxid) return;
      if (nChild == childChanges.length) childChanges = Arrays.copyOf(childChanges, nChild * 2);
      childChanges[nChild++] = zxid;
    }

    Snap last() {
      return n == 0 ? null : snaps[n - 1];
    }

    /** Position of the last state at or before {@code zxid}, or -1. */
    int indexAt(long zxid) {
      int i = Arrays.binarySearch(zxids, 0, n, zxid);
      return i >= 0 ? i : -i - 2;
    }
  }

  private final Map<String, PathLog> logs = new HashMap<>();
  private final Map<Long, Set<String>> ephemerals = new HashMap<>();
  private final Map<Long, Call> sessionEnds = new HashMap<>();
  private final Map<String, Map<String, Call>> sequentialNames = new HashMap<>();
  private final Findings findings;
  private final InfoWrites info;
  /** True while a multi's sub-ops are applied (they share one zxid). */
  private boolean inMulti;

  ModelTree(Findings findings, InfoWrites info) {
    this.findings = findings;
    this.info = info;
    // ZooKeeper's system nodes exist from the start (DataTree's constructor adds them without a transaction):
    // "/" lists "zookeeper", which holds "quota" and "config"; cversions stay 0.
    initial("/", 1, nameHash("zookeeper"));
    initial("/zookeeper", 2, nameHash("quota") + nameHash("config"));
    initial("/zookeeper/quota", 0, 0);
    initial("/zookeeper/config", 0, 0);
    childChange("/", 0, "zookeeper", true);
    childChange("/zookeeper", 0, "quota", true);
    childChange("/zookeeper", 0, "config", true);
  }

  private void initial(String path, long numChildren, long childHash) {
    PathLog l = new PathLog();
    l.add(new Snap(0, true, null, 0, 0, 0, 0, 0, 0, numChildren, childHash, null, false));
    logs.put(path, l);
  }

  PathLog log(String path) {
    return logs.get(path);
  }

  /**
   * The children of one parent over time: every change in replay (zxid) order, and a copy of the live set before every
   * {@link #CHECKPOINT_CHANGES}th change. The children at a zxid then cost the live set plus at most that many changes.
   * A scan of every path instead cost as many operations as nodes ever created, once per mismatched listing: a
   * million-operation history creates some 66,000 sequential nodes under /q, and a placement that leaves 100,000
   * violations made one replay quadratic (measured: the profile of a 100,000-operation history at 5 % :info spent most
   * of its samples there).
   */
  static final class ChildLog {
    static final int CHECKPOINT_CHANGES = 64;
    private long[] zxids = new long[8];
    private String[] names = new String[8];
    private boolean[] added = new boolean[8];
    private int n;
    private final java.util.TreeSet<String> live = new java.util.TreeSet<>();
    /** Entry k: the live set before change k * CHECKPOINT_CHANGES. */
    private final List<String[]> checkpoints = new ArrayList<>();

    void change(long zxid, String name, boolean add) {
      assert n == 0 || zxids[n - 1] <= zxid : "children change in zxid order";
      if (add == live.contains(name)) return; // (no change: the model adds or removes a child once)
      if (n % CHECKPOINT_CHANGES == 0) checkpoints.add(live.toArray(new String[0]));
      if (n == zxids.length) {
        zxids = Arrays.copyOf(zxids, n * 2);
        names = Arrays.copyOf(names, n * 2);
        added = Arrays.copyOf(added, n * 2);
      }
      zxids[n] = zxid;
      names[n] = name;
      added[n++] = add;
      if (add) live.add(name);
      else live.remove(name);
    }

    java.util.SortedSet<String> at(long zxid) {
      int lo = 0, hi = n; // the number of changes at or below zxid
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (zxids[mid] <= zxid) lo = mid + 1;
        else hi = mid;
      }
      if (lo == n) return new java.util.TreeSet<>(live);
      int k = lo / CHECKPOINT_CHANGES;
      java.util.TreeSet<String> out = new java.util.TreeSet<>(Arrays.asList(checkpoints.get(k)));
      for (int j = k * CHECKPOINT_CHANGES; j < lo; j++) {
        if (added[j]) out.add(names[j]);
        else out.remove(names[j]);
      }
      return out;
    }
  }

  private final Map<String, ChildLog> childLogs = new HashMap<>();

  private void childChange(String parentPath, long z, String child, boolean add) {
    childLogs.computeIfAbsent(parentPath, k -> new ChildLog()).change(z, child, add);
  }

  /** The names of parent's children that exist at zxid (violation messages, and the repair's listed-name moves). */
  java.util.SortedSet<String> childrenAt(String parent, long zxid) {
    ChildLog l = childLogs.get(parent);
    java.util.SortedSet<String> out = l == null ? new java.util.TreeSet<>() : l.at(zxid);
    assert out.equals(childrenAtByScan(parent, zxid)) : "the child log of " + parent + " agrees with the nodes' own logs at " + zxid;
    return out;
  }

  /** The same by visiting every path ever created: the reference the child log is asserted against (-ea). */
  private java.util.SortedSet<String> childrenAtByScan(String parent, long zxid) {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (String p : logs.keySet()) {
      if (!p.equals("/") && parent(p).equals(parent) && stateAt(p, zxid).exists) out.add(childName(p));
    }
    return out;
  }

  /** The state of {@code path} at {@code zxid} (absent when the path never existed by then). */
  Snap stateAt(String path, long zxid) {
    PathLog l = logs.get(path);
    if (l == null) return Snap.absent(0, null, false);
    int i = l.indexAt(zxid);
    return i < 0 ? Snap.absent(0, null, false) : l.snaps[i];
  }

  private Snap current(String path) {
    PathLog l = logs.get(path);
    Snap s = l == null ? null : l.last();
    return s == null ? Snap.absent(0, null, false) : s;
  }

  private PathLog logFor(String path) {
    return logs.computeIfAbsent(path, p -> new PathLog());
  }

  static String parent(String path) {
    int i = path.lastIndexOf('/');
    return i <= 0 ? "/" : path.substring(0, i);
  }

  static String childName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  static long nameHash(String name) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < name.length(); i++) {
      h ^= name.charAt(i);
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    return h ^ (h >>> 33);
  }

  Call sessionEnd(long session) {
    return sessionEnds.get(session);
  }

  /** Replays one write at zxid {@code z}. {@code observed} is false for an :info write resolved from observations. */
  void apply(Call w, long z) {
    switch (w.kind) {
      case CREATE -> applyCreate(w, z);
      case DELETE -> applyDelete(w, z);
      case SET_DATA -> applySetData(w, z);
      case CLOSE_SESSION, SESSION_EXPIRED -> endSession(w, w.session, z);
      case MULTI -> applyMulti(w, z);
      default -> throw new IllegalStateException("not a write: " + w);
    }
  }

  /**
   * A multi is atomic: its sub-operations are decided in order on the tree as the earlier ones left it (a
   * staged view, as PrepRequestProcessor does) and either all apply at zxid z or none does. The outcome the
   * client saw must match: ok only when every sub-op succeeds, a failure at the sub-op and with the error the
   * replay gives.
   */
  private void applyMulti(Call m, long z) {
    findings.checked(Property.LinearizableWrites);
    int modelFailed;
    String modelError;
    for (int attempt = 0; ; attempt++) {
      Staged staged = new Staged();
      modelFailed = -1;
      modelError = null;
      for (int i = 0; i < m.subs.size() && modelFailed < 0; i++) {
        modelError = staged.decide(m.subs.get(i));
        if (modelError != null) modelFailed = i;
      }
      // a sub-op the client saw succeed fails in the replay: an :info write (or a session end at an unknown
      // zxid) may explain it, as for a single write; then decide again on the tree it left
      if (modelFailed < 0 || m.outcome == Op.Type.INFO || attempt == m.subs.size()) break;
      if (!explainsSubOutcome(m, modelFailed, z, modelError)) break;
    }
    if (m.outcome == Op.Type.FAIL) {
      checkFailedMulti(m, z, modelFailed, modelError);
      return; // a failed multi changes nothing
    }
    if (m.outcome == Op.Type.INFO && modelFailed >= 0) return; // it would have failed: no trace
    if (modelFailed >= 0 && !info.pendingAround(m, m.subs.get(modelFailed).path, current(m.subs.get(modelFailed).path).ephemeralOwner != 0)) {
      Call sub = m.subs.get(modelFailed);
      mismatch(m, z, "a failure of sub-op " + modelFailed + " (:" + sub.kind.name().toLowerCase().replace('_', '-') + " "
          + sub.path + ") with :" + modelError, current(sub.path).cause != null ? current(sub.path) : current(parent(sub.path)));
    }
    inMulti = true;
    try {
      for (Call sub : m.subs) {
        switch (sub.kind) {
          case CREATE -> applyCreate(sub, z);
          case DELETE -> applyDelete(sub, z);
          case SET_DATA -> applySetData(sub, z);
          default -> { } // check: changes nothing
        }
      }
    } finally {
      inMulti = false;
    }
  }

  /**
   * Sub-op {@code k}, which the client saw succeed, fails in the replay with {@code modelError}: asks the :info
   * resolution to explain it as it would for a single write. Only when no earlier sub-op touched the path, so
   * that the tree (not the multi's staged view) is what the sub-op found.
   */
  private boolean explainsSubOutcome(Call m, int k, long z, String modelError) {
    Call sub = m.subs.get(k);
    if (sub.outcome != Op.Type.OK || sub.path == null) return false;
    for (int i = 0; i < k; i++) {
      String p = m.subs.get(i).path;
      if (p == null || p.equals(sub.path) || p.equals(parent(sub.path)) || parent(p).equals(sub.path)) return false;
    }
    return switch (sub.kind) {
      case CREATE -> !sub.sequential() && info.explainsCreateOutcome(this, sub, z, sub.path, modelError);
      case DELETE -> info.explainsDeleteOutcome(this, sub, z, current(sub.path), modelError);
      case SET_DATA, CHECK -> info.explainsSetDataOutcome(this, sub, z, current(sub.path), modelError);
      default -> false;
    };
  }

  private void checkFailedMulti(Call m, long z, int modelFailed, String modelError) {
    int seen = MultiOps.failedIndex(m);
    if (seen == -2) {
      findings.violation(Property.LinearizableWrites, "failed multi at zxid " + Findings.hex(z) + " reports per-op results that"
          + " ZooKeeper cannot give (ok before the failing op, :" + MultiOps.NOT_REACHED + " after it)", m);
      return;
    }
    String seenError = seen >= 0 ? m.subs.get(seen).error : m.error;
    boolean agrees = modelFailed >= 0 && (seen < 0 || seen == modelFailed) && (seenError == null || seenError.equals(modelError));
    if (agrees) return;
    int at = seen >= 0 ? seen : Math.max(modelFailed, 0);
    if (info.pendingAround(m, m.subs.get(at).path, current(m.subs.get(at).path).ephemeralOwner != 0)) return; // an :info write may explain it: lenient
    String says = modelFailed < 0 ? "every sub-op succeeding" : "sub-op " + modelFailed + " failing with :" + modelError;
    Snap state = current(m.subs.get(at).path);
    mismatch(m, z, says, state.cause != null ? state : current(parent(m.subs.get(at).path)));
  }

  /** What a multi's earlier sub-ops did to the tree, for deciding its later ones; the tree itself is untouched. */
  private final class Staged {
    private final Map<String, long[]> nodes = new HashMap<>(); // path -> {exists, version, cversion, children, owner}

    private long[] view(String path) {
      return nodes.computeIfAbsent(path, p -> {
        Snap s = current(p);
        return new long[] {s.exists ? 1 : 0, s.version, s.cversion, s.numChildren, s.ephemeralOwner};
      });
    }

    /** The error ZooKeeper gives this sub-op here, or null when it succeeds (and is then staged). */
    String decide(Call sub) {
      long[] n = view(sub.path);
      switch (sub.kind) {
        case CREATE -> {
          long[] p = view(parent(sub.path));
          String name = sub.sequential() ? sub.path + String.format("%010d", p[2]) : sub.path;
          if (sub.sequential() && sub.createdPath != null) name = sub.createdPath;
          if (p[0] == 0) return "no-node";
          long[] c = view(name);
          if (c[0] == 1) return "node-exists";
          if (p[4] != 0) return "no-children-for-ephemerals";
          c[0] = 1;
          c[1] = 0;
          c[2] = 0;
          c[3] = 0;
          c[4] = sub.ephemeral() && sub.session != null ? sub.session : 0;
          p[2]++;
          p[3]++;
          return null;
        }
        case DELETE -> {
          if (n[0] == 0) return "no-node";
          if (sub.expectedVersion != -1 && sub.expectedVersion != n[1]) return "bad-version";
          if (n[3] > 0) return "not-empty";
          n[0] = 0;
          view(parent(sub.path))[3]--;
          return null;
        }
        case SET_DATA -> {
          if (n[0] == 0) return "no-node";
          if (sub.expectedVersion != -1 && sub.expectedVersion != n[1]) return "bad-version";
          n[1]++;
          return null;
        }
        case CHECK -> {
          if (n[0] == 0) return "no-node";
          if (sub.expectedVersion != -1 && sub.expectedVersion != n[1]) return "bad-version";
          return null;
        }
        default -> throw new IllegalStateException("not a write sub-operation: " + sub.kind);
      }
    }
  }

  private boolean observed(Call w) {
    return w.outcome != Op.Type.INFO;
  }

  private void mismatch(Call w, long z, String modelSays, Snap state) {
    findings.violation(Property.LinearizableWrites, "write at zxid " + Findings.hex(z) + " returned "
        + outcome(w) + " but the data tree replayed in zxid order gives " + modelSays
        + (state.cause != null ? " (state " + state.describe() + " set by #" + state.cause.invokeIndex() + ")" : ""),
        w, state.cause);
  }

  private static String outcome(Call w) {
    return w.outcome == Op.Type.OK ? "ok" + (w.createdPath != null ? " " + w.createdPath : "")
        : ":" + w.outcome.name().toLowerCase() + (w.error != null ? " :" + w.error : "");
  }

  private void applyCreate(Call w, long z) {
    findings.checked(Property.LinearizableWrites);
    if (w.sequential()) findings.checked(Property.SequentialUniqueness);
    if (w.ephemeral()) findings.checked(Property.EphemeralLifetime);
    String parentPath = parent(w.path);
    Snap parent = current(parentPath);
    if (w.ephemeral() && w.session != null && sessionEnds.containsKey(w.session) && w.outcome == Op.Type.OK) {
      Call end = sessionEnds.get(w.session);
      findings.violation(Property.EphemeralLifetime, "session 0x" + Long.toHexString(w.session) + " ended at zxid "
          + Findings.hex(end.effectiveZxid()) + " but created ephemeral " + w.createdPath + " at zxid " + Findings.hex(z), end, w);
    }
    String name = w.path;
    if (w.sequential()) name = w.path + String.format("%010d", parent.cversion);
    String modelError = null;
    if (!parent.exists) modelError = "no-node";
    else if (current(name).exists) modelError = "node-exists";
    else if (parent.ephemeralOwner != 0) modelError = "no-children-for-ephemerals";
    if (!observed(w) && w.sequential() && w.namedPath != null && !w.namedPath.equals(name) && modelError == null) {
      // an observation named this :info create's node: its number must fit the parent's cversion here
      name = explainSequence(w, z, parentPath, parent, name, w.namedPath);
      parent = current(parentPath);
      if (current(name).exists) return;
    }
    if (observed(w)) {
      if (w.outcome == Op.Type.OK && w.sequential() && w.createdPath != null && !w.createdPath.equals(name)) {
        name = explainSequence(w, z, parentPath, parent, name, w.createdPath);
        parent = current(parentPath);
        modelError = current(name).exists ? "node-exists" : modelError;
      }
      String seen = w.outcome == Op.Type.OK ? null : w.error;
      if (!Objects.equals(seen, modelError)) {
        if (!info.explainsCreateOutcome(this, w, z, name, modelError)) {
          mismatch(w, z, modelError == null ? "ok " + name : ":" + modelError, modelError != null ? current(name) : parent);
        }
        if (w.outcome != Op.Type.OK) return;
        if (current(name).exists) forceAbsent(name, z, w);
        parent = current(parentPath);
        if (!parent.exists) return; // cannot follow an ok create under a missing parent; already reported
      } else if (seen != null) {
        return;
      }
      checkReplyStat(w, z, "czxid", w.stat == null ? null : w.stat.czxid(), z);
    } else if (modelError != null) {
      return; // an :info create that would have failed leaves no trace
    }
    create(w, z, parentPath, parent, name);
  }

  /** An ok sequential create returned another name than the parent's cversion gives: reuse, or :info creates. */
  private String explainSequence(Call w, long z, String parentPath, Snap parent, String expected, String created) {
    Map<String, Call> used = sequentialNames.get(parentPath);
    Call prior = used == null ? null : used.get(created);
    if (prior != null) {
      findings.violation(Property.SequentialUniqueness, "sequential name " + created + " handed out twice: at zxid "
          + Findings.hex(prior.effectiveZxid()) + " and at zxid " + Findings.hex(z), prior, w);
      return created;
    }
    long seen = sequenceOf(created, w.path);
    long gap = seen - parent.cversion;
    List<Call> lost = seen >= 0 && gap > 0 ? info.consumeChildCreates(parentPath, gap, w.completeTime) : null;
    if (lost != null) {
      // :info creates took the missing numbers before this create (every create bumps the parent's cversion,
      // a plain one too). Which sequential create took which number is known only when all of them share a
      // prefix; otherwise their nodes appear when an observation names them. A plain create's node is its own
      // path, created only when an observation needs it (InfoWrites): it is one guess among the candidates.
      boolean onePrefix = lost.stream().allMatch(c -> c.sequential() && !c.prefixUnknown) && lost.stream().map(c -> c.path).distinct().count() == 1;
      long next = parent.cversion;
      for (Call c : lost) {
        String lostName = c.path + String.format("%010d", next++);
        if (onePrefix && !current(lostName).exists) materialize(c, z, lostName, false);
      }
      Snap p = current(parentPath);
      if (p.cversion < seen) logFor(parentPath).add(p.withChildren(z, seen, p.pzxid, p.numChildren, p.childHash, w));
      return created;
    }
    findings.counterViolation(Property.LinearizableWrites, "sequential create at zxid " + Findings.hex(z) + " returned "
        + created + " but the parent's cversion there is " + parent.cversion + " (expected " + expected + ")",
        seen >= 0 ? seen - parent.cversion : 0, w, parent.cause);
    if (seen >= 0) {
      // count on from the number the reply shows: one wrong count is then reported once, not again at every later
      // sequential create under the parent. Only the count of follow-on findings changes: this violation stays
      // recorded, so a replay that has it is never clean, and one without it is as before; the step reads only
      // the parent's children and this known reply, like every other step (the search's locality holds)
      Snap p = current(parentPath);
      logFor(parentPath).add(p.withChildren(z, seen, p.pzxid, p.numChildren, p.childHash, w));
    }
    return created;
  }

  static long sequenceOf(String created, String prefix) {
    if (created == null || !created.startsWith(prefix) || created.length() != prefix.length() + 10) return -1;
    try {
      return Long.parseLong(created.substring(prefix.length()));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  void create(Call w, long z, String parentPath, Snap parent, String name) {
    // an :info create that already filled a sequence gap, or can take a number guessed there, has had its cversion
    // increment counted there
    boolean counted = w.numberTaken || info.takeGuessedNumber(w);
    createAt(w, z, parentPath, parent, name, counted ? parent.cversion : parent.cversion + 1);
  }

  /** Creates a node whose sequence number an :info create took earlier: cversion only moves past that number. */
  /** @param named true when an observation named the node (it existed); false when only its number was inferred */
  void materialize(Call w, long z, String name, boolean named) {
    String parentPath = parent(name);
    Snap parent = current(parentPath);
    long seq = sequenceOf(name, w.path);
    Call end = w.session == null ? null : sessionEnds.get(w.session);
    if (!named && w.ephemeral() && end != null && end.effectiveZxid() < z) {
      // its session ended before this point: the node, if it ever existed, is gone; only its number stays used
      if (seq + 1 > parent.cversion) logFor(parentPath).add(parent.withChildren(z, seq + 1, parent.pzxid, parent.numChildren, parent.childHash, w));
      return;
    }
    createAt(w, z, parentPath, parent, name, Math.max(parent.cversion, seq + 1));
  }

  /** True when the node's current state was made by an :info write the replay placed by inference. */
  boolean inferred(String path) {
    Snap s = current(path);
    return s.exists && s.cause != null && s.cause.outcome == Op.Type.INFO;
  }

  private void createAt(Call w, long z, String parentPath, Snap parent, String name, long newCversion) {
    long owner = w.ephemeral() && w.session != null ? w.session : 0;
    PathLog nl = logFor(name);
    boolean approx = inferred(w);
    Snap created = new Snap(z, true, w.data, 0, 0, z, z, z, owner, 0, 0, w, false);
    created.approx = approx;
    nl.add(created);
    nl.dataChange(z, CREATED, inMulti);
    String child = childName(name);
    PathLog pl = logFor(parentPath);
    Snap p = parent.withChildren(z, newCversion, z, parent.numChildren + 1, parent.childHash + nameHash(child), w);
    p.approx = approx;
    pl.add(p);
    pl.childChange(z);
    childChange(parentPath, z, child, true);
    if (owner != 0) ephemerals.computeIfAbsent(owner, k -> new LinkedHashSet<>()).add(name);
    if (w.sequential()) sequentialNames.computeIfAbsent(parentPath, k -> new HashMap<>()).put(name, w);
  }

  private void applyDelete(Call w, long z) {
    findings.checked(Property.LinearizableWrites);
    Snap node = current(w.path);
    String modelError = null;
    if (!node.exists) modelError = "no-node";
    else if (w.expectedVersion != -1 && w.expectedVersion != node.version) modelError = "bad-version";
    else if (node.numChildren > 0) modelError = "not-empty";
    if (observed(w)) {
      String seen = w.outcome == Op.Type.OK ? null : w.error;
      if (!Objects.equals(seen, modelError) && !info.explainsDeleteOutcome(this, w, z, node, modelError)) {
        mismatch(w, z, modelError == null ? "ok" : ":" + modelError, node);
      }
      if (seen != null || !current(w.path).exists) return;
    } else if (modelError != null) {
      return;
    }
    remove(w.path, z, w, false);
  }

  /** Removes an existing node and its parent link at zxid z. */
  void remove(String path, long z, Call cause, boolean bySessionEnd) {
    Snap node = current(path);
    // approximate: made by an :info write, or the node may already have gone by an :info delete nobody observed
    boolean approx = inferred(cause) || (node.cause != null && inferred(node.cause))
        || info.mayHaveDeleted(path, cause.completeTime);
    PathLog nl = logFor(path);
    Snap gone = Snap.absent(z, cause, bySessionEnd);
    gone.approx = approx;
    nl.add(gone);
    nl.dataChange(z, DELETED, inMulti);
    nl.childChange(z); // child watches on the node fire NodeDeleted
    String parentPath = parent(path);
    Snap parent = current(parentPath);
    PathLog pl = logFor(parentPath);
    Snap p = parent.withChildren(z, parent.cversion, z, parent.numChildren - 1, parent.childHash - nameHash(childName(path)), cause);
    p.approx = approx;
    pl.add(p);
    pl.childChange(z);
    childChange(parentPath, z, childName(path), false);
    if (node.ephemeralOwner != 0) {
      Set<String> owned = ephemerals.get(node.ephemeralOwner);
      if (owned != null) owned.remove(path);
    }
  }

  private void forceAbsent(String path, long z, Call cause) {
    remove(path, z, cause, false);
  }

  private void applySetData(Call w, long z) {
    findings.checked(Property.LinearizableWrites);
    Snap node = current(w.path);
    String modelError = null;
    if (!node.exists) modelError = "no-node";
    else if (w.expectedVersion != -1 && w.expectedVersion != node.version) modelError = "bad-version";
    if (observed(w)) {
      String seen = w.outcome == Op.Type.OK ? null : w.error;
      if (!Objects.equals(seen, modelError)) {
        if (!info.explainsSetDataOutcome(this, w, z, node, modelError)) mismatch(w, z, modelError == null ? "ok" : ":" + modelError, node);
        node = current(w.path);
      }
      if (seen != null || !node.exists) return;
      long newVersion = node.version + 1;
      if (w.stat != null && w.stat.version() != null && w.stat.version() != newVersion) {
        long gap = w.stat.version() - newVersion;
        if (gap > 0 && info.consumeWrites(w.path, gap, w.completeTime, node.version, node.mzxid) != null) {
          newVersion = w.stat.version();
        } else {
          findings.violation(Property.LinearizableWrites, "set-data at zxid " + Findings.hex(z) + " returned version "
              + w.stat.version() + " but the data tree gives " + newVersion + " (previous state set by #"
              + (node.cause == null ? "-" : node.cause.invokeIndex()) + ")", w, node.cause);
          newVersion = w.stat.version();
        }
      }
      checkReplyStat(w, z, "mzxid", w.stat == null ? null : w.stat.mzxid(), z);
      setData(w, z, node, w.data, newVersion);
    } else if (modelError == null) {
      setData(w, z, node, w.data, node.version + 1);
    }
  }

  /**
   * True when an :info write's slot is a guess of the proposal's rules. A slot the search decided (forced) is exact
   * for that placement, so the states it makes are checked as strictly as a known write's: a decided operation
   * excuses nothing, and another placement is the search's to try.
   */
  private static boolean inferred(Call w) {
    return w.outcome == Op.Type.INFO && !w.forced;
  }

  void setData(Call w, long z, Snap node, Object data, long version) {
    PathLog l = logFor(w.path);
    Snap changed = new Snap(z, true, data, version, node.cversion, node.czxid, z, node.pzxid, node.ephemeralOwner, node.numChildren, node.childHash, w, false);
    changed.approx = inferred(w);
    l.add(changed);
    l.dataChange(z, DATA_CHANGED, inMulti);
  }

  private void checkReplyStat(Call w, long z, String field, Long seen, long expected) {
    if (seen != null && seen != expected) {
      findings.violation(Property.LinearizableWrites, "reply stat :" + field + " " + Findings.hex(seen) + " of the write at zxid "
          + Findings.hex(z) + " should be " + Findings.hex(expected), w);
    }
  }

  /** A session ended (close-session, or expiry) at zxid z: its ephemerals go, at that zxid. */
  void endSession(Call w, Long session, long z) {
    endSession(w, session, z, false);
  }

  /** @param inferred the end's zxid was inferred from an observation, so it only bounds from above */
  void endSession(Call w, Long session, long z, boolean inferred) {
    if (session == null) return;
    if (w.outcome == Op.Type.FAIL) return;
    findings.checked(Property.EphemeralLifetime);
    if (!inferred) {
      Call prior = sessionEnds.putIfAbsent(session, w);
      if (prior != null && prior.effectiveZxid() != z) return; // reported twice (close reply and expiry event)
    }
    Set<String> owned = ephemerals.remove(session);
    if (owned == null) return;
    for (String path : new ArrayList<>(owned)) {
      if (current(path).exists) remove(path, z, w, true);
    }
  }

  /** Ephemeral paths a session still owns in the model (for :info session ends). */
  Set<String> ephemeralsOf(long session) {
    return ephemerals.getOrDefault(session, Set.of());
  }

  /** For :info explanations: the current state of a path. */
  Snap now(String path) {
    return current(path);
  }

  List<String> paths() {
    return new ArrayList<>(logs.keySet());
  }
}
