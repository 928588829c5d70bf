package io.zabkit.check;

import java.util.List;
import java.util.Map;

/**
 * One operation with its outcome: an invocation paired with its completion (or a completion-only event such as
 * a watch event). Jepsen's register aliases are normalised here: {@code :write} and {@code :cas} become
 * set-data, {@code :read} becomes get-data.
 */
final class Call {
  enum Kind {
    CREATE, DELETE, SET_DATA, GET_DATA, EXISTS, GET_CHILDREN, SYNC, WATCH_EVENT, CLOSE_SESSION, SESSION_EXPIRED, CONNECT, MULTI,
    /** A read-only multi (every sub-operation a read): checked as reads at one zxid, never replayed. */
    MULTI_READ,
    /** addWatch: a persistent (or persistent-recursive) watch, never consumed by an event. */
    ADD_WATCH,
    /** A multi's version check: changes nothing, fails the multi on a missing node or another version. */
    CHECK,
    OTHER;

    boolean isWrite() {
      return this == CREATE || this == DELETE || this == SET_DATA || this == CLOSE_SESSION || this == SESSION_EXPIRED || this == MULTI;
    }

    boolean isRead() {
      return this == GET_DATA || this == EXISTS || this == GET_CHILDREN;
    }
  }

  static final long NEVER = Long.MAX_VALUE;

  final Op invoke; // null for a completion-only event
  final Op done;
  final Kind kind;
  final Op.Type outcome;
  final Long session;
  final String path;
  /** Expected version of a conditional write, -1 for any. */
  final long expectedVersion;
  /** Data written (create, set-data) or read (get-data). */
  final Object data;
  final String mode;
  final String createdPath;
  final Long zxid;
  final Stat stat;
  final String error;
  final boolean watch;
  final long invokeTime;
  /** {@link #NEVER} for :info: the operation may still take effect at any later time. */
  final long completeTime;
  /** A multi's sub-operations in request order (with their per-op results); null for anything else. */
  final List<Call> subs;
  /** For a sub-operation: its multi; null otherwise. */
  final Call multi;
  // Set by the replay for :info writes that later observations show took effect.
  long resolvedZxid = -1;
  boolean infoConsumed;
  /**
   * The exhaustive search decided this indeterminate operation never took effect: no rule may place, consume or
   * excuse a read with it (see {@link ExhaustiveSearch}).
   */
  boolean forcedAbsent;
  /** The search decided this operation (placed at a slot or {@link #forcedAbsent}): no rule may excuse a mismatch with it. */
  boolean forced;
  /** For an operation a replay rule consumed (or gave a sequence number): the zxid of the write whose outcome needed it, else -1. */
  long consumedAt = -1;
  /**
   * For a set-data consumed by a version jump: the mzxid of the state the jump started from. The set-datas that made
   * the jump took effect after that state was written, so their slots lie above it.
   */
  long consumedAbove = -1;
  /** An :info create that filled a sequence-number gap of its parent: its cversion increment is already counted. */
  boolean numberTaken;
  /**
   * An :info sequential create whose {@link #path} is its parent, not its prefix: the history's client named the
   * parent in the invocation and the prefix only in an ok reply. It can take a sequence number of that parent; its
   * node's name is unknown.
   */
  boolean prefixUnknown;
  /** For a resolved :info sequential create: the name an observation gave its node (prefix + number), or null. */
  String namedPath;
  /**
   * For an operation {@link ListingInference} placed: the other slots its change could equally have taken (in the
   * interval between the two facts that showed it, outside its parent's quiet intervals), else null. A slot the
   * earliest-deadline pass gave it is one choice of several; a consumed operation that needs that slot may take it.
   */
  java.util.function.LongPredicate slotAlternatives;
  long slotLo, slotHi;
  /** For {@link #numberTaken}: completion time of the sequential create whose reply showed the gap. */
  long numberBefore;

