#!/usr/bin/env bash
# Runs the kazoo suite against each server in KAZOO_SERVERS (default: "zabkit zookeeper"): zabkit's
# reference server, and Apache ZooKeeper 3.9.4's standalone server from impl's test classpath as the
# oracle, so a behaviour the suite checks that zabkit gets wrong shows as a failing pair. Each server
# starts on a free loopback port and is stopped by its PID at the end, also on failure.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
HERE="$ROOT/impl/src/test/kazoo"
VENV="$ROOT/.tools/kazoo-venv"
SERVERS="${KAZOO_SERVERS:-zabkit zookeeper}"

"$ROOT/mk/ensure.sh" python3 java maven
if [ ! -x "$VENV/bin/pytest" ] || ! cmp -s "$HERE/requirements.txt" "$VENV/requirements.txt"; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -r "$HERE/requirements.txt"
  cp "$HERE/requirements.txt" "$VENV/requirements.txt"
fi

work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# start_server KIND: starts one server on a fresh port and data dir; sets $server and $port.
start_server() {
  local kind="$1" dir="$work/$1"
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  mkdir -p "$dir/data"
  cat > "$dir/zoo.cfg" <<CFG
tickTime=200
dataDir=$dir/data
clientPort=$port
clientPortAddress=127.0.0.1
maxSessionTimeout=20000
4lw.commands.whitelist=ruok,srvr,mntr
admin.enableServer=false
CFG
  case "$kind" in
    zabkit)
      "$ROOT/bin/zabkit-server" "$dir/zoo.cfg" > "$dir/server.log" 2>&1 &
      ;;
    zookeeper)
      if [ ! -s "$work/zookeeper.classpath" ]; then
        (cd "$ROOT" && mvn -B -q -Dstyle.color=never -pl impl dependency:build-classpath \
          -Dmdep.includeScope=test -Dmdep.outputFile="$work/zookeeper.classpath" 2>&1 | sed "s/\x1b\[[0-9;]*m//g" >&2)
      fi
      java -cp "$(cat "$work/zookeeper.classpath")" org.apache.zookeeper.server.ZooKeeperServerMain "$dir/zoo.cfg" \
        > "$dir/server.log" 2>&1 &
      ;;
    *)
      echo "kazoo: unknown server '$kind' in KAZOO_SERVERS (zabkit, zookeeper)" >&2
      exit 2
      ;;
  esac
  server=$!
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf ruok >&3 && [ "$(cat <&3)" = imok ]) 2>/dev/null; then return 0; fi
    if ! kill -0 "$server" 2>/dev/null; then echo "kazoo: $kind server exited:"; cat "$dir/server.log"; exit 1; fi
    sleep 0.2
  done
  echo "kazoo: $kind server did not answer ruok within 60 s"; tail -50 "$dir/server.log"; exit 1
}

for kind in $SERVERS; do
  echo "kazoo suite against $kind"
  start_server "$kind"
  ZK_HOSTS="127.0.0.1:$port" "$VENV/bin/pytest" -q "$HERE" -p no:cacheprovider \
    || { echo "--- $kind server log"; tail -50 "$work/$kind/server.log"; exit 1; }
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
done
