import { asArray, asRecord, asString } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';

/** One entry of a kind Cluster's `kubeadmConfigPatches`: a kubeadm or kubelet configuration as text. */
export interface KindConfigPatch {
  readonly cluster: IndexedObject;
  /** `['kubeadmConfigPatches', 0]` or `['nodes', 1, 'kubeadmConfigPatches', 0]`. */
  readonly path: ReadonlyArray<string | number>;
  readonly text: unknown;
}

/**
 * The `kubeadmConfigPatches` of every kind Cluster (kind.x-k8s.io), cluster-wide and per node: kind
 * merges each into the kubeadm configuration it generates for the nodes (InitConfiguration,
 * JoinConfiguration, ClusterConfiguration, KubeletConfiguration).
 */
export function kindConfigPatches(index: ObjectIndex): KindConfigPatch[] {
  const found: KindConfigPatch[] = [];
  for (const cluster of index.ofKind('Cluster')) {
    if (!(asString(cluster.raw.apiVersion) ?? '').startsWith('kind.x-k8s.io/')) continue;
    asArray(cluster.raw.kubeadmConfigPatches).forEach((text, i) =>
      found.push({ cluster, path: ['kubeadmConfigPatches', i], text }),
    );
    asArray(cluster.raw.nodes).forEach((node, n) =>
      asArray(asRecord(node)?.kubeadmConfigPatches).forEach((text, i) =>
        found.push({ cluster, path: ['nodes', n, 'kubeadmConfigPatches', i], text }),
      ),
    );
  }
  return found;
}

/**
 * The evictionHard kind writes into every node's KubeletConfiguration, to turn disk eviction off
 * (kind's kubeadm configuration template, pkg/cluster/internal/kubeadm/config.go: "disable disk
 * resource management by default"). It names no memory signal: kind nodes run without one by design.
 */
export const KIND_EVICTION_HARD = {
  what: "kind's generated evictionHard",
  signals: { 'nodefs.available': '0%', 'nodefs.inodesFree': '0%', 'imagefs.available': '0%' },
} as const;
