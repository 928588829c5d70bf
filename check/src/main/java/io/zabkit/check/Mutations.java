package io.zabkit.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Known-bad histories, made by mutating a correct one in a single place. Each mutation names the property it
 * must break; {@link #apply} returns null when the history offers no place to apply it (try another seed).
 */
public final class Mutations {
  private Mutations() {}

  /** One way to break a history. */
  public record Mutation(String name, Property expected, String description, Function<View, List<Op>> mutate) {}

  /** The mutations of the corpus, in a fixed order. */
  public static List<Mutation> all() {
    return List.of(
        new Mutation("stale-read-after-own-write", Property.MonotonicReads,
            "a session reads the value before its own acknowledged write", Mutations::staleOwnRead),
        new Mutation("stale-read-after-sync", Property.SyncReads,
            "a read right after sync misses a write that completed before the sync was invoked", Mutations::staleAfterSync),
        new Mutation("sync-behind-completed-write", Property.SyncReads,
            "sync returns a zxid below a write that completed before it was invoked", Mutations::syncBehind),
        new Mutation("lost-acknowledged-write", Property.LinearizableWrites,
            "another session reads, at a later zxid, the value an acknowledged write replaced", Mutations::lostWrite),
        new Mutation("two-orders", Property.LinearizableWrites,
            "a session sees the older of two writes as the latest (data of one, stat of the other)", Mutations::twoOrders),
        new Mutation("zxid-against-real-time", Property.LinearizableWrites,
            "two writes swap zxids although one completed before the other was invoked", Mutations::zxidSwap),
        new Mutation("version-reused", Property.LinearizableWrites,
            "a write reports the version its predecessor already had (an acknowledged write lost)", Mutations::versionReused),
        new Mutation("cas-on-wrong-version", Property.LinearizableWrites,
            "a conditional set-data succeeds although its expected version was not the node's", Mutations::casWrongVersion),
        new Mutation("fifo-writes-reordered", Property.FifoClientOrder,
            "a session's later write takes effect before its earlier one", Mutations::fifoSwap),
        new Mutation("watch-event-after-new-value", Property.WatchOrdering,
            "a watch event arrives after a reply that already reflects the change", Mutations::eventAfterReply),
        new Mutation("watch-fired-twice", Property.WatchOrdering,
            "a watch event is delivered twice", Mutations::eventTwice),
        new Mutation("watch-event-missed", Property.WatchOrdering,
            "a watch event is never delivered though the session stays alive and sees the change", Mutations::eventMissed),
        new Mutation("sequence-number-reused", Property.SequentialUniqueness,
            "a sequential create returns a name an earlier create already got", Mutations::sequenceReused),
        new Mutation("ephemeral-outlives-session", Property.EphemeralLifetime,
            "an ephemeral is still read after its owner's session ended", Mutations::ephemeralSurvives));
  }

  /** Indexes over a history for the mutations: pairs, writes per path, what each session saw. */
  public static final class View {
    final List<Op> ops;
    final int[] invokeOf; // position of a completion's invocation, -1 otherwise
    final Map<String, List<Integer>> okWritesByPath = new HashMap<>(); // completion positions, zxid order

    public View(List<Op> ops) {
      this.ops = ops;
      invokeOf = new int[ops.size()];
      Map<Integer, Integer> open = new HashMap<>();
      for (int i = 0; i < ops.size(); i++) {
        Op o = ops.get(i);
        invokeOf[i] = -1;
        if (o.f().equals("watch-event") || o.f().equals("session-expired")) continue;
        if (o.isInvoke()) open.put(o.process(), i);
        else {
          Integer inv = open.remove(o.process());
          invokeOf[i] = inv == null ? -1 : inv;
          if (o.type() == Op.Type.OK && o.zxid() != null && (o.f().equals("set-data") || o.f().equals("create")) && o.stat() != null) {
            okWritesByPath.computeIfAbsent(createdOrPath(o), k -> new ArrayList<>()).add(i);
          }
        }
      }
      for (List<Integer> l : okWritesByPath.values()) l.sort((a, b) -> Long.compare(ops.get(a).zxid(), ops.get(b).zxid()));
    }

    Op invoke(int completion) {
      return ops.get(invokeOf[completion]);
    }

    /** The ok write on the same path just before the one at {@code pos}, if the versions say nothing is between. */
    Integer previousWrite(int pos) {
      Op w = ops.get(pos);
      List<Integer> l = okWritesByPath.get(createdOrPath(w));
      int k = l.indexOf(pos);
      if (k <= 0) return null;
      Op p = ops.get(l.get(k - 1));
      if (p.stat().version() == null || w.stat().version() == null || p.stat().version() != w.stat().version() - 1) return null;
      return l.get(k - 1);
    }

    /** The ok write whose zxid is {@code mzxid} on this path, if any. */
    Integer writeAt(String path, long mzxid) {
      List<Integer> l = okWritesByPath.get(path);
      if (l == null) return null;
      for (int p : l) if (ops.get(p).zxid() == mzxid) return p;
      return null;
    }

    /** Largest zxid the session saw in completions and events strictly before position {@code pos}. */
    long seenBefore(long session, int pos) {
      long seen = -1;
      for (int i = 0; i < pos; i++) {
        Op o = ops.get(i);
        if (!o.isInvoke() && o.session() != null && o.session() == session && o.zxid() != null && o.type() != Op.Type.INFO
            && !o.f().equals("sync")) seen = Math.max(seen, o.zxid());
      }
      return seen;
    }

    boolean syncedBefore(long session, int pos) {
      for (int i = 0; i < pos; i++) {
        Op o = ops.get(i);
        if (o.f().equals("sync") && o.session() != null && o.session() == session) return true;
      }
      return false;
    }
  }

  static String createdOrPath(Op o) {
    if (o.f().equals("create") && o.value() instanceof Map<?, ?> m && m.get(Keyword.of("created-path")) instanceof String p) return p;
    return o.path();
  }

  static boolean isRegister(String path) {
    return path != null && path.startsWith("/r");
  }

  /** Copies the history with {@code changes} applied, and the :index fields renumbered. */
  static List<Op> with(List<Op> ops, Map<Integer, Op> changes) {
    List<Op> out = new ArrayList<>(ops.size());
    for (int i = 0; i < ops.size(); i++) out.add(changes.getOrDefault(i, ops.get(i)));
    return renumber(out);
  }

  static List<Op> renumber(List<Op> ops) {
    List<Op> out = new ArrayList<>(ops.size());
    for (int i = 0; i < ops.size(); i++) out.add(ops.get(i).withIndex(i));
    return out;
  }

  /** A read's reply replaced by the state the write at {@code prevPos} left. */
  private static Op readState(Op read, Op prevWrite) {
    Object data = prevWrite.f().equals("create") ? ((Map<?, ?>) prevWrite.value()).get(Keyword.of("data")) : prevWrite.value();
    return read.withValue(data).withStat(prevWrite.stat());
  }

  // ---- the mutations ----

  private static List<Op> staleOwnRead(View v) {
    for (int i = 0; i < v.ops.size(); i++) {
      Op r = v.ops.get(i);
      if (!isOkRead(r) || !isRegister(r.path())) continue;
      Integer w = v.writeAt(r.path(), r.stat().mzxid());
      if (w == null || w >= i || !v.ops.get(w).session().equals(r.session()) || !v.ops.get(w).f().equals("set-data")) continue;
      Integer prev = v.previousWrite(w);
      if (prev == null) continue;
      return with(v.ops, Map.of(i, readState(r, v.ops.get(prev))));
    }
    return null;
  }

  private static List<Op> staleAfterSync(View v) {
    for (int i = 0; i < v.ops.size(); i++) {
      Op r = v.ops.get(i);
      if (!isOkRead(r) || !isRegister(r.path()) || v.invokeOf[i] < 1) continue;
      int inv = v.invokeOf[i];
      // the op before this read in the session: a sync
      int s = -1;
      for (int j = inv - 1; j >= 0; j--) {
        Op o = v.ops.get(j);
        if (o.session() != null && o.session().equals(r.session()) && !o.f().equals("watch-event")) {
          if (o.f().equals("sync") && o.type() == Op.Type.OK) s = j;
          break;
        }
      }
      if (s < 0) continue;
      long syncInvoked = v.invoke(s).time();
      long seen = v.seenBefore(r.session(), i);
      // the last write to this path completed before the sync was invoked, newer than anything the session saw
      List<Integer> writes = v.okWritesByPath.get(r.path());
      for (int k = writes.size() - 1; k >= 0; k--) {
        Op w = v.ops.get(writes.get(k));
        if (w.time() >= syncInvoked) continue;
        if (w.zxid() <= seen || !w.f().equals("set-data") || w.zxid() > r.stat().mzxid()) break;
        Integer prev = v.previousWrite(writes.get(k));
        if (prev == null) break;
        return with(v.ops, Map.of(i, readState(r, v.ops.get(prev))));
      }
    }
    return null;
  }

  private static List<Op> syncBehind(View v) {
    for (int i = 0; i < v.ops.size(); i++) {
      Op s = v.ops.get(i);
      if (!s.f().equals("sync") || s.type() != Op.Type.OK || v.invokeOf[i] < 0) continue;
      long invoked = v.invoke(i).time();
      long bound = -1;
      for (int j = 0; j < v.invokeOf[i]; j++) {
        Op o = v.ops.get(j);
        if (!o.isInvoke() && o.zxid() != null && o.type() != Op.Type.INFO && isWriteF(o.f())) bound = Math.max(bound, o.zxid());
      }
      long seen = v.seenBefore(s.session(), i);
      if (bound <= seen + 1 || s.time() < invoked) continue;
      // the session's later reads must not themselves reveal the gap as MonotonicReads: take the last sync
      return with(v.ops, Map.of(i, s.withZxid(bound - 1)));
    }
    return null;
  }

  private static List<Op> lostWrite(View v) {
    for (int i = 0; i < v.ops.size(); i++) {
      Op r = v.ops.get(i);
      if (!isOkRead(r) || !isRegister(r.path())) continue;
      Integer w = v.writeAt(r.path(), r.stat().mzxid());
      if (w == null || v.ops.get(w).session().equals(r.session()) || !v.ops.get(w).f().equals("set-data")) continue;
      if (v.seenBefore(r.session(), i) >= v.ops.get(w).zxid() || v.syncedBefore(r.session(), i)) continue;
      Integer prev = v.previousWrite(w);
      if (prev == null) continue;
      return with(v.ops, Map.of(i, readState(r, v.ops.get(prev))));
    }
    return null;
  }

  private static List<Op> twoOrders(View v) {
    for (int i = 0; i < v.ops.size(); i++) {
      Op r = v.ops.get(i);
      if (!isOkRead(r) || !isRegister(r.path())) continue;
      Integer w = v.writeAt(r.path(), r.stat().mzxid());
      if (w == null || !v.ops.get(w).f().equals("set-data")) continue;
      Integer prev = v.previousWrite(w);
      if (prev == null) continue;
      Op p = v.ops.get(prev);
      Object oldData = p.f().equals("create") ? ((Map<?, ?>) p.value()).get(Keyword.of("data")) : p.value();
      return with(v.ops, Map.of(i, r.withValue(oldData)));
    }
    return null;
  }

  private static List<Op> zxidSwap(View v) {
    List<Integer> writes = okSetData(v);
    for (int a = 0; a < writes.size(); a++) {
      Op w1 = v.ops.get(writes.get(a));
      for (int b = a + 1; b < Math.min(writes.size(), a + 40); b++) {
        Op w2 = v.ops.get(writes.get(b));
        if (w2.path().equals(w1.path()) || w2.session().equals(w1.session())) continue;
        if (!(w1.time() < v.invoke(writes.get(b)).time() && w2.zxid() > w1.zxid())) continue;
        Map<Integer, Op> ch = new HashMap<>();
        ch.put(writes.get(a), w1.withZxid(w2.zxid()).withStat(w1.stat().withMzxid(w2.zxid())));
        ch.put(writes.get(b), w2.withZxid(w1.zxid()).withStat(w2.stat().withMzxid(w1.zxid())));
        return with(v.ops, ch);
      }
    }
    return null;
  }

  private static List<Op> versionReused(View v) {
    for (int pos : okSetData(v)) {
      Op w = v.ops.get(pos);
      if (!isRegister(w.path()) || w.version() == null || w.version() != -1) continue;
      Integer prev = v.previousWrite(pos);
      if (prev == null) continue;
      return with(v.ops, Map.of(pos, w.withStat(w.stat().withVersion(v.ops.get(prev).stat().version()))));
    }
    return null;
  }

  private static List<Op> casWrongVersion(View v) {
    for (int pos : okSetData(v)) {
      Op w = v.ops.get(pos);
      if (!isRegister(w.path()) || w.version() == null || w.version() < 0) continue;
      long wrong = w.version() + 5;
      Op inv = v.invoke(pos);
      Map<Integer, Op> ch = new HashMap<>();
      ch.put(v.invokeOf[pos], withVersion(inv, wrong));
      ch.put(pos, withVersion(w, wrong));
      return with(v.ops, ch);
    }
    return null;
  }

  private static Op withVersion(Op o, long version) {
    return new Op(o.index(), o.type(), o.process(), o.f(), o.value(), o.time(), o.session(), o.path(), version, o.zxid(), o.stat(), o.error(), o.watch());
  }

  private static List<Op> fifoSwap(View v) {
    List<Integer> writes = okSetData(v);
    Map<Long, Integer> lastBySession = new HashMap<>();
    for (int pos : writes) {
      Op w = v.ops.get(pos);
      Integer prevPos = lastBySession.put(w.session(), pos);
      if (prevPos == null) continue;
      Op p = v.ops.get(prevPos);
      if (p.path().equals(w.path())) continue;
      Map<Integer, Op> ch = new HashMap<>();
      ch.put(prevPos, p.withZxid(w.zxid()).withStat(p.stat().withMzxid(w.zxid())));
      ch.put(pos, w.withZxid(p.zxid()).withStat(w.stat().withMzxid(p.zxid())));
      return with(v.ops, ch);
    }
    return null;
  }

  /** Position of the first reply of the event's session after it whose zxid reflects the event's change. */
  private static int replyReflecting(View v, int e) {
    Op ev = v.ops.get(e);
    for (int j = e + 1; j < v.ops.size(); j++) {
      Op o = v.ops.get(j);
      if (o.session() == null || !o.session().equals(ev.session())) continue;
      if (o.f().equals("watch-event") || o.f().equals("session-expired")) continue;
      if (o.f().equals("close-session")) return -1;
      if (!o.isInvoke() && o.type() != Op.Type.INFO && o.zxid() != null && o.zxid() >= ev.zxid()) return j;
    }
    return -1;
  }

  private static List<Op> eventAfterReply(View v) {
    for (int e = 0; e < v.ops.size(); e++) {
      if (!v.ops.get(e).f().equals("watch-event")) continue;
      int r = replyReflecting(v, e);
      if (r < 0) continue;
      List<Op> out = new ArrayList<>(v.ops);
      Op ev = out.remove(e);
      out.add(r, ev.withTime(v.ops.get(r).time())); // now just after the reply (which moved up by one)
      return renumber(out);
    }
    return null;
  }

  private static List<Op> eventTwice(View v) {
    for (int e = 0; e < v.ops.size(); e++) {
      if (!v.ops.get(e).f().equals("watch-event")) continue;
      List<Op> out = new ArrayList<>(v.ops);
      out.add(e + 1, v.ops.get(e));
      return renumber(out);
    }
    return null;
  }

  private static List<Op> eventMissed(View v) {
    for (int e = 0; e < v.ops.size(); e++) {
      if (!v.ops.get(e).f().equals("watch-event") || replyReflecting(v, e) < 0) continue;
      List<Op> out = new ArrayList<>(v.ops);
      out.remove(e);
      return renumber(out);
    }
    return null;
  }

  private static List<Op> sequenceReused(View v) {
    Map<String, Integer> firstByPrefix = new HashMap<>();
    for (int i = 0; i < v.ops.size(); i++) {
      Op c = v.ops.get(i);
      if (c.isInvoke() || c.type() != Op.Type.OK || !c.f().equals("create") || !(c.value() instanceof Map<?, ?> m)) continue;
      if (!(m.get(Keyword.of("mode")) instanceof Keyword mode) || !mode.name().endsWith("sequential")) continue;
      Integer first = firstByPrefix.putIfAbsent(c.path(), i);
      if (first == null) continue;
      Map<Object, Object> nv = new java.util.LinkedHashMap<>(m);
      nv.put(Keyword.of("created-path"), createdOrPath(v.ops.get(first)));
      return with(v.ops, Map.of(i, c.withValue(nv)));
    }
    return null;
  }

  private static List<Op> ephemeralSurvives(View v) {
    // an ephemeral (create ok, never deleted before its owner's session ended at a known zxid)
    for (int i = 0; i < v.ops.size(); i++) {
      Op end = v.ops.get(i);
      boolean ended = (end.f().equals("close-session") && end.type() == Op.Type.OK) || end.f().equals("session-expired");
      if (!ended || end.zxid() == null || end.session() == null) continue;
      for (int j = 0; j < i; j++) {
        Op c = v.ops.get(j);
        if (c.isInvoke() || c.type() != Op.Type.OK || !c.f().equals("create") || !end.session().equals(c.session())) continue;
        if (!(c.value() instanceof Map<?, ?> m) || !(m.get(Keyword.of("mode")) instanceof Keyword mode) || !mode.name().startsWith("ephemeral")) continue;
        String node = createdOrPath(c);
        if (deletedBetween(v, node, j, i)) continue;
        long fresh = 0x7e57000000000000L;
        int process = maxProcess(v) + 1;
        Object data = m.get(Keyword.of("data"));
        Op inv = new Op(0, Op.Type.INVOKE, process, "get-data", null, end.time(), fresh, node, null, null, null, null, false);
        Op ok = new Op(0, Op.Type.OK, process, "get-data", data, end.time(), fresh, node, null, end.zxid(), c.stat(), null, false);
        List<Op> out = new ArrayList<>(v.ops);
        out.add(i + 1, ok);
        out.add(i + 1, inv);
        return renumber(out);
      }
    }
    return null;
  }

  private static boolean deletedBetween(View v, String path, int from, int to) {
    for (int k = from + 1; k < to; k++) {
      Op d = v.ops.get(k);
      if (!d.isInvoke() && d.f().equals("delete") && path.equals(d.path()) && d.type() != Op.Type.FAIL) return true;
    }
    return false;
  }

  private static int maxProcess(View v) {
    int max = 0;
    for (Op o : v.ops) max = Math.max(max, o.process());
    return max;
  }

  private static boolean isOkRead(Op r) {
    return !r.isInvoke() && r.type() == Op.Type.OK && r.f().equals("get-data") && r.stat() != null && r.stat().mzxid() != null;
  }

  private static boolean isWriteF(String f) {
    return f.equals("set-data") || f.equals("create") || f.equals("delete") || f.equals("close-session");
  }

  private static List<Integer> okSetData(View v) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < v.ops.size(); i++) {
      Op o = v.ops.get(i);
      if (!o.isInvoke() && o.type() == Op.Type.OK && o.f().equals("set-data") && o.zxid() != null && o.stat() != null && v.invokeOf[i] >= 0) out.add(i);
    }
    return out;
  }
}
