import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { isEvictionSignal, parseThreshold } from './eviction-signals';
import { evictionSettingsViews } from './eviction-settings';

export const evictionThresholdOutOfRange: Rule = {
  id: 'eviction-threshold-out-of-range',
  severity: 'error',
  scope: EVICTION_SETTING_KINDS,
  judgesPatches: true,
  summary:
    'An eviction threshold is a percentage outside 0-100%, a quantity <= 0, or unreadable: the kubelet refuses to start.',
  why:
    'The kubelet parses every hard and soft threshold at start ("eviction percentage threshold <signal> must be ' +
    '<= 100%", "eviction threshold <signal> must be positive") and exits on the first bad one: a bad kubelet ' +
    'drop-in takes the node down.',
  fix: 'Write a percentage of capacity between 0% and 100% ("10%") or a positive quantity with a unit ("500Mi", "1Gi").',
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft:',
      '  nodefs.available: "105%"',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft:',
      '  nodefs.available: "15%"',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      for (const map of [view.evictionHard, view.evictionSoft]) {
        for (const entry of map?.entries ?? []) {
          if (entry.malformed || !isEvictionSignal(entry.signal)) continue;
          const parsed = parseThreshold(entry.signal, entry.value);
          if (parsed.ok) continue;
          context.report(view.object, {
            path: entry.path,
            message: `${view.where}: the kubelet refuses to start: ${parsed.error}.`,
          });
        }
      }
    }
  },
};
