import { KubeletEvictionSettings, kubeletConfigurationYaml } from './kubelet-eviction-settings';

/** The kubelet config file kubeadm writes. */
export const KUBELET_CONFIG_FILE = '/var/lib/kubelet/config.yaml';

/**
 * The eviction fields to merge into /var/lib/kubelet/config.yaml on clusters whose kubelet has
 * neither `--config-dir` nor a managed drop-in: replace these top-level keys in the file (or put
 * them in kubeadm's KubeletConfiguration at `kubeadm init/join/upgrade`), then restart the kubelet.
 */
export function renderKubeletConfigFragment(settings: KubeletEvictionSettings): string {
  return [
    `# Managed by ballast (KubeletEvictionPolicy). Merge these top-level keys into ${KUBELET_CONFIG_FILE},`,
    '# replacing any existing eviction* keys, then restart the kubelet.',
    ...kubeletConfigurationYaml(settings),
    '',
  ].join('\n');
}
