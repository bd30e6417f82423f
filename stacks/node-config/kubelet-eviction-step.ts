/**
 * Carries a KubeletEvictionPolicy to a node group through the node-prep DaemonSet (issue 5 joined
 * to the node-config stack of issue 4). The step's script runs on the host (nsenter, as every
 * node-prep step): it stages the rendered files under /var/lib/ballast/kubelet-eviction/<group>
 * and hands them to templates/apply-kubelet-dropins.sh with ROOT=/, which writes them atomically,
 * restarts the kubelet only when the content changed, waits until it is healthy, and restores the
 * previous files if it is not. Because the whole step runs in the host's namespaces (nsenter
 * --net), the kubelet's 127.0.0.1:10248/healthz is reachable without a hostNetwork pod.
 */
import * as crypto from 'crypto';
import { NodeFile, applyKubeletDropinsScript } from '../../constructs/kubelet-eviction-node-files';
import type { NodePrepStep, NodePrepStepProvider } from './node-prep-step';
import { KubeletEvictionStepSettings, parseKubeletEvictionStepConfig } from './kubelet-eviction-config';

export const KUBELET_EVICTION_CONFIG_KEY = 'kubeletEviction';
export const KUBELET_EVICTION_STEP = 'kubelet-eviction';
/** Set on each node once its files verified; the value is the content hash, so workloads can require a given policy. */
export const KUBELET_EVICTION_LABEL = 'node.ballast.dev/kubelet-eviction';
/** Where the step keeps its staging copy, the backup of the previous files and failure markers. */
export const KUBELET_EVICTION_STATE_DIR = '/var/lib/ballast/kubelet-eviction';

/** Exit statuses of the step script (0 to 3, 6 and 143 are those of apply-kubelet-dropins.sh). */
export const KUBELET_EVICTION_EXIT = {
  applied: 0,
  rolledBackHealthy: 2,
  rolledBackUnhealthy: 3,
  /** This content was rolled back on this node before: it is not tried again (no restart). */
  refusedKnownBad: 4,
  /** The running kubelet was not started with --config-dir=<configDir>: the drop-in would be ignored. */
  configDirNotRead: 5,
  /** The files are in place, but the kubelet is not healthy: nothing was changed, nothing is claimed. */
  unchangedUnhealthy: 6,
  usage: 64,
} as const;

const APPLY_SCRIPT_DELIMITER = 'BALLAST_APPLY_KUBELET_DROPINS_EOF';

export const kubeletEvictionStepProvider: NodePrepStepProvider<KubeletEvictionStepSettings> = {
  configKey: KUBELET_EVICTION_CONFIG_KEY,
  parse: parseKubeletEvictionStepConfig,
  steps: (settings, group) => [kubeletEvictionStep(settings, group.name)],
};

/** The step of one node group. */
export function kubeletEvictionStep(settings: KubeletEvictionStepSettings, groupName: string): NodePrepStep {
  const contentHash = kubeletEvictionContentHash(settings.files);
  return {
    name: KUBELET_EVICTION_STEP,
    script: renderKubeletEvictionHostScript({
      groupName,
      files: settings.files,
      contentHash,
      configDir: settings.configDir,
    }),
    args: ['apply'],
    verifyArgs: ['verify'],
    env: {
      HEALTH_TIMEOUT: String(settings.healthTimeoutSeconds),
      HEALTH_INTERVAL: '2',
      HEALTHY_CHECKS: '3',
    },
    labels: { [KUBELET_EVICTION_LABEL]: contentHash },
    // A kubelet restart per node: never on all nodes of the group at once, not even on first install.
    disruptsNode: true,
  };
}

/** 12 hex digits of SHA-256 over paths, modes and contents: short enough for a label value. */
export function kubeletEvictionContentHash(files: readonly NodeFile[]): string {
  const hash = crypto.createHash('sha256');
  for (const file of files) hash.update(`${file.path}\0${file.mode.toString(8)}\0${file.content}\0`);
  return hash.digest('hex').slice(0, 12);
}

export interface KubeletEvictionHostScriptInput {
  /** A DNS label (validated by the stack config). */
  readonly groupName: string;
  readonly files: readonly NodeFile[];
  readonly contentHash: string;
  /** The --config-dir the running kubelet must have; undefined when the files are not KubeletConfiguration drop-ins. */
  readonly configDir?: string;
}

