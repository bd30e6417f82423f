import * as path from 'path';
import { BallastGate } from '../../constructs/ballast-gate';
import { BallastValidation } from '../../plugins/cdk8s/ballast-validation';
import { ballastStackViolations } from '../../stacks/policy-pack/ballast-policies';
import { BallastOptions } from '../../validators';
import { ballast, tempTree } from '../cli/run-cli';
import { gateFindings, lintFindings, pluginFindings, policyFindings } from './door-harness';
import { testApp } from '../support/test-app';

/**
 * One input, one set of options, four doors: the synth gate, `ballast lint`, the cdk8s-cli
 * plugin and the Pulumi policy pack must find the same things, and refuse the same mistakes in
 * their options with the same words.
 */

// Incident 1 (a rolling Deployment on an RWO claim), a namespaced PV with Recycle on rbd, and an
// in-tree rbd volume: a rule at its own severity, one switched to warning, one switched off, and
// one that depends on the target version.
const MANIFESTS = `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: db-data, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: ceph-rbd
  resources: {requests: {storage: 10Gi}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ceph-rbd}
provisioner: rbd.csi.ceph.com
parameters:
  clusterID: c
  pool: p
  csi.storage.k8s.io/provisioner-secret-name: s
  csi.storage.k8s.io/provisioner-secret-namespace: ceph
  csi.storage.k8s.io/node-stage-secret-name: s
  csi.storage.k8s.io/node-stage-secret-namespace: ceph
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: db, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: db-data}}]
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: legacy, namespace: shop}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Recycle
  rbd: {monitors: ["10.0.0.1:6789"], image: legacy, pool: rbd}
`;

const OPTIONS: BallastOptions = {
  kubernetesVersion: '1.31',
  rules: { 'persistent-volume-with-namespace': 'warning', 'recycle-reclaim-policy': 'off' },
};

describe('the four doors agree', () => {
  test('one input with the same options gives the same findings through the gate, lint, the cdk8s plugin and the policy pack', async () => {
    const gate = gateFindings(MANIFESTS, OPTIONS);
    expect(gate).toEqual([
      'error in-tree-ceph-volume PersistentVolume shop/legacy spec.rbd',
      'error rwo-claim-in-rolling-deployment Deployment shop/db spec.template.spec.volumes[0].persistentVolumeClaim',
      'warning persistent-volume-with-namespace PersistentVolume shop/legacy metadata.namespace',
    ]);
    expect(await lintFindings(MANIFESTS, OPTIONS)).toEqual(gate);
    expect(await pluginFindings(MANIFESTS, OPTIONS)).toEqual(gate);
    expect(policyFindings(MANIFESTS, OPTIONS)).toEqual(gate);
  });

  test('the target version means the same at every door: in-tree rbd is an error only from 1.31', async () => {
    const older = { ...OPTIONS, kubernetesVersion: '1.30' };
    const gate = gateFindings(MANIFESTS, older);
    expect(gate.some((line) => line.startsWith('error in-tree-ceph-volume'))).toBe(false);
    expect(await lintFindings(MANIFESTS, older)).toEqual(gate);
    expect(await pluginFindings(MANIFESTS, older)).toEqual(gate);
    expect(policyFindings(MANIFESTS, older)).toEqual(gate);
  });

  test('the same mistakes in the options are refused with the same words at every door', async () => {
    const bad = {
      kubernetesVersion: 1.3,
      rules: { 'no-such-rule': 'off' },
      disabledRules: [],
    } as unknown as BallastOptions;
    const problems = [
      'disabledRules: unknown option; known: kubernetesVersion, rules, parameters',
      'kubernetesVersion: Kubernetes version 1.3 is a number: quote it',
      'rules.no-such-rule: unknown rule id',
    ];
    const messageOf = async (attempt: () => unknown): Promise<string> => {
      try {
        await attempt();
      } catch (error) {
        return (error as Error).message;
      }
      return '(accepted)';
    };
    const tree = tempTree({ 'bad.yaml': 'kubernetesVersion: 1.30\nrules: {no-such-rule: off}\ndisabledRules: []\n' });
    try {
      const lint = await ballast(['lint', '--config', path.join(tree.dir, 'bad.yaml'), '-'], '');
      expect(lint.code).toBe(2);
      const messages = [
        await messageOf(() => new BallastGate(testApp(), bad)),
        lint.stderr,
        await messageOf(() => new BallastValidation(bad)),
        await messageOf(() => ballastStackViolations([], 'error', bad)),
      ];
      for (const message of messages) for (const problem of problems) expect(message).toContain(problem);
    } finally {
      tree.cleanup();
    }
  });
});
