package io.zabkit.check.model;

import io.zabkit.check.Keyword;
import io.zabkit.check.Op;
import io.zabkit.check.Stat;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A small model ZooKeeper that produces correct histories: one committed order of transactions (the leader
 * decides each write against the committed tree), servers that apply prefixes of it at their own pace, sessions
 * attached to servers that read their server's (possibly stale) tree, sync, watches fired by the session's server
 * in apply order and delivered in order with replies, ephemerals removed when their session ends, sequential
 * names from the parent's cversion, and :info outcomes (request lost, or reply lost after the write happened).
 * Seeded: the same options give the same history.
 */
public final class ReferenceModel {
  /**
   * @param operations invocations to generate (completions and events come on top)
   * @param infoProbability chance that a request or its reply is lost (the op ends :info)
   * @param expiryProbability chance, per idle turn of a session, that it expires
   */
  public record Options(long seed, long operations, int sessions, int servers, double infoProbability, double expiryProbability) {
    public Options {
      if (operations < 1 || sessions < 1 || servers < 1) throw new IllegalArgumentException("operations, sessions, servers must be >= 1");
      if (infoProbability < 0 || infoProbability > 0.5) throw new IllegalArgumentException("infoProbability must be in [0, 0.5]");
    }

    public static Options of(long seed, long operations, int sessions) {
      return new Options(seed, operations, sessions, 3, 0.01, 0.0005);
    }
  }

  private static final String[] REGISTERS = {"/r0", "/r1", "/r2", "/r3", "/r4"};
  private static final long EPOCH = 1L << 32;

  private final class Server {
    final RefTree tree = new RefTree();
    int applied;
    final List<Session> syncWaiters = new ArrayList<>();
  }

  private static final class Pending {
    Session session;
    String f;
    String path;
    Object data;
    long expectedVersion = -1;
    String mode;
    boolean watch;
    Op invoke;
    boolean executed;
    Txn txn;
    int syncTarget = -1;
  }

  private static final class Msg {
    final Op op;
    final long zxid;
    final boolean reply;

    Msg(Op op, long zxid, boolean reply) {
      this.op = op;
      this.zxid = zxid;
      this.reply = reply;
    }
  }

  private final class Session {
    long id;
    int process;
    int server;
    long seen;
    Pending pending;
    final ArrayDeque<Msg> outbox = new ArrayDeque<>();
    final Set<String> watches = new HashSet<>();
    final Map<String, Long> versions = new HashMap<>();
    final List<String> children = new ArrayList<>();
  }

  private final Options o;
  private final Random rnd;
  private final Consumer<Op> out;
  private final List<Txn> log = new ArrayList<>();
  private final RefTree leader = new RefTree();
  private final Server[] servers;
  private final Session[] sessions;
  private final Map<String, Set<Session>> watchers = new HashMap<>();
  private long now;
  private long index;
  private long invocations;
  private int nextProcess;
  private long nextSession = 0x100000000L;
  private long dataCounter;
  private boolean lossless; // during setup nothing is lost
  /** Ground truth of every :info write: its invocation's :index to the zxid it took effect at, or -1 (never). */
  private final Map<Long, Long> truth = new LinkedHashMap<>();

  private ReferenceModel(Options o, Consumer<Op> out) {
    this.o = o;
    this.rnd = new Random(o.seed());
    this.out = out;
    servers = new Server[o.servers()];
    for (int i = 0; i < servers.length; i++) servers[i] = new Server();
    sessions = new Session[o.sessions()];
    for (int i = 0; i < sessions.length; i++) {
      sessions[i] = new Session();
      renew(sessions[i]);
      sessions[i].server = rnd.nextInt(servers.length);
    }
  }

  /** Generates a history and hands each operation to {@code out}, in history order. */
  public static void generate(Options o, Consumer<Op> out) {
    ReferenceModel m = new ReferenceModel(o, out);
    m.setup();
    while (m.invocations < o.operations()) m.step();
    m.drain();
  }

  /**
   * As {@link #generate(Options, Consumer)}, and hands {@code truth} the ground truth of each :info write (the :index
   * of its invocation and the zxid it took effect at, or -1 when it never did), for comparing the checker's placements.
   */
  public static void generate(Options o, Consumer<Op> out, java.util.function.BiConsumer<Long, Long> truth) {
    ReferenceModel m = new ReferenceModel(o, out);
    m.setup();
    while (m.invocations < o.operations()) m.step();
    m.drain();
    m.truth.forEach(truth);
  }

