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

const COMMENT =
  '# ballast: only nodes labelled node.ballast.dev/nfs-client=installed (NFS client installed); label them before applying';

describe('ballast fix: NFS volumes require the NFS-client node label (nfs-volume-without-node-prerequisite)', () => {
  test('the PersistentVolume requires the label and the pod template selects it, each with a comment saying to label the nodes; the rule passes; a second run changes nothing', async () => {
    const tree = tempTree({ 'nfs.yaml': NFS });
    const file = path.join(tree.dir, 'nfs.yaml');
    try {
      // Reports carry the edits and what must be done before applying them.
      const findings = (await lintJson([tree.dir])).json.findings.filter(
        (f) => f.rule === 'nfs-volume-without-node-prerequisite',
      );
      expect(findings.map((f) => [f.path, f.edits.length > 0, f.precondition])).toEqual([
        [
          'spec.nfs',
          true,
          expect.stringMatching(
            /^pods stay Pending until nodes with the NFS client carry node\.ballast\.dev\/nfs-client=installed/,
          ),
        ],
        ['spec.template.spec.volumes[0].nfs', true, expect.stringMatching(/^pods stay Pending until nodes/)],
      ]);

      const fixed = await ballast(['fix', tree.dir]);
      expect(fixed.stderr).toContain('2 finding(s) fixed in 1 file(s)');
      expect(fixed.stderr).toContain(
        'ballast fix: before applying 2 of these fix(es): pods stay Pending until nodes with the NFS client carry node.ballast.dev/nfs-client=installed: label them before applying',
      );
      expect(fixed.code).toBe(0);
      const after = fs.readFileSync(file, 'utf8');
      expect(after).toContain(
        `  mountOptions: [nfsvers=4.2]\n  ${COMMENT}\n  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: node.ballast.dev/nfs-client, operator: In, values: [installed]}]}]}}\n`,
      );
      expect(after).toContain(
        `        kubernetes.io/os: linux   # Linux nodes only\n        ${COMMENT}\n        node.ballast.dev/nfs-client: installed\n`,
      );
      expect(
        (await lintJson([tree.dir])).json.findings.filter((f) => f.rule === 'nfs-volume-without-node-prerequisite'),
      ).toEqual([]);
      await ballast(['fix', tree.dir]);
      expect(fs.readFileSync(file, 'utf8')).toBe(after);
      // The 0.2 spelling of the default still works.
      const again = tempTree({ 'nfs.yaml': NFS });
      try {
        await ballast(['fix', '--require-node-labels', again.dir]);
        expect(fs.readFileSync(path.join(again.dir, 'nfs.yaml'), 'utf8')).toBe(after);
      } finally {
        again.cleanup();
      }
    } finally {
      tree.cleanup();
    }
  });

  test('--no-require-node-labels changes nothing, each finding says why, and the summary counts them apart', async () => {
    const tree = tempTree({ 'nfs.yaml': NFS });
    try {
      const fixed = await ballast(['fix', '--no-require-node-labels', tree.dir]);
      expect(fixed.code).toBe(1);
      expect(
        fixed.stderr.match(
          /nfs-volume-without-node-prerequisite: not fixed: held back by --no-require-node-labels: pods stay Pending until nodes /g,
        ),
      ).toHaveLength(2);
      expect(fixed.stderr).toContain('0 left for a person; 2 node-label fix(es) not applied (each says why)');
      expect(fs.readFileSync(path.join(tree.dir, 'nfs.yaml'), 'utf8')).toBe(NFS);
    } finally {
      tree.cleanup();
    }
  });

  // vczyh/k8s-deployments (held-out-9): a StatefulSet's claim templates of the nfs-client class.
  test('a StatefulSet whose claim templates are of an in-tree NFS provisioner class (a warning) gets the selector on its pod template only when asked', async () => {
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
      // A warning's nodes may have the client already: the default run leaves it, saying how to apply it.
      const byDefault = await ballast(['fix', tree.dir]);
      expect(byDefault.stderr).toContain(
        'rabbitmq.yaml:17 nfs-volume-without-node-prerequisite: not fixed: not applied to a warning unless asked (`ballast fix --require-node-labels`): pods stay Pending until nodes',
      );
      expect(fs.readFileSync(path.join(tree.dir, 'rabbitmq.yaml'), 'utf8')).toBe(statefulSet);
      await ballast(['fix', '--require-node-labels', tree.dir]);
      const after = fs.readFileSync(path.join(tree.dir, 'rabbitmq.yaml'), 'utf8');
      expect(after).toContain(`      ${COMMENT}\n      nodeSelector: {node.ballast.dev/nfs-client: installed}\n`);
      expect(
        (await lintJson([tree.dir])).json.findings.filter((f) => f.rule === 'nfs-volume-without-node-prerequisite'),
      ).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });
});
