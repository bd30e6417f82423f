import { fieldPath } from '../../field-path';
import { JsonRecord, asArray, asRecord, asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { embeddedYamlDocuments } from '../../embedded-yaml';
import { CommandWord } from './kubelet-flags';
import { kindConfigPatches, kindNodeEvictionHard } from './kind-config-patches';
import type { NamedEvictionMap } from './eviction-views';

/**
 * Where kubeadm configurations keep the kubelet's flags, by kind: kubeadm's own
 * InitConfiguration/JoinConfiguration, and the Cluster API objects that carry them (KubeadmConfig,
 * KubeadmConfigTemplate, KubeadmControlPlane, KubeadmControlPlaneTemplate). Each path leads to an
 * object holding `initConfiguration` / `joinConfiguration`, or (kubeadm) to the configuration itself.
 */
const KUBEADM_CONFIG_HOLDERS: ReadonlyArray<{ kind: string; paths: ReadonlyArray<readonly string[]> }> = [
  { kind: 'InitConfiguration', paths: [[]] },
  { kind: 'JoinConfiguration', paths: [[]] },
  {
    kind: 'KubeadmConfig',
    paths: [
      ['spec', 'initConfiguration'],
      ['spec', 'joinConfiguration'],
    ],
  },
  {
    kind: 'KubeadmConfigTemplate',
    paths: [
      ['spec', 'template', 'spec', 'initConfiguration'],
      ['spec', 'template', 'spec', 'joinConfiguration'],
    ],
  },
  {
    kind: 'KubeadmControlPlane',
    paths: [
      ['spec', 'kubeadmConfigSpec', 'initConfiguration'],
      ['spec', 'kubeadmConfigSpec', 'joinConfiguration'],
    ],
  },
  {
    kind: 'KubeadmControlPlaneTemplate',
    paths: [
      ['spec', 'template', 'spec', 'kubeadmConfigSpec', 'initConfiguration'],
      ['spec', 'template', 'spec', 'kubeadmConfigSpec', 'joinConfiguration'],
    ],
  },
];

/** The kubeadm and Cluster API kinds that carry `nodeRegistration.kubeletExtraArgs`. */
export const KUBEADM_CONFIG_KINDS: readonly string[] = KUBEADM_CONFIG_HOLDERS.map((holder) => holder.kind);

/** The kubelet flags of one kubeadm node registration, as command words with their field paths. */
export interface KubeadmKubeletArgs {
  readonly object: IndexedObject;
  /** `KubeadmConfigTemplate workers, joinConfiguration.nodeRegistration.kubeletExtraArgs`. */
  readonly where: string;
  readonly words: readonly CommandWord[];
  /**
   * The evictionHard the flags replace when it is not the kubelet's defaults: on a kind node, the
   * map kind writes (disk signals at 0%), with the Cluster's KubeletConfiguration patches.
   */
  readonly replaces?: NamedEvictionMap;
}

/**
 * Every `nodeRegistration.kubeletExtraArgs` in the set, as `--name=value` words: a map of strings
 * in kubeadm.k8s.io/v1beta3 and Cluster API v1beta1, a list of `{name, value}` in kubeadm v1beta4
 * and Cluster API v1beta2. kubeadm passes them to the kubelet as flags, after its own.
 */
export function kubeadmKubeletArgs(index: ObjectIndex): KubeadmKubeletArgs[] {
  const found: KubeadmKubeletArgs[] = [];
  for (const { kind, paths } of KUBEADM_CONFIG_HOLDERS) {
    for (const object of index.ofKind(kind)) {
      for (const path of paths) {
        const configuration = path.length === 0 ? object.raw : getRecord(object.raw, ...path);
        const args = getRecord((configuration as JsonRecord | undefined) ?? {}, 'nodeRegistration')?.kubeletExtraArgs;
        if (args === undefined || args === null) continue;
        const base = fieldPath(...path, 'nodeRegistration', 'kubeletExtraArgs');
        const words = argWords(args, base);
        if (words.length === 0) continue;
        found.push({ object, where: `${kind} ${object.ref.name ?? ''} ${base}`.replace(/\s+/g, ' ').trim(), words });
      }
    }
  }
  // kind: an InitConfiguration or JoinConfiguration patch in `kubeadmConfigPatches` sets the flags of
  // the nodes it applies to (kiamol's ch19 kind config sets eviction-hard this way).
  const kindPatches = kindConfigPatches(index);
  for (const { cluster, path, text } of kindPatches) {
    if (typeof text !== 'string' || !text.includes('kubeletExtraArgs')) continue;
    for (const document of embeddedYamlDocuments(text)) {
      if (document.kind !== 'InitConfiguration' && document.kind !== 'JoinConfiguration') continue;
      const base = fieldPath(...path, 'nodeRegistration', 'kubeletExtraArgs');
      const words = argWords(getRecord(document, 'nodeRegistration')?.kubeletExtraArgs, base);
      if (words.length > 0)
        found.push({
          object: cluster,
          where: `kind Cluster ${cluster.ref.name ?? ''} ${document.kind} patch ${base}`,
          words,
          replaces: kindNodeEvictionHard(kindPatches, cluster, path[0] === 'nodes' ? Number(path[1]) : -1),
        });
    }
  }
  return found;
}

function argWords(args: unknown, base: string): CommandWord[] {
  if (Array.isArray(args)) {
    return asArray(args).flatMap((entry, i) => {
      const name = asString(asRecord(entry)?.name);
      const value = asRecord(entry)?.value;
      if (name === undefined) return [];
      return [
        {
          text: `--${name}=${typeof value === 'string' || typeof value === 'number' ? String(value) : ''}`,
          path: `${base}[${i}].value`,
        },
      ];
    });
  }
  const map = asRecord(args);
  if (!map) return [];
  return Object.entries(map).map(([name, value]) => ({
    text: `--${name}=${typeof value === 'string' || typeof value === 'number' ? String(value) : ''}`,
    path: `${base}[${name}]`,
  }));
}