  /** Generates into a list. */
  public static List<Op> generate(Options o) {
    List<Op> ops = new ArrayList<>();
    generate(o, ops::add);
    return ops;
  }

  private void renew(Session s) {
    s.id = nextSession++;
    s.process = nextProcess++;
    s.seen = 0;
    s.versions.clear();
    s.children.clear();
    for (String w : s.watches) unwatch(w, s);
    s.watches.clear();
    s.outbox.clear(); // a closed session gets nothing more
  }

  private void emit(Op op) {
    out.accept(op);
  }

  private Op op(Op.Type type, Session s, String f, Object value, String path, Long version, Long zxid, Stat stat, String error, boolean watch) {
    return new Op(index++, type, s.process, f, value, now, s.id, path, version, zxid, stat, error, watch);
  }

  // ---- setup: the registers and the parents, created by session 0 one at a time, applied everywhere ----

  private void setup() {
    lossless = true;
    Session s = sessions[0];
    List<String> paths = new ArrayList<>(List.of(REGISTERS));
    paths.add("/e");
    paths.add("/q");
    for (String p : paths) {
      now += 10;
      Pending pd = new Pending();
      pd.session = s;
      pd.f = "create";
      pd.path = p;
      pd.data = "init";
      pd.mode = "persistent";
      pd.invoke = op(Op.Type.INVOKE, s, "create", createValue(pd, null), p, null, null, null, null, false);
      emit(pd.invoke);
      invocations++;
      s.pending = pd;
      Txn t = commit(s, pd);
      for (Server v : servers) applyNext(v, v == servers[s.server]);
      now += 10;
      deliverAll(s);
      if (t.error != null) throw new IllegalStateException("setup create failed: " + t.error);
    }
    lossless = false;
  }

  private void deliverAll(Session s) {
    while (!s.outbox.isEmpty()) deliver(s);
  }

  private void drain() {
    // Let every outstanding request finish, then stop: servers catch up, outboxes empty.
    for (int round = 0; round < 1_000_000; round++) {
      boolean busy = false;
      for (Server v : servers) {
        while (v.applied < log.size()) {
          applyNext(v, true);
          busy = true;
        }
      }
      for (Session s : sessions) {
        if (s.pending != null && !s.pending.executed) {
          execute(s);
          busy = true;
        }
        if (!s.outbox.isEmpty()) {
          now += 1;
          deliverAll(s);
          busy = true;
        }
      }
      if (!busy) return;
    }
    throw new IllegalStateException("reference model did not drain");
  }

  // ---- the scheduler ----

  private void step() {
    now += 1 + rnd.nextInt(40);
    int r = rnd.nextInt(100);
    if (r < 40) {
      Server v = servers[rnd.nextInt(servers.length)];
      int n = 1 + rnd.nextInt(4);
      for (int i = 0; i < n && v.applied < log.size(); i++) applyNext(v, true);
      return;
    }
    Session s = sessions[rnd.nextInt(sessions.length)];
    if (!s.outbox.isEmpty() && rnd.nextInt(3) > 0) {
      deliver(s);
    } else if (s.pending == null) {
      if (!s.outbox.isEmpty()) return;
      double d = rnd.nextDouble();
      if (d < o.expiryProbability()) expire(s);
      else if (d < o.expiryProbability() + 0.02) migrate(s);
      else invoke(s);
    } else if (!s.pending.executed) {
      execute(s);
    }
  }

  // ---- invocation: choose an operation ----

