#!/bin/sh
# ballast node-prep: installs the node prerequisites a node is missing (an NFS client, an rbd
# client, ...), then verifies them. Run on the host (the node-prep DaemonSet enters the host's
# namespaces with nsenter and feeds this script on stdin).
#
# Usage: node-prep.sh [install|verify]
#   install (default)  install what is missing, verify, record the result
#   verify             only verify (the DaemonSet's readiness probe); changes nothing
#
# Environment:
#   BALLAST_PREREQUISITES  one prerequisite per line, fields separated by "|":
#                          name|debian packages|rhel packages|suse packages|verify executables
#                          (lists space-separated; verified when any executable exists).
#                          Rendered from the typed declarations by templates/node-prep.ts.
#   ROOT                   prefix for every file this script reads or writes (default: none),
#                          so tests can run it against a scratch root.
#
# Exit codes: 0 ok, 2 unsupported or immutable OS, 3 package installation failed,
# 4 verification failed, 64 bad input.
set -eu

ROOT="${ROOT:-}"
MODE="${1:-install}"
STATE_DIR="$ROOT/var/lib/ballast"
STATE_FILE="$STATE_DIR/node-prerequisites"
TMP_FILE=""

log() { printf 'node-prep: %s\n' "$*"; }
fail() {
  code="$1"
  shift
  printf 'node-prep: error: %s\n' "$*" >&2
  exit "$code"
}
cleanup() { if [ -n "$TMP_FILE" ]; then rm -f "$TMP_FILE"; fi; }
# A handler that returns would let the script carry on after INT/TERM: exit, and EXIT cleans up.
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

case "$MODE" in
  install | verify) ;;
  *) fail 64 "unknown mode '$MODE': use install or verify" ;;
esac
[ -n "${BALLAST_PREREQUISITES:-}" ] || fail 64 "BALLAST_PREREQUISITES is empty: nothing to prepare"

# Reads KEY from os-release without sourcing it (it is data, not a script).
os_release_value() {
  sed -n "s/^$1=//p" "$ROOT/etc/os-release" | head -n 1 | tr -d '\r"'"'"
}

detect_os_family() {
  [ -r "$ROOT/etc/os-release" ] || fail 2 "cannot read $ROOT/etc/os-release: unknown operating system"
  os_id="$(os_release_value ID)"
  os_like="$(os_release_value ID_LIKE)"
  os_variant="$(os_release_value VARIANT_ID)"
  case "$os_id" in
    flatcar | coreos | fedora-coreos | rhcos | talos | bottlerocket)
      fail 2 "immutable operating system '$os_id': packages cannot be installed at run time. Bake the prerequisites into the node image (or a system extension) and label the nodes yourself" ;;
  esac
  if [ "$os_variant" = "coreos" ] || [ -e "$ROOT/run/ostree-booted" ]; then
    fail 2 "immutable (ostree-based) operating system '$os_id': packages cannot be installed at run time. Bake the prerequisites into the node image and label the nodes yourself"
  fi
  for candidate in $os_id $os_like; do
    case "$candidate" in
      debian | ubuntu) echo debian; return 0 ;;
      rhel | centos | fedora | rocky | almalinux | amzn | ol) echo rhel; return 0 ;;
      suse | sles | sled | sle-micro | opensuse | opensuse-leap | opensuse-tumbleweed) echo suse; return 0 ;;
    esac
  done
  fail 2 "unsupported operating system (ID='$os_id', ID_LIKE='$os_like'): ballast knows Debian/Ubuntu, RHEL-family (RHEL, CentOS, Rocky, Alma, Fedora, Amazon Linux) and SUSE"
}

# True when any of the listed executables exists under ROOT.
verified() {
  for executable in $1; do
    if [ -f "$ROOT$executable" ] && [ -x "$ROOT$executable" ]; then return 0; fi
  done
  return 1
}

package_installed() {
  case "$1" in
    debian) dpkg-query -W -f='${Status}' "$2" 2>/dev/null | grep -q 'install ok installed' ;;
    *) rpm -q "$2" >/dev/null 2>&1 ;;
  esac
}

APT_UPDATED=no
install_packages() {
  family="$1"
  shift
  log "installing $* ($family)"
  case "$family" in
    debian)
      if [ "$APT_UPDATED" = no ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -q || return 1
        APT_UPDATED=yes
      fi
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" ;;
    rhel)
      if command -v dnf >/dev/null 2>&1; then dnf install -y -q "$@"; else yum install -y -q "$@"; fi ;;
    suse)
      zypper --non-interactive --quiet install --no-recommends "$@" ;;
  esac
}

# Replaces the state file atomically, and only when its content changes.
write_state() {
  if [ -f "$STATE_FILE" ] && [ "$(cat "$STATE_FILE")" = "$1" ]; then
    log "state file $STATE_FILE unchanged"
    return 0
  fi
  mkdir -p "$STATE_DIR"
  TMP_FILE="$STATE_DIR/.node-prerequisites.$$.tmp"
  printf '%s\n' "$1" > "$TMP_FILE"
  mv -f "$TMP_FILE" "$STATE_FILE"
  TMP_FILE=""
  log "wrote $STATE_FILE"
}

changed=0
failed=0
state="# written by ballast node-prep: prerequisites verified on this node"
family=""
[ "$MODE" = verify ] || family="$(detect_os_family)"

newline='
'
old_ifs="$IFS"
IFS="$newline"
set -f
for line in $BALLAST_PREREQUISITES; do
  IFS='|' read -r name debian_packages rhel_packages suse_packages executables <<EOF
$line
EOF
  if [ -z "$name" ] || [ -z "$executables" ]; then fail 64 "malformed prerequisite line '$line'"; fi
  IFS="$old_ifs"
  if verified "$executables"; then
    log "$name: already satisfied ($executables)"
  elif [ "$MODE" = verify ]; then
    log "$name: NOT satisfied: none of $executables is an executable file"
    failed=1
  else
    case "$family" in
      debian) packages="$debian_packages" ;;
      rhel) packages="$rhel_packages" ;;
      *) packages="$suse_packages" ;;
    esac
    [ -n "$packages" ] || fail 64 "$name: no packages declared for OS family $family"
    missing=""
    for package in $packages; do
      package_installed "$family" "$package" || missing="$missing $package"
    done
    if [ -n "$missing" ]; then
      # shellcheck disable=SC2086 # the list is meant to be split into package names
      install_packages "$family" $missing || fail 3 "$name: installing$missing failed (see the package manager output above)"
      changed=1
    else
      log "$name: packages $packages are installed but the check failed"
    fi
    verified "$executables" || fail 4 "$name: still not satisfied after installation: none of $executables is an executable file"
    log "$name: satisfied"
  fi
  state="$state$newline$name"
done
IFS="$old_ifs"
set +f

if [ "$MODE" = verify ]; then
  [ "$failed" -eq 0 ] || exit 4
  log "verified: every prerequisite is satisfied"
  exit 0
fi
write_state "$state"
if [ "$changed" -eq 0 ]; then
  log "nothing to do: every prerequisite was already satisfied, nothing was changed"
else
  log "done: prerequisites installed and verified"
fi
