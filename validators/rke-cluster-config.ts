import { JsonRecord, getRecord } from './json';
import { isKindlessDocument } from './list-items';

/**
 * The kind ballast gives an RKE (Rancher Kubernetes Engine 1) `cluster.yml`: not a Kubernetes
 * object, but the cluster RKE builds, whose `services.kubelet.extra_args` RKE passes to every
 * node's kubelet as flags (`--name=value`). (RKE2 reads a k3s-style config.yaml: k3s-config.ts.)
 */
export const RKE_CLUSTER_CONFIG_KIND = 'RkeClusterConfig';

/**
 * A YAML document shaped as an RKE cluster.yml (a `nodes` list and `services.kubelet`), as an object
 * of kind RkeClusterConfig with the document's own keys (findings keep their paths); undefined for
 * any other document.
 */
export function rkeClusterConfig(document: unknown): JsonRecord | undefined {
  if (!isKindlessDocument(document)) return undefined;
  return Array.isArray(document.nodes) && getRecord(document, 'services', 'kubelet')
    ? { kind: RKE_CLUSTER_CONFIG_KIND, ...document }
    : undefined;
}
