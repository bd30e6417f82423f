import { KubeletEvictionSettings, kubeletConfigurationYaml } from './kubelet-eviction-settings';

/** Where kubelet `--config-dir` drop-ins conventionally live (kubelet docs). */
export const KUBELET_CONFIG_DIR = '/etc/kubernetes/kubelet.conf.d';
/** Sorts late so it wins over earlier fragments; files are applied in file-name order. */
export const KUBELET_EVICTION_CONFIG_DROP_IN = '50-ballast-eviction.conf';

/**
 * A KubeletConfiguration drop-in for the kubelet's `--config-dir` (beta, on by default, from
 * 1.30). The kubelet merges drop-ins into its config as JSON merge patches: maps merge, so this
 * file's evictionHard merges into the one from config.yaml — and because the merged map is then
 * set, the kubelet applies none of its defaults: every default signal is named here.
 */
export function renderKubeletConfigDropIn(settings: KubeletEvictionSettings): string {
  return [
    '# Managed by ballast (KubeletEvictionPolicy). Kubelet --config-dir drop-in, applied in file-name order.',
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'kind: KubeletConfiguration',
    ...kubeletConfigurationYaml(settings),
    '',
  ].join('\n');
}
