/**
 * What the node side needs to carry a KubeletEvictionPolicy to a node pool: the files to place
 * (path, content, mode) and the script that places them safely. No cdk8s import: the Pulumi
 * node-config stack calls this and hands both to its node-prep DaemonSet.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
  KUBELET_CONFIG_DIR,
  KUBELET_EVICTION_CONFIG_DROP_IN,
  renderKubeletConfigDropIn,
} from '../templates/kubelet-config-drop-in';
import { NodeFile } from '../templates/kubelet-eviction-settings';
import {
  KUBELET_EVICTION_SYSTEMD_DROP_IN,
  KUBELET_SYSTEMD_DROP_IN_DIR,
  renderKubeletSystemdDropIn,
} from '../templates/kubelet-systemd-drop-in';
import { KubeletEvictionPolicy } from './kubelet-eviction-policy';
import { BallastPropError } from './prop-error';

export type { NodeFile } from '../templates/kubelet-eviction-settings';

/** How the policy reaches the kubelet. */
export type KubeletEvictionDelivery =
  /** A KubeletConfiguration drop-in in the kubelet's --config-dir (beta from 1.30): preferred. */
  | 'config-dir'
  /** A kubelet.service drop-in passing (deprecated) flags: for kubelets without --config-dir. */
  | 'systemd-drop-in';

export interface KubeletEvictionNodeFilesOptions {
  /**
   * How the policy reaches the kubelet.
   * @default 'config-dir' from 1.30, 'systemd-drop-in' before
   */
  readonly delivery?: KubeletEvictionDelivery;
  /**
   * The kubelet's --config-dir. The kubelet must be started with it (kubeadm: `config-dir` in
   * nodeRegistration.kubeletExtraArgs); the drop-in is ignored otherwise.
   * @default '/etc/kubernetes/kubelet.conf.d'
   */
  readonly configDir?: string;
}

/** The files to write on each node of the pool, sorted by path. */
export function kubeletEvictionNodeFiles(
  policy: KubeletEvictionPolicy,
  options: KubeletEvictionNodeFilesOptions = {},
): NodeFile[] {
  const delivery = kubeletEvictionDelivery(policy, options.delivery);
  if (delivery === 'config-dir' && policy.kubernetesVersion.before('1.30')) {
    throw new BallastPropError(
      'kubeletEvictionNodeFiles',
      'delivery',
      delivery,
      `--config-dir is alpha before 1.30 (target ${policy.kubernetesVersion}) and needs the KubeletConfigDropInDir feature gate`,
      "use delivery: 'systemd-drop-in'",
    );
  }
  if (delivery === 'config-dir') {
    const dir = (options.configDir ?? KUBELET_CONFIG_DIR).replace(/\/+$/, '');
    return [
      {
        path: `${dir}/${KUBELET_EVICTION_CONFIG_DROP_IN}`,
        content: renderKubeletConfigDropIn(policy.configurationSettings()),
        mode: 0o644,
      },
    ];
  }
  return [
    {
      path: `${KUBELET_SYSTEMD_DROP_IN_DIR}/${KUBELET_EVICTION_SYSTEMD_DROP_IN}`,
      content: renderKubeletSystemdDropIn(policy.flagSettings()),
      mode: 0o644,
    },
  ];
}

/** The delivery asked for, or the default of the policy's version: 'config-dir' from 1.30, 'systemd-drop-in' before. */
export function kubeletEvictionDelivery(
  policy: KubeletEvictionPolicy,
  delivery?: KubeletEvictionDelivery,
): KubeletEvictionDelivery {
  return delivery ?? (policy.kubernetesVersion.atLeast('1.30') ? 'config-dir' : 'systemd-drop-in');
}

/** File name of the script that installs the files on a node (see the script's header for its contract). */
export const APPLY_KUBELET_DROPINS_SCRIPT = 'apply-kubelet-dropins.sh';

/**
 * The text of templates/apply-kubelet-dropins.sh, found beside the sources (ts-node, jest) or,
 * in the built package, at <package>/templates/ (package.json "files").
 */
export function applyKubeletDropinsScript(): string {
  const candidates = [
    path.join(__dirname, '..', 'templates', APPLY_KUBELET_DROPINS_SCRIPT),
    path.join(__dirname, '..', '..', 'templates', APPLY_KUBELET_DROPINS_SCRIPT),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error(`${APPLY_KUBELET_DROPINS_SCRIPT} not found; looked in ${candidates.join(', ')}`);
  return fs.readFileSync(found, 'utf8');
}
