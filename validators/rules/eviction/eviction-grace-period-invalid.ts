import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { gracePeriodError, isEvictionSignal } from './eviction-signals';
import { evictionSettingsViews } from './eviction-settings';

export const evictionGracePeriodInvalid: Rule = {
  id: 'eviction-grace-period-invalid',
  severity: 'error',
  scope: EVICTION_SETTING_KINDS,
  judgesPatches: true,
  summary: 'A soft eviction grace period is negative or not a duration: the kubelet refuses to start.',
  why:
    "The kubelet parses evictionSoftGracePeriod with Go's time.ParseDuration and exits on a negative value " +
    '("invalid eviction grace period specified: <value>, must be a positive value") or a value without a unit.',
  fix: 'Write a positive Go duration with a unit: "90s", "2m", "1m30s".',
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft: {memory.available: "500Mi"}',
      'evictionSoftGracePeriod: {memory.available: "-1m"}',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft: {memory.available: "500Mi"}',
      'evictionSoftGracePeriod: {memory.available: "1m"}',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      for (const entry of view.evictionSoftGracePeriod?.entries ?? []) {
        if (entry.malformed || !isEvictionSignal(entry.signal)) continue;
        const error = gracePeriodError(entry.value);
        if (error === undefined) continue;
        context.report(view.object, {
          path: entry.path,
          message: `${view.where}: the kubelet refuses to start: ${error}.`,
        });
      }
    }
  },
};
