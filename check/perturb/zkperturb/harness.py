"""perturb: plant violations in legal histories and count how many zk-check catches.

  perturb run --zk-check CMD --out DIR [--sites N] [--jobs J] [--bar FILE] INPUT...
  perturb truth --zk-check CMD DIR...        compare zk-check's :placements with NAME.truth.edn
  perturb sweep --zk-check CMD DIR...        zk-check every history; INVALID ones are reported, exit 1

zk-check is a black box here: its command line, exit status (0 valid, 1 violated, 2 bad input) and
the :failures / :placements of its EDN summary file."""

import argparse
import concurrent.futures
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib

from . import edn
from .kinds import KINDS, NEEDS_READ_ZXIDS, SKIPPED
from .model import History, strip_read_zxids

MODES = ("with-read-zxids", "without-read-zxids")


def run_zk_check(cmd, history_file):
    """(exit status, summary map or None) of `zk-check HISTORY --out SUMMARY --quiet`."""
    summary = history_file[:-4] + ".summary.edn"
    p = subprocess.run(["nice"] + cmd.split() + [history_file, "--out", summary, "--quiet"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    data = None
    if os.path.exists(summary):
        try:
            with open(summary, encoding="utf-8") as f:
                data = edn.loads(f.read())
        except edn.EdnError:
            data = None
    return p.returncode, data, (p.stderr or p.stdout).strip().splitlines()[-1:] if p.returncode == 2 else []


def renumber(lines):
    out = []
    for i, line in enumerate(lines):
        line = dict(line)
        line[_key(line, "index")] = i
        out.append(line)
    return out


def _key(line, name):
    for k in line:
        if str(k) == name:
            return k
    return edn.Keyword(name)


def source_class(path):
    base = os.path.basename(path)
    if base.startswith("sim-s"):
        return "sim-" + base.split("-")[1]
    if base.startswith("gen-"):
        return "generator"
    return "campaign"


def inputs_from(args):
    files = []
    for a in args:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                files += [os.path.join(root, n) for n in names
                          if n.endswith(".edn") and not n.endswith((".truth.edn", ".summary.edn", "zk-check.edn",
                                                                     "results.edn"))]
        else:
            files.append(a)
    return sorted(files)


def cmd_run(a):
    files = inputs_from(a.inputs)
    if not files:
        print("perturb: no input histories in %s" % " ".join(a.inputs), file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="perturb-", dir=a.out)
    t0 = time.time()
    bases = []          # (file, mode, base path, lines)
    for f in files:
        lines = edn.read_history(f)
        for mode in MODES:
            base = renumber(lines if mode == MODES[0] else strip_read_zxids(lines))
            name = "%s--%s" % (os.path.basename(f)[:-4], mode)
            path = os.path.join(work, name + ".edn")
            edn.write_history(path, base)
            bases.append((f, mode, path, base))
    pool = concurrent.futures.ThreadPoolExecutor(a.jobs)
    verdicts = list(pool.map(lambda b: run_zk_check(a.zk_check, b[2]), bases))
    stats = {}          # (kind, mode) -> counters
    alarms = {}         # source class -> [checked, invalid, unusable]
    misses = []
    jobs = []
    for (f, mode, path, base), (rc, summary, err) in zip(bases, verdicts):
        cls = source_class(f)
        al = alarms.setdefault((cls, mode), [0, 0, 0, []])
        al[0] += 1
        if rc == 1:
            al[1] += 1
            al[3].append("%s %s" % (os.path.basename(f), _failures(summary)))
        elif rc != 0:
            al[2] += 1
        h = History(base)
        with_z = mode == MODES[0]
        for kind, finder in KINDS:
            st = stats.setdefault((kind, mode), dict(inputs=0, sites=0, injected=0, caught=0, missed=0, errors=0,
                                                     skipped=0, declined=0, classes={}))
            if kind in NEEDS_READ_ZXIDS and not with_z:
                continue
            before = SKIPPED[kind]
            sites = finder(h, with_z)
            st["declined"] += SKIPPED[kind] - before
            if not sites:
                continue
            st["inputs"] += 1
            st["sites"] += len(sites)
            rng = random.Random(zlib.crc32(("%s|%s|%s" % (os.path.basename(f), kind, mode)).encode()))
            chosen = rng.sample(sites, min(a.sites, len(sites)))
            if rc != 0:
                st["skipped"] += len(chosen)  # the unperturbed history is already rejected: nothing to attribute
                continue
            for n, site in enumerate(chosen):
                mutated = renumber(site.apply(base))
                out = os.path.join(work, "%s--%s-%d.edn" % (os.path.basename(path)[:-4], kind, n))
                edn.write_history(out, mutated)
                jobs.append((kind, mode, site, out, f))
    results = list(pool.map(lambda j: run_zk_check(a.zk_check, j[3]), jobs))
    for (kind, mode, site, out, f), (rc, summary, err) in zip(jobs, results):
        st = stats[(kind, mode)]
        st["injected"] += 1
        if rc == 1:
            st["caught"] += 1
        elif rc == 0:
            st["missed"] += 1
            cls = ",".join(sorted(site.tags)) or "no-circumstance"
            st["classes"][cls] = st["classes"].get(cls, 0) + 1
            misses.append((kind, mode, os.path.basename(f), site.where, cls, out))
        else:
            st["errors"] += 1
            misses.append((kind, mode, os.path.basename(f), site.where, "zk-check exit %d %s" % (rc, err), out))
    bar = read_bar(a.bar) if a.bar else {}
    report(stats, alarms, misses, bar, a, len(files), time.time() - t0, work)
    if a.goal is not None:
        short = ["%s %s %.1f%%" % (k, m, pct(st)) for (k, m), st in sorted(stats.items())
                 if st["injected"] and pct(st) < a.goal]
        print("perturb: %d of %d kind/mode pairs with injections are below the goal of %.0f%%%s" % (
            len(short), sum(1 for st in stats.values() if st["injected"]), a.goal,
            (": " + "; ".join(short)) if short else ""))
    return verdict(stats, bar)


def _failures(summary):
    if not isinstance(summary, dict):
        return "(no summary)"
    return "[" + " ".join(str(x) for x in summary.get(edn.Keyword("failures"), []) or []) + "]"


def read_bar(path):
    """The CI bar: per (kind, mode), (minimum caught, maximum missed) on the fixed CI inputs."""
    bar = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            kind, mode, caught, missed = line.split()
            assert mode in MODES, "bar file %s: unknown mode %s" % (path, mode)
            assert kind in dict(KINDS), "bar file %s: unknown kind %s" % (path, kind)
            bar[(kind, mode)] = (int(caught), int(missed))
    return bar


def pct(st):
    return 100.0 * st["caught"] / st["injected"] if st["injected"] else None


def verdict(stats, bar):
    """Fails when a kind catches fewer planted violations than its line, reports more of them VALID, or had no site.

    Counts, not a percentage: the inputs are fixed, so a site caught once must stay caught and a miss must not be
    added; a site that a better checker newly reaches (its input was undecided before) adds to the denominator
    only, and would lower a percentage although nothing was lost."""
    bad = []
    for (kind, mode), (need, allowed) in bar.items():
        st = stats.get((kind, mode))
        if not st or not st["injected"]:
            bad.append("%s %s: nothing injected (the bar needs sites)" % (kind, mode))
            continue
        if st["caught"] < need:
            bad.append("%s %s: caught %d < bar %d" % (kind, mode, st["caught"], need))
        if st["missed"] > allowed:
            bad.append("%s %s: missed %d > bar %d (planted violations reported VALID)" % (kind, mode, st["missed"], allowed))
    for b in bad:
        print("BELOW BAR: " + b)
    if bar:
        print("perturb: %s" % ("every kind at or above its bar" if not bad else "%d kinds below their bar" % len(bad)))
    return 1 if bad else 0


def report(stats, alarms, misses, bar, a, nfiles, seconds, work):
    os.makedirs(a.out, exist_ok=True)
    hdr = "%-28s %-19s %6s %6s %8s %8s %6s %6s %4s %7s %6s" % (
        "kind", "mode", "inputs", "sites", "declined", "injected", "caught", "missed", "err", "caught%", "bar")
    print(hdr)
    print("-" * len(hdr))
    tsv = ["kind\tmode\tinputs_with_site\tsites\tdeclined\tinjected\tcaught\tmissed\terrors\tskipped\tcaught_pct\tbar_caught_missed"]
    ednrows = []
    for kind, _ in KINDS:
        for mode in MODES:
            st = stats.get((kind, mode))
            if st is None:
                continue
            p = pct(st)
            b = bar.get((kind, mode))
            na = kind in NEEDS_READ_ZXIDS and mode == MODES[1]
            print("%-28s %-19s %6d %6d %8d %8d %6d %6d %4d %7s %6s%s" % (
                kind, mode, st["inputs"], st["sites"], st["declined"], st["injected"], st["caught"], st["missed"], st["errors"],
                "n/a" if p is None else "%.1f" % p, "-" if b is None else "%d/%d" % b,
                "  (needs read zxids)" if na else ("  (no site)" if not st["sites"] else "")))
            tsv.append("\t".join(str(x) for x in (kind, mode, st["inputs"], st["sites"], st["declined"], st["injected"], st["caught"],
                                                  st["missed"], st["errors"], st["skipped"],
                                                  "" if p is None else "%.1f" % p, "" if b is None else "%d/%d" % b)))
            ednrows.append({edn.Keyword("kind"): edn.Keyword(kind), edn.Keyword("mode"): edn.Keyword(mode),
                            edn.Keyword("inputs"): st["inputs"], edn.Keyword("sites"): st["sites"],
                            edn.Keyword("declined"): st["declined"],
                            edn.Keyword("injected"): st["injected"], edn.Keyword("caught"): st["caught"],
                            edn.Keyword("missed"): st["missed"], edn.Keyword("errors"): st["errors"],
                            edn.Keyword("skipped-input-rejected"): st["skipped"],
                            edn.Keyword("miss-circumstances"): dict(st["classes"])})
    tot = [sum(st[k] for st in stats.values()) for k in ("injected", "caught", "missed", "errors", "skipped")]
    print("total: %d injected, %d caught, %d missed, %d zk-check errors; %d sites not run because the unperturbed "
          "history was already rejected" % tuple(tot))
    print("declined: candidate sites where no mutation is provably illegal (not counted as sites)")
    print("\nmisses by circumstance (facts of the site, not a diagnosis of the checker):")
    for kind, _ in KINDS:
        for mode in MODES:
            st = stats.get((kind, mode))
            if st and st["classes"]:
                print("  %-28s %-19s %s" % (kind, mode, ", ".join("%s: %d" % kv for kv in sorted(st["classes"].items()))))
    print("\nfalse alarms on the unperturbed inputs (zk-check INVALID on a legal history):")
    for (cls, mode), (n, bad, unusable, names) in sorted(alarms.items()):
        print("  %-10s %-19s %d checked, %d INVALID, %d exit 2%s" % (cls, mode, n, bad, unusable,
                                                                    (": " + "; ".join(names[:6])) if names else ""))
    with open(os.path.join(a.out, "perturb.tsv"), "w") as f:
        f.write("\n".join(tsv) + "\n")
    with open(os.path.join(a.out, "perturb.edn"), "w") as f:
        f.write(edn.dumps({edn.Keyword("kinds"): ednrows,
                           edn.Keyword("false-alarms"): [{edn.Keyword("source"): cls, edn.Keyword("mode"): mode,
                                                          edn.Keyword("checked"): n, edn.Keyword("invalid"): bad,
                                                          edn.Keyword("examples"): names[:20]}
                                                         for (cls, mode), (n, bad, _, names) in sorted(alarms.items())]})
                + "\n")
    with open(os.path.join(a.out, "misses.tsv"), "w") as f:
        f.write("kind\tmode\tinput\tline\tcircumstance\tmutated_history\n")
        for m in misses:
            f.write("\t".join(str(x) for x in m) + "\n")
    print("\nperturb: %d input histories, %.0f s; table in %s/perturb.tsv and perturb.edn, misses in %s/misses.tsv, "
          "histories in %s" % (nfiles, seconds, a.out, a.out, work))


def cmd_truth(a):
    files = [f for f in inputs_from(a.inputs) if os.path.exists(f[:-4] + ".truth.edn")]
    if not files:
        print("truth: no history with a NAME.truth.edn side file in %s" % " ".join(a.inputs))
        return 2
    work = tempfile.mkdtemp(prefix="truth-")
    agree = differ = compared = without = 0
    diffs = []
    for f in files:
        with open(f[:-4] + ".truth.edn", encoding="utf-8") as fh:
            truth = edn.loads(fh.read())
        placements = truth[edn.Keyword("placements")]
        no_effect = set(truth.get(edn.Keyword("error-txns")) or ())
        copy_ = os.path.join(work, os.path.basename(f))
        with open(f, encoding="utf-8") as src, open(copy_, "w", encoding="utf-8") as dst:
            dst.write(src.read())
        rc, summary, _ = run_zk_check(a.zk_check, copy_)
        reported = summary.get(edn.Keyword("placements")) if isinstance(summary, dict) else None
        if reported is None:
            without += 1
            continue
        for index, true in placements.items():
            compared += 1
            got = reported.get(index, "missing")
            ok = got == true or (index in no_effect and str(got) == "absent")
            agree += ok
            differ += not ok
            if not ok:
                diffs.append("%s index %s: truth %s, zk-check %s" % (os.path.basename(f), index, true, got))
    print("truth: %d histories with ground truth; %d without :placements in zk-check's summary" % (len(files), without))
    if without == len(files):
        print("truth: no placements reported by zk-check: nothing compared (this is not a pass)")
        return 0 if a.allow_missing else 1
    print("truth: %d open operations compared: %d agree, %d differ (%.1f%% agreement)" % (
        compared, agree, differ, 100.0 * agree / compared if compared else 0))
    for d in diffs[:30]:
        print("  " + d)
    print("truth: a difference is not by itself a checker error when the observations leave the placement open")
    return 0


def _replay(history):
    """The simulator's replay command, from the ground-truth side file, or the history's path."""
    truth = history[:-4] + ".truth.edn"
    if os.path.exists(truth):
        with open(truth, encoding="utf-8") as f:
            src = edn.loads(f.read()).get(edn.Keyword("source"))
        if src:
            return "%s HISTORY=/tmp/h.edn && check/bin/zk-check /tmp/h.edn" % src
    return "check/bin/zk-check " + history


def cmd_sweep(a):
    files = inputs_from(a.inputs)
    t0 = time.time()
    pool = concurrent.futures.ThreadPoolExecutor(a.jobs)
    res = list(pool.map(lambda f: run_zk_check(a.zk_check, f), files))
    invalid = [(f, s) for f, (rc, s, _) in zip(files, res) if rc == 1]
    # exit 2 with a summary saying :unknown: the search ran out of budget (or nothing was checkable), which is no
    # false alarm; counted and listed, never a failure. Any other exit 2 is an error (bad input, crash).
    undecided = [f for f, (rc, s, _) in zip(files, res) if rc == 2 and _unknown(s)]
    bad = [(f, e) for f, (rc, s, e) in zip(files, res) if rc not in (0, 1) and f not in undecided]
    # of the undecided, those with nothing checkable at all (a seed whose clients never got an operation through,
    # e.g. a crash storm): no search ran, so they say nothing about the checker's power to decide
    empty = {f for f, (rc, s, _) in zip(files, res) if f in undecided and _nothing_checkable(s)}
    by = {}
    for f, (rc, s, _) in zip(files, res):
        c = by.setdefault(source_class(f), [0, 0, 0, 0])
        c[0] += 1
        c[1] += rc == 1
        c[2] += f in undecided
        c[3] += f in empty
    for cls, (n, k, u, e) in sorted(by.items()):
        print("sweep: %-8s %d histories, %d INVALID, %d UNKNOWN (%d undecided by the search, %d with nothing to check)"
              % (cls, n, k, u, u - e, e))
    for f, s in invalid:
        print("INVALID %s %s  replay: %s" % (os.path.basename(f), _failures(s), _replay(f)))
    for f in undecided:
        print("UNKNOWN %s (%s)" % (os.path.basename(f), "nothing to check" if f in empty else _reason(res[files.index(f)][1])))
    for f, e in bad:
        print("ERROR %s %s" % (os.path.basename(f), e))
    print("sweep: %d histories checked in %.0f s, %d INVALID, %d UNKNOWN (%d undecided by the search, %d with nothing"
          " to check), %d errors" % (len(files), time.time() - t0, len(invalid), len(undecided),
                                     len(undecided) - len(empty), len(empty), len(bad)))
    return 1 if invalid or bad or not files else 0


def _nothing_checkable(summary):
    """True when zk-check found nothing in the history to check (every property :unknown with a count of 0)."""
    if not _unknown(summary):
        return False
    props = [v for v in summary.values() if isinstance(v, dict) and edn.kw("count") in v]
    return bool(props) and all(v.get(edn.kw("count")) == 0 for v in props)


def _reason(summary):
    """zk-check's :unknown-reason, shortened for one line."""
    r = str(summary.get(edn.kw("unknown-reason"), "")) if isinstance(summary, dict) else ""
    return r if len(r) <= 100 else r[:97] + "..."


def _unknown(summary):
    """True when zk-check's summary says the history is undecided (:valid? :unknown)."""
    if not isinstance(summary, dict):
        return False
    return summary.get(edn.kw("valid?")) == edn.kw("unknown")


def main(argv=None):
    p = argparse.ArgumentParser(prog="perturb", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="plant violations and count what zk-check catches")
    r.add_argument("--zk-check", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--sites", type=int, default=2, help="sites per kind, mode and input history")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--bar", help="bar file: KIND MODE MIN_CAUGHT MAX_MISSED per line; exit 1 below it")
    r.add_argument("--goal", type=float, help="also list the kinds caught below this %% (reported, never fails)")
    r.add_argument("inputs", nargs="+")
    t = sub.add_parser("truth", help="compare zk-check's :placements with the simulator's ground truth")
    t.add_argument("--zk-check", required=True)
    t.add_argument("--allow-missing", action="store_true", help="exit 0 when zk-check reports no placements")
    t.add_argument("inputs", nargs="+")
    w = sub.add_parser("sweep", help="zk-check every history; exit 1 on any INVALID")
    w.add_argument("--zk-check", required=True)
    w.add_argument("--jobs", type=int, default=2)
    w.add_argument("inputs", nargs="+")
    a = p.parse_args(argv)
    if a.cmd == "run":
        os.makedirs(a.out, exist_ok=True)
        return cmd_run(a)
    return cmd_truth(a) if a.cmd == "truth" else cmd_sweep(a)


if __name__ == "__main__":
    sys.exit(main())
