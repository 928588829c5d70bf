#!/usr/bin/env bash
# campaign.sh [test|test-all] [lein run test options...]: campaigns on Docker containers, start to
# finish: start the daemon (if none runs), build the node image (if missing), run `lein run test`
# (or test-all) with --backend docker, and stop the daemon again if this script started it (also
# on failure/Ctrl-C). Both systems run in the same image: ZooKeeper's jars are in it, the zabkit
# server comes from the repository, which every container mounts read-only at the same path.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
export DOCKER_BUILDKIT=0
started=0
if ! docker info >/dev/null 2>&1; then
  "$HERE/dockerd.sh" start
  started=1
fi
stop_daemon() { if [ "$started" = 1 ]; then "$HERE/dockerd.sh" stop; fi; }
trap stop_daemon EXIT
"$HERE/build-image.sh"
cmd=test
case "${1:-}" in test|test-all) cmd=$1; shift ;; esac
cd "$HERE/../jepsen"
lein run "$cmd" --backend docker "$@"
