import { Finding } from './finding';
import { parseFieldPath } from './field-path';
import { JsonRecord, asNumber, asRecord, isRecord, valueAt } from './json';
import { KubeVersion } from './kube-version';
import { defaultEvictionHard } from './rules/eviction/eviction-signals';
import { flagMapEntries } from './rules/eviction/kubelet-flags';
import { AL2_EVICTION_HARD, inKarpenterKubeletSettings } from './rules/eviction/karpenter-kubelet-settings';
import { embeddedYamlDocuments } from './embedded-yaml';
import { NFS_CLIENT } from './node-prerequisites';
import { SYSTEMD_DROP_IN_KIND } from './systemd-drop-in';
import type { FixEdit, FixPlan } from './fix-plan';
import { completeObjectType } from './rules/input/object-without-type';

export type { FixEdit, FixPlan } from './fix-plan';

type Fixer = (finding: Finding, object: JsonRecord, version: KubeVersion) => FixPlan;

/** A lock value to move to `leases`, written alone or after `=` in a flag. */
const LEGACY_LOCK = /^(.*=)?(endpoints|configmaps|endpointsleases|configmapsleases)$/;

/**
 * The machine-applicable fixes, by rule id: the changes a person would make for the finding, and
 * only where they cannot change what the object means beyond the fix (DESIGN: "where it can, a
 * machine-applicable fix"). `ballast fix` applies them; `ballast lint --format json` shows them.
 */
const FIXERS: ReadonlyMap<string, Fixer> = new Map<string, Fixer>([
  ['object-without-type', (_finding, object) => completeObjectType(object)],
  ['persistent-volume-with-namespace', () => ({ edits: [{ op: 'delete', path: ['metadata', 'namespace'] }] })],
  [
    'recycle-reclaim-policy',
    () => ({ edits: [{ op: 'set', path: ['spec', 'persistentVolumeReclaimPolicy'], value: 'Retain' }] }),
  ],
  [
    'rwo-claim-in-rolling-deployment',
    (_finding, object) => {
      if (object.kind === 'Job' || object.kind === 'CronJob')
        return {
          unsafe:
            "the job's pods need the node of the pod that holds the volume (a required podAffinity to that pod's labels) or a claim of their own: a choice for a person",
        };
      if (object.kind !== 'Deployment' && object.kind !== 'DeploymentConfig')
        return { unsafe: 'only a Deployment (or an OpenShift DeploymentConfig) has a Recreate strategy' };
      const replicas = asNumber(asRecord(object.spec)?.replicas) ?? 1;
      if (replicas > 1) {
        return {
          unsafe: `${replicas} replicas cannot share one ReadWriteOnce volume whatever the strategy: move to a StatefulSet with volumeClaimTemplates`,
        };
      }
      const strategy = asRecord(asRecord(object.spec)?.strategy);
      // Recreate with one replica already: the finding is of a second workload on the claim.
      if (strategy?.type === 'Recreate') {
        return {
          unsafe:
            'another workload mounts the same ReadWriteOnce claim: give each its own claim, run them in one pod, or keep them on one node with podAffinity',
        };
      }
      if (object.kind === 'DeploymentConfig' && strategy) {
        // A DeploymentConfig's strategy also holds resources, labels and hooks (often template
        // parameters): only its type changes, and the rollingParams that Recreate refuses go.
        return {
          edits: [
            { op: 'set', path: ['spec', 'strategy', 'type'], value: 'Recreate' },
            ...('rollingParams' in strategy
              ? [{ op: 'delete' as const, path: ['spec', 'strategy', 'rollingParams'] }]
              : []),
          ],
        };
      }
      return { edits: [{ op: 'set', path: ['spec', 'strategy'], value: { type: 'Recreate' } }] };
    },
  ],
  [
    'legacy-leader-election-lock',
    (finding, object) => {
      const path = parseFieldPath(finding.path);
      if (path[0] === 'data') return { unsafe: 'the lock is set inside a ConfigMap value: edit that text by hand' };
      if (path[path.length - 1] === 'image')
        return {
          unsafe: "the lock is the old image's default: a lock flag or a newer image also needs RBAC on leases",
        };
      const value = valueAt(object, path);
      const match = typeof value === 'string' ? LEGACY_LOCK.exec(value) : null;
      if (!match) return { unsafe: 'the lock setting is not a plain value' };
      return { edits: [{ op: 'set', path, value: `${match[1] ?? ''}leases` }] };
    },
  ],
  ['nfs-volume-without-node-prerequisite', requireNfsClientLabel],
  [
    'multi-node-access-on-rbd-filesystem',
    (finding) => ({ edits: [{ op: 'set', path: parseFieldPath(finding.path), value: ['ReadWriteOnce'] }] }),
  ],
  [
    'eviction-hard-drops-default-signals',
    (finding, object, version) => {
      const path = parseFieldPath(finding.path);
      const embedded = embeddedDocumentPath(object, path);
      // A kind patch holds a KubeletConfiguration (a map) or a kubeadm configuration (flags).
      if (embedded?.document.kind === 'KubeletConfiguration')
        return completeEvictionMap(embedded.document, embedded.inner, defaultEvictionHard(version), embedded.in);
      if (embedded) return completeEvictionFlag(embedded.document, embedded.inner, version, embedded.in);
      // A map (a KubeletConfiguration's, Kubespray's eviction_hard, Talos's extraConfig) is completed
      // key by key; a flag in its list. A drop-in's paths lead to directive entries, never to maps.
      const map = object.kind !== SYSTEMD_DROP_IN_KIND && asRecord(valueAt(object, path)) !== undefined;
      // A Karpenter AL2 node's map replaces the one the AMI writes: completed with that one's signals.
      if (map && inKarpenterKubeletSettings(object, path)) return completeEvictionMap(object, path, AL2_EVICTION_HARD);
      if (object.kind === 'KubeletConfiguration' || map)
        return completeEvictionMap(object, path, defaultEvictionHard(version));
      return completeEvictionFlag(object, path, version);
    },
  ],
]);

