import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { isEvictionSignal, minimumReclaimError } from './eviction-signals';
import { evictionSettingsViews } from './eviction-settings';

export const evictionMinimumReclaimInvalid: Rule = {
  id: 'eviction-minimum-reclaim-invalid',
  severity: 'error',
  scope: EVICTION_SETTING_KINDS,
  judgesPatches: true,
  summary: 'An eviction minimum reclaim is a percentage <= 0 or a negative quantity: the kubelet refuses to start.',
  why:
    'The kubelet checks evictionMinimumReclaim at start ("eviction percentage minimum reclaim <signal> must be ' +
    'positive", "negative eviction minimum reclaim specified for <signal>") and exits on the first bad value.',
  fix: 'Write a positive percentage ("5%") or a non-negative quantity ("500Mi"), or leave the signal out.',
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionMinimumReclaim: {nodefs.available: "0%"}',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionMinimumReclaim: {nodefs.available: "1Gi"}',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      for (const entry of view.evictionMinimumReclaim?.entries ?? []) {
        if (entry.malformed || !isEvictionSignal(entry.signal)) continue;
        const error = minimumReclaimError(entry.signal, entry.value);
        if (error === undefined) continue;
        context.report(view.object, {
          path: entry.path,
          message: `${view.where}: the kubelet refuses to start: ${error}.`,
        });
      }
    }
  },
};
