package io.zabkit.check;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What replies' Stats said about each node's data version: the state set at mzxid m had version v in the incarnation
 * created at czxid c. ZooKeeper increments a node's version by one with each successful set-data and starts it at 0
 * when the node is created, so two Stats of one incarnation bound the version the node had at any zxid between them.
 * A conditional set-data succeeds only on the version it names; on any other it is an error transaction that changes
 * nothing (ZooKeeper's PrepRequestProcessor: BadVersionException), so it cannot be the write a data change needs.
 *
 * <p>Kept as parallel primitive arrays per path (a million-operation history repeats the same few Stats in every
 * read): appended during pass 1, sorted by mzxid and deduplicated on the first query.
 */
final class VersionFacts {
  private static final class PerPath {
    long[] mzxid = new long[16], version = new long[16], czxid = new long[16];
    int n;
    boolean sorted = true;
  }

  private final Map<String, PerPath> byPath = new HashMap<>();

  /** Notes the Stat of an ok reply (a read, or a write's own result). */
  void note(Call c) {
    if (c.outcome != Op.Type.OK || c.path == null || c.stat == null) return;
    Stat s = c.stat;
    if (s.mzxid() == null || s.version() == null || s.czxid() == null) return;
    PerPath p = byPath.computeIfAbsent(c.path, k -> new PerPath());
    long m = s.mzxid();
    if (p.n > 0 && p.mzxid[p.n - 1] == m) return; // the common repeat: consecutive reads of one state
    if (p.n == p.mzxid.length) {
      int cap = p.n * 2;
      p.mzxid = Arrays.copyOf(p.mzxid, cap);
      p.version = Arrays.copyOf(p.version, cap);
      p.czxid = Arrays.copyOf(p.czxid, cap);
    }
    if (p.n > 0 && p.mzxid[p.n - 1] > m) p.sorted = false;
    p.mzxid[p.n] = m;
    p.version[p.n] = s.version();
    p.czxid[p.n] = s.czxid();
    p.n++;
  }

  /**
   * False when the Stats show that a set-data expecting {@code expected} could not succeed at zxid {@code z}: a Stat
   * at or above z of the incarnation that existed at z (created below z) caps the version before z (exactly one less
   * when that Stat's mzxid is z itself), and an earlier Stat of the same incarnation is a floor. Without such a Stat
   * nothing is known (the node may have been deleted and re-created, which resets the version) and the answer is true.
   */
  boolean couldSucceed(String path, long z, long expected) {
    PerPath p = byPath.get(path);
    if (p == null || p.n == 0) return true;
    if (!p.sorted) sort(p);
    int i = Arrays.binarySearch(p.mzxid, 0, p.n, z);
    int after = i >= 0 ? i : -i - 1; // the first Stat with mzxid >= z
    if (after >= p.n || p.czxid[after] >= z) return true;
    long cz = p.czxid[after];
    long hi = p.version[after] - 1; // the write at mzxid made that version: the version before z is at most one less
    if (p.mzxid[after] == z) return expected == hi;
    long lo = 0;
    int before = after - 1;
    if (before >= 0 && p.czxid[before] == cz) lo = p.version[before];
    return expected >= lo && expected <= hi;
  }

  private static void sort(PerPath p) {
    Integer[] order = new Integer[p.n];
    for (int i = 0; i < p.n; i++) order[i] = i;
    Arrays.sort(order, (a, b) -> Long.compare(p.mzxid[a], p.mzxid[b]));
    long[] m = new long[p.n], v = new long[p.n], c = new long[p.n];
    int k = 0;
    for (int idx : order) {
      if (k > 0 && m[k - 1] == p.mzxid[idx]) continue;
      m[k] = p.mzxid[idx];
      v[k] = p.version[idx];
      c[k] = p.czxid[idx];
      k++;
    }
    p.mzxid = m;
    p.version = v;
    p.czxid = c;
    p.n = k;
    p.sorted = true;
  }
}
