import { EVICTION_SETTING_KINDS } from '../scopes';
import { Rule } from '../../rule';
import { parseThreshold } from './eviction-signals';
import { evictionSettingsViews } from './eviction-settings';

const DISK_SIGNALS = new Set(['nodefs.available', 'imagefs.available']);
const MINIMUM_PERCENT = 5;

export const evictionDiskHardThresholdBelow5Percent: Rule = {
  id: 'eviction-disk-hard-threshold-below-5-percent',
  severity: 'warning',
  scope: EVICTION_SETTING_KINDS,
  summary:
    'The nodefs.available or imagefs.available hard threshold is below 5%: the disk fills before anything is evicted.',
  why:
    'Below 5% free, a small root disk fills up (logs, images, emptyDirs) before the kubelet reacts. Incident 3 began ' +
    'with a full root disk that stopped kube-controller-manager; incident 4 lowered nodefs.available to 5% on a 6 GiB disk.',
  fix:
    'Keep nodefs.available and imagefs.available at 5% or more; on small disks give the node a bigger disk or ' +
    'move images and logs to their own filesystem instead of lowering the threshold.',
  example: {
    bad: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard:',
      '  memory.available: "100Mi"',
      '  nodefs.available: "2%"',
      '  nodefs.inodesFree: "5%"',
      '  imagefs.available: "15%"',
    ].join('\n'),
    good: [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard:',
      '  memory.available: "100Mi"',
      '  nodefs.available: "5%"',
      '  nodefs.inodesFree: "5%"',
      '  imagefs.available: "15%"',
    ].join('\n'),
  },
  check(context) {
    for (const view of evictionSettingsViews(context.index)) {
      for (const entry of view.evictionHard?.entries ?? []) {
        if (!DISK_SIGNALS.has(entry.signal)) continue;
        const parsed = parseThreshold(entry.signal, entry.value);
        if (!parsed.ok || parsed.value.kind !== 'percentage' || parsed.value.percent >= MINIMUM_PERCENT) continue;
        context.report(view.object, {
          path: entry.path,
          message:
            `${view.where}: hard threshold ${entry.signal}<${entry.value} is below ${MINIMUM_PERCENT}%` +
            `${parsed.disables ? ' (0% disables it entirely)' : ''}: the disk fills up before the kubelet evicts anything.`,
        });
      }
    }
  },
};