  private void invoke(Session s) {
    Pending p = new Pending();
    p.session = s;
    int r = rnd.nextInt(100);
    String reg = REGISTERS[rnd.nextInt(REGISTERS.length)];
    if (r < 30) {
      p.f = "get-data";
      p.path = reg;
      p.watch = rnd.nextInt(3) == 0;
    } else if (r < 48) {
      p.f = "set-data";
      p.path = reg;
      p.data = "v" + (dataCounter++);
    } else if (r < 58) {
      p.f = "set-data";
      p.path = reg;
      p.data = "v" + (dataCounter++);
      Long v = s.versions.get(reg);
      p.expectedVersion = v != null ? v : rnd.nextInt(3);
    } else if (r < 64) {
      p.f = "exists";
      p.path = rnd.nextBoolean() ? reg : "/e/n" + rnd.nextInt(6);
      p.watch = rnd.nextBoolean();
    } else if (r < 70) {
      p.f = "get-children";
      p.path = rnd.nextBoolean() ? "/q" : "/e";
      p.watch = rnd.nextInt(3) == 0;
    } else if (r < 80 && leader.nodes.get("/q").children.size() >= 24 && rnd.nextBoolean()) {
      // keep the queue short, as a consumer would: delete one of its items
      List<String> kids = new ArrayList<>(leader.nodes.get("/q").children);
      p.f = "delete";
      p.path = "/q/" + kids.get(rnd.nextInt(kids.size()));
    } else if (r < 80) {
      p.f = "create";
      p.data = "c" + (dataCounter++);
      int m = rnd.nextInt(3);
      if (m == 0) {
        p.path = "/e/n" + rnd.nextInt(6);
        p.mode = "ephemeral";
      } else {
        p.path = m == 1 ? "/q/item-" : "/q/lock-";
        p.mode = m == 1 ? "persistent-sequential" : "ephemeral-sequential";
      }
    } else if (r < 88) {
      p.f = "delete";
      if (!s.children.isEmpty() && rnd.nextBoolean()) p.path = "/q/" + s.children.remove(rnd.nextInt(s.children.size()));
      else p.path = "/e/n" + rnd.nextInt(6);
    } else if (r < 95) {
      p.f = "sync";
      p.path = reg;
    } else if (r < 99) {
      p.f = "get-data";
      p.path = "/e/n" + rnd.nextInt(6);
    } else {
      p.f = "close-session";
    }
    Object value = switch (p.f) {
      case "create" -> createValue(p, null);
      case "set-data" -> p.data;
      default -> null;
    };
    Long version = p.f.equals("set-data") || p.f.equals("delete") ? (Long) p.expectedVersion : null;
    p.invoke = op(Op.Type.INVOKE, s, p.f, value, p.path, version, null, null, null, p.watch);
    s.pending = p;
    invocations++;
    emit(p.invoke);
  }

  private static Object createValue(Pending p, String created) {
    Map<Object, Object> m = new LinkedHashMap<>();
    m.put(Keyword.of("data"), p.data);
    m.put(Keyword.of("mode"), Keyword.of(p.mode));
    if (created != null) m.put(Keyword.of("created-path"), created);
    return m;
  }

  // ---- execution: reads at the session's server, writes committed by the leader, sync through the leader ----

  private void execute(Session s) {
    Pending p = s.pending;
    p.executed = true;
    boolean write = p.f.equals("create") || p.f.equals("delete") || p.f.equals("set-data") || p.f.equals("close-session");
    if (write && rnd.nextDouble() < o.infoProbability() / 2) {
      emit(op(Op.Type.INFO, s, p.f, p.invoke.value(), p.path, p.invoke.version(), null, null, "connection-loss", p.watch));
      s.pending = null;
      s.process = nextProcess++; // Jepsen: a process that saw :info is retired
      truth.put(p.invoke.index(), -1L);
      if (p.f.equals("close-session")) {
        // the client gives the session up; the server expires it later (here: now), no one hears the zxid
        Pending end = new Pending();
        end.session = s;
        end.f = "close-session";
        Txn ended = commit(s, end);
        ended.origin = null;
        truth.put(p.invoke.index(), ended.zxid);
        renew(s);
        s.server = rnd.nextInt(servers.length);
      }
      return;
    }
    Server v = servers[s.server];
    switch (p.f) {
      case "get-data", "exists", "get-children" -> read(s, v, p);
      case "sync" -> {
        p.syncTarget = log.size();
        if (v.applied >= p.syncTarget) syncDone(s, v);
        else v.syncWaiters.add(s);
      }
      default -> commit(s, p);
    }
  }