const NFS_CLIENT_LABEL = `${NFS_CLIENT.label.key}=${NFS_CLIENT.label.value}`;
const NFS_CLIENT_COMMENT = `ballast: only nodes labelled ${NFS_CLIENT_LABEL} (NFS client installed); label them before applying`;

/**
 * The NFS fix: require the label the node-config stack puts on nodes with mount.nfs, as the ballast
 * constructs do. On a PersistentVolume, `spec.nodeAffinity.required` (every pod using it follows); on
 * a pod template, a `nodeSelector` entry (ANDed with any affinity it has). Until nodes carry the
 * label, the pods stay Pending: hence the precondition, and a comment above the new key that says so
 * in the diff a reviewer reads.
 */
function requireNfsClientLabel(finding: Finding, object: JsonRecord): FixPlan {
  const precondition =
    `pods stay Pending until nodes with the NFS client carry ${NFS_CLIENT_LABEL}: label them before applying ` +
    `(the ballast node-config stack does, or \`kubectl label node <node> ${NFS_CLIENT_LABEL}\`)`;
  const path = parseFieldPath(finding.path);
  if (object.kind === 'PersistentVolume') {
    if (asRecord(object.spec)?.nodeAffinity !== undefined) {
      return {
        unsafe:
          'the PersistentVolume has a nodeAffinity already: add the label requirement to each of its terms by hand',
      };
    }
    const required = {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: NFS_CLIENT.label.key, operator: 'In', values: [NFS_CLIENT.label.value] }] },
      ],
    };
    return {
      edits: [{ op: 'set', path: ['spec', 'nodeAffinity'], value: { required }, comment: NFS_CLIENT_COMMENT }],
      precondition,
    };
  }
  // A StatefulSet's claim template: its pods are those of the StatefulSet's pod template.
  const claimTemplate = path[0] === 'spec' && path[1] === 'volumeClaimTemplates';
  const volumes = path.lastIndexOf('volumes');
  if (!claimTemplate && volumes <= 0) return { unsafe: 'the NFS volume is not in a pod template' };
  const podSpec = claimTemplate ? ['spec', 'template', 'spec'] : path.slice(0, volumes);
  const selector = valueAt(object, [...podSpec, 'nodeSelector']);
  if (selector !== undefined && !isRecord(selector)) return { unsafe: 'the nodeSelector is not a mapping' };
  const { key, value } = NFS_CLIENT.label;
  const edit: FixEdit = selector
    ? { op: 'set', path: [...podSpec, 'nodeSelector', key], value, comment: NFS_CLIENT_COMMENT }
    : { op: 'set', path: [...podSpec, 'nodeSelector'], value: { [key]: value }, comment: NFS_CLIENT_COMMENT };
  return { edits: [edit], precondition };
}