  Call(Op invoke, Op done) {
    this.invoke = invoke;
    this.done = done;
    Op first = invoke != null ? invoke : done;
    this.multi = null;
    List<MultiOps.Sub> specs = done.f().equals("multi") ? MultiOps.parse(invoke, done) : null;
    this.kind = specs != null && MultiOps.readOnly(specs) ? Kind.MULTI_READ : kindOf(done.f());
    this.outcome = done.type();
    this.session = done.session() != null ? done.session() : first.session();
    this.path = done.path() != null ? done.path() : first.path();
    Long replyZxid = done.zxid() == null && kind == Kind.MULTI && done.type() == Op.Type.OK ? MultiOps.zxidFromResults(specs) : done.zxid();
    this.zxid = done.type() == Op.Type.INFO && kind != Kind.SESSION_EXPIRED ? null : replyZxid;
    this.stat = done.stat();
    this.error = done.error();
    this.watch = done.watch() || first.watch();
    this.invokeTime = first.time();
    this.completeTime = done.type() == Op.Type.INFO && invoke != null ? NEVER : done.time();
    Long v = done.version() != null ? done.version() : first.version();
    Object inValue = first.value();
    Object outValue = done.value();
    String m = null;
    String created = null;
    Object d = null;
    long ev = v != null ? v : -1;
    switch (done.f()) {
      case "cas" -> {
        if (!(inValue instanceof List<?> l) || l.size() != 2 || !(l.get(0) instanceof Long)) {
          throw new IllegalArgumentException("#" + first.index() + " :cas value must be [expected-version new-data]");
        }
        ev = (Long) l.get(0);
        d = l.get(1);
      }
      case "write", "set-data" -> d = inValue;
      case "create" -> {
        if (inValue instanceof Map<?, ?> mv) {
          d = mv.get(Keyword.of("data"));
          Object mo = mv.get(Keyword.of("mode"));
          m = mo instanceof Keyword k ? k.name() : "persistent";
        } else {
          d = inValue;
          m = "persistent";
        }
        if (outValue instanceof Map<?, ?> ov && ov.get(Keyword.of("created-path")) instanceof String cp) created = cp;
        else if (outValue instanceof String cp && done.type() == Op.Type.OK) created = cp;
      }
      case "read", "get-data" -> d = outValue;
      default -> d = outValue;
    }
    this.expectedVersion = ev;
    this.data = d;
    this.mode = m;
    this.createdPath = created;
    this.subs = specs == null ? null : MultiOps.calls(this, specs);
  }

  /** A multi's sub-operation: the multi's ops, session, times and zxid; its own request fields and result. */
  Call(Call multi, Kind kind, String path, Object data, String mode, long expectedVersion, Op.Type outcome, String error,
      String createdPath, Stat stat) {
    this.invoke = multi.invoke;
    this.done = multi.done;
    this.multi = multi;
    this.subs = null;
    this.kind = kind;
    this.outcome = outcome;
    this.session = multi.session;
    this.path = path;
    this.expectedVersion = expectedVersion;
    this.data = data;
    this.mode = mode;
    this.createdPath = createdPath;
    this.zxid = multi.zxid;
    this.stat = stat;
    this.error = error;
    this.watch = false;
    this.invokeTime = multi.invokeTime;
    this.completeTime = multi.completeTime;
  }

  static Kind kindOf(String f) {
    return switch (f) {
      case "create" -> Kind.CREATE;
      case "delete" -> Kind.DELETE;
      case "set-data", "write", "cas" -> Kind.SET_DATA;
      case "get-data", "read" -> Kind.GET_DATA;
      case "exists" -> Kind.EXISTS;
      case "get-children" -> Kind.GET_CHILDREN;
      case "sync" -> Kind.SYNC;
      case "watch-event" -> Kind.WATCH_EVENT;
      case "close-session" -> Kind.CLOSE_SESSION;
      case "session-expired" -> Kind.SESSION_EXPIRED;
      case "connect" -> Kind.CONNECT;
      case "multi" -> Kind.MULTI;
      case "add-watch" -> Kind.ADD_WATCH;
      default -> Kind.OTHER;
    };
  }

  /** Ops that are completion-only: never paired with an invocation. */
  static boolean isEvent(String f) {
    return f.equals("watch-event") || f.equals("session-expired");
  }

  long invokeIndex() {
    return (invoke != null ? invoke : done).index();
  }

  boolean sequential() {
    return mode != null && mode.endsWith("sequential");
  }

  boolean ephemeral() {
    return mode != null && mode.startsWith("ephemeral");
  }

  /** The :index that names this operation in :placements and in the search: its invocation's, else its line's. */
  long key() {
    return (invoke != null ? invoke : done).index();
  }

  /** The zxid at which this write took effect, or -1 when unknown. */
  long effectiveZxid() {
    if (multi != null) return multi.effectiveZxid();
    if (outcome == Op.Type.INFO && kind != Kind.SESSION_EXPIRED) return resolvedZxid;
    return zxid != null ? zxid : resolvedZxid; // a session end without zxid: where the search or an outcome put it
  }

  /** Witness ops: invocation then completion (or the event alone). */
  void addTo(List<Op> witness) {
    if (invoke != null && !witness.contains(invoke)) witness.add(invoke);
    if (!witness.contains(done)) witness.add(done);
  }

  @Override
  public String toString() {
    return done.brief();
  }
}
