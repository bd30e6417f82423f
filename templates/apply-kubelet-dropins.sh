#!/bin/sh
# Installs kubelet drop-ins on a node and keeps the node up:
#   - writes each file atomically (temp file in the target directory, then rename), owned by root
#     with mode 0644 whoever staged it and however (a drop-in the kubelet's unit reads must not be
#     writable by anyone else);
#   - keeps an apply journal: before the first change it records what will change, and the backup
#     of every replaced file (symbolic links as links) and every directory it creates; a run that
#     finds a journal left by an interrupted run (SIGTERM, a killed pod, a reboot) first rolls that
#     change back, so the backup is never lost and no half-applied state is taken for done;
#   - restarts the kubelet only when some content changed, then waits until it is active and
#     /healthz answers, several checks in a row;
#   - if it does not become healthy, restores the previous files, removes the ones and the
#     directories it created, restarts again and exits non-zero, so a bad drop-in cannot take the
#     node down;
#   - when nothing changed, still checks that the kubelet is healthy before saying so.
#
# Usage: apply-kubelet-dropins.sh STAGING_DIR
#   STAGING_DIR holds the files under their node paths, e.g.
#   STAGING_DIR/etc/kubernetes/kubelet.conf.d/50-ballast-eviction.conf.
# Environment:
#   ROOT                 host filesystem root the files are written under (default: /)
#   HOST_EXEC            prefix that runs a command on the host, e.g. from a privileged pod:
#                        "nsenter --target 1 --mount --uts --ipc --net --pid --" (default: none)
#   KUBELET_HEALTHZ_URL  kubelet health endpoint; empty to rely on systemctl is-active only
#                        (default: http://127.0.0.1:10248/healthz; from a pod, use hostNetwork)
#   HEALTH_TIMEOUT       seconds to wait for the kubelet to become healthy (default: 120)
#   HEALTH_INTERVAL      seconds between checks (default: 2)
#   HEALTHY_CHECKS       consecutive good checks required (default: 3)
#   BACKUP_DIR           the journal and the previous files (default: $ROOT/var/lib/ballast/kubelet-dropins-backup)
# Exit status: 0 applied, or unchanged and healthy; 2 rolled back, kubelet healthy on the previous
#              files; 3 rolled back, kubelet still unhealthy; 6 unchanged but the kubelet is not
#              healthy; 64 usage error; 143 interrupted (the journal is kept for the next run).
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
JOURNAL="$BACKUP_DIR/journal"
CHANGED="$BACKUP_DIR/changed"
CREATED_DIRS="$BACKUP_DIR/created-dirs"

# An interrupted run keeps its journal: the next run rolls the change back before anything else.
trap 'log "interrupted: the journal in $BACKUP_DIR is kept; the next run rolls this change back"; exit 143' TERM INT HUP

# Runs a command on the host; HOST_EXEC is a command prefix and is split on purpose.
on_host() {
  # shellcheck disable=SC2086
  $HOST_EXEC "$@"
}

# Creates directory $1 and its missing parents, recording each one created (outermost first).
make_dirs() {
  [ -d "$1" ] && return 0
  make_dirs "$(dirname "$1")"
  mkdir "$1"
  chmod 0755 "$1"
  printf '%s\n' "$1" >> "$CREATED_DIRS"
}

# Writes the content of $2 to $1 atomically: root-owned (when run as root) and mode 0644, whatever
# the owner and mode of $2.
install_atomically() {
  make_dirs "$(dirname "$1")"
  tmp="$1.ballast-tmp.$$"
  cat "$2" > "$tmp"
  chmod 0644 "$tmp"
  if [ "$(id -u)" = 0 ]; then chown 0:0 "$tmp"; fi
  mv -f "$tmp" "$1"
}

# Puts the backup $2 (a file or a symbolic link, as it was) back at $1.
restore_backup() {
  tmp="$1.ballast-tmp.$$"
  rm -f "$tmp"
  cp -P -p "$2" "$tmp"
  mv -f "$tmp" "$1"
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

# Undoes the change the journal describes: previous files back (links as links), new files and the
# directories created for them removed (innermost first, only when empty).
roll_back() {
  while IFS= read -r relative; do
    if [ -e "$BACKUP_DIR/files/$relative" ] || [ -L "$BACKUP_DIR/files/$relative" ]; then
      restore_backup "$ROOT/$relative" "$BACKUP_DIR/files/$relative"
      log "restored /$relative"
    else
      rm -f "$ROOT/$relative"
      log "removed /$relative"
    fi
  done < "$CHANGED"
  if [ -f "$CREATED_DIRS" ]; then
    sed '1!G;h;$!d' "$CREATED_DIRS" | while IFS= read -r dir; do
      rmdir "$dir" 2>/dev/null || true
    done
  fi
}

if [ -f "$JOURNAL" ]; then
  log "found the journal of an interrupted apply: rolling it back first"
  roll_back
  rm -f "$JOURNAL"
  restart_kubelet
  if ! wait_until_healthy; then
    log "rolled back the interrupted apply, but the kubelet is still not healthy"
    exit 3
  fi
fi

rm -rf "$BACKUP_DIR"
mkdir -p "$BACKUP_DIR/files"
chmod 0700 "$BACKUP_DIR"
: > "$CHANGED"
: > "$CREATED_DIRS"

(cd "$STAGING" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) > "$BACKUP_DIR/staged"
while IFS= read -r relative; do
  target="$ROOT/$relative"
  if [ -f "$target" ] && [ ! -L "$target" ] && cmp -s "$STAGING/$relative" "$target" \
    && [ "$(stat -c '%a' "$target")" = 644 ] && { [ "$(id -u)" != 0 ] || [ "$(stat -c '%u:%g' "$target")" = 0:0 ]; }; then
    continue
  fi
  if [ -e "$target" ] || [ -L "$target" ]; then
    mkdir -p "$(dirname "$BACKUP_DIR/files/$relative")"
    cp -P -p "$target" "$BACKUP_DIR/files/$relative"
  fi
  printf '%s\n' "$relative" >> "$CHANGED"
done < "$BACKUP_DIR/staged"

if [ ! -s "$CHANGED" ]; then
  if wait_until_healthy; then
    log "unchanged: kubelet healthy, not restarted"
    exit 0
  fi
  log "unchanged, but the kubelet is not healthy"
  exit 6
fi

# From here on the node changes: the journal says so until the change is complete or undone.
: > "$JOURNAL"
while IFS= read -r relative; do
  install_atomically "$ROOT/$relative" "$STAGING/$relative"
  log "wrote /$relative"
done < "$CHANGED"

restart_kubelet
if wait_until_healthy; then
  rm -f "$JOURNAL"
  log "applied: kubelet healthy"
  exit 0
fi

log "kubelet not healthy after ${HEALTH_TIMEOUT}s: restoring the previous files"
roll_back
rm -f "$JOURNAL"
restart_kubelet
if wait_until_healthy; then
  log "rolled back: kubelet healthy on the previous files"
  exit 2
fi
log "rolled back, but the kubelet is still not healthy"
exit 3