/** An `evictionHard` map completed with the signals of `replaced` (the version's defaults) it leaves out. */
function completeEvictionMap(
  configuration: unknown,
  path: ReadonlyArray<string | number>,
  replaced: Readonly<Record<string, string>>,
  inText?: ReadonlyArray<string | number>,
): FixPlan {
  const current = asRecord(valueAt(configuration, path));
  if (!current) return { unsafe: 'evictionHard is not a mapping' };
  const edits: FixEdit[] = Object.entries(replaced)
    .filter(([signal]) => !(signal in current))
    .map(([signal, threshold]) => ({
      op: 'set',
      path: [...path, signal],
      value: threshold,
      ...(inText ? { in: inText } : {}),
    }));
  return { edits };
}

/**
 * A configuration written as text inside the object: a kind Cluster's `kubeadmConfigPatches`
 * entry (cluster-wide or per node: a KubeletConfiguration, or a kubeadm configuration with kubelet
 * flags) or a ConfigMap value (kube-system/kubelet-config). The path of
 * the string, the one document it holds, and the path inside it; undefined for any other path or
 * for a text of more than one document.
 */
function embeddedDocumentPath(
  object: JsonRecord,
  path: ReadonlyArray<string | number>,
): { in: ReadonlyArray<string | number>; document: JsonRecord; inner: ReadonlyArray<string | number> } | undefined {
  const length =
    path[0] === 'data' || path[0] === 'kubeadmConfigPatches'
      ? 2
      : path[0] === 'nodes' && path[2] === 'kubeadmConfigPatches'
        ? 4
        : undefined;
  if (length === undefined) return undefined;
  const text = valueAt(object, path.slice(0, length));
  const documents = typeof text === 'string' ? embeddedYamlDocuments(text) : [];
  const [document] = documents;
  if (documents.length !== 1 || !document) return undefined;
  return { in: path.slice(0, length), document, inner: path.slice(length) };
}

/**
 * What comes before the list: `--eviction-hard=` in a container's flag, `eviction-hard=` in a k3s
 * `kubelet-arg`, `--kubelet-arg=eviction-hard=` in a k3d argument; kubeadm's kubeletExtraArgs hold
 * the list alone.
 */
const EVICTION_HARD_FLAG = /^((?:--kubelet-arg=)?(?:--)?eviction-hard=)?([^=]*)$/;
/** The flag and its list inside a drop-in's `Environment=` value: `=` or a blank between them. */
const EVICTION_HARD_IN_ARGUMENTS = /(--eviction-hard(?:=|\s+))(\S*)/;
const EVICTION_HARD_WORD = /^--eviction-hard(=.*)?$/s;

/**
 * The flag form of the eviction fix: kubeadm's and Cluster API's `kubeletExtraArgs` value (map or
 * `{name, value}` list), a kubelet container's `--eviction-hard=` word, or the flag in a systemd
 * drop-in's `Environment=` or `ExecStart=`, completed with the signals it leaves out at their
 * defaults for the target version, as the kubelet would have had them. In a kubeadm configuration
 * written as text (a kind patch), `inText` is the path of the text; a flag found inside other
 * embedded text is left to a person.
 */
