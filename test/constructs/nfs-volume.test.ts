import { App, Chart, Testing } from 'cdk8s';
import * as plus from 'cdk8s-plus-27';
import { k8s } from 'cdk8s-plus-27';
import { BallastGate, BallastPropError, NfsCsiStorageClass, NfsVersion, NfsVolume } from '../../constructs';
import { NFS_CLIENT } from '../../validators';
import { findingsFor } from '../support/findings';
import { testApp, testChart } from '../support/test-app';

const NFS_TERM = { key: NFS_CLIENT.label.key, operator: 'In', values: [NFS_CLIENT.label.value] };
const kubeDeployment = (chart: Chart, spec: Record<string, unknown> = {}) =>
  new k8s.KubeDeployment(chart, 'app', {
    metadata: { name: 'app', namespace: 'shop' },
    spec: {
      selector: { matchLabels: { app: 'app' } },
      template: {
        metadata: { labels: { app: 'app' } },
        spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
      },
    },
  });
const podSpec = (object: any) => object.spec.template.spec;

describe('NfsVolume', () => {
  test('inline: adds the volume and a required affinity on the nfs-client label to a k8s.KubeDeployment; the gate passes', () => {
    const chart = testChart();
    const nfs = new NfsVolume(chart, 'shared', { server: 'nfs.example.com', path: '/exports/shared' });
    const deployment = kubeDeployment(chart);
    nfs.mountIn(deployment);
    const spec = podSpec(deployment.toJson());
    expect(spec.volumes).toEqual([{ name: 'nfs-shared', nfs: { server: 'nfs.example.com', path: '/exports/shared' } }]);
    expect(spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [NFS_TERM] },
    ]);
    expect(findingsFor(Testing.synth(chart)).filter((f) => f.severity === 'error')).toEqual([]);
  });

  test('merges into existing required terms (every ORed term), keeping preferred affinity and nodeSelector', () => {
    const chart = testChart();
    const zone = (z: string) => ({
      matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [z] }],
    });
    const preferred = [{ weight: 1, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } }];
    const deployment = kubeDeployment(chart, {
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [zone('a'), zone('b')] },
          preferredDuringSchedulingIgnoredDuringExecution: preferred,
        },
      },
    });
    new NfsVolume(chart, 'shared', { server: 'nfs.example.com', path: '/exports' }).mountIn(deployment);
    const spec = podSpec(deployment.toJson());
    expect(spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution).toEqual(preferred);
    expect(spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [...zone('a').matchExpressions, NFS_TERM] },
      { matchExpressions: [...zone('b').matchExpressions, NFS_TERM] },
    ]);
  });

  test('works on a cdk8s-plus workload, merged with its own attract()', () => {
    const chart = testChart();
    const deployment = new plus.Deployment(chart, 'web', {
      containers: [{ image: 'nginx', securityContext: { user: 101 } }],
    });
    deployment.scheduling.attract(plus.Node.labeled(plus.NodeLabelQuery.is('zone', 'a')));
    new NfsVolume(chart, 'shared', { server: 'nfs.example.com', path: '/exports' }).mountIn(deployment);
    const [json] = Testing.synth(chart).filter((o) => o.kind === 'Deployment');
    expect(
      podSpec(json).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
    ).toEqual([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }, NFS_TERM] }]);
    expect(podSpec(json).volumes).toContainEqual({
      name: 'nfs-shared',
      nfs: { server: 'nfs.example.com', path: '/exports' },
    });
  });

  test('with a claim: PV (hard, nfsvers, Retain, nodeAffinity, claimRef, no namespace) + claim bound to it', () => {
    const chart = testChart();
    const nfs = new NfsVolume(chart, 'shared', {
      server: '10.0.0.5',
      path: '/exports',
      claim: { namespace: 'shop' },
      mountOptions: { version: NfsVersion.V4_2, extra: ['noatime'] },
    });
    nfs.mountIn(kubeDeployment(chart));
    const objects = Testing.synth(chart);
    const volume = objects.find((o) => o.kind === 'PersistentVolume');
    expect(volume.metadata).toEqual({ name: 'shop-shared' });
    expect(volume.spec.mountOptions).toEqual(['hard', 'nfsvers=4.2', 'noatime']);
    expect(volume.spec.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(volume.spec.claimRef).toEqual({ namespace: 'shop', name: 'shared' });
    expect(volume.spec.nodeAffinity.required.nodeSelectorTerms).toEqual([{ matchExpressions: [NFS_TERM] }]);
    expect(objects.find((o) => o.kind === 'PersistentVolumeClaim').metadata).toEqual({
      name: 'shared',
      namespace: 'shop',
    });
    expect(objects.find((o) => o.kind === 'PersistentVolumeClaim').spec.volumeName).toBe('shop-shared');
    expect(findingsFor(objects)).toEqual([]);
  });

  test('claims of the same name in two namespaces get two PersistentVolumes (PV names are cluster-wide)', () => {
    const chart = testChart();
    new NfsVolume(chart, 'shop-data', { server: 'nfs', path: '/shop', claim: { namespace: 'shop', name: 'data' } });
    new NfsVolume(chart, 'billing-data', {
      server: 'nfs',
      path: '/billing',
      claim: { namespace: 'billing', name: 'data' },
    });
    new NfsVolume(chart, 'legacy', {
      server: 'nfs',
      path: '/legacy',
      claim: { namespace: 'ops', volumeName: 'legacy-share' },
    });
    const objects = Testing.synth(chart);
    const volumes = objects.filter((o) => o.kind === 'PersistentVolume');
    expect(volumes.map((v) => [v.metadata.name, v.spec.claimRef])).toEqual([
      ['shop-data', { namespace: 'shop', name: 'data' }],
      ['billing-data', { namespace: 'billing', name: 'data' }],
      ['legacy-share', { namespace: 'ops', name: 'legacy' }],
    ]);
    expect(objects.filter((o) => o.kind === 'PersistentVolumeClaim').map((c) => c.spec.volumeName)).toEqual([
      'shop-data',
      'billing-data',
      'legacy-share',
    ]);
    expect(
      () =>
        new NfsVolume(chart, 'bad', {
          server: 'nfs',
          path: '/e',
          claim: { namespace: 'ops', volumeName: 'Legacy_Share' },
        }),
    ).toThrow(/claim\.volumeName.*DNS subdomain/s);
  });

  test('soft is allowed but warned by the gate', () => {
    const chart = testChart();
    new NfsVolume(chart, 'shared', {
      server: 'nfs',
      path: '/e',
      claim: { namespace: 'shop' },
      mountOptions: { soft: true },
    });
    expect(findingsFor(Testing.synth(chart)).map((f) => `${f.severity} ${f.rule}`)).toEqual(['warning nfs-soft-mount']);
  });

  test('refuses bad props at construction', () => {
    const chart = testChart();
    expect(() => new NfsVolume(chart, 'a', { server: 'nfs', path: 'exports' })).toThrow(BallastPropError);
    expect(() => new NfsVolume(chart, 'b', { server: 'nfs server', path: '/e' })).toThrow(/invalid server/);
    expect(
      () => new NfsVolume(chart, 'c', { server: 'nfs', path: '/e', mountOptions: { version: NfsVersion.V3 } }),
    ).toThrow(/inline nfs volumes have no mount options/);
    expect(
      () =>
        new NfsVolume(chart, 'd', {
          server: 'nfs',
          path: '/e',
          claim: { namespace: 's' },
          mountOptions: { extra: ['soft'] },
        }),
    ).toThrow(/mountOptions.extra/);
    expect(
      () => new NfsVolume(chart, 'Reports Volume', { server: 'nfs', path: '/e', claim: { namespace: 's' } }),
    ).toThrow(/invalid claim.name "reports volume"/);
  });
});

