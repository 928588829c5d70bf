"""A stand-in for zk-check in the harness's tests: writes a VALID summary whose :placements come from the
FAKE_PLACEMENTS environment variable (an EDN map), or none when it is unset."""
import os
import sys

args = sys.argv[1:]
out = args[args.index("--out") + 1]
placements = os.environ.get("FAKE_PLACEMENTS")
with open(out, "w") as f:
    f.write("{:valid? true, :failures []" + (", :placements " + placements if placements else "") + "}\n")
sys.exit(0)
