import { ownEntry } from '../../json';
import { Rule } from '../../rule';
import { isKubeletDropIn } from './eviction-settings';
import {
  KUBEADM_DROP_IN_NAME,
  KUBEADM_ENVIRONMENT_FILE_VARIABLES,
  KUBEADM_EXEC_START_VARIABLES,
  execStartAfterReset,
  readDropInService,
  referencesVariable,
} from './kubelet-drop-in-service';

export const kubeletDropInFlagsIgnored: Rule = {
  id: 'kubelet-drop-in-flags-ignored',
  severity: 'error',
  scope: ['SystemdDropIn (kubelet.service.d/*.conf)'],
  summary: "A kubelet drop-in sets kubelet flags in a variable that never reaches the kubelet's command line.",
  why:
    'systemd passes a variable set with Environment= to the kubelet only if ExecStart= references it, and values from ' +
    'EnvironmentFile= override Environment= ones: kubeadm reads kubeadm-flags.env (KUBELET_KUBEADM_ARGS, written by ' +
    'kubeadm init and join) and /etc/default/kubelet (KUBELET_EXTRA_ARGS, shipped empty by the deb and RPM packages). A drop-in ' +
    "that looks right can be a no-op: incident 4's eviction fix was a kubelet drop-in, and nobody checked what the " +
    'kubelet actually ran with.',
  fix:
    "Reference the variable in the ExecStart= that the drop-in sets (after an empty ExecStart= line), keeping kubeadm's " +
    'chain: ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $YOUR_ARGS ' +
    '$KUBELET_EXTRA_ARGS. Better: move the settings into a KubeletConfiguration drop-in.',
  example: {
    bad: ['[Service]', 'Environment="KUBELET_EVICTION_ARGS=--eviction-hard=memory.available<100Mi"'].join('\n'),
    good: [
      '[Service]',
      'Environment="KUBELET_EVICTION_ARGS=--eviction-hard=memory.available<100Mi"',
      'ExecStart=',
      'ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EVICTION_ARGS $KUBELET_EXTRA_ARGS',
    ].join('\n'),
  },
  check(context) {
    for (const object of context.index.ofKind('SystemdDropIn')) {
      if (!isKubeletDropIn(object)) continue;
      const service = readDropInService(object);
      const replaced = execStartAfterReset(service);
      const commands = replaced
        ? replaced.map((entry) => entry.command)
        : [`/usr/bin/kubelet ${KUBEADM_EXEC_START_VARIABLES.map((name) => `$${name}`).join(' ')}`];
      for (const variable of service.environment) {
        if (variable.reset || !/(^|\s)--?[a-z]/.test(variable.value)) continue;
        if (!commands.some((command) => referencesVariable(command, variable.name))) {
          context.report(object, {
            path: variable.path,
            message:
              `${service.fileName}: ${variable.name} holds kubelet flags, but ` +
              `${replaced ? 'the ExecStart= this drop-in sets' : "kubeadm's ExecStart= (this drop-in sets none)"} does not ` +
              `reference $${variable.name}: systemd never passes "${variable.value}" to the kubelet.`,
          });
          continue;
        }
        const overriding = ownEntry(KUBEADM_ENVIRONMENT_FILE_VARIABLES, variable.name);
        // kubeadm's EnvironmentFile= lines count unless this drop-in replaces them: by taking the
        // name 10-kubeadm.conf (one that comments out kubeadm-flags.env reads none) or by clearing
        // the list; then only the files it names itself count.
        const replacesKubeadmFiles = service.fileName === KUBEADM_DROP_IN_NAME || service.resetsEnvironmentFiles;
        const read =
          overriding !== undefined &&
          (!replacesKubeadmFiles || overriding.paths.some((file) => service.environmentFiles.includes(file)));
        if (overriding && read) {
          // The Kubernetes packages ship /etc/default/kubelet (RPM: /etc/sysconfig/kubelet) as `KUBELET_EXTRA_ARGS=`
          // (kubernetes/release kubelet.spec installs kubelet.env there), and kubeadm writes kubeadm-flags.env on
          // init and join: on a node installed from them, the variable is always set by its file.
          context.report(object, {
            path: variable.path,
            message:
              `${service.fileName}: ${variable.name} is also set by kubeadm's EnvironmentFile= ${overriding.shown}, ` +
              'which the Kubernetes packages (or kubeadm init and join) write on every node; systemd lets a value from ' +
              `EnvironmentFile= override Environment=, so "${variable.value}" never reaches the kubelet.`,
            fix:
              'Put the flags in a variable of your own (KUBELET_EVICTION_ARGS) referenced by your ExecStart=, or better in a ' +
              'KubeletConfiguration drop-in.',
          });
        }
      }
    }
  },
};
