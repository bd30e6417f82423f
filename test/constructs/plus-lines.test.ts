import { App, Chart, Size, Testing } from 'cdk8s';
import * as plus27 from 'cdk8s-plus-27';
import * as plus34 from 'cdk8s-plus-34';
import {
  BallastGate,
  CephRbdStorageClass,
  LEADER_LEASE_ENV,
  LeaderLease,
  NfsVolume,
  RbdDataVolume,
  RbdStatefulSet,
  requireNodePrerequisite,
} from '../../constructs';
import { NFS_CLIENT, RBD_CLIENT } from '../../validators';
import { findingsFor } from '../support/findings';
import { schemaErrors } from '../support/schema';
import { testApp } from '../support/test-app';

/**
 * The same app written against two cdk8s-plus lines: the oldest ballast supports (27) and a current
 * one (34). Written out twice, not through a generic helper, so the type checker (npm run
 * typecheck) proves that each line's own classes fit ballast's props.
 */

function appWithPlus27(): Chart {
  const app = testApp();
  new BallastGate(app, { log: () => undefined });
  const chart = new Chart(app, 'lines', { namespace: 'reports', disableResourceNameHashes: true });
  const serviceAccount = new plus27.ServiceAccount(chart, 'sa', { metadata: { name: 'runner' } });
  const deployment = new plus27.Deployment(chart, 'runner', {
    metadata: { name: 'runner' },
    replicas: 2,
    serviceAccount,
    containers: [
      {
        name: 'runner',
        image: 'example/runner:1.0',
        portNumber: 8080,
        resources: {
          cpu: { request: plus27.Cpu.millis(100) },
          memory: { request: Size.mebibytes(128), limit: Size.mebibytes(128) },
        },
      },
    ],
  });
  deployment.scheduling.attract(plus27.Node.labeled(plus27.NodeLabelQuery.is('topology.kubernetes.io/zone', 'a')));
  const lease = new LeaderLease(chart, 'lease', { name: 'runner' });
  lease.grantLeadership(serviceAccount);
  lease.attachTo(deployment);
  new NfsVolume(chart, 'shared', {
    server: 'nfs.example.com',
    path: '/exports',
    claim: { namespace: 'reports' },
  }).mountIn(deployment);
  requireNodePrerequisite(deployment, RBD_CLIENT);
  return chart;
}

function appWithPlus34(): Chart {
  const app = testApp();
  new BallastGate(app, { log: () => undefined });
  const chart = new Chart(app, 'lines', { namespace: 'reports', disableResourceNameHashes: true });
  const serviceAccount = new plus34.ServiceAccount(chart, 'sa', { metadata: { name: 'runner' } });
  const deployment = new plus34.Deployment(chart, 'runner', {
    metadata: { name: 'runner' },
    replicas: 2,
    serviceAccount,
    containers: [
      {
        name: 'runner',
        image: 'example/runner:1.0',
        portNumber: 8080,
        resources: {
          cpu: { request: plus34.Cpu.millis(100) },
          memory: { request: Size.mebibytes(128), limit: Size.mebibytes(128) },
        },
      },
    ],
  });
  deployment.scheduling.attract(plus34.Node.labeled(plus34.NodeLabelQuery.is('topology.kubernetes.io/zone', 'a')));
  const lease = new LeaderLease(chart, 'lease', { name: 'runner' });
  lease.grantLeadership(serviceAccount);
  lease.attachTo(deployment);
  new NfsVolume(chart, 'shared', {
    server: 'nfs.example.com',
    path: '/exports',
    claim: { namespace: 'reports' },
  }).mountIn(deployment);
  requireNodePrerequisite(deployment, RBD_CLIENT);
  return chart;
}

const deploymentOf = (objects: any[]) => objects.find((object) => object.kind === 'Deployment');

describe.each([
  ['cdk8s-plus-27', appWithPlus27],
  ['cdk8s-plus-34', appWithPlus34],
])('ballast constructs on %s', (_line, build) => {
  const objects = Testing.synth(build());
  const pod = deploymentOf(objects).spec.template.spec;

  test('the lease variables reach the container', () => {
    const names = pod.containers[0].env.map((variable: { name: string }) => variable.name);
    expect(names).toEqual(expect.arrayContaining(Object.values(LEADER_LEASE_ENV)));
  });

  test('the NFS volume is in the pod and every required term needs both prerequisites, merged with the zone', () => {
    expect(pod.volumes).toContainEqual({ name: 'nfs-shared', persistentVolumeClaim: { claimName: 'shared' } });
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      {
        matchExpressions: [
          { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] },
          { key: NFS_CLIENT.label.key, operator: 'In', values: [NFS_CLIENT.label.value] },
          { key: RBD_CLIENT.label.key, operator: 'In', values: [RBD_CLIENT.label.value] },
        ],
      },
    ]);
  });

  test('the RoleBinding names the plus ServiceAccount, the PV has no namespace, all is schema-valid and passes the rules', () => {
    expect(objects.find((o) => o.kind === 'RoleBinding').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'runner', namespace: 'reports' },
    ]);
    expect(objects.find((o) => o.kind === 'PersistentVolume').metadata.namespace).toBeUndefined();
    expect(objects.flatMap(schemaErrors)).toEqual([]);
    expect(findingsFor(objects).filter((f) => f.severity === 'error')).toEqual([]);
  });
});

test('both lines give the same ballast additions', () => {
  const pod = (objects: any[]) => deploymentOf(objects).spec.template.spec;
  const p27 = pod(Testing.synth(appWithPlus27()));
  const p34 = pod(Testing.synth(appWithPlus34()));
  expect(p34.affinity).toEqual(p27.affinity);
  expect(p34.volumes).toEqual(p27.volumes);
  expect(p34.containers[0].env).toEqual(p27.containers[0].env);
});

test('an App that mixes both lines synthesizes through the gate', () => {
  const app = new App({ outdir: testApp().outdir });
  new BallastGate(app, { log: () => undefined });
  const chart = new Chart(app, 'mixed', { namespace: 'x' });
  const old = new plus27.Deployment(chart, 'old', { containers: [{ image: 'a:1' }] });
  const current = new plus34.Deployment(chart, 'current', { containers: [{ image: 'b:1' }] });
  const nfs = new NfsVolume(chart, 'data', { server: 'nfs', path: '/data' });
  nfs.mountIn(old);
  nfs.mountIn(current);
  expect(() => app.synthYaml()).not.toThrow();
});

test('RbdStatefulSet takes a CPU amount of either line', () => {
  const chart = new Chart(testApp(), 'db', { namespace: 'orders' });
  const storageClass = new CephRbdStorageClass(chart, 'rbd', {
    clusterId: 'c',
    pool: 'p',
    provisionerSecret: { name: 'a', namespace: 'ceph' },
    nodeStageSecret: { name: 'b', namespace: 'ceph' },
  });
  for (const [id, cpu] of [
    ['old', plus27.Cpu.millis(250)],
    ['current', plus34.Cpu.millis(250)],
  ] as const) {
    new RbdStatefulSet(chart, id, {
      storageClass,
      storage: Size.gibibytes(1),
      data: RbdDataVolume.filesystem('/data'),
      container: {
        image: 'postgres:16.4',
        resources: { cpu, memory: Size.gibibytes(1) },
        readOnlyRootFilesystem: false,
      },
    });
  }
  const requests = Testing.synth(chart)
    .filter((o) => o.kind === 'StatefulSet')
    .map((o) => o.spec.template.spec.containers[0].resources.requests.cpu);
  expect(requests).toEqual(['250m', '250m']);
});
