"""A stand-in for zk-check in the harness's tests: writes a summary whose :placements come from the
FAKE_PLACEMENTS environment variable (an EDN map), or none when it is unset. FAKE_VERDICT picks the verdict:
valid (default, exit 0), invalid (exit 1), unknown (exit 2 with :valid? :unknown) or error (exit 2, no summary)."""
import os
import sys

args = sys.argv[1:]
out = args[args.index("--out") + 1]
placements = os.environ.get("FAKE_PLACEMENTS")
verdict = os.environ.get("FAKE_VERDICT", "valid")
if verdict == "error":
    print("zk-check: bad input", file=sys.stderr)
    sys.exit(2)
valid = {"valid": "true", "invalid": "false", "unknown": ":unknown"}[verdict]
with open(out, "w") as f:
    f.write("{:valid? " + valid + ", :failures [" + (":LinearizableWrites" if verdict == "invalid" else "") + "]"
            + (", :placements " + placements if placements else "") + "}\n")
sys.exit({"valid": 0, "invalid": 1, "unknown": 2}[verdict])
