import { JsonRecord } from './json';
import { isKindlessDocument } from './list-items';

/**
 * The kind ballast gives a k3s or RKE2 configuration file (`/etc/rancher/k3s/config.yaml`,
 * `/etc/rancher/rke2/config.yaml`): not a Kubernetes object, but the server's or agent's flags,
 * of which `kubelet-arg` passes flags on to the kubelet.
 */
export const K3S_CONFIG_KIND = 'K3sConfig';

/** The configuration key that k3s and RKE2 turn into kubelet flags, one `name=value` each. */
export const KUBELET_ARG_KEY = 'kubelet-arg';

/**
 * A YAML document that sets `kubelet-arg` as k3s and RKE2 configuration files do, as an object of
 * kind K3sConfig with the document's own keys (findings keep their paths); undefined for any other.
 */
export function k3sConfig(document: unknown): JsonRecord | undefined {
  if (!isKindlessDocument(document)) return undefined;
  return KUBELET_ARG_KEY in document ? { kind: K3S_CONFIG_KIND, ...document } : undefined;
}
