import { Rule } from '../../rule';
import { isKubeletDropIn } from './eviction-settings';
import {
  KUBEADM_DROP_IN_NAME,
  KubeletDropInService,
  execStartAfterReset,
  readDropInService,
} from './kubelet-drop-in-service';

export const kubeletDropInSortsBeforeKubeadm: Rule = {
  id: 'kubelet-drop-in-sorts-before-kubeadm',
  severity: 'error',
  scope: ['SystemdDropIn (kubelet.service.d/*.conf)'],
  summary: "A kubelet drop-in replaces ExecStart= but its file name sorts before kubeadm's 10-kubeadm.conf.",
  why:
    "systemd applies drop-ins in file-name order across all directories. kubeadm's 10-kubeadm.conf resets ExecStart= " +
    'and sets its own, so a drop-in named e.g. 05-eviction.conf has its command thrown away and its flags silently ' +
    'never reach the kubelet.',
  fix: 'Name the drop-in so it sorts after 10-kubeadm.conf, e.g. 20-eviction.conf.',
  example: {
    bad: [
      '# 05-eviction.conf',
      '[Service]',
      'ExecStart=',
      'ExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS $KUBELET_EXTRA_ARGS',
    ].join('\n'),
    good: [
      '# 20-eviction.conf',
      '[Service]',
      'ExecStart=',
      'ExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS $KUBELET_EXTRA_ARGS',
    ].join('\n'),
  },
  check(context) {
    for (const object of context.index.ofKind('SystemdDropIn')) {
      if (!isKubeletDropIn(object)) continue;
      const service = readDropInService(object);
      const replaced = execStartAfterReset(service);
      if (!replaced || service.fileName === '' || service.fileName >= KUBEADM_DROP_IN_NAME) continue;
      if (isKubeadmDropInVersion(service)) continue;
      const first = service.execStart.find((entry) => entry.reset);
      context.report(object, {
        path: first?.path ?? 'service.execStart',
        message:
          `${service.fileName} sorts before ${KUBEADM_DROP_IN_NAME}, whose ExecStart= reset runs after it: the ExecStart= ` +
          'this drop-in sets is discarded.',
      });
    }
  },
};

/**
 * A drop-in that sets kubeadm's own KUBELET_KUBECONFIG_ARGS is a version of 10-kubeadm.conf (an
 * older kubeadm release's, a distribution's copy, an Ansible role's pre- and post-1.8 variants),
 * installed in its place rather than beside it: there is no other 10-kubeadm.conf to sort against.
 */
function isKubeadmDropInVersion(service: KubeletDropInService): boolean {
  return service.environment.some((entry) => entry.name === 'KUBELET_KUBECONFIG_ARGS');
}
