"""The kinds of violation the harness plants. Each kind finds its sites in a legal history and builds,
per site, a mutated history that no ZooKeeper execution can produce; the docstring of each finder
says why. A site where the mutation could stay legal is not offered (the finder's conditions exclude
it). Nothing here knows how zk-check works: only ZooKeeper's documented guarantees."""

import collections
import copy

from .model import READS, WRITES, s

NEEDS_READ_ZXIDS = {"lost-acknowledged-write"}

# Candidates a finder turned down because no mutation there is provably illegal (for example a stale read
# with no older observed state to show, or a sequential parent that some delete may have re-created).
SKIPPED = collections.Counter()


class Site:
    __slots__ = ("kind", "where", "apply", "tags")

    def __init__(self, kind, where, apply, tags):
        self.kind, self.where, self.apply, self.tags = kind, where, apply, tags


def _circumstances(h, path, with_zxids):
    """Facts about a site that may explain a miss (reported with the misses, never used to skip)."""
    tags = set()
    if not with_zxids:
        tags.add("reads-without-zxid")
    if path is not None and path in h.info_write_paths():
        tags.add("info-write-on-path")
    if h.has_zxidless_session_end():
        tags.add("session-end-without-zxid")
    return frozenset(tags)


def _set(lines, pos, **fields):
    line = dict(lines[pos])
    for k, v in fields.items():
        k = k.replace("_", "-")
        if v is _DROP:
            line.pop(k, None)
        else:
            line[_key(line, k)] = v
    lines[pos] = line


_DROP = object()


def _key(line, name):
    for k in line:
        if str(k) == name:
            return k
    from .edn import Keyword
    return Keyword(name)


def _move_after(lines, src, target, time):
    """Moves line src to just after line target (target > src)."""
    assert target > src
    line = dict(lines[src])
    line[_key(line, "time")] = time
    out = lines[:src] + lines[src + 1:]
    out.insert(target, line)  # target shifted down by one when src was removed
    return out


def _move_before(lines, src, target, time):
    """Moves line src to just before line target (target < src)."""
    assert target < src
    line = dict(lines[src])
    line[_key(line, "time")] = time
    out = lines[:src] + lines[src + 1:]
    out.insert(target, line)
    return out


# ---------------------------------------------------------------------------------------------
# Stale copies: a read that must reflect a state at or after zxid w shows an older state of its
# znode, one observed earlier with mzxid m0 < w. Legal never: an acknowledged write changed that
# znode at w (m0 < w), and after a change a znode's mzxid is >= w, or it is gone, or re-created with
# czxid > w, so the old Stat (czxid, mzxid m0) cannot be shown at any point >= w.

def _stale_copy(h, read, w):
    p = h.path(read)
    olds = [(op, v, st) for op, v, st in h.observed_states(p) if st["mzxid"] < w and op.comp < read.inv]
    if not olds:
        return None
    _, value, stat = olds[-1]

    def apply(lines):
        lines = list(lines)
        _set(lines, read.comp, type=_kw("ok"), value=value, stat=copy.deepcopy(stat), error=_DROP)
        return lines
    return apply


def _kw(x):
    from .edn import Keyword
    return Keyword(x)


def _data_reads(h):
    return [op for op in h.ops if op.f in ("get-data", "read") and h.t(op) == "ok" and h.path(op) is not None]


def stale_read_after_own_write(h, with_zxids):
    """A session reads the state from before its own acknowledged write on that path (read-your-writes)."""
    out = []
    for r in _data_reads(h):
        own = [z for z, why, p in h.floors(r, with_zxids) if why == "own-write" and p == h.path(r)]
        if own:
            ap = _stale_copy(h, r, max(own))
            if ap:
                out.append(Site("stale-read-after-own-write", r.comp, ap, _circumstances(h, h.path(r), with_zxids)))
            else:
                SKIPPED['stale-read-after-own-write'] += 1
    return out


