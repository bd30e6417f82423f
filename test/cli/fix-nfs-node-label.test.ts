import * as fs from 'fs';
import * as path from 'path';
import { ballast, lintJson, tempTree } from './run-cli';

// kubernetes/examples _archived/volumes/nfs/nfs-pv.yaml and the nfs-subdir-external-provisioner
// deployment: in-tree NFS on a PersistentVolume and in a pod template, neither requiring prepared nodes.
const NFS = [
  'apiVersion: v1',
  'kind: PersistentVolume',
  'metadata: {name: nfs}',
  'spec:',
  '  capacity: {storage: 1Mi}',
  '  accessModes: [ReadWriteMany]',
  '  nfs: {server: nfs-server.default.svc.cluster.local, path: "/"}',
  '  mountOptions: [nfsvers=4.2]',
  '---',
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: nfs-client-provisioner}',
  'spec:',
  '  replicas: 1',
  '  strategy: {type: Recreate}',
  '  selector: {matchLabels: {app: nfs-client-provisioner}}',
  '  template:',
  '    metadata: {labels: {app: nfs-client-provisioner}}',
  '    spec:',
  '      nodeSelector:',
  '        kubernetes.io/os: linux   # Linux nodes only',
  '      containers: [{name: p, image: registry.k8s.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2}]',
  '      volumes: [{name: root, nfs: {server: 10.3.243.101, path: /ifs/kubernetes}}]',
  '',
].join('\n');

describe('ballast fix --require-node-labels (nfs-volume-without-node-prerequisite)', () => {
  test('without the flag nothing changes, each finding says to label the nodes first, and the summary counts them', async () => {
    const tree = tempTree({ 'nfs.yaml': NFS });
    try {
      const fixed = await ballast(['fix', tree.dir]);
      expect(fixed.code).toBe(1);
      expect(
        fixed.stderr.match(
          /nfs-volume-without-node-prerequisite: not fixed: pods stay Pending until nodes .* --require-node-labels/g,
        ),
      ).toHaveLength(2);
      // The summary counts them apart from what needs a person: their fix exists, waiting on the nodes.
      expect(fixed.stderr).toContain(
        '0 left for a person; 2 wait for node labels (label the nodes, then `ballast fix --require-node-labels`)',
      );
      expect(fs.readFileSync(path.join(tree.dir, 'nfs.yaml'), 'utf8')).toBe(NFS);
      // Lint reports offer no edit for it either: an automated applier must not add it unasked.
      const json = await lintJson([tree.dir]);
      expect(
        json.json.findings.filter((f) => f.rule === 'nfs-volume-without-node-prerequisite').map((f) => f.edits),
      ).toEqual([[], []]);
    } finally {
      tree.cleanup();
    }
  });

  test('with the flag the PersistentVolume requires the label and the pod template selects it; the rule passes; a second run changes nothing', async () => {
    const tree = tempTree({ 'nfs.yaml': NFS });
    const file = path.join(tree.dir, 'nfs.yaml');
    try {
      const fixed = await ballast(['fix', '--require-node-labels', tree.dir]);
      expect(fixed.stderr).toContain('2 finding(s) fixed in 1 file(s)');
      expect(fixed.code).toBe(0);
      const after = fs.readFileSync(file, 'utf8');
      expect(after).toContain(
        '  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: node.ballast.dev/nfs-client, operator: In, values: [installed]}]}]}}\n',
      );
      expect(after).toContain(
        '        kubernetes.io/os: linux   # Linux nodes only\n        node.ballast.dev/nfs-client: installed\n',
      );
      expect(
        (await lintJson([tree.dir])).json.findings.filter((f) => f.rule === 'nfs-volume-without-node-prerequisite'),
      ).toEqual([]);
      await ballast(['fix', '--require-node-labels', tree.dir]);
      expect(fs.readFileSync(file, 'utf8')).toBe(after);
    } finally {
      tree.cleanup();
    }
  });

  // vczyh/k8s-deployments (held-out-9): a StatefulSet's claim templates of the nfs-client class.
  test('a StatefulSet whose claim templates are of an in-tree NFS class gets the selector on its pod template', async () => {
    const statefulSet = [
      'apiVersion: storage.k8s.io/v1',
      'kind: StorageClass',
      'metadata: {name: managed-nfs-storage}',
      'provisioner: k8s-sigs.io/nfs-subdir-external-provisioner',
      '---',
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata: {name: rabbitmq}',
      'spec:',
      '  serviceName: rabbitmq',
      '  selector: {matchLabels: {app: rabbitmq}}',
      '  template:',
      '    metadata: {labels: {app: rabbitmq}}',
      '    spec:',
      '      containers: [{name: rabbitmq, image: rabbitmq:3.8}]',
      '  volumeClaimTemplates:',
      '  - metadata: {name: data}',
      '    spec: {accessModes: [ReadWriteMany], storageClassName: managed-nfs-storage}',
      '',
    ].join('\n');
    const tree = tempTree({ 'rabbitmq.yaml': statefulSet });
    try {
      await ballast(['fix', '--require-node-labels', tree.dir]);
      const after = fs.readFileSync(path.join(tree.dir, 'rabbitmq.yaml'), 'utf8');
      expect(after).toContain('      nodeSelector: {node.ballast.dev/nfs-client: installed}\n');
      expect(
        (await lintJson([tree.dir])).json.findings.filter((f) => f.rule === 'nfs-volume-without-node-prerequisite'),
      ).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });
});
