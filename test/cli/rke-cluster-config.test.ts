import * as fs from 'fs';
import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { runFix } from '../../cli/fix-command';
import { tempTree } from './run-cli';

const SILENT = { out: () => undefined, err: () => undefined };

/**
 * Lancger/opsfull rke/cluster.yml (held-out-36), cut down: RKE passes `services.kubelet.extra_args`
 * to the kubelet as flags; these soft thresholds are not above the default hard ones.
 */
/** An RKE cluster.yml of one node whose kubelet gets `extraArgs` (YAML lines under extra_args). */
const rkeCluster = (extraArgs: readonly string[]) =>
  [
    'nodes:',
    '  - address: 10.0.0.1',
    '    user: rke',
    '    role: [controlplane, etcd, worker]',
    'services:',
    '  kubelet:',
    '    extra_args:',
    ...extraArgs.map((line) => `      ${line}`),
    '',
  ].join('\n');
const SOFT_NOT_ABOVE_HARD = rkeCluster([
  'eviction-soft: "memory.available<10%,nodefs.available<10%,imagefs.available<10%"',
  'eviction-soft-grace-period: "memory.available=2m,nodefs.available=2m,imagefs.available=2m"',
]);
const PARTIAL_HARD = rkeCluster(['max-pods: "150"', 'eviction-hard: "memory.available<500Mi"']);

const errors = (dir: string) =>
  lint([dir], { cwd: dir, kubeVersion: '1.31' })
    .findings.filter((f) => f.severity === 'error')
    .map((f) => [f.rule, f.object.kind, f.path, f.line]);

describe('kubelet flags of an RKE cluster.yml (services.kubelet.extra_args)', () => {
  test('real world: soft thresholds not above the default hard ones are refused at their line', () => {
    const { dir, cleanup } = tempTree({ 'rke/cluster.yml': SOFT_NOT_ABOVE_HARD });
    try {
      expect(errors(dir)).toEqual([
        ['eviction-soft-not-above-hard', 'RkeClusterConfig', 'services.kubelet.extra_args.eviction-soft', 8],
        ['eviction-soft-not-above-hard', 'RkeClusterConfig', 'services.kubelet.extra_args.eviction-soft', 8],
      ]);
    } finally {
      cleanup();
    }
  });

  test('a partial eviction-hard is refused, and `ballast fix` completes it in place; a cluster.yml without one passes', () => {
    const { dir, cleanup } = tempTree({ 'cluster.yml': PARTIAL_HARD });
    try {
      expect(errors(dir)).toEqual([
        ['eviction-hard-drops-default-signals', 'RkeClusterConfig', 'services.kubelet.extra_args.eviction-hard', 9],
      ]);
      runFix([dir], { kubeVersion: '1.31' }, SILENT);
      expect(fs.readFileSync(path.join(dir, 'cluster.yml'), 'utf8')).toContain(
        '      eviction-hard: "memory.available<500Mi,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<15%,imagefs.inodesFree<5%"\n',
      );
      expect(errors(dir)).toEqual([]);
      fs.writeFileSync(path.join(dir, 'cluster.yml'), rkeCluster(['max-pods: "150"']));
      expect(lint([dir], { cwd: dir, kubeVersion: '1.31' }).findings).toEqual([]);
    } finally {
      cleanup();
    }
  });
});