def stale_read_after_sync(h, with_zxids):
    """After a sync invoked once another session's write on the path completed, the session's read misses it."""
    out = []
    for r in _data_reads(h):
        p = h.path(r)
        syncs = [z for z, why, _ in h.floors(r, with_zxids) if why == "sync"]
        if not syncs:
            continue
        others = [h.zxid(w) for w in h.ok_writes if w.session != r.session and p in h.paths_written(w)
                  and h.zxid(w) <= max(syncs)]
        if others:
            ap = _stale_copy(h, r, max(others))
            if ap:
                out.append(Site("stale-read-after-sync", r.comp, ap, _circumstances(h, p, with_zxids)))
            else:
                SKIPPED['stale-read-after-sync'] += 1
    return out


def lost_acknowledged_write(h, with_zxids):
    """A read served at zxid r >= w (its reply header) misses the write another session had acknowledged at w."""
    if not with_zxids:
        return []
    out = []
    for r in _data_reads(h):
        z = h.zxid(r)
        if z is None:
            continue
        p = h.path(r)
        acked = [h.zxid(w) for w in h.ok_writes if w.session != r.session and p in h.paths_written(w)
                 and w.comp < r.inv and h.zxid(w) <= z]
        if acked:
            ap = _stale_copy(h, r, max(acked))
            if ap:
                out.append(Site("lost-acknowledged-write", r.comp, ap, _circumstances(h, p, with_zxids)))
            else:
                SKIPPED['lost-acknowledged-write'] += 1
    return out


def opposite_orders(h, with_zxids):
    """Session B saw W2 (a read of Q showing mzxid >= w2), then reads P without W1 although w1 < w2: B orders
    the two writes opposite to the zxid order every other session sees them in."""
    out = []
    for r in _data_reads(h):
        p = h.path(r)
        seen = [z for z, why, q in h.floors(r, with_zxids) if why == "read-stat" and q is not None and q != p]
        if not seen:
            continue
        w1 = [h.zxid(w) for w in h.ok_writes if w.session != r.session and p in h.paths_written(w)
              and h.zxid(w) <= max(seen)]
        if w1:
            ap = _stale_copy(h, r, max(w1))
            if ap:
                out.append(Site("opposite-orders", r.comp, ap, _circumstances(h, p, with_zxids)))
            else:
                SKIPPED['opposite-orders'] += 1
    return out


def _ephemeral_states(h):
    """(owner, path, value, stat, position known) of ephemerals: reads that showed one, and acknowledged
    ephemeral creates (their state right after creation: czxid = mzxid = the create's zxid, version 0)."""
    out = []
    for op in h.ops:
        if op.comp is None or h.t(op) != "ok":
            continue
        c = h.c(op)
        if op.f in ("get-data", "read"):
            st = c.get("stat")
            if isinstance(st, dict) and st.get("ephemeral-owner") and st.get("czxid") is not None:
                out.append((st["ephemeral-owner"], h.path(op), c.get("value"), st, op.comp))
        elif op.f == "create" and h.zxid(op) is not None:
            v = h.lines[op.inv].get("value") or {}
            if "ephemeral" in (s(v.get("mode")) or "") and _created_path(h, op):
                z, data = h.zxid(op), v.get("data")
                st = {_kw(k): x for k, x in (("czxid", z), ("mzxid", z), ("pzxid", z), ("version", 0),
                                            ("cversion", 0), ("ephemeral-owner", op.session),
                                            ("data-length", len(data) if isinstance(data, str) else 0),
                                            ("num-children", 0))}
                out.append((op.session, _created_path(h, op), data, st, op.comp))
    return out


