#!/usr/bin/env bash
# dockerd.sh start|stop: the Docker daemon for campaigns. `start` launches Debian's dockerd with
# a pid file unless a daemon already answers; `stop` stops only a daemon that `start` launched
# (by the pid in that file).
set -euo pipefail
PIDFILE=/run/zabkit-dockerd.pid
LOG=/var/log/zabkit-dockerd.log
case "${1:-}" in
  start)
    if docker info >/dev/null 2>&1; then echo "dockerd: already running"; exit 0; fi
    # The campaign image is built without network access (build-image.sh), so the daemon gets no
    # say over the host's firewall or forwarding, and no default bridge: containers live only on
    # the --internal networks each run creates.
    nohup dockerd --pidfile "$PIDFILE" --iptables=false --ip-forward=false --bridge=none \
      >"$LOG" 2>&1 &
    for _ in $(seq 1 60); do
      docker info >/dev/null 2>&1 && { echo "dockerd: started (pid $(cat "$PIDFILE"))"; exit 0; }
      sleep 0.5
    done
    echo "dockerd: did not start within 30 s; see $LOG" >&2; exit 1 ;;
  stop)
    if [ -f "$PIDFILE" ]; then
      pid=$(cat "$PIDFILE")
      if [ -d "/proc/$pid" ] && grep -q dockerd "/proc/$pid/cmdline"; then
        kill "$pid"
        for _ in $(seq 1 60); do [ -d "/proc/$pid" ] || break; sleep 0.5; done
        echo "dockerd: stopped (pid $pid)"
      fi
    fi ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
