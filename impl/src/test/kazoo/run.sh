#!/usr/bin/env bash
# Runs the kazoo suite against each server in KAZOO_SERVERS (default: "zabkit zookeeper"), in plaintext and
# then over TLS with SASL (secure/): zabkit's
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

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# start_server KIND [NAME [JVM_FLAGS [ZOO_CFG_LINES]]]: starts one server on a fresh port and data dir
# ($work/NAME, default KIND); sets $server and $port.
start_server() {
  local kind="$1" name="${2:-$1}" flags="${3:-}" lines="${4:-}"
  local dir="$work/$name"
  port="$(free_port)"
  mkdir -p "$dir/data"
  cat > "$dir/zoo.cfg" <<CFG
tickTime=200
dataDir=$dir/data
clientPort=$port
clientPortAddress=127.0.0.1
maxSessionTimeout=20000
4lw.commands.whitelist=ruok,srvr,mntr
admin.enableServer=false
$lines
CFG
  case "$kind" in
    zabkit)
      JAVA_OPTS="$flags" "$ROOT/bin/zabkit-server" "$dir/zoo.cfg" > "$dir/server.log" 2>&1 &
      ;;
    zookeeper)
      if [ ! -s "$work/zookeeper.classpath" ]; then
        (cd "$ROOT" && mvn -B -q -Dstyle.color=never -pl impl dependency:build-classpath \
          -Dmdep.includeScope=test -Dmdep.outputFile="$work/zookeeper.classpath" 2>&1 | sed "s/\x1b\[[0-9;]*m//g" >&2)
      fi
      # shellcheck disable=SC2086 # the flags are separate words
      java $flags -cp "$(cat "$work/zookeeper.classpath")" org.apache.zookeeper.server.ZooKeeperServerMain \
        "$dir/zoo.cfg" > "$dir/server.log" 2>&1 &
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

# Keys for the TLS run, made here with the JDK's keytool (none is committed): the server's key pair, its
# certificate as PEM (the one the client trusts), and another certificate the server does not have.
keys="$work/keys"
mkdir -p "$keys"
for name in server other; do
  keytool -genkeypair -alias "$name" -keyalg EC -groupname secp256r1 -validity 2 \
    -dname "CN=$name,O=zabkit test" -ext SAN=ip:127.0.0.1,dns:localhost \
    -keystore "$keys/$name.p12" -storetype PKCS12 -storepass test-only-password > /dev/null 2>&1
  keytool -exportcert -rfc -alias "$name" -keystore "$keys/$name.p12" -storepass test-only-password \
    -file "$keys/$name.pem" > /dev/null 2>&1
done
cat > "$keys/jaas.conf" <<JAAS
Server {
  org.apache.zookeeper.server.auth.DigestLoginModule required
  user_alice="alice-secret";
};
JAAS

for kind in $SERVERS; do
  echo "kazoo suite against $kind"
  start_server "$kind"
  ZK_HOSTS="127.0.0.1:$port" "$VENV/bin/pytest" -q "$HERE/test_kazoo.py" -p no:cacheprovider \
    || { echo "--- $kind server log"; tail -50 "$work/$kind/server.log"; exit 1; }
  kill "$server"; wait "$server" 2>/dev/null || true; server=""

  echo "kazoo over TLS and SASL against $kind"
  tls_port="$(free_port)"
  start_server "$kind" "$kind-secure" "-Djava.security.auth.login.config=$keys/jaas.conf" "$(printf '%s\n' \
    "secureClientPort=$tls_port" "secureClientPortAddress=127.0.0.1" \
    "serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory" \
    "ssl.keyStore.location=$keys/server.p12" "ssl.keyStore.password=test-only-password" "ssl.clientAuth=none" \
    "authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider")"
  ZK_TLS_HOSTS="127.0.0.1:$tls_port" ZK_CA="$keys/server.pem" ZK_OTHER_CA="$keys/other.pem" \
    "$VENV/bin/pytest" -q "$HERE/secure" -p no:cacheprovider \
    || { echo "--- $kind server log"; tail -50 "$work/$kind-secure/server.log"; exit 1; }
  kill "$server"; wait "$server" 2>/dev/null || true; server=""

  echo "kazoo read_only=True against a 3-server $kind ensemble that loses two servers"
  case "$kind" in
    # built by the plain run above: three servers must not race to rebuild it
    zabkit) cmd="env ZABKIT_SKIP_BUILD=1 JAVA_OPTS=-Dreadonlymode.enabled=true $ROOT/bin/zabkit-server" ;;
    zookeeper) cmd="java -Dreadonlymode.enabled=true -Dzookeeper.admin.enableServer=false \
      -cp $(cat "$work/zookeeper.classpath") org.apache.zookeeper.server.quorum.QuorumPeerMain" ;;
  esac
  mkdir -p "$work/$kind-ensemble"
  # the test stops its own servers by their PIDs, also on failure
  ZK_ENSEMBLE_CMD="$cmd" ZK_ENSEMBLE_DIR="$work/$kind-ensemble" \
    "$VENV/bin/pytest" -q "$HERE/readonly" -p no:cacheprovider \
    || { for f in "$work/$kind-ensemble"/server-*.log; do echo "--- $f"; tail -30 "$f"; done; exit 1; }
done