function completeEvictionFlag(
  object: JsonRecord,
  path: ReadonlyArray<string | number>,
  version: KubeVersion,
  inText?: ReadonlyArray<string | number>,
): FixPlan {
  if (object.kind === SYSTEMD_DROP_IN_KIND) return completeDropInFlag(object, path, version);
  const value = valueAt(object, path);
  const match = typeof value === 'string' ? EVICTION_HARD_FLAG.exec(value.trim()) : null;
  if (!match || path[0] === 'data' || path[0] === 'kubeadmConfigPatches') {
    return { unsafe: 'the thresholds are inside an embedded configuration text: add the missing signals by hand' };
  }
  const completed = completedSignalList(match[2] ?? '', version);
  if (completed === undefined) return { edits: [] };
  return { edits: [{ op: 'set', path, value: `${match[1] ?? ''}${completed}`, ...(inText ? { in: inText } : {}) }] };
}

/**
 * A drop-in's flag is either inside an `Environment=` value (`KUBELET_EXTRA_ARGS=--eviction-hard=...`,
 * the value edited) or one or two words of `ExecStart=` (the word holding the list edited).
 */
function completeDropInFlag(object: JsonRecord, path: ReadonlyArray<string | number>, version: KubeVersion): FixPlan {
  const entry = asRecord(valueAt(object, path));
  if (path[1] === 'environment' && typeof entry?.value === 'string') {
    const match = EVICTION_HARD_IN_ARGUMENTS.exec(entry.value);
    const completed = match ? completedSignalList(match[2] ?? '', version) : undefined;
    if (!match || completed === undefined) return { edits: [] };
    const value =
      entry.value.slice(0, match.index) +
      (match[1] ?? '') +
      completed +
      entry.value.slice(match.index + match[0].length);
    return { edits: [{ op: 'set', path: [...path, 'value'], value }] };
  }
  const argv = Array.isArray(entry?.argv) ? entry.argv : [];
  const at = argv.findIndex((word) => typeof word === 'string' && EVICTION_HARD_WORD.test(word));
  const word = argv[at];
  if (typeof word !== 'string') return { unsafe: 'the --eviction-hard flag was not found in the directive' };
  const inline = word.includes('=');
  const list = inline ? word.slice(word.indexOf('=') + 1) : argv[at + 1];
  if (typeof list !== 'string') return { unsafe: '--eviction-hard has no value' };
  const completed = completedSignalList(list, version);
  if (completed === undefined) return { edits: [] };
  return inline
    ? { edits: [{ op: 'set', path: [...path, 'argv', at], value: `--eviction-hard=${completed}` }] }
    : { edits: [{ op: 'set', path: [...path, 'argv', at + 1], value: completed }] };
}

/** `list` (`signal<value,...`) with the signals it leaves out appended at their defaults; undefined when none is missing. */
function completedSignalList(list: string, version: KubeVersion): string | undefined {
  const present = new Set(
    flagMapEntries({ name: 'eviction-hard', value: list, path: '' }).map((entry) => entry.signal),
  );
  const missing = Object.entries(defaultEvictionHard(version))
    .filter(([signal]) => !present.has(signal))
    .map(([signal, threshold]) => `${signal}<${threshold}`);
  if (missing.length === 0) return undefined;
  return [list, ...missing].filter((part) => part !== '').join(',');
}

/**
 * Why the rules without a fixer have none: what the change needs that the file does not hold, so
 * `ballast fix`, `ballast explain` and the catalogue can say it instead of a bare "needs a person".
 */