  private void read(Session s, Server v, Pending p) {
    RefTree.Node n = v.tree.nodes.get(p.path);
    long z = v.tree.lastZxid;
    Op reply;
    switch (p.f) {
      case "get-data" -> {
        if (n == null) {
          reply = op(Op.Type.FAIL, s, p.f, null, p.path, null, z, null, "no-node", p.watch);
        } else {
          reply = op(Op.Type.OK, s, p.f, n.data, p.path, null, z, stat(n), null, p.watch);
          if (p.watch) watch(s, "d" + p.path);
          s.versions.put(p.path, n.version);
        }
      }
      case "exists" -> {
        reply = op(Op.Type.OK, s, p.f, n != null, p.path, null, z, n == null ? null : stat(n), null, p.watch);
        if (p.watch) watch(s, "d" + p.path);
      }
      default -> {
        if (n == null) {
          reply = op(Op.Type.FAIL, s, p.f, null, p.path, null, z, null, "no-node", p.watch);
        } else {
          reply = op(Op.Type.OK, s, p.f, new ArrayList<>(n.children), p.path, null, z, stat(n), null, p.watch);
          if (p.watch) watch(s, "c" + p.path);
          if (p.path.equals("/q")) {
            s.children.clear();
            s.children.addAll(n.children);
          }
        }
      }
    }
    s.outbox.add(new Msg(reply, z, true));
  }

  private static Stat stat(RefTree.Node n) {
    return new Stat(n.czxid, n.mzxid, n.pzxid, null, null, n.version, 2L * n.cversion - n.children.size(), null, n.ephemeralOwner, null, (long) n.children.size());
  }

  private void watch(Session s, String key) {
    if (s.watches.add(key)) watchers.computeIfAbsent(key, k -> new HashSet<>()).add(s);
  }

  private void unwatch(String key, Session s) {
    Set<Session> set = watchers.get(key);
    if (set != null) set.remove(s);
  }

  private Txn commit(Session s, Pending p) {
    long zxid = EPOCH + log.size() + 1;
    Txn.Kind kind = switch (p.f) {
      case "create" -> Txn.Kind.CREATE;
      case "delete" -> Txn.Kind.DELETE;
      case "set-data" -> Txn.Kind.SET_DATA;
      default -> Txn.Kind.CLOSE_SESSION;
    };
    Txn t = new Txn(zxid, kind, p.path, p.data, p.expectedVersion, s.id,
        p.mode != null && p.mode.startsWith("ephemeral"), p.mode != null && p.mode.endsWith("sequential"));
    t.error = leader.decide(t);
    t.origin = p;
    t.changes = leader.apply(t);
    p.txn = t;
    log.add(t);
    return t;
  }

  // ---- servers apply the log; the session's server answers writes, syncs and fires watches ----

  private void applyNext(Server v, boolean fireWatches) {
    Txn t = log.get(v.applied++);
    v.tree.apply(t);
    for (RefTree.Change c : t.changes) fire(v, c, t.zxid);
    if (t.origin instanceof Pending p && p.session.pending == p && servers[p.session.server] == v) {
      writeReply(p.session, v, p, t);
    }
    if (!v.syncWaiters.isEmpty()) {
      for (Session s : new ArrayList<>(v.syncWaiters)) {
        if (s.pending != null && v.applied >= s.pending.syncTarget) {
          v.syncWaiters.remove(s);
          syncDone(s, v);
        }
      }
    }
  }

  private void fire(Server v, RefTree.Change c, long zxid) {
    String key = (c.childWatch() ? "c" : "d") + c.path();
    Set<Session> set = watchers.get(key);
    boolean deleted = c.event().equals("node-deleted");
    Set<Session> childSet = deleted ? watchers.get("c" + c.path()) : null;
    List<Session> targets = new ArrayList<>();
    if (set != null) for (Session s : set) if (servers[s.server] == v) targets.add(s);
    if (childSet != null) for (Session s : childSet) if (servers[s.server] == v && !targets.contains(s)) targets.add(s);
    for (Session s : targets) event(s, c.path(), c.event(), zxid);
  }

  private void event(Session s, String path, String type, long zxid) {
    for (String k : new String[] {"d" + path, "c" + path}) {
      if (k.startsWith("c") && !(type.equals("node-deleted") || type.equals("node-children-changed"))) continue;
      if (k.startsWith("d") && type.equals("node-children-changed")) continue;
      if (s.watches.remove(k)) unwatch(k, s);
    }
    Map<Object, Object> v = new LinkedHashMap<>();
    v.put(Keyword.of("event"), Keyword.of(type));
    v.put(Keyword.of("path"), path);
    Op e = new Op(-1, Op.Type.OK, s.process, "watch-event", v, 0, s.id, path, null, zxid, null, null, false);
    s.outbox.add(new Msg(e, zxid, false));
  }

