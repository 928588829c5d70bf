package io.zabkit.check;

import java.util.HashMap;
import java.util.Map;

/**
 * FifoClientOrder, streaming: within a session, replies arrive in the order requests were issued, and a write
 * issued after another request of the same session gets a larger zxid (ZooKeeper executes a session's
 * requests in order, and a write's zxid is above every zxid committed before it). Stale reads are
 * MonotonicReads' business, not this one's. Memory: one entry per session.
 */
final class SessionOrder {
  private static final class Last {
    long invokeIndex = -1;
    long zxid = -1;
    Call call; // the last reply
    Call maxCall; // the reply with the largest zxid
  }

  private final Map<Long, Last> sessions = new HashMap<>();
  private final Findings findings;

  SessionOrder(Findings findings) {
    this.findings = findings;
  }

  void accept(Call c) {
    if (c.session == null || c.invoke == null || c.outcome == Op.Type.INFO || c.zxid == null) return;
    if (c.kind == Call.Kind.CONNECT) return;
    findings.checked(Property.FifoClientOrder);
    Last last = sessions.computeIfAbsent(c.session, s -> new Last());
    if (c.invokeIndex() < last.invokeIndex) {
      findings.violation(Property.FifoClientOrder, "session 0x" + Long.toHexString(c.session) + " got the reply to #"
          + c.invokeIndex() + " after the reply to #" + last.invokeIndex + ", which it issued later", last.call, c);
      return;
    }
    if (c.kind.isWrite() && c.zxid <= last.zxid) {
      findings.violation(Property.FifoClientOrder, "session 0x" + Long.toHexString(c.session) + " issued write #"
          + c.invokeIndex() + " after #" + last.invokeIndex + " (zxid " + Findings.hex(last.zxid) + ") but it took effect at zxid "
          + Findings.hex(c.zxid) + ", not after", last.maxCall, c);
    }
    last.invokeIndex = c.invokeIndex();
    last.call = c;
    if (c.zxid > last.zxid) {
      last.zxid = c.zxid;
      last.maxCall = c;
    }
  }
}
