#!/usr/bin/env python3
"""TLC's distributed mode on loopback: the same model, one process vs. a TLCServer with two
TLCWorkers, must find the same number of distinct states and the same verdict.

  python3 spec/test_tlc_dist.py      # make tlc-dist-test

The model is MCZab_Dist.cfg (about 2,200 distinct states). Exit 0 when the counts agree,
1 when they differ or either run has no verdict.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tlc  # noqa: E402  (spec/tlc.py: the driver whose distributed mode is under test)

MODEL = ["MCZab_Dist", "ci", "MCZab", "MCZab_Dist.cfg", "pass", "bfs",
         "3 servers, 2 txns, epoch 1, no fault"]


def run(model, hosts):
    lines, elapsed, _cpu = tlc.run_model(model, 1, "1g", hosts)
    res = tlc.summarize(lines, model.mode)
    label = "distributed, workers " + ",".join(hosts) if hosts else "one process"
    print(f"{label}: verdict {res['verdict']}, {res['distinct']} distinct states, "
          f"{res['states']} generated, {elapsed:.0f} s", flush=True)
    if res["verdict"] == "error":
        print("\n".join("  | " + l for l in lines[-20:]))
    return res


def main():
    tlc.ensure_jar()
    model = tlc.Model(MODEL, 0)
    t0 = time.time()
    single = run(model, None)
    dist = run(model, ["127.0.0.1", "127.0.0.1"])
    ok = (single["verdict"] == dist["verdict"] == "pass"
          and single["distinct"] != "" and single["distinct"] == dist["distinct"])
    print(f"{'ok' if ok else 'FAIL'}: distinct states {single['distinct']} (one process) vs "
          f"{dist['distinct']} (TLCServer + 2 TLCWorkers); {time.time() - t0:.0f} s in all")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
