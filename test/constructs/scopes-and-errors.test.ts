import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart, Size, Testing } from 'cdk8s';
import * as plus from 'cdk8s-plus-27';
import { Cpu, k8s } from 'cdk8s-plus-27';
import {
  BallastGate,
  BallastPropError,
  CephRbdStorageClass,
  NfsCsiStorageClass,
  NfsVolume,
  RbdDataVolume,
  RbdStatefulSet,
  isBallastUserError,
  keepClusterScoped,
  synthOrExit,
} from '../../constructs';
import { CLUSTER_SCOPED_KINDS, isClusterScopedKind } from '../../validators/cluster-scoped-kinds';
import { findingsFor } from '../support/findings';
import { scratchDir } from '../support/scratch-dir';
import { testApp } from '../support/test-app';

function namespacedChart(namespace = 'shop'): Chart {
  const app = testApp();
  new BallastGate(app, { log: () => undefined });
  return new Chart(app, 'c', { namespace, disableResourceNameHashes: true });
}

describe('cluster-scoped objects in a chart with a namespace', () => {
  test('the PersistentVolume and both StorageClasses come out without it; claims keep theirs; the gate passes', () => {
    const chart = namespacedChart();
    new NfsVolume(chart, 'data', { server: 'nfs', path: '/data', claim: { namespace: 'shop' } });
    new NfsCsiStorageClass(chart, 'nfs-csi', { server: 'nfs', share: '/exports' });
    new CephRbdStorageClass(chart, 'rbd', {
      clusterId: 'c',
      pool: 'p',
      provisionerSecret: { name: 'a', namespace: 'ceph' },
      nodeStageSecret: { name: 'b', namespace: 'ceph' },
    });
    const objects = Testing.synth(chart);
    expect(objects.map((o) => [o.kind, o.metadata.namespace])).toEqual([
      ['PersistentVolume', undefined],
      ['PersistentVolumeClaim', 'shop'],
      ['StorageClass', undefined],
      ['StorageClass', undefined],
    ]);
    expect(findingsFor(objects).filter((f) => f.severity === 'error')).toEqual([]);
  });

  test('keepClusterScoped works on any built-in cluster-scoped kind and leaves namespaced kinds alone', () => {
    const chart = namespacedChart();
    const role = new ApiObject(chart, 'role', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
    });
    const ingressClass = new ApiObject(chart, 'ic', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'i' },
    });
    const configMap = new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm' } });
    const custom = new ApiObject(chart, 'custom', {
      apiVersion: 'example.com/v1',
      kind: 'Node',
      metadata: { name: 'n' },
    });
    for (const object of [role, ingressClass, configMap, custom]) keepClusterScoped(object);
    expect(Testing.synth(chart).map((o) => o.metadata.namespace)).toEqual([undefined, undefined, 'shop', 'shop']);
  });

  test('the list knows the kinds of every group, by group', () => {
    expect(CLUSTER_SCOPED_KINDS.length).toBeGreaterThan(35);
    expect(isClusterScopedKind('StorageClass', 'storage.k8s.io/v1')).toBe(true);
    expect(isClusterScopedKind('CSIStorageCapacity', 'storage.k8s.io/v1')).toBe(false);
    expect(isClusterScopedKind('Namespace', 'v1')).toBe(true);
    expect(isClusterScopedKind('Lease', 'coordination.k8s.io/v1')).toBe(false);
    expect(isClusterScopedKind('PriorityClass')).toBe(true);
  });
});

