#!/usr/bin/env bash
# Runs the kazoo suite against a zabkit server this script starts on a free loopback port and
# stops by its PID at the end, also on failure.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
HERE="$ROOT/impl/src/test/kazoo"
VENV="$ROOT/.tools/kazoo-venv"

"$ROOT/mk/ensure.sh" python3 java maven
if [ ! -x "$VENV/bin/pytest" ] || ! cmp -s "$HERE/requirements.txt" "$VENV/requirements.txt"; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -r "$HERE/requirements.txt"
  cp "$HERE/requirements.txt" "$VENV/requirements.txt"
fi

work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mkdir -p "$work/data"
cat > "$work/zoo.cfg" <<CFG
tickTime=200
dataDir=$work/data
clientPort=$port
clientPortAddress=127.0.0.1
maxSessionTimeout=20000
4lw.commands.whitelist=ruok,srvr,mntr
CFG
"$ROOT/bin/zabkit-server" "$work/zoo.cfg" > "$work/server.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for _ in $(seq 1 300); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf ruok >&3 && [ "$(cat <&3)" = imok ]) 2>/dev/null; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then echo "kazoo: server exited:"; cat "$work/server.log"; exit 1; fi
  sleep 0.2
done
ZK_HOSTS="127.0.0.1:$port" "$VENV/bin/pytest" -q "$HERE" -p no:cacheprovider || { echo "--- server log"; tail -50 "$work/server.log"; exit 1; }
