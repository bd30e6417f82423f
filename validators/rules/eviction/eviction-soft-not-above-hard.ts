import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { compareThresholds, isEvictionSignal, parseThreshold } from './eviction-signals';
import { evictionSettingsViews } from './eviction-settings';
import { effectiveHardThresholds } from './eviction-views';

export const evictionSoftNotAboveHard: Rule = {
  id: 'eviction-soft-not-above-hard',
  severity: 'error',
  scope: EVICTION_SETTING_KINDS,
  summary: 'A soft eviction threshold is not above the hard threshold of the same signal, so it never fires first.',
  why:
    'Soft thresholds exist to evict gracefully before the hard threshold kills pods at once. A soft threshold at or ' +
    'below the hard one (written, or the kubelet default) is reached only after the hard one: pods are killed ' +
    'without grace, as in incident 4 where the node evicted everything including kube-proxy.',
  fix: 'Set the soft threshold above the hard one for the same signal (e.g. hard nodefs.available 10%, soft 15%).',
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft: {nodefs.available: "5%"}',
      'evictionSoftGracePeriod: {nodefs.available: "2m"}',
      'evictionMaxPodGracePeriod: 60',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionSoft: {nodefs.available: "15%"}',
      'evictionSoftGracePeriod: {nodefs.available: "2m"}',
      'evictionMaxPodGracePeriod: 60',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      if (!view.evictionSoft) continue;
      const hard = effectiveHardThresholds(view, context.kubernetesVersion);
      for (const entry of view.evictionSoft.entries) {
        const hardText = hard.get(entry.signal);
        if (entry.malformed || hardText === undefined || !isEvictionSignal(entry.signal)) continue;
        const soft = parseThreshold(entry.signal, entry.value);
        const hardValue = parseThreshold(entry.signal, hardText);
        if (!soft.ok || !hardValue.ok || soft.disables || hardValue.disables) continue;
        const comparison = compareThresholds(soft.value, hardValue.value);
        if (comparison === undefined || comparison > 0) continue;
        const written = view.evictionHard?.entries.some((hardEntry) => hardEntry.signal === entry.signal);
        context.report(view.object, {
          path: entry.path,
          message:
            `${view.where}: soft threshold ${entry.signal}<${entry.value} is not above the hard threshold ` +
            `${entry.signal}<${hardText}${written ? '' : ' (the kubelet default)'}: the hard threshold is reached first ` +
            'and pods are killed without grace.',
        });
      }
    }
  },
};
