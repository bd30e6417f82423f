import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-27';
import {
  BallastGate,
  BallastPropError,
  CephRbdStorageClass,
  RbdDataVolume,
  RbdStatefulSet,
  RbdStatefulSetProps,
} from '../../constructs';
import { findingsFor } from '../support/findings';
import { schemaErrors } from '../support/schema';

type Overrides = Partial<Omit<RbdStatefulSetProps, 'storageClass'>>;
const container: RbdStatefulSetProps['container'] = {
  image: 'postgres:16.4',
  ports: [{ name: 'postgres', port: 5432 }],
  resources: { cpu: Cpu.millis(500), memory: Size.mebibytes(1536) },
  readOnlyRootFilesystem: false,
};

function synthWorkload(overrides: Overrides = {}, kubernetesVersion = '1.27') {
  const app = new App();
  new BallastGate(app, { kubernetesVersion, log: () => undefined });
  const chart = new Chart(app, 'db', { disableResourceNameHashes: true });
  const storageClass = new CephRbdStorageClass(chart, 'rbd', {
    name: 'ceph-rbd',
    clusterId: 'rook-ceph',
    pool: 'replicapool',
    provisionerSecret: { name: 'csi-rbd-provisioner', namespace: 'ceph-csi' },
    nodeStageSecret: { name: 'csi-rbd-node', namespace: 'ceph-csi' },
  });
  const workload = new RbdStatefulSet(chart, 'orders', {
    storageClass,
    name: 'orders',
    namespace: 'shop',
    storage: Size.gibibytes(20),
    data: RbdDataVolume.filesystem('/var/lib/postgresql/data'),
    container,
    ...overrides,
  });
  const objects = Testing.synth(chart);
  const ofKind = (kind: string) => objects.find((object) => object.kind === kind);
  return {
    app,
    workload,
    objects,
    statefulSet: ofKind('StatefulSet'),
    service: ofKind('Service'),
    budget: ofKind('PodDisruptionBudget'),
  };
}

