#!/bin/sh
# Installs kubelet drop-ins on a node and keeps the node up:
#   - writes each file atomically (temp file in the target directory, then rename);
#   - restarts the kubelet only when some content changed;
#   - waits until the kubelet is active and /healthz answers, several checks in a row;
#   - if it does not become healthy, restores the previous files (or removes new ones),
#     restarts again and exits non-zero, so a bad drop-in cannot take the node down.
#
# Usage: apply-kubelet-dropins.sh STAGING_DIR
#   STAGING_DIR holds the files under their node paths, e.g.
#   STAGING_DIR/etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf. Modes are kept.
# Environment:
#   ROOT                 host filesystem root the files are written under (default: /)
#   HOST_EXEC            prefix that runs a command on the host, e.g. from a privileged pod:
#                        "nsenter --target 1 --mount --uts --ipc --net --pid --" (default: none)
#   KUBELET_HEALTHZ_URL  kubelet health endpoint; empty to rely on systemctl is-active only
#                        (default: http://127.0.0.1:10248/healthz; from a pod, use hostNetwork)
#   HEALTH_TIMEOUT       seconds to wait for the kubelet to become healthy (default: 120)
#   HEALTH_INTERVAL      seconds between checks (default: 2)
#   HEALTHY_CHECKS       consecutive good checks required (default: 3)
#   BACKUP_DIR           where previous files are kept (default: $ROOT/var/lib/ballast/kubelet-dropins-backup)
# Exit status: 0 applied or unchanged; 2 rolled back, kubelet healthy on the previous files;
#              3 rolled back, kubelet still unhealthy; 64 usage error.
set -eu

log() { printf 'apply-kubelet-dropins: %s\n' "$*" >&2; }

if [ "$#" -ne 1 ] || [ ! -d "$1" ]; then
  log "usage: apply-kubelet-dropins.sh STAGING_DIR"
  exit 64
fi
STAGING=$(cd "$1" && pwd)
ROOT=${ROOT:-}
ROOT=${ROOT%/}
HOST_EXEC=${HOST_EXEC:-}
KUBELET_HEALTHZ_URL=${KUBELET_HEALTHZ_URL-http://127.0.0.1:10248/healthz}
HEALTH_TIMEOUT=${HEALTH_TIMEOUT:-120}
HEALTH_INTERVAL=${HEALTH_INTERVAL:-2}
HEALTHY_CHECKS=${HEALTHY_CHECKS:-3}
BACKUP_DIR=${BACKUP_DIR:-$ROOT/var/lib/ballast/kubelet-dropins-backup}

# Runs a command on the host; HOST_EXEC is a command prefix and is split on purpose.
on_host() {
  # shellcheck disable=SC2086
  $HOST_EXEC "$@"
}

# Writes $2 (a file) to $1 (a path) atomically, keeping $2's mode.
install_atomically() {
  mkdir -p "$(dirname "$1")"
  cp -p "$2" "$1.ballast-tmp.$$"
  mv -f "$1.ballast-tmp.$$" "$1"
}

kubelet_healthy() {
  on_host systemctl is-active --quiet kubelet || return 1
  [ -n "$KUBELET_HEALTHZ_URL" ] || return 0
  if command -v curl >/dev/null 2>&1; then
    curl -fsS --max-time 5 "$KUBELET_HEALTHZ_URL" >/dev/null 2>&1
  elif command -v wget >/dev/null 2>&1; then
    wget -q -T 5 -O /dev/null "$KUBELET_HEALTHZ_URL" >/dev/null 2>&1
  else
    log "neither curl nor wget found: relying on systemctl is-active only"
    return 0
  fi
}

wait_until_healthy() {
  waited=0
  good=0
  while [ "$waited" -le "$HEALTH_TIMEOUT" ]; do
    if kubelet_healthy; then
      good=$((good + 1))
      [ "$good" -ge "$HEALTHY_CHECKS" ] && return 0
    else
      good=0
    fi
    sleep "$HEALTH_INTERVAL"
    waited=$((waited + HEALTH_INTERVAL))
  done
  return 1
}

restart_kubelet() {
  on_host systemctl daemon-reload
  on_host systemctl restart kubelet
}

rm -rf "$BACKUP_DIR"
mkdir -p "$BACKUP_DIR/files"
CHANGED="$BACKUP_DIR/changed"
: > "$CHANGED"

(cd "$STAGING" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) > "$BACKUP_DIR/staged"
while IFS= read -r relative; do
  target="$ROOT/$relative"
  if [ -f "$target" ] && cmp -s "$STAGING/$relative" "$target"; then
    continue
  fi
  if [ -f "$target" ]; then
    mkdir -p "$(dirname "$BACKUP_DIR/files/$relative")"
    cp -p "$target" "$BACKUP_DIR/files/$relative"
  fi
  printf '%s\n' "$relative" >> "$CHANGED"
done < "$BACKUP_DIR/staged"

if [ ! -s "$CHANGED" ]; then
  log "unchanged: kubelet not restarted"
  exit 0
fi

while IFS= read -r relative; do
  install_atomically "$ROOT/$relative" "$STAGING/$relative"
  log "wrote /$relative"
done < "$CHANGED"

restart_kubelet
if wait_until_healthy; then
  log "applied: kubelet healthy"
  exit 0
fi

log "kubelet not healthy after ${HEALTH_TIMEOUT}s: restoring the previous files"
while IFS= read -r relative; do
  if [ -f "$BACKUP_DIR/files/$relative" ]; then
    install_atomically "$ROOT/$relative" "$BACKUP_DIR/files/$relative"
    log "restored /$relative"
  else
    rm -f "$ROOT/$relative"
    log "removed /$relative"
  fi
done < "$CHANGED"

restart_kubelet
if wait_until_healthy; then
  log "rolled back: kubelet healthy on the previous files"
  exit 2
fi
log "rolled back, but the kubelet is still not healthy"
exit 3
