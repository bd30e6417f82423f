import { Finding } from './finding';
import { parseFieldPath } from './field-path';
import { JsonRecord, asNumber, asRecord, isRecord } from './json';
import { KubeVersion } from './kube-version';
import { defaultEvictionHard } from './rules/eviction/eviction-signals';
import { flagMapEntries } from './rules/eviction/kubelet-flags';

/** One change to an object, by field path from the object's root. */
export type FixEdit =
  | { readonly op: 'set'; readonly path: ReadonlyArray<string | number>; readonly value: unknown }
  | { readonly op: 'delete'; readonly path: ReadonlyArray<string | number> };

/** What can be done about a finding mechanically: the edits, or why no edit is safe. */
export type FixPlan = { readonly edits: readonly FixEdit[] } | { readonly unsafe: string };

type Fixer = (finding: Finding, object: JsonRecord, version: KubeVersion) => FixPlan;

/** A lock value to move to `leases`, written alone or after `=` in a flag. */
const LEGACY_LOCK = /^(.*=)?(endpoints|configmaps|endpointsleases|configmapsleases)$/;

/**
 * The machine-applicable fixes, by rule id: the changes a person would make for the finding, and
 * only where they cannot change what the object means beyond the fix (DESIGN: "where it can, a
 * machine-applicable fix"). `ballast fix` applies them; `ballast lint --format json` shows them.
 */
const FIXERS: ReadonlyMap<string, Fixer> = new Map<string, Fixer>([
  ['persistent-volume-with-namespace', () => ({ edits: [{ op: 'delete', path: ['metadata', 'namespace'] }] })],
  [
    'recycle-reclaim-policy',
    () => ({ edits: [{ op: 'set', path: ['spec', 'persistentVolumeReclaimPolicy'], value: 'Retain' }] }),
  ],
  [
    'rwo-claim-in-rolling-deployment',
    (_finding, object) => {
      if (object.kind !== 'Deployment') return { unsafe: 'only a Deployment has a Recreate strategy' };
      const replicas = asNumber(asRecord(object.spec)?.replicas) ?? 1;
      if (replicas > 1) {
        return {
          unsafe: `${replicas} replicas cannot share one ReadWriteOnce volume whatever the strategy: move to a StatefulSet with volumeClaimTemplates`,
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
      const value = valueAt(object, path);
      const match = typeof value === 'string' ? LEGACY_LOCK.exec(value) : null;
      if (!match) return { unsafe: 'the lock setting is not a plain value' };
      return { edits: [{ op: 'set', path, value: `${match[1] ?? ''}leases` }] };
    },
  ],
  [
    'multi-node-access-on-rbd-filesystem',
    (finding) => ({ edits: [{ op: 'set', path: parseFieldPath(finding.path), value: ['ReadWriteOnce'] }] }),
  ],
  [
    'eviction-hard-drops-default-signals',
    (finding, object, version) => {
      const path = parseFieldPath(finding.path);
      if (object.kind !== 'KubeletConfiguration') return completeEvictionFlag(object, path, version);
      const current = asRecord(valueAt(object, path));
      if (!current) return { unsafe: 'evictionHard is not a mapping' };
      const edits: FixEdit[] = Object.entries(defaultEvictionHard(version))
        .filter(([signal]) => !(signal in current))
        .map(([signal, threshold]) => ({ op: 'set', path: [...path, signal], value: threshold }));
      return { edits };
    },
  ],
]);

/** `--eviction-hard=` before the list in a container's flag; kubeadm's kubeletExtraArgs hold the list alone. */
const EVICTION_HARD_FLAG = /^(--eviction-hard=)?([^=]*)$/;

/**
 * The flag form of the eviction fix: kubeadm's and Cluster API's `kubeletExtraArgs` value (map or
 * `{name, value}` list) or a kubelet container's `--eviction-hard=` word, completed with the
 * signals it leaves out at their defaults for the target version, as the kubelet would have had them.
 * Thresholds inside an embedded text (a ConfigMap value, a kind patch) are left to a person.
 */
function completeEvictionFlag(object: JsonRecord, path: ReadonlyArray<string | number>, version: KubeVersion): FixPlan {
  const value = valueAt(object, path);
  const match = typeof value === 'string' ? EVICTION_HARD_FLAG.exec(value.trim()) : null;
  if (!match || path[0] === 'data' || path[0] === 'kubeadmConfigPatches') {
    return { unsafe: 'the thresholds are inside an embedded configuration text: add the missing signals by hand' };
  }
  const list = match[2] ?? '';
  const present = new Set(
    flagMapEntries({ name: 'eviction-hard', value: list, path: '' }).map((entry) => entry.signal),
  );
  const missing = Object.entries(defaultEvictionHard(version))
    .filter(([signal]) => !present.has(signal))
    .map(([signal, threshold]) => `${signal}<${threshold}`);
  if (missing.length === 0) return { edits: [] };
  const completed = [list, ...missing].filter((part) => part !== '').join(',');
  return { edits: [{ op: 'set', path, value: `${match[1] ?? ''}${completed}` }] };
}

/** The fix of a finding on `object`, or why there is none. */
export function fixFor(finding: Finding, object: JsonRecord, version: KubeVersion): FixPlan {
  const fixer = FIXERS.get(finding.rule);
  return fixer ? fixer(finding, object, version) : { unsafe: 'no machine-applicable fix: the change needs a person' };
}

function valueAt(object: unknown, path: ReadonlyArray<string | number>): unknown {
  let current = object;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current) && typeof segment === 'string') current = current[segment];
    else return undefined;
  }
  return current;
}