  private void writeReply(Session s, Server v, Pending p, Txn t) {
    Op reply;
    if (t.error != null) {
      reply = op(Op.Type.FAIL, s, p.f, p.invoke.value(), p.path, p.invoke.version(), t.zxid, null, t.error, false);
    } else {
      switch (p.f) {
        case "create" -> reply = op(Op.Type.OK, s, p.f, createValue(p, t.createdPath), p.path, null, t.zxid,
            stat(v.tree.nodes.get(t.createdPath)), null, false);
        case "set-data" -> {
          RefTree.Node n = v.tree.nodes.get(p.path);
          reply = op(Op.Type.OK, s, p.f, p.data, p.path, p.invoke.version(), t.zxid, stat(n), null, false);
        }
        default -> reply = op(Op.Type.OK, s, p.f, null, p.path, p.invoke.version(), t.zxid, null, null, false);
      }
    }
    s.outbox.add(new Msg(reply, t.zxid, true));
  }

  private void syncDone(Session s, Server v) {
    Pending p = s.pending;
    s.outbox.add(new Msg(op(Op.Type.OK, s, "sync", null, p.path, null, v.tree.lastZxid, null, null, false), v.tree.lastZxid, true));
  }

  // ---- delivery: replies and events leave in order; a lost reply turns the op :info ----

  private void deliver(Session s) {
    Msg m = s.outbox.poll();
    if (!m.reply) {
      emit(new Op(index++, m.op.type(), s.process, m.op.f(), m.op.value(), now, s.id, m.op.path(), null, m.op.zxid(), null, null, false));
      s.seen = Math.max(s.seen, m.zxid);
      return;
    }
    Pending p = s.pending;
    if (!lossless && rnd.nextDouble() < o.infoProbability() / 2) {
      emit(op(Op.Type.INFO, s, p.f, p.invoke.value(), p.path, p.invoke.version(), null, null, "connection-loss", p.watch));
      if (p.txn != null) truth.put(p.invoke.index(), p.txn.zxid);
      s.pending = null;
      s.process = nextProcess++;
      if (p.f.equals("close-session")) {
        renew(s);
        s.server = rnd.nextInt(servers.length);
      }
      return;
    }
    Op reply = new Op(index++, m.op.type(), s.process, m.op.f(), m.op.value(), now, m.op.session(), m.op.path(), m.op.version(),
        m.op.zxid(), m.op.stat(), m.op.error(), m.op.watch());
    emit(reply);
    s.seen = Math.max(s.seen, m.zxid);
    s.pending = null;
    if (p.f.equals("set-data") && reply.type() == Op.Type.OK && reply.stat() != null) s.versions.put(p.path, reply.stat().version());
    if (p.f.equals("create") && reply.type() == Op.Type.OK && p.path.startsWith("/q/")) {
      String cp = (String) ((Map<?, ?>) reply.value()).get(Keyword.of("created-path"));
      s.children.add(cp.substring(3));
    }
    if (p.f.equals("close-session")) {
      renew(s);
      s.server = rnd.nextInt(servers.length);
    }
  }

  // ---- sessions move between servers and expire ----

  private void migrate(Session s) {
    Server from = servers[s.server];
    int to = rnd.nextInt(servers.length);
    Server v = servers[to];
    if (v.tree.lastZxid < s.seen || v == from) return; // ZooKeeper refuses a server behind what the session saw
    s.server = to;
    // Re-registering watches on the new server fires those whose change it has applied but the old one had not.
    for (int i = from.applied; i < v.applied; i++) {
      Txn t = log.get(i);
      for (RefTree.Change c : t.changes) {
        String key = (c.childWatch() ? "c" : "d") + c.path();
        boolean hit = s.watches.contains(key) || (c.event().equals("node-deleted") && s.watches.contains("c" + c.path()));
        if (hit) event(s, c.path(), c.event(), t.zxid);
      }
    }
  }

  private void expire(Session s) {
    Pending p = new Pending();
    p.session = s;
    p.f = "close-session";
    Txn t = commit(s, p);
    t.origin = null;
    emit(new Op(index++, Op.Type.OK, s.process, "session-expired", null, now, s.id, null, null, t.zxid, null, null, false));
    renew(s);
    s.server = rnd.nextInt(servers.length);
  }
}