def ephemeral_after_close(h, with_zxids):
    """A read that must reflect a point at or after the owner's closeSession zxid still shows the ephemeral
    (its czxid and owner): closing a session deletes its ephemerals in the same transaction, and that
    incarnation (czxid) can never exist again."""
    closes = {}
    for line in h.lines:
        f = s(line.get("f"))
        if f in ("close-session", "session-expired") and s(line.get("type")) == "ok" and line.get("zxid") is not None:
            closes.setdefault(line.get("session"), line["zxid"])
    out = []
    done = set()
    for owner, path, value, st, known_at in _ephemeral_states(h):
        zc = closes.get(owner)
        if zc is None or zc <= st["czxid"]:
            continue
        for r in h.ops:
            if r.f not in ("get-data", "read", "exists") or r.comp is None or r.comp in done or h.path(r) != path:
                continue
            if not (h.t(r) == "ok" or s(h.c(r).get("error")) == "no-node"):
                continue
            if max([z for z, _, _ in h.floors(r, with_zxids)] or [0]) < zc:
                continue
            done.add(r.comp)

            def apply(lines, r=r, value=value, st=st):
                lines = list(lines)
                shown = True if r.f == "exists" else value
                _set(lines, r.comp, type=_kw("ok"), value=shown, stat=copy.deepcopy(st), error=_DROP)
                return lines
            out.append(Site("ephemeral-after-close", r.comp, apply, _circumstances(h, path, with_zxids)))
    return out


def node_flicker(h, with_zxids):
    """Between two reads of one session showing the same incarnation (same czxid), a read says the node is
    absent: reads of a session are served at non-decreasing points, and a deleted incarnation never returns."""
    out = []
    by_session = {}
    for op in h.ops:
        if op.f in ("get-data", "read", "exists") and op.comp is not None and h.path(op) is not None:
            by_session.setdefault((op.session, h.path(op)), []).append(op)
    for reads in by_session.values():
        for i in range(len(reads) - 2):
            a, b, c = reads[i], reads[i + 1], reads[i + 2]
            if h.t(b) != "ok":
                continue
            sa, sc = h.c(a).get("stat"), h.c(c).get("stat")
            if not (isinstance(sa, dict) and isinstance(sc, dict) and h.t(a) == h.t(c) == "ok"
                    and sa.get("czxid") is not None and sa.get("czxid") == sc.get("czxid")):
                continue

            def apply(lines, b=b):
                lines = list(lines)
                if b.f == "exists":
                    _set(lines, b.comp, value=False, stat=_DROP)
                else:
                    _set(lines, b.comp, type=_kw("fail"), value=None, stat=_DROP, error=_kw("no-node"))
                return lines
            out.append(Site("node-flicker", b.comp, apply, _circumstances(h, h.path(b), with_zxids)))
    return out


def value_never_written(h, with_zxids):
    """A read returns data no operation ever wrote (every written value is in some invocation)."""
    written = h.all_values_written()
    out = []
    for n, r in enumerate(_data_reads(h)):
        if not isinstance(h.c(r).get("value"), str):
            continue
        fresh = "never-written-%d" % n
        assert fresh not in written

        def apply(lines, r=r, fresh=fresh):
            lines = list(lines)
            st = h.c(r).get("stat")
            fields = {"value": fresh}
            if isinstance(st, dict) and "data-length" in st:
                st = dict(st)
                st[_key(st, "data-length")] = len(fresh)
                fields["stat"] = st
            _set(lines, r.comp, **fields)
            return lines
        out.append(Site("value-never-written", r.comp, apply, _circumstances(h, h.path(r), with_zxids)))
    return out


def ghost_child(h, with_zxids):
    """getChildren lists a child no create ever named."""
    named = set()
    for op in h.ops:
        for line in (h.lines[op.inv], h.c(op) or {}):
            for x in [line] + [y for y in (line.get("value") or []) if isinstance(y, dict)] \
                    if isinstance(line.get("value"), list) else [line]:
                for k in ("path", "created-path"):
                    v = x.get(k)
                    if isinstance(v, str):
                        named.add(v)
            v = line.get("value")
            if isinstance(v, dict) and isinstance(v.get("created-path"), str):
                named.add(v["created-path"])
    out = []
    for n, op in enumerate(h.ops):
        if op.f != "get-children" or h.t(op) != "ok" or not isinstance(h.c(op).get("value"), list):
            continue
        parent = h.path(op)
        ghost = "ghost-%d" % n
        assert (parent.rstrip("/") + "/" + ghost) not in named

        def apply(lines, op=op, ghost=ghost):
            lines = list(lines)
            c = lines[op.comp]
            fields = {"value": list(c.get("value")) + [ghost]}
            st = c.get("stat")
            if isinstance(st, dict) and st.get("num-children") is not None:
                st = dict(st)
                st[_key(st, "num-children")] = st["num-children"] + 1
                fields["stat"] = st
            _set(lines, op.comp, **fields)
            return lines
        out.append(Site("ghost-child", op.comp, apply, _circumstances(h, parent, with_zxids)))
    return out


