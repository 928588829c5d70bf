#!/usr/bin/env bash
# build-image.sh: the campaign's node image, built without pulling anything.
#  1. a minimal Debian 12 root filesystem with debootstrap (JRE, iptables, iproute2, procps,
#     libfaketime), from the Debian mirror apt already uses on this machine;
#  2. `docker import` of that tree as zabkit-base:bookworm;
#  3. `docker build` (classic builder: BuildKit is not available) of docker/Dockerfile on top,
#     adding Apache ZooKeeper 3.9.4's server jars (resolved from Maven Central by the campaign
#     project) and the entrypoint.
# Steps whose result exists are skipped (REBUILD=1 forces them).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
WORK=${ZABKIT_DOCKER_WORK:-/var/tmp/zabkit-docker}
export DOCKER_BUILDKIT=0

mirror() {
  # the first Debian main archive among apt's sources (deb822 or one-line format)
  { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' || true;
    grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}' || true; } |
    grep -E '/debian/?$' | head -1 || true
}

if [ "${REBUILD:-0}" = 1 ] || ! docker image inspect zabkit-base:bookworm >/dev/null 2>&1; then
  m=$(mirror)
  [ -n "$m" ] || { echo "build-image: no Debian mirror in apt's sources" >&2; exit 1; }
  rm -rf "$WORK/rootfs"; mkdir -p "$WORK"
  echo "build-image: debootstrap bookworm (minbase + JRE) from apt's mirror; a few minutes"
  debootstrap --variant=minbase \
    --include=openjdk-17-jre-headless,iptables,iproute2,procps,libfaketime,faketime,ca-certificates-java \
    bookworm "$WORK/rootfs" "$m" >"$WORK/debootstrap.log" 2>&1 ||
    { echo "build-image: debootstrap failed; see $WORK/debootstrap.log" >&2; tail -5 "$WORK/debootstrap.log" >&2; exit 1; }
  rm -rf "$WORK/rootfs/var/cache/apt/archives/"*.deb "$WORK/rootfs/var/lib/apt/lists/"*
  tar -C "$WORK/rootfs" -c . | docker import - zabkit-base:bookworm >/dev/null
  echo "build-image: imported zabkit-base:bookworm"
fi

ctx="$WORK/context"
rm -rf "$ctx"; mkdir -p "$ctx/lib"
cp "$HERE/Dockerfile" "$HERE/entrypoint.sh" "$ctx/"
(cd "$ROOT/jepsen" && lein classpath) | tr ':' '\n' |
  grep -E 'zookeeper|netty|slf4j|logback|metrics-core|snappy|commons-io|audience-annotations' |
  grep '\.jar$' | while read -r j; do cp "$j" "$ctx/lib/"; done
docker build -q -t zabkit-node:latest "$ctx" >/dev/null
echo "build-image: built zabkit-node:latest ($(ls "$ctx/lib" | wc -l) jars in /opt/zookeeper/lib)"
