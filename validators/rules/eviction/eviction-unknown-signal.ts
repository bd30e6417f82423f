import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { EVICTION_SIGNALS, isEvictionSignal } from './eviction-signals';
import { evictionSettingsViews } from './eviction-settings';

export const evictionUnknownSignal: Rule = {
  id: 'eviction-unknown-signal',
  severity: 'error',
  scope: EVICTION_SETTING_KINDS,
  judgesPatches: true,
  summary: 'An eviction setting names a signal the kubelet does not know: it refuses to start.',
  why:
    'The kubelet validates every key of evictionHard, evictionSoft, evictionSoftGracePeriod and ' +
    'evictionMinimumReclaim and exits with "unsupported eviction signal <name>" on the first unknown one: ' +
    'a typo in a node drop-in takes the node down.',
  fix: `Use one of: ${EVICTION_SIGNALS.join(', ')}.`,
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard:',
      '  nodefs.avaliable: "5%"',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard:',
      '  nodefs.available: "5%"',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      for (const map of [
        view.evictionHard,
        view.evictionSoft,
        view.evictionSoftGracePeriod,
        view.evictionMinimumReclaim,
      ]) {
        for (const entry of map?.entries ?? []) {
          if (isEvictionSignal(entry.signal)) continue;
          context.report(view.object, {
            path: entry.path,
            message: entry.malformed
              ? `${view.where}: "${entry.signal}" is not a signal<value pair; the kubelet refuses to start on a malformed pair.`
              : `${view.where}: the kubelet refuses to start: "unsupported eviction signal ${entry.signal}".`,
          });
        }
      }
    }
  },
};
