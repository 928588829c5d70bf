#!/usr/bin/env bash
# campaign.sh [lein run test options...]: a campaign on Docker containers, start to finish:
# start the daemon (if none runs), build the node image (if missing), run the campaign with
# --backend docker, and stop the daemon again if this script started it (also on failure/Ctrl-C).
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
cd "$HERE/../jepsen"
lein run test --backend docker "$@"