describe('the synth gate and in-tree NFS', () => {
  test('refuses a workload mounting in-tree NFS without the prerequisite affinity', () => {
    const app = new App({ outdir: testApp().outdir });
    new BallastGate(app, { log: () => undefined });
    const chart = new Chart(app, 'c');
    kubeDeployment(chart, { volumes: [{ name: 'data', nfs: { server: 'nfs.example.com', path: '/exports' } }] });
    expect(() => app.synth()).toThrow(/nfs-volume-without-node-prerequisite/);
  });
});

describe('NfsCsiStorageClass', () => {
  test('synthesizes server, share, subDir and hard/nfsvers mount options; the gate passes', () => {
    const chart = testChart();
    new NfsCsiStorageClass(chart, 'nfs-csi', {
      server: 'nfs.example.com',
      share: '/exports',
      subDir: '${pvc.metadata.name}',
    });
    const objects = Testing.synth(chart);
    expect(objects).toEqual([
      expect.objectContaining({
        kind: 'StorageClass',
        provisioner: 'nfs.csi.k8s.io',
        reclaimPolicy: 'Retain',
        parameters: { server: 'nfs.example.com', share: '/exports', subDir: '${pvc.metadata.name}' },
        mountOptions: ['hard', 'nfsvers=4.1'],
      }),
    ]);
    expect(findingsFor(objects)).toEqual([]);
  });

  test('refuses a relative share or an empty server', () => {
    const chart = testChart();
    expect(() => new NfsCsiStorageClass(chart, 'a', { server: 'nfs', share: 'exports' })).toThrow(BallastPropError);
    expect(() => new NfsCsiStorageClass(chart, 'b', { server: ' ', share: '/exports' })).toThrow(/invalid server/);
  });
});
