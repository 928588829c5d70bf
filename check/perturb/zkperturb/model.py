"""What the harness knows of a history, read only from the history itself (never from zk-check):
operations paired by process, per-session order, acknowledged writes by zxid and path, and the
observed states of znodes (reads with a Stat). Every mutation reasons from these facts."""

READS = {"get-data", "read", "exists", "get-children"}
WRITES = {"create", "delete", "set-data", "write", "cas", "multi", "close-session"}
WRITE_SUBOPS = {"create", "delete", "set-data"}


def s(x):
    """Keywords and strings compare as plain str."""
    return None if x is None else str(x)


class Op:
    """One client operation: its :invoke line and its completion line (positions in the history)."""

    __slots__ = ("inv", "comp", "f", "session", "process")

    def __init__(self, inv, f, session, process):
        self.inv, self.comp, self.f, self.session, self.process = inv, None, f, session, process

    def __repr__(self):
        return "Op(%s inv=%s comp=%s)" % (self.f, self.inv, self.comp)


class History:
    def __init__(self, lines):
        self.lines = lines
        self.ops = []
        self.by_comp = {}
        self.events = []          # positions of :watch-event lines
        self.session_lines = {}   # session -> positions of every line of that session
        open_by_process = {}
        for pos, line in enumerate(lines):
            t, f, p = s(line.get("type")), s(line.get("f")), line.get("process")
            if s(p) == "nemesis":
                continue
            sess = line.get("session")
            if sess is not None:
                self.session_lines.setdefault(sess, []).append(pos)
            if f == "watch-event":
                self.events.append(pos)
                continue
            if t == "invoke":
                assert p not in open_by_process, "process %s invokes twice (line %d)" % (p, pos)
                op = Op(pos, f, sess, p)
                open_by_process[p] = op
                self.ops.append(op)
            elif p in open_by_process and s(open_by_process[p].f) == f:
                op = open_by_process.pop(p)
                op.comp = pos
                self.by_comp[pos] = op
        self.ok_writes = [op for op in self.ops if op.comp is not None and op.f in WRITES
                          and self.t(op) == "ok" and self.zxid(op) is not None]

    # -- fields ------------------------------------------------------------------------------
    def c(self, op):
        return self.lines[op.comp] if op.comp is not None else None

    def t(self, op):
        return s(self.lines[op.comp].get("type")) if op.comp is not None else None

    def zxid(self, op):
        return self.lines[op.comp].get("zxid") if op.comp is not None else None

    def path(self, op):
        return self.lines[op.inv].get("path")

    def paths_written(self, op):
        """Paths an acknowledged write changed (a multi's create/delete/set-data sub-operations)."""
        if op.f == "multi":
            subs = self.lines[op.inv].get("value") or []
            return {x.get("path") for x in subs if isinstance(x, dict) and s(x.get("f")) in WRITE_SUBOPS}
        if op.f == "close-session":
            return set()
        p = self.path(op)
        return {p} if p is not None else set()

    def info_write_paths(self):
        out = set()
        for op in self.ops:
            if op.f in WRITES and self.t(op) in ("info", None):
                out |= self.paths_written(op) if op.f == "multi" else {self.path(op)}
        return out

    def has_zxidless_session_end(self):
        return any(s(l.get("f")) == "session-expired" and l.get("zxid") is None for l in self.lines)

    def known_writes_on(self, path):
        """zxids of acknowledged writes that changed path, ascending."""
        return sorted(self.zxid(op) for op in self.ok_writes if path in self.paths_written(op))

    def observed_states(self, path):
        """Reads of path that returned data with a Stat: (op, value, stat), in history order."""
        out = []
        for op in self.ops:
            if op.f in ("get-data", "read") and self.t(op) == "ok" and self.path(op) == path:
                st = self.c(op).get("stat")
                if isinstance(st, dict) and st.get("mzxid") is not None:
                    out.append((op, self.c(op).get("value"), st))
        return out

    def session_ops(self, session):
        return [op for op in self.ops if op.session == session]

    def all_values_written(self):
        vals = set()
        for op in self.ops:
            v = self.lines[op.inv].get("value")
            if isinstance(v, str):
                vals.add(v)
            elif isinstance(v, dict) and isinstance(v.get("data"), str):
                vals.add(v["data"])
            elif isinstance(v, list):
                for x in v:
                    if isinstance(x, dict):
                        for k in ("data", "value"):
                            if isinstance(x.get(k), str):
                                vals.add(x[k])
        return vals

    # -- what a session must have seen before it invoked a read ----------------------------
    def floors(self, read, with_read_zxids):
        """(zxid, why, path-or-None) facts that each force `read` to reflect state at or after zxid: replies
        the session got before invoking it (they set lastZxidSeen, which a new server must have reached),
        and syncs (a sync reply covers every write completed before the sync was invoked)."""
        out = []
        before = read.inv
        sess = read.session
        for pos in self.session_lines.get(sess, []):
            if pos >= before:
                break
            line = self.lines[pos]
            f = s(line.get("f"))
            z = line.get("zxid")
            if f == "watch-event":
                # Not a floor: ZooKeeper's client takes lastZxidSeen from replies only, so after a
                # reconnect a server behind an event's zxid may serve the session.
                continue
            op = self.by_comp.get(pos)
            if op is None:
                continue
            if op.f in WRITES and z is not None and s(line.get("type")) in ("ok", "fail"):
                out.append((z, "own-write", self.path(op) if self.t(op) == "ok" else None))
            elif op.f in READS and s(line.get("type")) == "ok":
                st = line.get("stat")
                if isinstance(st, dict):
                    m = max(st.get(k) or 0 for k in ("mzxid", "czxid", "pzxid"))
                    out.append((m, "read-stat", self.path(op)))
                if with_read_zxids and z is not None:
                    out.append((z, "read-zxid", None))
            elif op.f == "sync" and s(line.get("type")) == "ok":
                done = [self.zxid(w) for w in self.ok_writes if w.comp < op.inv]
                if done:
                    out.append((max(done), "sync", None))
                if with_read_zxids and z is not None:
                    out.append((z, "read-zxid", None))
        z = self.lines[read.comp].get("zxid") if read.comp is not None else None
        if with_read_zxids and z is not None:
            out.append((z, "own-read-zxid", None))
        return out


def strip_read_zxids(lines):
    """The history as a campaign records it: no :zxid on reads and syncs (the Java client hides it)."""
    out = []
    for line in lines:
        f = s(line.get("f"))
        ro_multi = f == "multi" and all(isinstance(x, dict) and s(x.get("f")) in ("get-data", "get-children")
                                        for x in (line.get("value") or [None]))
        if (f in READS or f == "sync" or ro_multi) and "zxid" in line and s(line.get("type")) != "invoke":
            line = {k: v for k, v in line.items() if k != "zxid"}
        out.append(line)
    return out
