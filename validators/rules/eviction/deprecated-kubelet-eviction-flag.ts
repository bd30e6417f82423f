import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { EVICTION_FLAG_FIELDS } from './kubelet-flags';
import { evictionSettingsViews } from './eviction-settings';

export const deprecatedKubeletEvictionFlag: Rule = {
  id: 'deprecated-kubelet-eviction-flag',
  severity: 'warning',
  scope: EVICTION_SETTING_KINDS,
  judgesPatches: true,
  summary: 'The kubelet is configured with a deprecated --eviction-* flag.',
  why:
    'The --eviction-* flags are deprecated in favour of the KubeletConfiguration file. Flags hide in unit drop-ins ' +
    "and environment files where nobody reviews them: incident 4's --eviction-hard drop-in silently removed the " +
    'memory and inode thresholds.',
  fix:
    "Move the setting into a KubeletConfiguration drop-in (a *.conf file in the kubelet's --config-dir, beta from 1.30) " +
    "or into /var/lib/kubelet/config.yaml; ballast's KubeletEvictionDropIns renders both.",
  example: {
    bad: [
      '[Service]',
      'ExecStart=',
      'ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS --eviction-hard=memory.available<100Mi',
    ].join('\n'),
    good: [
      '# /etc/kubernetes/kubelet.conf.d/50-eviction.conf',
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard: {memory.available: "100Mi", nodefs.available: "10%", nodefs.inodesFree: "5%", imagefs.available: "15%"}',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      for (const flag of view.flags) {
        const field = EVICTION_FLAG_FIELDS[flag.name];
        context.report(view.object, {
          path: flag.path,
          message:
            `${view.where}: --${flag.name} is deprecated` +
            `${field ? `; the KubeletConfiguration field is ${field}` : ''}.`,
        });
      }
    }
  },
};
