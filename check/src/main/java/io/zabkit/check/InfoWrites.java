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
  private final Map<String, List<Call>> byPath = new HashMap<>();
  private final Map<String, List<Call>> createsByParent = new HashMap<>();
  private final Map<Long, Call> unknownSessionEnds = new HashMap<>();
  private int count;

  void add(Call c) {
    if (c.kind == Call.Kind.SESSION_EXPIRED || c.kind == Call.Kind.CLOSE_SESSION) {
      if (c.session != null) unknownSessionEnds.putIfAbsent(c.session, c);
      return;
    }
    if (c.path == null) return;
    count++;
    byPath.computeIfAbsent(c.path, k -> new ArrayList<>()).add(c);
    if (c.kind == Call.Kind.CREATE) createsByParent.computeIfAbsent(ModelTree.parent(c.path), k -> new ArrayList<>()).add(c);
  }

  int size() {
    return count;
  }

  /** Every :info write that an observation placed at a zxid. */
  void forEachResolved(java.util.function.Consumer<Call> sink) {
    for (List<Call> list : byPath.values()) for (Call c : list) if (c.resolvedZxid >= 0) sink.accept(c);
  }

  /** Places :info writes at the zxids that reads observed but no known write explains. */
  void resolve(Map<Long, Observation> observed, java.util.function.LongPredicate knownZxid) {
    if (count == 0) return;
    for (Map.Entry<Long, Observation> e : observed.entrySet()) {
      long z = e.getKey();
      if (knownZxid.test(z)) continue;
      Observation o = e.getValue();
      List<Call> candidates = byPath.get(o.path);
      if (candidates == null) continue;
      for (Call c : candidates) {
        if (c.resolvedZxid >= 0 || c.infoConsumed || c.invokeTime > o.completeTime) continue;
        if (o.creation && c.kind != Call.Kind.CREATE) continue;
        if (c.kind == Call.Kind.DELETE || (!o.creation && !Objects.equals(c.data, o.data))) continue;
        c.resolvedZxid = z;
        break;
      }
    }
  }

  /** A zxid seen in a Stat (mzxid, or czxid when {@code creation}), with what was read there. */
  record Observation(String path, Object data, boolean creation, long completeTime) {}

  private static int available(List<Call> list, long before, Call.Kind kind) {
    if (list == null) return 0;
    int n = 0;
    for (Call c : list) if (usable(c, before, kind)) n++;
    return n;
  }

  private static boolean usable(Call c, long before, Call.Kind kind) {
    return !c.infoConsumed && c.resolvedZxid < 0 && c.invokeTime < before && (kind == null || c.kind == kind);
  }

  private static Call take(List<Call> list, long before, Call.Kind kind) {
    if (list == null) return null;
    for (Call c : list) {
      if (usable(c, before, kind)) {
        c.infoConsumed = true;
        return c;
      }
    }
    return null;
  }

  boolean consumeWrites(String path, long n, long before) {
    List<Call> list = byPath.get(path);
    if (available(list, before, Call.Kind.SET_DATA) < n) return false;
    for (long i = 0; i < n; i++) take(list, before, Call.Kind.SET_DATA);
    return true;
  }

  boolean consumeChildCreates(String parent, long n, long before) {
    List<Call> list = createsByParent.get(parent);
    if (available(list, before, Call.Kind.CREATE) < n) return false;
    for (long i = 0; i < n; i++) take(list, before, Call.Kind.CREATE);
    return true;
  }

  /** An ephemeral whose owner's session ended at an unknown zxid: end it now, if that explains things. */
  private boolean endUnknownSession(ModelTree tree, ModelTree.Snap node, long z) {
    if (!node.exists || node.ephemeralOwner == 0) return false;
    Call end = unknownSessionEnds.remove(node.ephemeralOwner);
    if (end == null) return false;
    end.resolvedZxid = z;
    tree.endSession(end, node.ephemeralOwner, z);
    return true;
  }

  boolean explainsCreateOutcome(ModelTree tree, Call w, long z, String name, String modelError) {
    ModelTree.Snap node = tree.now(name);
    if (w.outcome == Op.Type.OK && "node-exists".equals(modelError)) {
      if (endUnknownSession(tree, node, z)) return true;
      Call del = take(byPath.get(name), w.completeTime, Call.Kind.DELETE);
      if (del != null) {
        tree.remove(name, z, del, false);
        return true;
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
      Call cr = take(byPath.get(w.path), w.completeTime, Call.Kind.CREATE);
      if (cr != null) {
        String parentPath = ModelTree.parent(w.path);
        ModelTree.Snap parent = tree.now(parentPath);
        if (!parent.exists) return false;
        tree.create(cr, z, parentPath, parent, w.path);
        return true;
      }
    }
    if ("no-node".equals(w.error) && modelError == null) {
      if (endUnknownSession(tree, node, z)) return true;
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
    if ("no-node".equals(w.error) && modelError == null) {
      if (endUnknownSession(tree, node, z)) return true;
      Call del = take(byPath.get(w.path), w.completeTime, Call.Kind.DELETE);
      if (del != null) {
        tree.remove(w.path, z, del, false);
        return true;
      }
    }
    return explainsVersion(tree, w, z, node, modelError);
  }

  /** A conditional write whose outcome needs the node's version to have moved by :info set-datas. */
  private boolean explainsVersion(ModelTree tree, Call w, long z, ModelTree.Snap node, String modelError) {
    if (!node.exists) return false;
    if ("bad-version".equals(w.error) && modelError == null) {
      Call sd = take(byPath.get(w.path), w.completeTime, Call.Kind.SET_DATA);
      if (sd == null) return false;
      tree.setData(sd, z, node, sd.data, node.version + 1);
      return true;
    }
    if (w.outcome == Op.Type.OK && "bad-version".equals(modelError) && w.expectedVersion > node.version) {
      long gap = w.expectedVersion - node.version;
      List<Call> list = byPath.get(w.path);
      if (available(list, w.completeTime, Call.Kind.SET_DATA) < gap) return false;
      Call last = null;
      for (long i = 0; i < gap; i++) last = take(list, w.completeTime, Call.Kind.SET_DATA);
      tree.setData(last, z, node, last.data, w.expectedVersion);
      return true;
    }
    return false;
  }

  /** True when some :info write on the path, or an unknown session end of the node's owner, could explain a read. */
  boolean mayExplain(String path, long before, long ephemeralOwner) {
    if (ephemeralOwner != 0 && unknownSessionEnds.containsKey(ephemeralOwner)) return true;
    List<Call> list = byPath.get(path);
    if (list == null) {
      List<Call> kids = createsByParent.get(path);
      if (kids == null) return false;
      for (Call c : kids) if (c.invokeTime < before) return true;
      return false;
    }
    for (Call c : list) if (c.invokeTime < before) return true;
    List<Call> kids = createsByParent.get(path);
    if (kids != null) for (Call c : kids) if (c.invokeTime < before) return true;
    return false;
  }

  /** Sessions whose end was reported without a zxid (for children checks). */
  boolean hasUnknownSessionEnds() {
    return !unknownSessionEnds.isEmpty();
  }
}
