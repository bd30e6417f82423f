import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { isEvictionSignal, parseThreshold } from './eviction-signals';
import { evictionSettingsViews } from './eviction-settings';

export const evictionThresholdDisablesSignal: Rule = {
  id: 'eviction-threshold-disables-signal',
  severity: 'warning',
  scope: EVICTION_SETTING_KINDS,
  judgesPatches: true,
  summary: 'An eviction threshold of 0% or 100% silently disables the signal.',
  why:
    'The kubelet ignores thresholds of exactly 0% and 100% without a word: the signal then has no threshold, the ' +
    'same silent loss of protection as in incident 4.',
  fix: 'Write the threshold you mean ("5%"); to turn a signal off on purpose, say so in a comment and suppress this finding.',
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard:',
      '  memory.available: "0%"',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard:',
      '  memory.available: "100Mi"',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      for (const map of [view.evictionHard, view.evictionSoft]) {
        for (const entry of map?.entries ?? []) {
          if (!isEvictionSignal(entry.signal)) continue;
          const parsed = parseThreshold(entry.signal, entry.value);
          if (!parsed.ok || !parsed.disables) continue;
          context.report(view.object, {
            path: entry.path,
            message: `${view.where}: ${entry.signal}<${entry.value} is ignored by the kubelet: ${entry.signal} has no threshold.`,
          });
        }
      }
    }
  },
};
