import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { evictionSettingsViews } from './eviction-settings';
import { entriesBySignal } from './eviction-views';

export const evictionSoftThresholdWithoutGracePeriod: Rule = {
  id: 'eviction-soft-threshold-without-grace-period',
  severity: 'error',
  scope: EVICTION_SETTING_KINDS,
  summary: 'A soft eviction threshold has no grace period for its signal: the kubelet refuses to start.',
  why:
    'The kubelet checks at start that every evictionSoft signal has an evictionSoftGracePeriod and exits with ' +
    '"grace period must be specified for the soft eviction threshold <signal>". A drop-in that does this takes the ' +
    'node out of service (incident 4 was fixed with a kubelet drop-in; a broken one stops the kubelet).',
  fix: 'Add the signal to evictionSoftGracePeriod (--eviction-soft-grace-period), e.g. nodefs.available: "2m".',
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft:',
      '  memory.available: "500Mi"',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft:',
      '  memory.available: "500Mi"',
      'evictionSoftGracePeriod:',
      '  memory.available: "1m30s"',
      'evictionMaxPodGracePeriod: 60',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      const gracePeriods = entriesBySignal(view.evictionSoftGracePeriod);
      for (const entry of view.evictionSoft?.entries ?? []) {
        if (entry.malformed || gracePeriods.has(entry.signal)) continue;
        context.report(view.object, {
          path: entry.path,
          message:
            `${view.where}: soft threshold ${entry.signal}<${entry.value} has no grace period; the kubelet refuses to start: ` +
            `"grace period must be specified for the soft eviction threshold ${entry.signal}".`,
          fix: `Add ${entry.signal} to ${view.fromFlags ? '--eviction-soft-grace-period' : 'evictionSoftGracePeriod'} (for example "2m").`,
        });
      }
    }
  },
};
