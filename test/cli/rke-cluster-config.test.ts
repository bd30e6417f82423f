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

// pagong/k8s-ha-nfs k8s-clusters/cluster03 (held-out-320): an RKE cluster.yml beside in-tree NFS
// PersistentVolumes. RKE runs the kubelet in the rancher/hyperkube container, built on Kubernetes'
// debian-hyperkube-base, which installs nfs-common: the kubelet there mounts NFS.
describe('nfs-volume-without-node-prerequisite on an RKE cluster', () => {
  const nfsVolume = [
    'apiVersion: v1',
    'kind: PersistentVolume',
    'metadata: {name: nfs-pv}',
    'spec:',
    '  capacity: {storage: 1Gi}',
    '  accessModes: [ReadWriteMany]',
    '  mountOptions: [nfsvers=4.1]',
    '  nfs: {server: 10.0.0.5, path: /exports}',
    '',
  ].join('\n');
  const nfsFindings = (files: Record<string, string>) => {
    const { dir, cleanup } = tempTree(files);
    try {
      return lint([dir], { cwd: dir })
        .findings.filter((f) => f.rule === 'nfs-volume-without-node-prerequisite')
        .map((f) => [f.severity, f.path, f.message.includes('rancher/hyperkube')]);
    } finally {
      cleanup();
    }
  };

  test('real world: an in-tree NFS volume is a warning that names the RKE kubelet container; without cluster.yml, an error', () => {
    expect(nfsFindings({ 'cluster03/cluster.yml': rkeCluster([]), 'cluster03/deploy/nfs-pv.yaml': nfsVolume })).toEqual(
      [['warning', 'spec.nfs', true]],
    );
    expect(nfsFindings({ 'cluster03/deploy/nfs-pv.yaml': nfsVolume })).toEqual([['error', 'spec.nfs', false]]);
  });

  // lsst-it/k8s-cookbook (held-out set): chango/rke/cluster.yml is one of many clusters; the NFS
  // volumes under fleet/lib/k8up-post/overlays/ruka/ are another cluster's.
  test("real world: a cluster.yml speaks for its own project, not for another cluster's manifests", () => {
    expect(
      nfsFindings({
        'chango/rke/cluster.yml': rkeCluster([]),
        'fleet/lib/k8up-post/overlays/ruka/nfs-scratch-pv-pvc.yaml': nfsVolume,
        'chango/apps/nfs-pv.yaml': nfsVolume,
      }),
    ).toEqual([
      ['warning', 'spec.nfs', true],
      ['error', 'spec.nfs', false],
    ]);
  });
});
