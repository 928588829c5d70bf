package io.zabkit.check;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Pairs each completion with its process's open invocation (Jepsen's rule: one open operation per process)
 * and hands out {@link Call}s in completion order. Invocations never completed end as :info. Memory is one
 * entry per process with an open operation.
 */
final class Pairer {
  private final Map<Integer, Op> open = new HashMap<>();
  private final java.util.function.LongConsumer progress;
  private long ops;

  Pairer() {
    this(null);
  }

  /** @param progress called every million operations with the count so far (for long runs), or null */
  Pairer(java.util.function.LongConsumer progress) {
    this.progress = progress;
  }

  long run(History history, Consumer<Call> sink) {
    for (Op op : history) {
      ops++;
      if (progress != null && ops % 1_000_000 == 0) progress.accept(ops);
      if (op.process() == Op.NEMESIS) continue;
      if (Call.isEvent(op.f())) {
        if (op.isInvoke()) throw bad(op, ":" + op.f() + " is completion-only and cannot be an :invoke");
        sink.accept(new Call(null, op));
        continue;
      }
      if (!op.isInvoke() && op.f().equals("connect") && !isOpen(op.process(), "connect")) {
        sink.accept(new Call(null, op)); // a (re)connect reported as a bare event, as the simulator writes them
        continue;
      }
      if (op.isInvoke()) {
        Op prior = open.put(op.process(), op);
        if (prior != null) {
          throw bad(op, "process " + op.process() + " invoked again while #" + prior.index() + " is still open (one open op per process)");
        }
        continue;
      }
      Op inv = open.remove(op.process());
      if (inv == null) throw bad(op, "completion for process " + op.process() + " without an open :invoke");
      if (!inv.f().equals(op.f())) throw bad(op, "completion :" + op.f() + " does not match invocation #" + inv.index() + " :" + inv.f());
      if (op.time() < inv.time()) throw bad(op, "completion time " + op.time() + " before its invocation time " + inv.time());
      sink.accept(call(inv, op));
    }
    for (Op inv : open.values().stream().sorted((a, b) -> Long.compare(a.index(), b.index())).toList()) {
      Op info = new Op(inv.index(), Op.Type.INFO, inv.process(), inv.f(), inv.value(), Long.MAX_VALUE, inv.session(), inv.path(),
          inv.version(), null, null, null, inv.watch());
      sink.accept(call(inv, info));
    }
    open.clear();
    return ops;
  }

  private boolean isOpen(int process, String f) {
    Op inv = open.get(process);
    return inv != null && inv.f().equals(f);
  }

  private static Call call(Op inv, Op done) {
    try {
      return new Call(inv, done);
    } catch (IllegalArgumentException e) {
      throw bad(done, e.getMessage());
    }
  }

  private static IllegalArgumentException bad(Op op, String why) {
    return new IllegalArgumentException("history op #" + op.index() + ": " + why);
  }
}
