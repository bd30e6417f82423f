import { Rule } from '../../rule';
import { isKubeletDropIn } from './eviction-settings';
import { readDropInService } from './kubelet-drop-in-service';

export const kubeletDropInExecStartWithoutReset: Rule = {
  id: 'kubelet-drop-in-exec-start-without-reset',
  severity: 'error',
  scope: ['SystemdDropIn (kubelet.service.d/*.conf)'],
  summary: 'A kubelet drop-in adds an ExecStart= without the empty ExecStart= line that clears the previous one.',
  why:
    'kubelet.service already has an ExecStart=. ExecStart= is a list: a drop-in that adds one without first writing ' +
    'an empty `ExecStart=` makes two, and systemd refuses the unit ("Service has more than one ExecStart= setting, ' +
    'which is only allowed for Type=oneshot services"): the kubelet does not start and the node goes NotReady.',
  fix: 'Write `ExecStart=` on its own line right before the new ExecStart=, and set exactly one command after it.',
  example: {
    bad: [
      '[Service]',
      'ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS',
    ].join('\n'),
    good: [
      '[Service]',
      'ExecStart=',
      'ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS',
    ].join('\n'),
  },
  check(context) {
    for (const object of context.index.ofKind('SystemdDropIn')) {
      if (!isKubeletDropIn(object)) continue;
      const service = readDropInService(object);
      let sinceReset: number | undefined;
      for (const entry of service.execStart) {
        if (entry.reset) {
          sinceReset = 0;
          continue;
        }
        if (sinceReset === undefined) {
          context.report(object, {
            path: entry.path,
            message:
              `${service.fileName}: ExecStart= is added without an empty ExecStart= before it, so kubelet.service ` +
              'ends up with two commands and systemd refuses to start it.',
          });
          sinceReset = 1;
          continue;
        }
        sinceReset++;
        if (sinceReset > 1) {
          context.report(object, {
            path: entry.path,
            message: `${service.fileName}: a second ExecStart= after the reset line: systemd refuses a service with more than one.`,
          });
        }
      }
    }
  },
};