describe('RbdStatefulSet', () => {
  test('synthesizes StorageClass, headless Service, StatefulSet and PDB, schema-valid and clean under every rule', () => {
    const { objects, service, budget } = synthWorkload({ replicas: 3 });
    expect(objects.map((object) => object.kind)).toEqual([
      'StorageClass',
      'Service',
      'StatefulSet',
      'PodDisruptionBudget',
    ]);
    expect(objects.flatMap(schemaErrors)).toEqual([]);
    expect(findingsFor(objects)).toEqual([]);
    expect(service.spec).toMatchObject({
      clusterIP: 'None',
      selector: { 'app.kubernetes.io/name': 'orders' },
      ports: [{ name: 'postgres', port: 5432, targetPort: 'postgres' }],
    });
    expect(budget.spec).toEqual({
      maxUnavailable: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } },
    });
  });

  test('defaults: one replica, OrderedReady, RWO on 1.27, Retain/Retain, 60 s grace, fsGroup, explicit resources, no anti-affinity', () => {
    const { statefulSet } = synthWorkload();
    const spec = statefulSet.spec;
    expect(spec).toMatchObject({
      serviceName: 'orders',
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect(spec.volumeClaimTemplates).toEqual([
      {
        metadata: { name: 'data', labels: { 'app.kubernetes.io/name': 'orders' } },
        spec: {
          accessModes: ['ReadWriteOnce'],
          storageClassName: 'ceph-rbd',
          volumeMode: 'Filesystem',
          resources: { requests: { storage: '20Gi' } },
        },
      },
    ]);
    const pod = spec.template.spec;
    expect(pod.terminationGracePeriodSeconds).toBe(60);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, fsGroup: 1000 });
    expect(pod.affinity).toBeUndefined();
    expect(pod.containers[0]).toMatchObject({
      name: 'main',
      resources: { requests: { cpu: '500m', memory: '1536Mi' }, limits: { memory: '1536Mi' } },
      securityContext: { readOnlyRootFilesystem: false },
      volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
    });
  });

  test('uses ReadWriteOncePod by default from 1.29, and refuses it before', () => {
    expect(synthWorkload({}, '1.29').statefulSet.spec.volumeClaimTemplates[0].spec.accessModes).toEqual([
      'ReadWriteOncePod',
    ]);
    expect(synthWorkload({}, '1.31').workload.accessMode).toBe('ReadWriteOncePod');
    expect(synthWorkload({ accessMode: 'ReadWriteOnce' }, '1.30').workload.accessMode).toBe('ReadWriteOnce');
    expect(() => synthWorkload({ accessMode: 'ReadWriteOncePod' }, '1.28')).toThrow(
      /invalid accessMode "ReadWriteOncePod": ReadWriteOncePod is GA from Kubernetes 1.29/,
    );
  });

  test('omits the claim retention policy where the target version lacks it (before 1.27)', () => {
    expect(synthWorkload({}, '1.26').statefulSet.spec.persistentVolumeClaimRetentionPolicy).toBeUndefined();
  });

  test('spreads replicas over hosts: required by default, preferred on request', () => {
    const term = {
      labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'orders' } },
      topologyKey: 'kubernetes.io/hostname',
    };
    expect(synthWorkload({ replicas: 3 }).statefulSet.spec.template.spec.affinity).toEqual({
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] },
    });
    expect(synthWorkload({ replicas: 3, hostSpreading: 'preferred' }).statefulSet.spec.template.spec.affinity).toEqual({
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }] },
    });
  });

  test('gives a block device only when asked for one', () => {
    const { statefulSet, objects } = synthWorkload({ data: RbdDataVolume.blockDevice('/dev/xvda') });
    expect(statefulSet.spec.volumeClaimTemplates[0].spec.volumeMode).toBe('Block');
    expect(statefulSet.spec.template.spec.containers[0].volumeDevices).toEqual([
      { name: 'data', devicePath: '/dev/xvda' },
    ]);
    expect(statefulSet.spec.template.spec.containers[0].volumeMounts).toBeUndefined();
    expect(objects.flatMap(schemaErrors)).toEqual([]);
  });

  test('uses a given headless Service instead of creating one', () => {
    const { statefulSet, service, workload } = synthWorkload({ existingServiceName: 'postgres-headless' });
    expect(statefulSet.spec.serviceName).toBe('postgres-headless');
    expect(service).toBeUndefined();
    expect(workload.service).toBeUndefined();
  });

  test('passes the gate on synth', () => {
    expect(() => synthWorkload({ replicas: 2 }).app.synthYaml()).not.toThrow();
  });

  test.each([
    [{ replicas: 0 }, /invalid replicas 0/],
    [{ replicas: 1.5 }, /invalid replicas 1.5/],
    [{ maxUnavailable: 0 }, /a budget of 0 blocks every node drain/],
    [{ terminationGracePeriod: Duration.seconds(5) }, /invalid terminationGracePeriod "5s"/],
    [{ data: RbdDataVolume.filesystem('data') }, /invalid data "data": a mount or device path must be absolute/],
    [{ storage: Size.kibibytes(10) }, /invalid storage/],
    [{ name: 'Orders_DB' }, /invalid name "Orders_DB"/],
    [{ name: 'a'.repeat(53) }, /invalid name "a{53}": .*controller-revision-hash/],
    [
      { container: { ...container, ports: [{ name: 'postgresql-primary', port: 5432 }] } },
      /invalid container\.ports\[0\]\.name "postgresql-primary"/,
    ],
    [
      {
        container: {
          ...container,
          ports: [
            { name: 'pg', port: 5432 },
            { name: 'pg', port: 5433 },
          ],
        },
      },
      /invalid container\.ports\[1\]\.name "pg"/,
    ],
    [
      { container: { ...container, ports: [{ name: 'postgres', port: 70000 }] } },
      /invalid container\.ports\[0\]\.port 70000/,
    ],
  ])('refuses bad props at construction: %p', (overrides, message) => {
    expect(() => synthWorkload(overrides as Overrides)).toThrow(BallastPropError);
    expect(() => synthWorkload(overrides as Overrides)).toThrow(message);
  });
});
