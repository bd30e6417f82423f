import * as fs from 'fs';
import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { runFix } from '../../cli/fix-command';
import { tempTree } from './run-cli';

const SILENT = { out: () => undefined, err: () => undefined };

/**
 * kubernetes-sigs/cluster-api test/e2e/data/infrastructure-docker/main/cluster-template-ignition:
 * a kustomization whose patch `ignition.yaml` sets the kubelet's eviction-hard (v1beta2 list form)
 * on the KubeadmControlPlane of its base; the patch's list replaces the base's, so its value is
 * the one the nodes get.
 */
const IGNITION_PATCH = `kind: KubeadmControlPlane
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
metadata:
  name: "\${CLUSTER_NAME}-control-plane"
spec:
  kubeadmConfigSpec:
    format: ignition
    initConfiguration:
      nodeRegistration:
        # We have to set the criSocket to containerd
        criSocket: unix:///var/run/containerd/containerd.sock
        kubeletExtraArgs:
          - name: eviction-hard
            value: 'nodefs.available<0%,nodefs.inodesFree<0%,imagefs.available<0%'
          - name: fail-swap-on
            value: "false"
`;

const tree = (files: Record<string, string>) =>
  tempTree({ 'kustomization.yaml': 'resources: [../bases/kcp.yaml]\npatches:\n- path: ignition.yaml\n', ...files });

describe('ballast lint DIR: kustomize patches are judged only on values a patch sets whole', () => {
  test('real world: the eviction-hard a Cluster API patch sets is refused in the patch, at its field', () => {
    const { dir, cleanup } = tree({ 'ignition.yaml': IGNITION_PATCH });
    try {
      const result = lint([dir], { cwd: dir });
      expect(result.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.path, f.line])).toContainEqual(
        [
          'eviction-hard-drops-default-signals',
          'spec.kubeadmConfigSpec.initConfiguration.nodeRegistration.kubeletExtraArgs[0].value',
          14,
        ],
      );
      expect(result.summary.skipped.kustomizePatches).toBe(1);
    } finally {
      cleanup();
    }
  });

  test('`ballast fix` completes the flag in the patch, and the patch then passes', () => {
    const { dir, cleanup } = tree({ 'ignition.yaml': IGNITION_PATCH });
    try {
      runFix([dir], { kubeVersion: '1.31' }, SILENT);
      const fixed = fs.readFileSync(path.join(dir, 'ignition.yaml'), 'utf8');
      // The value keeps its single quotes.
      expect(fixed).toContain(
        "value: 'nodefs.available<0%,nodefs.inodesFree<0%,imagefs.available<0%,memory.available<100Mi",
      );
      expect(fixed).toContain('# We have to set the criSocket to containerd');
      expect(
        lint([dir], { cwd: dir, kubeVersion: '1.31' }).findings.filter(
          (f) => f.rule === 'eviction-hard-drops-default-signals',
        ),
      ).toEqual([]);
    } finally {
      cleanup();
    }
  });

  test('what a patch leaves to its base is not judged: a partial KubeletConfiguration map, a Deployment fragment, Recycle without its volume type', () => {
    const kubeletPatch = [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'evictionHard: {memory.available: 500Mi}',
      '',
    ].join('\n');
    const deploymentPatch = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: db}',
      'spec:',
      '  template:',
      '    spec:',
      '      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]',
      '',
    ].join('\n');
    const { dir, cleanup } = tempTree({
      'kustomization.yaml': 'resources: [../base]\npatches:\n- path: kubelet.yaml\n- path: db.yaml\n- path: pv.yaml\n',
      // Recycle is an error on block and hostPath volumes and a warning on nfs, which the base holds.
      'pv.yaml':
        'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: shared}\nspec: {persistentVolumeReclaimPolicy: Recycle}\n',
      'kubelet.yaml': kubeletPatch,
      'db.yaml': deploymentPatch,
      'claim.yaml':
        'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce]}\n',
    });
    try {
      expect(lint([dir], { cwd: dir }).findings).toEqual([]);
    } finally {
      cleanup();
    }
  });
});
