package io.zabkit.check;

import java.util.Arrays;
import java.util.List;

/**
 * The replayed writes, indexed for the second pass: by completion time (what had completed before a sync was
 * invoked) and by zxid (what a state at zxid z contains, and when those writes were invoked).
 */
final class WriteIndex {
  private final long[] completeTimes;
  private final long[] maxZxidByCompletion;
  private final Call[] maxZxidWriteByCompletion;
  private final long[] zxids;
  private final long[] maxInvokeByZxid;
  private final Call[] maxInvokeWriteByZxid;

  /** @param byZxid writes that took effect, sorted by zxid */
  WriteIndex(List<Call> byZxid) {
    int n = byZxid.size();
    zxids = new long[n];
    maxInvokeByZxid = new long[n];
    maxInvokeWriteByZxid = new Call[n];
    long maxInv = Long.MIN_VALUE;
    Call maxInvCall = null;
    for (int i = 0; i < n; i++) {
      Call w = byZxid.get(i);
      zxids[i] = w.effectiveZxid();
      if (w.invoke != null && w.invokeTime > maxInv) {
        maxInv = w.invokeTime;
        maxInvCall = w;
      }
      maxInvokeByZxid[i] = maxInv;
      maxInvokeWriteByZxid[i] = maxInvCall;
    }
    Call[] done = byZxid.stream().filter(w -> w.completeTime != Call.NEVER && w.invoke != null)
        .sorted((a, b) -> Long.compare(a.completeTime, b.completeTime)).toArray(Call[]::new);
    completeTimes = new long[done.length];
    maxZxidByCompletion = new long[done.length];
    maxZxidWriteByCompletion = new Call[done.length];
    long maxZ = -1;
    Call maxZCall = null;
    for (int i = 0; i < done.length; i++) {
      completeTimes[i] = done[i].completeTime;
      if (done[i].effectiveZxid() > maxZ) {
        maxZ = done[i].effectiveZxid();
        maxZCall = done[i];
      }
      maxZxidByCompletion[i] = maxZ;
      maxZxidWriteByCompletion[i] = maxZCall;
    }
  }

  /** The write with the largest zxid among those completed strictly before {@code time}, or null. */
  Call lastCompletedBefore(long time) {
    int i = Arrays.binarySearch(completeTimes, time);
    if (i < 0) i = -i - 1;
    else while (i > 0 && completeTimes[i - 1] == time) i--;
    return i == 0 ? null : maxZxidWriteByCompletion[i - 1];
  }

  /** Among writes with zxid at most {@code zxid}, the one invoked last, or null. */
  Call lastInvokedUpTo(long zxid) {
    int i = Arrays.binarySearch(zxids, zxid);
    if (i < 0) i = -i - 2;
    return i < 0 ? null : maxInvokeWriteByZxid[i];
  }

  /**
   * The smallest zxid of a write invoked after {@code time} (a state served by a read that completed at
   * {@code time} lies below it), or Long.MAX_VALUE.
   */
  long firstZxidInvokedAfter(long time) {
    int lo = 0, hi = zxids.length; // maxInvokeByZxid is non-decreasing: find the first index above time
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (maxInvokeByZxid[mid] > time) hi = mid;
      else lo = mid + 1;
    }
    return lo == zxids.length ? Long.MAX_VALUE : zxids[lo];
  }

  /** The write at exactly {@code zxid}, if known. */
  boolean has(long zxid) {
    return Arrays.binarySearch(zxids, zxid) >= 0;
  }
}
