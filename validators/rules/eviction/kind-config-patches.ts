import { asArray, asRecord, asString } from '../../json';
import { embeddedYamlDocuments } from '../../embedded-yaml';
import { IndexedObject, ObjectIndex } from '../../object-index';
import type { NamedEvictionMap } from './eviction-views';

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

/**
 * The evictionHard a kind node's kubelet is configured with before any flag: kind's own map, with
 * the evictionHard of the Cluster's KubeletConfiguration patches merged onto it key by key (the
 * cluster-wide ones, then the node's own). A kubeletExtraArgs `eviction-hard` flag replaces this map.
 */
export function kindNodeEvictionHard(
  patches: readonly KindConfigPatch[],
  cluster: IndexedObject,
  node: number,
): NamedEvictionMap {
  const signals: Record<string, string> = { ...KIND_EVICTION_HARD.signals };
  let patched = false;
  const applying = patches.filter(
    ({ cluster: owner, path }) => owner === cluster && (path[0] !== 'nodes' || path[1] === node),
  );
  // Cluster-wide patches come first in the list kindConfigPatches returns, as kind applies them.
  for (const { text } of applying) {
    if (typeof text !== 'string' || !text.includes('KubeletConfiguration')) continue;
    for (const document of embeddedYamlDocuments(text)) {
      if (document.kind !== 'KubeletConfiguration') continue;
      for (const [signal, value] of Object.entries(asRecord(document.evictionHard) ?? {})) {
        if (typeof value !== 'string') continue;
        signals[signal] = value;
        patched = true;
      }
    }
  }
  return {
    what: patched
      ? `${KIND_EVICTION_HARD.what} with the Cluster's KubeletConfiguration patches`
      : KIND_EVICTION_HARD.what,
    signals,
  };
}
