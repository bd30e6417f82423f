import { KubeletEvictionSettings } from './kubelet-eviction-settings';

/** Overrides of kubelet.service belong here, beside kubeadm's 10-kubeadm.conf. */
export const KUBELET_SYSTEMD_DROP_IN_DIR = '/etc/systemd/system/kubelet.service.d';
/** Sorts after 10-kubeadm.conf, whose `ExecStart=` reset would otherwise discard ours. */
export const KUBELET_EVICTION_SYSTEMD_DROP_IN = '20-ballast-eviction.conf';
/** A variable of our own: kubeadm's EnvironmentFile= lines override KUBELET_KUBEADM_ARGS and KUBELET_EXTRA_ARGS. */
export const KUBELET_EVICTION_VARIABLE = 'KUBELET_EVICTION_ARGS';

export interface KubeletSystemdDropInOptions {
  /** @default '/usr/bin/kubelet' (kubeadm's packages) */
  readonly kubeletPath?: string;
}

/** The settings as (deprecated) kubelet flags, one per setting, maps comma-joined in the order given. */
export function kubeletEvictionFlags(settings: KubeletEvictionSettings): string[] {
  const pairs = (map: Readonly<Record<string, string>>, separator: string) =>
    Object.entries(map)
      .map(([signal, value]) => `${signal}${separator}${value}`)
      .join(',');
  const flags = [`--eviction-hard=${pairs(settings.evictionHard, '<')}`];
  if (settings.evictionSoft && Object.keys(settings.evictionSoft).length > 0)
    flags.push(`--eviction-soft=${pairs(settings.evictionSoft, '<')}`);
  if (settings.evictionSoftGracePeriod && Object.keys(settings.evictionSoftGracePeriod).length > 0) {
    flags.push(`--eviction-soft-grace-period=${pairs(settings.evictionSoftGracePeriod, '=')}`);
  }
  if (settings.evictionMinimumReclaim && Object.keys(settings.evictionMinimumReclaim).length > 0) {
    flags.push(`--eviction-minimum-reclaim=${pairs(settings.evictionMinimumReclaim, '=')}`);
  }
  if (settings.evictionMaxPodGracePeriod !== undefined)
    flags.push(`--eviction-max-pod-grace-period=${settings.evictionMaxPodGracePeriod}`);
  return flags;
}

/**
 * A kubelet.service drop-in for the kubeadm layout, for kubelets that cannot read a
 * KubeletConfiguration drop-in. systemd's rules shape it:
 * - the flags go into a variable of our own, which only takes effect because the ExecStart=
 *   below references it;
 * - `ExecStart=` (empty) first clears kubeadm's command: without it the unit has two and systemd
 *   refuses it;
 * - kubeadm's chain is kept, with $KUBELET_EXTRA_ARGS last so the admin's last-resort file still wins;
 * - `%` is a systemd specifier character: written as `%%`.
 */
export function renderKubeletSystemdDropIn(
  settings: KubeletEvictionSettings,
  options: KubeletSystemdDropInOptions = {},
): string {
  const kubelet = options.kubeletPath ?? '/usr/bin/kubelet';
  const flags = kubeletEvictionFlags(settings).join(' ').replace(/%/g, '%%');
  return [
    '# Managed by ballast (KubeletEvictionPolicy). Eviction thresholds as kubelet flags (deprecated: prefer the',
    `# KubeletConfiguration drop-in). Sorts after 10-kubeadm.conf so its ExecStart= replaces kubeadm's.`,
    '[Service]',
    `Environment="${KUBELET_EVICTION_VARIABLE}=${flags}"`,
    'ExecStart=',
    `ExecStart=${kubelet} $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $${KUBELET_EVICTION_VARIABLE} $KUBELET_EXTRA_ARGS`,
    '',
  ].join('\n');
}
