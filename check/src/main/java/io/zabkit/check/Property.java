package io.zabkit.check;

/** The client-level guarantees the checker decides, named as in the shared zabkit vocabulary. */
public enum Property {
  /** There is one total order of writes (the zxid order) consistent with real time and every result a client saw. */
  LinearizableWrites,
  /** A session's requests take effect, and are answered, in the order the session issued them. */
  FifoClientOrder,
  /** A read never returns state older than what its session has already seen, across reconnects. */
  MonotonicReads,
  /** A read after sync sees every write that completed before the sync was invoked. */
  SyncReads,
  /** A watch fires once, for the first matching change, in zxid order, before any reply reflecting the change. */
  WatchOrdering,
  /** An ephemeral znode never outlives the session that owns it. */
  EphemeralLifetime,
  /** A sequential name under a parent is never handed out twice. */
  SequentialUniqueness
}