const SAFE_PATH = /^\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** The POSIX sh script of the step: `sh -s -- apply|verify` on the host. */
export function renderKubeletEvictionHostScript(input: KubeletEvictionHostScriptInput): string {
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(input.groupName))
    throw new Error(`invalid node group name ${JSON.stringify(input.groupName)}`);
  if (input.files.length === 0) throw new Error('kubelet eviction step: no files to place');
  for (const file of input.files) {
    if (!SAFE_PATH.test(file.path) || file.path.includes('..'))
      throw new Error(`kubelet eviction step: unsafe node path ${JSON.stringify(file.path)}`);
  }
  if (input.configDir !== undefined && !SAFE_PATH.test(input.configDir))
    throw new Error(`kubelet eviction step: unsafe configDir ${JSON.stringify(input.configDir)}`);
  const applyScript = applyKubeletDropinsScript();
  if (!applyScript.endsWith('\n') || applyScript.split('\n').includes(APPLY_SCRIPT_DELIMITER)) {
    throw new Error(
      `apply-kubelet-dropins.sh must end with a newline and never contain the line ${APPLY_SCRIPT_DELIMITER}`,
    );
  }
  const group = input.groupName;
  const exit = KUBELET_EVICTION_EXIT;
  return `#!/bin/sh
# Managed by ballast (node-config stack): kubelet eviction policy of node group "${group}",
# content ${input.contentHash}. Runs on the host, through nsenter from the node-prep pod:
#   sh -s -- apply    stage the files below, then install them with apply-kubelet-dropins.sh in a
#                     transient systemd unit, so a killed pod cannot interrupt a restart or a rollback
#   sh -s -- verify   succeed only when every file on the host equals the one below and the
#                     kubelet is healthy (the readiness probe)
# Exit status: ${exit.applied} applied or unchanged; ${exit.rolledBackHealthy} rolled back, kubelet healthy on the previous files;
#   ${exit.rolledBackUnhealthy} rolled back, kubelet still unhealthy; ${exit.refusedKnownBad} refused, this content was rolled back on this node
#   before (delete ${KUBELET_EVICTION_STATE_DIR}/${group}/failed-${input.contentHash} to retry it); ${exit.configDirNotRead} the running
#   kubelet does not read the drop-in directory; ${exit.usage} usage.
set -eu

ROOT=\${ROOT:-}
ROOT=\${ROOT%/}
CONTENT_HASH=${quote(input.contentHash)}
STATE_DIR="$ROOT${KUBELET_EVICTION_STATE_DIR}/${group}"
UNIT=${quote(`ballast-kubelet-eviction-${group}`)}
CONFIG_DIR=${quote(input.configDir ?? '')}
KUBELET_HEALTHZ_URL=\${KUBELET_HEALTHZ_URL-http://127.0.0.1:10248/healthz}
HEALTH_TIMEOUT=\${HEALTH_TIMEOUT:-120}
HEALTH_INTERVAL=\${HEALTH_INTERVAL:-2}
HEALTHY_CHECKS=\${HEALTHY_CHECKS:-3}

log() { printf 'kubelet-eviction[${group}]: %s\\n' "$*" >&2; }

# Prints the rendered content of node file $1.
rendered_file() {
  case "$1" in
${input.files.map((file) => `    ${quote(file.path)}) printf '%s' ${quote(file.content)} ;;`).join('\n')}
    *) return 1 ;;
  esac
}

# Writes node file $1 with mode $2 under the staging directory $STAGING.
stage_file() {
  mkdir -p "$STAGING$(dirname "$1")"
  rendered_file "$1" > "$STAGING$1"
  chmod "$2" "$STAGING$1"
}

stage_files() {
${input.files.map((file) => `  stage_file ${quote(file.path)} ${file.mode.toString(8)}`).join('\n')}
}

file_matches() {
  [ -f "$ROOT$1" ] && rendered_file "$1" | cmp -s - "$ROOT$1"
}

files_match() {
  ${input.files.map((file) => `file_matches ${quote(file.path)}`).join(' &&\n    ')}
}

kubelet_healthy() {
  systemctl is-active --quiet kubelet || return 1
  [ -n "$KUBELET_HEALTHZ_URL" ] || return 0
  if command -v curl >/dev/null 2>&1; then
    curl -fsS --max-time 5 "$KUBELET_HEALTHZ_URL" >/dev/null 2>&1
  elif command -v wget >/dev/null 2>&1; then
    wget -q -T 5 -O /dev/null "$KUBELET_HEALTHZ_URL" >/dev/null 2>&1
  else
    log "neither curl nor wget on the host: relying on systemctl is-active only"
  fi
}

# A KubeletConfiguration drop-in is silently ignored unless the kubelet runs with --config-dir.
kubelet_reads_config_dir() {
  [ -n "$CONFIG_DIR" ] || return 0
  pid=$(systemctl show --property=MainPID --value kubelet 2>/dev/null) || return 1
  case "$pid" in ''|0|*[!0-9]*) return 1 ;; esac
  [ -r "$ROOT/proc/$pid/cmdline" ] || return 1
  tr '\\000' '\\n' < "$ROOT/proc/$pid/cmdline" | awk -v dir="$CONFIG_DIR" '
    { sub(/\\/+$/, "") }
    wanted && $0 == dir { found = 1 }
    $0 == "--config-dir=" dir || $0 == "-config-dir=" dir { found = 1 }
    { wanted = ($0 == "--config-dir" || $0 == "-config-dir") }
    END { exit found ? 0 : 1 }'
}

write_apply_script() {
  cat > "$1" <<'${APPLY_SCRIPT_DELIMITER}'
${applyScript}${APPLY_SCRIPT_DELIMITER}
}

apply() {
  if ! kubelet_reads_config_dir; then
    log "the running kubelet was not started with --config-dir=$CONFIG_DIR: the drop-in would be ignored"
    log "start it with that flag (kubeadm: nodeRegistration.kubeletExtraArgs config-dir) or use delivery: systemd-drop-in"
    exit ${exit.configDirNotRead}
  fi
  failed="$STATE_DIR/failed-$CONTENT_HASH"
  if [ -f "$failed" ] && ! files_match; then
    log "content $CONTENT_HASH was rolled back on this node before ($(cat "$failed")): not trying again"
    log "fix the policy (new content is tried), or delete $failed and the pod to retry this content"
    exit ${exit.refusedKnownBad}
  fi
  STAGING="$STATE_DIR/staging"
  rm -rf "$STAGING"
  mkdir -p "$STAGING"
  stage_files
  write_apply_script "$STATE_DIR/apply-kubelet-dropins.sh"
  rm -f "$STATE_DIR/apply.status"
  # The status goes through a file: it is the same whether or not systemd-run propagates it.
  # shellcheck disable=SC2016 # expanded by the inner sh, from its arguments
  set -- /bin/sh -c '/bin/sh "$0" "$1" > "$2" 2>&1; echo "$?" > "$3"' \\
    "$STATE_DIR/apply-kubelet-dropins.sh" "$STAGING" "$STATE_DIR/apply.log" "$STATE_DIR/apply.status"
  if command -v systemd-run >/dev/null 2>&1; then
    systemd-run --unit="$UNIT" --description="ballast: apply kubelet eviction drop-ins" --wait --collect --quiet \\
      --setenv=ROOT="$ROOT" --setenv=HOST_EXEC= --setenv=BACKUP_DIR="$STATE_DIR/backup" \\
      --setenv=KUBELET_HEALTHZ_URL="$KUBELET_HEALTHZ_URL" --setenv=HEALTH_TIMEOUT="$HEALTH_TIMEOUT" \\
      --setenv=HEALTH_INTERVAL="$HEALTH_INTERVAL" --setenv=HEALTHY_CHECKS="$HEALTHY_CHECKS" \\
      "$@" || true
  else
    log "systemd-run not found: applying in this process (a pod killed now could interrupt a rollback)"
    ROOT="$ROOT" HOST_EXEC='' BACKUP_DIR="$STATE_DIR/backup" KUBELET_HEALTHZ_URL="$KUBELET_HEALTHZ_URL" \\
      HEALTH_TIMEOUT="$HEALTH_TIMEOUT" HEALTH_INTERVAL="$HEALTH_INTERVAL" HEALTHY_CHECKS="$HEALTHY_CHECKS" "$@"
  fi
  cat "$STATE_DIR/apply.log" >&2 2>/dev/null || true
  if [ ! -s "$STATE_DIR/apply.status" ]; then
    log "apply did not run (is unit $UNIT still running from an earlier pod?): retrying later"
    exit 1
  fi
  status=$(cat "$STATE_DIR/apply.status")
  case "$status" in
    ${exit.applied}) log "content $CONTENT_HASH in place, kubelet healthy" ;;
    ${exit.rolledBackHealthy}|${exit.rolledBackUnhealthy})
      date -u '+rolled back at %Y-%m-%dT%H:%M:%SZ' > "$failed"
      log "content $CONTENT_HASH rolled back: the kubelet did not become healthy with it" ;;
  esac
  exit "$status"
}

verify() {
  if ! files_match; then
    log "the files on the host differ from content $CONTENT_HASH"
    exit 1
  fi
  if ! kubelet_reads_config_dir; then
    log "the running kubelet was not started with --config-dir=$CONFIG_DIR"
    exit 1
  fi
  if ! kubelet_healthy; then
    log "the kubelet is not healthy"
    exit 1
  fi
}

case "\${1:-}" in
  apply) apply ;;
  verify) verify ;;
  *) log "usage: sh -s -- apply|verify"; exit ${exit.usage} ;;
esac
`;
}

/** A single-quoted shell word: exact bytes, nothing expanded. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