describe('mountIn across namespaces', () => {
  test('is refused, naming both namespaces', () => {
    const chart = namespacedChart('billing');
    const nfs = new NfsVolume(chart, 'data', { server: 'nfs', path: '/data', claim: { namespace: 'shop' } });
    const deployment = new plus.Deployment(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
    expect(() => nfs.mountIn(deployment)).toThrow(BallastPropError);
    expect(() => nfs.mountIn(deployment)).toThrow(
      /namespace "billing" but the claim is in namespace "shop".*set claim\.namespace to "billing"/s,
    );
  });
});

describe('changes after mountIn are refused at synth, never lost silently', () => {
  test('a required term added later (attract) would escape the NFS affinity', () => {
    const chart = namespacedChart();
    const deployment = new plus.Deployment(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
    deployment.scheduling.attract(plus.Node.labeled(plus.NodeLabelQuery.is('zone', 'a')));
    new NfsVolume(chart, 'data', { server: 'nfs', path: '/data' }).mountIn(deployment);
    deployment.scheduling.attract(plus.Node.labeled(plus.NodeLabelQuery.is('zone', 'b')));
    expect(() => Testing.synth(chart)).toThrow(
      /nodeSelectorTerms 1 do not require it.*call mountIn\/requireNodePrerequisite/s,
    );
  });

  test('volumes replaced after mountIn', () => {
    const chart = namespacedChart();
    const deployment = new plus.Deployment(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
    new NfsVolume(chart, 'data', { server: 'nfs', path: '/data' }).mountIn(deployment);
    deployment.containers[0]?.mount('/cache', plus.Volume.fromEmptyDir(chart, 'cache', 'cache'));
    expect(() => Testing.synth(chart)).toThrow(
      /mounts volume "cache", which the pod no longer has.*call mountIn last/s,
    );
  });
});

describe('props are checked together', () => {
  test('one error lists every problem with prop path, value and fix', () => {
    const chart = namespacedChart();
    let error: unknown;
    try {
      new NfsVolume(chart, 'bad', {
        server: 'nfs server',
        path: 'exports',
        mountOptions: { extra: ['soft', 'noatime,ro'] },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BallastPropError);
    const propError = error as BallastPropError;
    expect(propError.problems.map((p) => p.prop)).toEqual([
      'server',
      'path',
      'mountOptions',
      'mountOptions.extra[0]',
      'mountOptions.extra[1]',
    ]);
    expect(propError.message).toMatch(
      /^c\/bad: 5 invalid props:\n {2}- invalid server "nfs server": not a host name or IP address\. Fix: use e\.g\./,
    );
    expect(propError.message).toContain('- invalid mountOptions.extra[1] "noatime,ro"');
    expect(isBallastUserError(propError)).toBe(true);
  });

  test('RbdStatefulSet reports name, replicas, ports and pod problems in one error', () => {
    const chart = namespacedChart();
    const storageClass = new CephRbdStorageClass(chart, 'rbd', {
      clusterId: 'c',
      pool: 'p',
      provisionerSecret: { name: 'a', namespace: 'ceph' },
      nodeStageSecret: { name: 'b', namespace: 'ceph' },
    });
    expect(
      () =>
        new RbdStatefulSet(chart, 'db', {
          storageClass,
          name: 'Orders_DB',
          replicas: 0,
          storage: Size.gibibytes(1),
          data: RbdDataVolume.filesystem('/data'),
          container: {
            image: 'postgres:16.4',
            resources: { cpu: Cpu.millis(100), memory: Size.gibibytes(1) },
            readOnlyRootFilesystem: false,
            ports: [{ name: 'pg', port: 0 }],
          },
          sidecars: [{ name: 'main', image: 'exporter:1' }],
          volumes: [{ name: 'data', emptyDir: {} }],
          podLabels: { 'app.kubernetes.io/name': 'other' },
        }),
    ).toThrow(
      expect.objectContaining({
        problems: [
          expect.objectContaining({ prop: 'name' }),
          expect.objectContaining({ prop: 'container.ports[0].port' }),
          expect.objectContaining({ prop: 'replicas' }),
          expect.objectContaining({ prop: 'sidecars[0].name' }),
          expect.objectContaining({ prop: 'volumes[0].name' }),
          expect.objectContaining({ prop: 'podLabels["app.kubernetes.io/name"]' }),
        ],
      }),
    );
  });

  test('the gate reports a bad version and unknown rule ids together', () => {
    expect(() => new BallastGate(testApp(), { kubernetesVersion: '1.x', rules: { nope: 'off' } })).toThrow(
      /invalid ballast options in the props of BallastGate:\n {2}- kubernetesVersion: invalid Kubernetes version "1\.x".*\n {2}- rules\.nope: unknown rule id/,
    );
  });
});

describe('synthOrExit', () => {
  const run = (build: () => App) => {
    const printed: string[] = [];
    const codes: number[] = [];
    synthOrExit(build, {
      print: (text) => printed.push(text),
      exit: (code) => {
        codes.push(code);
      },
    });
    return { printed, codes };
  };

  test("prints a construct's prop errors without a stack trace and exits 1", () => {
    const { printed, codes } = run(() => {
      const app = testApp();
      new NfsVolume(new Chart(app, 'c'), 'v', { server: 'nfs', path: 'relative' });
      return app;
    });
    expect(codes).toEqual([1]);
    expect(printed).toEqual([
      'c/v: invalid path "relative": the export path must be absolute. Fix: use e.g. "/exports/shared"',
    ]);
  });

  test("a refused synth leaves none of the previous run's manifests in the outdir, and nothing else is touched", () => {
    const outdir = scratchDir('ballast-stale');
    const build = (namespaced: boolean) => () => {
      const app = new App({ outdir });
      new BallastGate(app, { log: () => undefined });
      const metadata = namespaced ? { name: 'pv', namespace: 'x' } : { name: 'pv' };
      new ApiObject(new Chart(app, 'storage'), 'pv', {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata,
        spec: { hostPath: { path: '/srv' } },
      });
      return app;
    };
    fs.writeFileSync(path.join(outdir, 'README.txt'), 'mine');
    expect(run(build(false)).codes).toEqual([]);
    expect(fs.readdirSync(outdir).sort()).toEqual(['README.txt', 'storage.k8s.yaml']);
    const refused = run(build(true));
    expect(refused.codes).toEqual([1]);
    expect(refused.printed[0]).toMatch(
      /^Validation failed with the following errors:\n.*persistent-volume-with-namespace/s,
    );
    expect(refused.printed[0]).not.toMatch(/\n\s+at /);
    expect(fs.readdirSync(outdir)).toEqual(['README.txt']);
  });

  test('a bug (not a user error) is thrown with its trace', () => {
    expect(() =>
      run(() => {
        throw new TypeError('boom');
      }),
    ).toThrow(TypeError);
  });
});

describe('RbdStatefulSet pod', () => {
  test('writes service account, tolerations, node selector, merged affinity, init containers, sidecars, probes, env, metadata', () => {
    const chart = namespacedChart('orders');
    const storageClass = new CephRbdStorageClass(chart, 'rbd', {
      clusterId: 'c',
      pool: 'p',
      provisionerSecret: { name: 'a', namespace: 'ceph' },
      nodeStageSecret: { name: 'b', namespace: 'ceph' },
    });
    const zoneTerm = { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a'] }] };
    const userAntiAffinity = {
      weight: 10,
      podAffinityTerm: { labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'kubernetes.io/hostname' },
    };
    new RbdStatefulSet(chart, 'db', {
      storageClass,
      name: 'db',
      replicas: 3,
      storage: Size.gibibytes(10),
      data: RbdDataVolume.filesystem('/data'),
      serviceAccountName: 'db',
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }],
      nodeSelector: { pool: 'db' },
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [zoneTerm] } },
        podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [userAntiAffinity] },
      },
      initContainers: [{ name: 'init', image: 'busybox:1.36', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      sidecars: [
        { name: 'exporter', image: 'exporter:1', volumeMounts: [{ name: 'config', mountPath: '/etc/exporter' }] },
      ],
      volumes: [{ name: 'config', configMap: { name: 'exporter' } }],
      podLabels: { team: 'orders' },
      podAnnotations: { 'backup.example.com/hook': 'pg_dump' },
      podSecurityContext: { seccompProfile: { type: 'RuntimeDefault' } },
      priorityClassName: 'databases',
      imagePullSecrets: ['registry'],
      container: {
        image: 'postgres:16.4',
        resources: { cpu: Cpu.millis(100), memory: Size.gibibytes(1) },
        readOnlyRootFilesystem: false,
        envFrom: [{ secretRef: { name: 'db' } }],
        startupProbe: { exec: { command: ['pg_isready'] }, failureThreshold: 30 },
        livenessProbe: { exec: { command: ['pg_isready'] } },
        volumeMounts: [{ name: 'config', mountPath: '/etc/postgresql' }],
        securityContext: { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }, readOnlyRootFilesystem: true },
      },
    });
    const objects = Testing.synth(chart);
    const sts = objects.find((o) => o.kind === 'StatefulSet');
    const { metadata, spec } = sts.spec.template;
    expect(metadata).toEqual({
      labels: { team: 'orders', 'app.kubernetes.io/name': 'db' },
      annotations: { 'backup.example.com/hook': 'pg_dump' },
    });
    expect(spec).toMatchObject({
      serviceAccountName: 'db',
      automountServiceAccountToken: false,
      nodeSelector: { pool: 'db' },
      priorityClassName: 'databases',
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }],
      imagePullSecrets: [{ name: 'registry' }],
      securityContext: { runAsNonRoot: true, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      volumes: [{ name: 'config', configMap: { name: 'exporter' } }],
    });
    expect(spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      zoneTerm,
    ]);
    expect(spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution).toEqual([userAntiAffinity]);
    expect(spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
      { labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'db' } }, topologyKey: 'kubernetes.io/hostname' },
    ]);
    expect(spec.initContainers.map((c: { name: string }) => c.name)).toEqual(['init']);
    expect(spec.containers.map((c: { name: string }) => c.name)).toEqual(['main', 'exporter']);
    const main = spec.containers[0];
    expect(main.envFrom).toEqual([{ secretRef: { name: 'db' } }]);
    expect(main.startupProbe).toEqual({ exec: { command: ['pg_isready'] }, failureThreshold: 30 });
    expect(main.volumeMounts).toEqual([
      { name: 'data', mountPath: '/data' },
      { name: 'config', mountPath: '/etc/postgresql' },
    ]);
    // The explicit readOnlyRootFilesystem prop wins; capabilities come from the override.
    expect(main.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
      readOnlyRootFilesystem: false,
    });
    expect(findingsFor(objects).filter((f) => f.severity === 'error')).toEqual([]);
  });

  test('refuses a volume mount of a volume the pod does not have', () => {
    const chart = namespacedChart('orders');
    const storageClass = new CephRbdStorageClass(chart, 'rbd', {
      clusterId: 'c',
      pool: 'p',
      provisionerSecret: { name: 'a', namespace: 'ceph' },
      nodeStageSecret: { name: 'b', namespace: 'ceph' },
    });
    expect(
      () =>
        new RbdStatefulSet(chart, 'db', {
          storageClass,
          storage: Size.gibibytes(10),
          data: RbdDataVolume.filesystem('/data'),
          sidecars: [{ name: 'exporter', image: 'exporter:1', volumeMounts: [{ name: 'missing', mountPath: '/x' }] }],
          container: {
            image: 'postgres:16.4',
            resources: { cpu: Cpu.millis(100), memory: Size.gibibytes(1) },
            readOnlyRootFilesystem: false,
          },
        }),
    ).toThrow(/invalid sidecars\[0\]\.volumeMounts\[0\]\.name "missing": no pod volume has this name/);
  });
});

// Keeps the k8s import used when only types are needed above.
export type UnusedVolume = k8s.Volume;
