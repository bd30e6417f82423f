import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { ValidationContext } from 'cdk8s-cli/plugins';
import { loadAll } from 'js-yaml';
import { BallastGate } from '../../constructs/ballast-gate';
import { BallastValidation } from '../../plugins/cdk8s/ballast-validation';
import { ballastStackViolations } from '../../stacks/policy-pack/ballast-policies';
import { StackResource } from '../../stacks/policy-pack/kubernetes-resources';
import { BallastOptions } from '../../validators';
import { ballast, lintJson, tempTree } from '../cli/run-cli';

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
      containers: [{name: db, image: postgres:16}]
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

const objects = loadAll(MANIFESTS) as Array<Record<string, unknown>>;

/** `severity rule kind namespace/name path`, sorted: what every door must agree on. */
type Key = string;
const key = (
  severity: string,
  rule: string,
  kind: string | null | undefined,
  namespace: string | null | undefined,
  name: string | null | undefined,
  field: string,
): Key => `${severity} ${rule} ${kind ?? ''} ${namespace ?? ''}/${name ?? ''} ${field}`;

function gateKeys(options: BallastOptions): Key[] {
  const app = Testing.app();
  const gate = new BallastGate(app, { ...options, log: () => undefined });
  const chart = new Chart(app, 'parity');
  objects.forEach((object, i) => new ApiObject(chart, `object-${i}`, object as never));
  return gate
    .validateApp()
    .findings.filter((f) => !f.suppressed)
    .map((f) => key(f.severity, f.rule, f.object.kind, f.object.namespace, f.object.name, f.path))
    .sort();
}

async function lintKeys(options: BallastOptions): Promise<Key[]> {
  const tree = tempTree({ 'manifests.yaml': MANIFESTS, '.ballast.yaml': JSON.stringify(options) });
  try {
    const { json } = await lintJson([
      '--config',
      path.join(tree.dir, '.ballast.yaml'),
      path.join(tree.dir, 'manifests.yaml'),
    ]);
    return json.findings
      .filter((f) => !f.suppressed)
      .map((f) => key(f.severity, f.rule, f.object.kind, f.object.namespace, f.object.name, f.path))
      .sort();
  } finally {
    tree.cleanup();
  }
}

async function pluginKeys(options: BallastOptions): Promise<Key[]> {
  const tree = tempTree({ 'parity.k8s.yaml': MANIFESTS });
  try {
    const manifest = path.join(tree.dir, 'parity.k8s.yaml');
    const context = new ValidationContext([manifest], 'ballast', '0.1.0', {}, false);
    await new BallastValidation(options).validate(context);
    const byName = new Map(objects.map((object) => [(object.metadata as { name: string }).name, object]));
    return context.report
      .toJson()
      .violations.flatMap((violation) =>
        violation.violatingConstructs.map((resource) => {
          const object = byName.get(resource.resourceName);
          const metadata = object?.metadata as { namespace?: string } | undefined;
          const severity = violation.recommendation.split(' ')[0] ?? '';
          return key(
            severity,
            violation.ruleName,
            object?.kind as string,
            metadata?.namespace,
            resource.resourceName,
            resource.locations[0] ?? '',
          );
        }),
      )
      .sort();
  } finally {
    tree.cleanup();
  }
}

function policyKeys(options: BallastOptions): Key[] {
  const resources: StackResource[] = objects.map((object) => {
    const [group, version] = String(object.apiVersion).includes('/')
      ? String(object.apiVersion).split('/')
      : ['core', String(object.apiVersion)];
    const name = (object.metadata as { name: string }).name;
    const type = `kubernetes:${group}/${version}:${String(object.kind)}`;
    return { type, name, urn: `urn:pulumi:dev::parity::${type}::${name}`, props: object };
  });
  const byUrn = new Map(resources.map((resource) => [resource.urn, resource.props]));
  return (['error', 'warning'] as const)
    .flatMap((severity) =>
      ballastStackViolations(resources, severity, options).map((violation) => {
        const object = byUrn.get(violation.urn) as Record<string, unknown>;
        const metadata = object.metadata as { name: string; namespace?: string };
        const field = /, field (\S+):/.exec(violation.message)?.[1] ?? '';
        return key(severity, violation.rule, String(object.kind), metadata.namespace, metadata.name, field);
      }),
    )
    .sort();
}

describe('the four doors agree', () => {
  test('one input with the same options gives the same findings through the gate, lint, the cdk8s plugin and the policy pack', async () => {
    const gate = gateKeys(OPTIONS);
    expect(gate).toEqual([
      'error in-tree-ceph-volume PersistentVolume shop/legacy spec.rbd',
      'error rwo-claim-in-rolling-deployment Deployment shop/db spec.template.spec.volumes[0].persistentVolumeClaim',
      'warning persistent-volume-with-namespace PersistentVolume shop/legacy metadata.namespace',
    ]);
    expect(await lintKeys(OPTIONS)).toEqual(gate);
    expect(await pluginKeys(OPTIONS)).toEqual(gate);
    expect(policyKeys(OPTIONS)).toEqual(gate);
  });

  test('the target version means the same at every door: in-tree rbd is an error only from 1.31', async () => {
    const older = { ...OPTIONS, kubernetesVersion: '1.30' };
    const gate = gateKeys(older);
    expect(gate.some((line) => line.startsWith('error in-tree-ceph-volume'))).toBe(false);
    expect(await lintKeys(older)).toEqual(gate);
    expect(await pluginKeys(older)).toEqual(gate);
    expect(policyKeys(older)).toEqual(gate);
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
        await messageOf(() => new BallastGate(Testing.app(), bad)),
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