def _created_path(h, op):
    v = h.c(op).get("value")
    cp = v.get("created-path") if isinstance(v, dict) else None
    return cp if isinstance(cp, str) else h.c(op).get("created-path")


def duplicated_sequential_name(h, with_zxids):
    """Two sequential creates under one parent get the same name. The parent's counter only grows; it
    restarts only if the parent is deleted and re-created, so parents any delete targets are skipped."""
    deleted = {h.path(op) for op in h.ops if op.f == "delete"}
    for op in h.ops:
        if op.f == "multi":
            deleted |= {x.get("path") for x in (h.lines[op.inv].get("value") or [])
                        if isinstance(x, dict) and s(x.get("f")) == "delete"}
    seq = []
    for op in h.ops:
        mode = (h.lines[op.inv].get("value") or {}).get("mode") if op.f == "create" else None
        if op.f == "create" and h.t(op) == "ok" and s(mode) and "sequential" in s(mode) and _created_path(h, op):
            parent = _created_path(h, op).rsplit("/", 1)[0] or "/"
            if parent not in deleted:
                seq.append((parent, op))
            else:
                SKIPPED["duplicated-sequential-name"] += 1
    out = []
    for i, (parent, a) in enumerate(seq):
        b = next((op for par, op in seq[i + 1:] if par == parent and h.path(op) == h.path(a)
                  and _created_path(h, op) != _created_path(h, a)), None)
        if b is None:
            continue

        def apply(lines, a=a, b=b):
            lines = list(lines)
            c = lines[b.comp]
            v = c.get("value")
            if isinstance(v, dict) and "created-path" in v:
                v = dict(v)
                v[_key(v, "created-path")] = _created_path(h, a)
                _set(lines, b.comp, value=v)
            else:
                _set(lines, b.comp, created_path=_created_path(h, a))
            return lines
        out.append(Site("duplicated-sequential-name", b.comp, apply, _circumstances(h, parent, with_zxids)))
    return out


def _single_ok_writes(h):
    return [op for op in h.ok_writes if op.f in ("create", "delete", "set-data", "write", "cas")]


def _rezxid(lines, op, old, new):
    c = dict(lines[op.comp])
    c[_key(c, "zxid")] = new
    st = c.get("stat")
    if isinstance(st, dict):
        st = dict(st)
        for k in ("czxid", "mzxid", "pzxid"):
            if st.get(k) == old:
                st[_key(st, k)] = new
        c[_key(c, "stat")] = st
    lines[op.comp] = c


def fifo_zxid_inversion(h, with_zxids):
    """A session's later write gets the lower zxid (its two consecutive acknowledged writes swap zxids)."""
    out = []
    by_session = {}
    for op in _single_ok_writes(h):
        by_session.setdefault(op.session, []).append(op)
    for ws in by_session.values():
        for a, b in zip(ws, ws[1:]):
            za, zb = h.zxid(a), h.zxid(b)
            if za >= zb:
                continue

            def apply(lines, a=a, b=b, za=za, zb=zb):
                lines = list(lines)
                _rezxid(lines, a, za, zb)
                _rezxid(lines, b, zb, za)
                return lines
            out.append(Site("fifo-zxid-inversion", b.comp, apply, _circumstances(h, h.path(b), with_zxids)))
    return out


