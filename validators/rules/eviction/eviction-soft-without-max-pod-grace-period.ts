import { EVICTION_SETTING_KINDS } from '../scopes';
import { asNumber } from '../../json';
import { Rule } from '../../rule';
import { evictionSettingsViews } from './eviction-settings';

export const evictionSoftWithoutMaxPodGracePeriod: Rule = {
  id: 'eviction-soft-without-max-pod-grace-period',
  severity: 'warning',
  scope: EVICTION_SETTING_KINDS,
  summary:
    'Soft eviction thresholds with evictionMaxPodGracePeriod 0 (the default): soft evictions kill without grace.',
  why:
    'evictionMaxPodGracePeriod is the grace period a pod gets when a soft threshold evicts it, and it defaults to 0: ' +
    'the "graceful" eviction kills pods at once, as the hard threshold did in incident 4.',
  fix: 'Set evictionMaxPodGracePeriod (--eviction-max-pod-grace-period) to the seconds your pods need to stop, e.g. 60.',
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft: {memory.available: "500Mi"}',
      'evictionSoftGracePeriod: {memory.available: "1m"}',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft: {memory.available: "500Mi"}',
      'evictionSoftGracePeriod: {memory.available: "1m"}',
      'evictionMaxPodGracePeriod: 60',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      if (!view.evictionSoft || view.evictionSoft.entries.length === 0) continue;
      const maxGrace = view.evictionMaxPodGracePeriod;
      const seconds = maxGrace === undefined ? 0 : asNumber(maxGrace.value);
      if (seconds !== 0) continue;
      context.report(view.object, {
        path: maxGrace?.path ?? view.evictionSoft.path,
        message:
          `${view.where}: soft eviction thresholds are set but evictionMaxPodGracePeriod is ` +
          `${maxGrace === undefined ? 'not set (default 0)' : '0'}: pods evicted by a soft threshold get no time to stop.`,
      });
    }
  },
};
