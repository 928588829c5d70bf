package io.zabkit.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Propagation from observations to indeterminate operations, as Elle does from unique written values: when what a
 * read saw can have been written by one indeterminate operation only, that operation took effect, and no later than
 * the read's zxid. The {@link ExhaustiveSearch} then never tries the placements that leave it out or put it above.
 *
 * <p>What pins an operation (each rule needs exactly one possible writer: no known write and no other
 * indeterminate operation, with a slot allowed by its floor, could have produced the observation):
 * <ul>
 * <li>a read returned data D at a path: the writer of D there took effect, at or below the read's zxid;</li>
 * <li>a read listed child x of a path: the creator of that child took effect, at or below the read's zxid;</li>
 * <li>a read's Stat names an mzxid (czxid) no known write has: the one writer (creator) of the path sits exactly
 * there.</li>
 * </ul>
 * Why it loses no explanation: the replay compares every read with the model's state at its zxid (or at some point
 * of its window, for a read without one): data, children and Stat fields. A placement that leaves the only possible
 * writer out, or above the read, leaves that read unexplained, whatever else is placed: the history is violated
 * under it. Pins only remove such placements, so the search's CONFIRMED stays "every placement is violated", now
 * partly through a read the replay would have rejected (reported under LinearizableWrites, the read's property).
 * Candidates are counted over every write of the history, known or indeterminate (placeable or not), so a pin is
 * never made while another operation could still explain the read; data that is null or empty is never used.
 */
final class Propagation {
  /** A constraint on one indeterminate operation: it took effect, at exactly {@code exact} when not 0, else at or below {@code upper}. */
  record Pin(long exact, long upper, Call because) {
    /** Two observations asked for two different exact zxids: no slot satisfies both. */
    static final long CONFLICT = -1;

    Pin {
      assert upper > 0 : "a pin bounds a slot from above";
      assert because != null : "a pin names the read it comes from";
    }

    boolean allows(long z) {
      return exact == 0 ? z <= upper : z == exact && z <= upper;
    }

    /** The largest zxid the operation may still take (negative: none). */
    long last() {
      return exact == 0 ? upper : exact == CONFLICT || exact > upper ? -1 : exact;
    }
  }

  /** One write of the history: an operation, or one sub-operation of a multi. */
  private record Part(Call owner, Call part) {}

  private final Map<String, List<Part>> writersByPath = new HashMap<>();
  /**
   * The same writes by path and then by the data they wrote: a register of the bench generator has some 56,000
   * set-datas in a million operations, and a scan of them per read made the pins quadratic (jstack samples of
   * make bench-check's search: every one in {@link #writers}, for minutes).
   */
  private final Map<String, Map<Object, List<Part>>> writersByPathData = new HashMap<>();
  private final List<Call> reads = new ArrayList<>();

  /** Collects writes and the reads that can pin them (one pass of the history, with the {@link Pairer}). */
  void add(Call c) {
    if (c.outcome == Op.Type.OK || c.outcome == Op.Type.INFO) {
      for (Call part : c.subs != null ? c.subs : List.of(c)) {
        if (part.kind != Call.Kind.CREATE && part.kind != Call.Kind.SET_DATA) continue;
        String at = part.kind == Call.Kind.CREATE && part.createdPath != null ? part.createdPath : part.path;
        if (at == null) continue;
        Part w = new Part(c, part);
        writersByPath.computeIfAbsent(at, k -> new ArrayList<>()).add(w);
        writersByPathData.computeIfAbsent(at, k -> new HashMap<>()).computeIfAbsent(dataKey(part.data), k -> new ArrayList<>()).add(w);
      }
    }
    if (c.outcome == Op.Type.OK && c.path != null && c.multi == null
        && (c.kind == Call.Kind.GET_DATA || c.kind == Call.Kind.GET_CHILDREN || (c.kind == Call.Kind.EXISTS && Boolean.TRUE.equals(c.done.value())))) {
      reads.add(c);
    }
  }

  /**
   * The pins of the placeable indeterminate operations (by key). {@code known} is the sorted zxids of known writes;
   * {@code floors} bounds each operation's slot from below.
   */
  Map<Long, Pin> pins(List<Call> placeable, long[] known, ExhaustiveSearch.Floors floors) {
    Set<Call> canPlace = new java.util.HashSet<>(placeable);
    Map<Long, Pin> out = new HashMap<>();
    for (Call r : reads) {
      long z = r.zxid == null ? Long.MAX_VALUE : r.zxid;
      if (r.stat != null) {
        Long m = r.stat.mzxid();
        if (m != null && free(m, known)) pin(out, writers(r.path, null, false), m, 0, r, canPlace, floors);
        Long cz = r.stat.czxid();
        if (cz != null && free(cz, known)) pin(out, writers(r.path, null, true), cz, 0, r, canPlace, floors);
      }
      if (r.kind == Call.Kind.GET_DATA && r.data != null && !"".equals(r.data)) {
        pin(out, writers(r.path, r.data, false), 0, z, r, canPlace, floors);
      }
      if (r.kind == Call.Kind.GET_CHILDREN && r.done.value() instanceof List<?> kids) {
        for (Object k : kids) {
          String child = r.path.equals("/") ? "/" + k : r.path + "/" + k;
          // a known create of the child itself is among the candidates, and a known candidate pins nothing: skip the
          // scan of every :info create of the child's prefix (the same outcome as pin's, without the quadratic cost)
          if (knownCreateOf(child)) continue;
          pin(out, writers(child, null, true), 0, z, r, canPlace, floors);
        }
      }
    }
    return out;
  }

  private static boolean free(long z, long[] known) {
    return z > 0 && (z & 0xffffffffL) != 0 && java.util.Arrays.binarySearch(known, z) < 0;
  }

  /**
   * Every write that could have put {@code data} (any data when null) at {@code path}, or created it when
   * {@code create}: writes of the path itself, sequential creates of its prefix, and creates whose prefix is unknown
   * under its parent.
   */
  private List<Part> writers(String path, Object data, boolean create) {
    List<Part> out = new ArrayList<>();
    List<String> keys = new ArrayList<>(List.of(path));
    String prefix = InfoWrites.sequencePrefix(path);
    if (prefix != null) keys.add(prefix);
    if (!path.equals("/")) keys.add(ModelTree.parent(path));
    for (int i = 0; i < keys.size(); i++) {
      List<Part> candidates = data == null ? writersByPath.getOrDefault(keys.get(i), List.of())
          : writersByPathData.getOrDefault(keys.get(i), Map.of()).getOrDefault(dataKey(data), List.of());
      for (Part w : candidates) {
        boolean viaParent = i == keys.size() - 1 && !path.equals("/") && !keys.get(i).equals(path);
        if (viaParent && !(w.part().kind == Call.Kind.CREATE && w.part().prefixUnknown)) continue;
        if (i > 0 && !viaParent && !(w.part().kind == Call.Kind.CREATE && w.part().sequential())) continue;
        if (create && w.part().kind != Call.Kind.CREATE) continue;
        if (data != null && !Objects.equals(w.part().data, data)) continue;
        out.add(w);
      }
    }
    return out;
  }

  /** Whether a write that is not :info created {@code path} itself (then {@link #pin} pins nothing for its creation). */
  private boolean knownCreateOf(String path) {
    for (Part w : writersByPath.getOrDefault(path, List.of())) {
      if (w.owner().outcome != Op.Type.INFO && w.part().kind == Call.Kind.CREATE) return true;
    }
    return false;
  }

  /** The data as a map key: the index holds null data under one key of its own. */
  private static Object dataKey(Object data) {
    return data == null ? NO_DATA : data;
  }

  private static final Object NO_DATA = new Object();

  /** Pins the one candidate when there is exactly one that could be there: exactly at {@code exact}, or at or below {@code upper}. */
  private static void pin(Map<Long, Pin> out, List<Part> candidates, long exact, long upper, Call r, Set<Call> canPlace, ExhaustiveSearch.Floors floors) {
    Call only = null;
    long bound = exact != 0 ? exact : upper;
    for (Part w : candidates) {
      Call c = w.owner();
      if (c.outcome != Op.Type.INFO) return; // a known write could have produced it: nothing is pinned
      if (c.invoke != null && floors.floor(c.invokeTime) >= bound) continue; // it cannot sit at or below the bound
      if (only != null && only != c) return; // two candidates: nothing is pinned
      only = c;
    }
    if (only == null || !canPlace.contains(only)) return; // no candidate (a violation the replay reports), or one the search does not place
    Pin was = out.get(only.key());
    Pin now;
    if (exact != 0) {
      long e = was == null || was.exact() == 0 || was.exact() == exact ? exact : Pin.CONFLICT;
      now = new Pin(e, was == null ? Long.MAX_VALUE : was.upper(), was != null && was.exact() == e ? was.because() : r);
    } else {
      now = new Pin(was == null ? 0 : was.exact(), Math.min(upper, was == null ? Long.MAX_VALUE : was.upper()), was != null && was.upper() <= upper ? was.because() : r);
    }
    out.put(only.key(), now);
  }
}
