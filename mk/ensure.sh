#!/usr/bin/env bash
# ensure.sh TOOL...: install what a make target needs on a fresh Debian 12 machine.
# Each tool is checked first and installed only when missing, so a warm machine pays nothing.
set -euo pipefail

apt_updated=0
apt_install() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "ensure: need root (or sudo) to apt-get install $*" >&2
    exec sudo -E "$0" "${ORIG_ARGS[@]}"
  fi
  if [ "$apt_updated" -eq 0 ]; then
    echo "ensure: apt-get update" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_updated=1
  fi
  echo "ensure: apt-get install $*" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

java_major() { java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1; }

ensure_one() {
  case "$1" in
    java)
      if ! command -v javac >/dev/null 2>&1 || [ "$(java_major)" -lt 17 ]; then
        apt_install openjdk-17-jdk-headless
      fi ;;
    maven)  command -v mvn >/dev/null 2>&1 || apt_install maven ;;
    go)     command -v go >/dev/null 2>&1 || apt_install golang-go ;;
    lein)   command -v lein >/dev/null 2>&1 || apt_install leiningen clojure ;;
    python3)
      if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
        apt_install python3 python3-venv python3-pip
      fi ;;
    iptables) command -v iptables >/dev/null 2>&1 || apt_install iptables ;;
    iproute2) command -v ip >/dev/null 2>&1 || apt_install iproute2 ;;
    faketime) [ -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] || apt_install faketime libfaketime ;;
    docker) command -v dockerd >/dev/null 2>&1 || apt_install docker.io ;;
    debootstrap) command -v debootstrap >/dev/null 2>&1 || apt_install debootstrap ;;
    netcat) command -v nc >/dev/null 2>&1 || apt_install netcat-openbsd ;;
    util-linux) { command -v fallocate >/dev/null 2>&1 && command -v mount >/dev/null 2>&1; } || apt_install util-linux mount ;;
    sshd) { [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null 2>&1; } || apt_install openssh-server openssh-client ;;
    *) echo "ensure: unknown tool '$1' (known: java maven go lein python3 iptables iproute2 faketime docker debootstrap netcat util-linux sshd)" >&2; exit 2 ;;
  esac
}

ORIG_ARGS=("$@")
for tool in "$@"; do ensure_one "$tool"; done