def real_time_zxid_inversion(h, with_zxids):
    """Write A completed before write B (another session) was invoked, yet B has the lower zxid."""
    ws = _single_ok_writes(h)
    out = []
    for a in ws:
        b = next((x for x in ws if x.session != a.session and x.inv > a.comp), None)
        if b is None or h.zxid(a) >= h.zxid(b):
            continue
        za, zb = h.zxid(a), h.zxid(b)

        def apply(lines, a=a, b=b, za=za, zb=zb):
            lines = list(lines)
            _rezxid(lines, a, za, zb)
            _rezxid(lines, b, zb, za)
            return lines
        out.append(Site("real-time-zxid-inversion", b.comp, apply, _circumstances(h, h.path(b), with_zxids)))
    return out


def zxid_collision(h, with_zxids):
    """Two acknowledged writes of different sessions report the same zxid (one zxid names one transaction)."""
    ws = sorted(_single_ok_writes(h), key=h.zxid)
    out = []
    for a, b in zip(ws, ws[1:]):
        if a.session == b.session or h.zxid(a) == h.zxid(b):
            continue

        def apply(lines, a=a, b=b):
            lines = list(lines)
            _rezxid(lines, b, h.zxid(b), h.zxid(a))
            return lines
        out.append(Site("zxid-collision", b.comp, apply, _circumstances(h, h.path(b), with_zxids)))
    return out


def _event_line(h, pos):
    line = h.lines[pos]
    v = line.get("value") or {}
    return line.get("session"), line.get("zxid"), v.get("path") or line.get("path")


def event_after_reply(h, with_zxids):
    """The watch event arrives after a reply (same session, same connection) whose zxid is at or past the
    change: ZooKeeper delivers a watch event before any reply that reflects its change."""
    out = []
    for pos in h.events:
        sess, ze, path = _event_line(h, pos)
        if ze is None:
            continue
        for q in h.session_lines.get(sess, []):
            if q <= pos:
                continue
            line = h.lines[q]
            f = s(line.get("f"))
            if f in ("connect", "session-expired") or f == "watch-event":
                if f != "watch-event":
                    break
                continue
            z = line.get("zxid") if (with_zxids or f not in READS | {"sync"}) else None
            if s(line.get("type")) in ("ok", "fail") and z is not None and z >= ze:
                def apply(lines, pos=pos, q=q):
                    return _move_after(list(lines), pos, q, lines[q].get("time"))
                out.append(Site("event-after-reply", pos, apply, _circumstances(h, path, with_zxids)))
                break
    return out


def event_before_write_invoked(h, with_zxids):
    """A watch event for the change at zxid z arrives before the write that made z was invoked."""
    by_zxid = {h.zxid(op): op for op in h.ok_writes}
    out = []
    for pos in h.events:
        sess, ze, path = _event_line(h, pos)
        w = by_zxid.get(ze)
        if w is None or w.inv > pos:
            continue

        def apply(lines, pos=pos, w=w):
            return _move_before(list(lines), pos, w.inv, lines[w.inv].get("time"))
        out.append(Site("event-before-write-invoked", pos, apply, _circumstances(h, path, with_zxids)))
    return out


def _replied_since_connect(h, sess, pos):
    """Whether session sess got a reply after its last (re)connect at or before line pos. Events a reconnect's
    SetWatches fires (which may carry a later zxid than their change) all arrive before any such reply."""
    replied = False
    for q in h.session_lines.get(sess, []):
        if q > pos:
            break
        f = s(h.lines[q].get("f"))
        if f == "connect":
            replied = False
        elif f != "watch-event" and s(h.lines[q].get("type")) in ("ok", "fail"):
            replied = True
    return replied