const NO_MACHINE_FIX: ReadonlyMap<string, string> = new Map([
  [
    'in-tree-ceph-volume',
    'moving to ceph-csi needs ceph-csi running, a clusterID in its configuration and secrets in its format, none of ' +
      'which is in the file; and a StorageClass cannot be changed in place: create the ceph-csi class beside it and ' +
      'migrate the volumes (CSIMigrationRBD) before the cluster reaches 1.31',
  ],
  [
    'rbd-storage-class-missing-parameters',
    'the missing values (cluster ID, pool, secret names) are facts of your Ceph cluster that the file does not hold',
  ],
  [
    'stateful-set-without-headless-service',
    "the Service's ports and selector are the application's: write the headless Service (clusterIP: None) yourself",
  ],
  [
    'host-path-for-application-data',
    'moving data off the node means a new volume and a copy of the data: choose the StorageClass and migrate',
  ],
  [
    'nfs-soft-mount',
    'a hard mount makes the application block instead of fail while the server is away: choose it knowingly',
  ],
  ['nfs-volume-without-version', "the NFS version is the server's, which the file does not say"],
  ['nfs-csi-storage-class-incomplete', "the server and share are your NFS server's, which the file does not hold"],
  ['eviction-unknown-signal', 'a misspelt signal could be meant as several: name the one intended'],
  [
    'eviction-soft-threshold-without-grace-period',
    'how long a soft threshold may be exceeded is a choice for the workloads of the node',
  ],
  ['eviction-threshold-out-of-range', 'the threshold intended is not in the file'],
  ['eviction-grace-period-invalid', 'the grace period intended is not in the file'],
  ['eviction-minimum-reclaim-invalid', 'the amount to reclaim intended is not in the file'],
  ['eviction-soft-not-above-hard', 'which of the two thresholds is intended is not in the file'],
  [
    'eviction-soft-without-max-pod-grace-period',
    'how long pods may take to stop when evicted is a choice for the workloads of the node',
  ],
  [
    'eviction-threshold-disables-signal',
    'switching a signal off with 0% or 100% may be meant: only you can tell whether it should be on',
  ],
  ['eviction-disk-hard-threshold-below-5-percent', "the threshold is a trade-off against the node's disk size"],
  [
    'kubelet-drop-in-exec-start-without-reset',
    'adding the reset line changes which command systemd runs: review the whole unit first',
  ],
  [
    'kubelet-drop-in-flags-ignored',
    'where the flags should go (a variable ExecStart reads, or a KubeletConfiguration) depends on the unit',
  ],
  ['kubelet-drop-in-sorts-before-kubeadm', 'renaming a file on the nodes is a rollout step, not an edit of its text'],
  [
    'deprecated-kubelet-eviction-flag',
    'moving flags into a KubeletConfiguration means a new file on the nodes and a kubelet restart',
  ],
  [
    'invalid-leader-election-timings',
    "the right timings depend on the API server's latency: choose them (the control plane's are 15s, 10s, 2s)",
  ],
  [
    'leader-lock-rbac-on-endpoints-or-configmaps',
    "the lease's name and namespace are the component's: add the Lease rule to its Role",
  ],
  ['overbroad-lease-rbac', 'which leases the component needs is in its code, not in the file'],
  [
    'leader-election-without-lease-rbac',
    "which Role should carry the Lease rule, and the lease's name, are the team's choice",
  ],
  ['invalid-suppression', 'the justification is yours to write'],
  ['duplicate-object', 'which of the two definitions is meant is not in the file'],
]);

/** True when `ballast fix` can fix findings of the rule (where the finding's form allows it). */
export function hasMachineFix(ruleId: string): boolean {
  return FIXERS.has(ruleId);
}

/** Why `ballast fix` has no fix for the rule's findings, for a rule without one. */
export function noMachineFixReason(ruleId: string): string {
  return NO_MACHINE_FIX.get(ruleId) ?? 'the change needs a person';
}

/** The fix of a finding on `object`, or why there is none. */
export function fixFor(finding: Finding, object: JsonRecord, version: KubeVersion): FixPlan {
  const fixer = FIXERS.get(finding.rule);
  return fixer
    ? fixer(finding, object, version)
    : { unsafe: `no machine-applicable fix: ${noMachineFixReason(finding.rule)}` };
}