def spurious_event(h, with_zxids):
    """A NodeDataChanged for path P at zxid z, where z is an acknowledged single write to another path Q:
    the transaction at z changed only Q, so nothing changed P's data at z. Inserted only where the session
    has had a reply since its last (re)connect, so it cannot pass for an event SetWatches fires."""
    out = []
    sessions = list(h.session_lines)
    event_process = {}
    for pos in h.events:
        event_process.setdefault(h.lines[pos].get("session"), h.lines[pos].get("process"))
    for w in _single_ok_writes(h):
        q = h.path(w)
        for sess in sessions:
            lines_of = h.session_lines[sess]
            if not (lines_of[0] < w.comp < lines_of[-1]) or sess == w.session:
                continue
            paths = [h.path(op) for op in h.session_ops(sess) if op.f in READS and h.path(op) not in (None, q)]
            if not paths:
                continue
            if not _replied_since_connect(h, sess, w.comp):
                SKIPPED["spurious-event"] += 1  # could pass for an event SetWatches fires on a reconnect
                continue
            p = paths[0]
            proc = event_process.get(sess, h.lines[lines_of[0]].get("process"))
            z = h.zxid(w)

            def apply(lines, w=w, p=p, sess=sess, proc=proc, z=z):
                lines = list(lines)
                t = lines[w.comp].get("time")
                ev = {_kw("type"): _kw("ok"), _kw("process"): proc, _kw("f"): _kw("watch-event"),
                      _kw("value"): {_kw("event"): _kw("node-data-changed"), _kw("path"): p}, _kw("time"): t,
                      _kw("session"): sess, _kw("path"): p, _kw("zxid"): z}
                lines.insert(w.comp + 1, ev)
                return lines
            out.append(Site("spurious-event", w.comp, apply, _circumstances(h, p, with_zxids)))
            break
    return out


def info_write_happened_and_not(h, with_zxids):
    """A session reads the unique value of an :info write (so it happened, at some zxid after the state a
    read saw before the write was invoked), then a later read in the same session shows that older state
    again (so it did not). Either half alone is legal; both together are not."""
    read_values = {h.c(op).get("value") for op in h.ops if op.f in ("get-data", "read") and op.comp is not None
                   and isinstance(h.c(op).get("value"), str)}
    out = []
    for w in h.ops:
        if w.f not in ("set-data", "write") or h.t(w) not in ("info", None):
            continue
        v = h.lines[w.inv].get("value")
        p = h.path(w)
        if not isinstance(v, str) or v in read_values:
            SKIPPED["info-write-happened-and-not"] += 1  # its value was read: it happened, the truth is pinned
            continue
        olds = [(op, val, st) for op, val, st in h.observed_states(p) if op.comp < w.inv]
        if not olds:
            SKIPPED["info-write-happened-and-not"] += 1
            continue
        _, old_value, old_stat = olds[-1]
        by_session = {}
        for r in h.ops:
            if r.f in ("get-data", "read") and r.inv > w.inv and r.comp is not None and h.path(r) == p \
                    and (h.t(r) == "ok" or s(h.c(r).get("error")) == "no-node"):
                by_session.setdefault(r.session, []).append(r)
        pair = next(((rs[0], rs[1]) for rs in by_session.values() if len(rs) >= 2), None)
        if pair is None:
            SKIPPED["info-write-happened-and-not"] += 1
            continue
        r1, r2 = pair

        def apply(lines, r1=r1, r2=r2, v=v, old_value=old_value, old_stat=old_stat):
            lines = list(lines)
            _set(lines, r1.comp, type=_kw("ok"), value=v, stat=_DROP, error=_DROP)
            _set(lines, r2.comp, type=_kw("ok"), value=old_value, stat=copy.deepcopy(old_stat), error=_DROP)
            return lines
        out.append(Site("info-write-happened-and-not", r1.comp, apply, _circumstances(h, p, with_zxids)))
    return out


KINDS = [
    ("lost-acknowledged-write", lost_acknowledged_write),
    ("stale-read-after-own-write", stale_read_after_own_write),
    ("value-never-written", value_never_written),
    ("opposite-orders", opposite_orders),
    ("stale-read-after-sync", stale_read_after_sync),
    ("event-after-reply", event_after_reply),
    ("event-before-write-invoked", event_before_write_invoked),
    ("spurious-event", spurious_event),
    ("duplicated-sequential-name", duplicated_sequential_name),
    ("ephemeral-after-close", ephemeral_after_close),
    ("fifo-zxid-inversion", fifo_zxid_inversion),
    ("zxid-collision", zxid_collision),
    ("ghost-child", ghost_child),
    ("node-flicker", node_flicker),
    ("info-write-happened-and-not", info_write_happened_and_not),
    ("real-time-zxid-inversion", real_time_zxid_inversion),
]
