import { findingsFor, ruleHits } from '../../../support/findings';
import { CEPH_CSI_PARAMETERS, claim, storageClass, volume, workload, podSpec } from './fixtures';

const RULE = 'multi-node-access-on-rbd-filesystem';
const inTreeRbd = { rbd: { monitors: ['10.0.0.1:6789'], pool: 'rbd', image: 'data', fsType: 'ext4' } };
const cephCsi = { csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'data' } };
const rbdClass = storageClass('ceph-rbd', 'rbd.csi.ceph.com', CEPH_CSI_PARAMETERS);

describe(RULE, () => {
  test('refuses an in-tree RBD PV declared ReadWriteMany (incident 2), with the real recovery in the fix', () => {
    const objects = [volume('data', { accessModes: ['ReadWriteMany'], ...inTreeRbd })];
    expect(ruleHits(objects, RULE)).toEqual([
      { kind: 'PersistentVolume', name: 'data', path: 'spec.accessModes', severity: 'error', suppressed: false },
    ]);
    const finding = findingsFor(objects).filter((f) => f.rule === RULE)[0]!;
    expect(finding.fix).toContain('node.kubernetes.io/out-of-service=nodeshutdown:NoExecute');
    expect(finding.fix).toContain('ReadWriteOnce');
  });

  test('refuses ReadOnlyMany on a ceph-csi (also operator-prefixed) RBD PV', () => {
    const prefixed = volume('data', {
      accessModes: ['ReadOnlyMany'],
      csi: { driver: 'rook-ceph.rbd.csi.ceph.com', volumeHandle: 'x' },
    });
    expect(ruleHits([prefixed], RULE)).toEqual([
      { kind: 'PersistentVolume', name: 'data', path: 'spec.accessModes', severity: 'error', suppressed: false },
    ]);
  });

  // red-hat-storage/ocs-ci ocs_ci/templates/CSI/lvm/restore-pvc.yaml (held-out-452): a claim skeleton
  // whose name and class the test code fills in, next to templates that make rook-ceph-block the default.
  test('real world: a claim without a name, which the API server refuses, is a skeleton: nothing is reported', () => {
    const skeleton = (metadata: Record<string, unknown>) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata,
      spec: { storageClassName: null, accessModes: ['ReadWriteMany'], resources: { requests: { storage: null } } },
    });
    const rookDefault = storageClass('rook-ceph-block', 'rook-ceph.rbd.csi.ceph.com', CEPH_CSI_PARAMETERS, {
      metadata: { name: 'rook-ceph-block', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    });
    expect(ruleHits([rookDefault, skeleton({ name: null })], RULE)).toEqual([]);
    // generateName names it when it is created: judged like any claim.
    expect(ruleHits([rookDefault, skeleton({ generateName: 'restore-' })], RULE)).toEqual([
      expect.objectContaining({ kind: 'PersistentVolumeClaim', path: 'spec.accessModes', severity: 'error' }),
    ]);
  });

  test('refuses a claim and a claim template on an RBD StorageClass, and a claim on the default class', () => {
    const statefulSet = workload('StatefulSet', 'db', podSpec([]), {
      serviceName: 'db',
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteMany'],
            storageClassName: 'ceph-rbd',
            resources: { requests: { storage: '1Gi' } },
          },
        },
      ],
    });
    const defaultClass = storageClass(
      'legacy',
      'kubernetes.io/rbd',
      {},
      { metadata: { name: 'legacy', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } },
    );
    expect(
      ruleHits(
        [
          rbdClass,
          defaultClass,
          statefulSet,
          claim('shared', { accessModes: ['ReadWriteMany'], storageClassName: 'ceph-rbd' }),
          claim('unnamed-class', { accessModes: ['ReadWriteMany'] }),
        ],
        RULE,
      ),
    ).toEqual([
      {
        kind: 'StatefulSet',
        name: 'db',
        path: 'spec.volumeClaimTemplates[0].spec.accessModes',
        severity: 'error',
        suppressed: false,
      },
      { kind: 'PersistentVolumeClaim', name: 'shared', path: 'spec.accessModes', severity: 'error', suppressed: false },
      {
        kind: 'PersistentVolumeClaim',
        name: 'unnamed-class',
        path: 'spec.accessModes',
        severity: 'error',
        suppressed: false,
      },
    ]);
  });

  test('passes volumeMode: Block, ReadWriteOnce, ReadOnlyMany on in-tree rbd, and CephFS', () => {
    expect(
      ruleHits(
        [
          rbdClass,
          storageClass('cephfs', 'cephfs.csi.ceph.com'),
          volume('block', { accessModes: ['ReadWriteMany'], volumeMode: 'Block', ...cephCsi }),
          volume('rwo', { accessModes: ['ReadWriteOnce'], ...cephCsi }),
          volume('rox', { accessModes: ['ReadOnlyMany'], ...inTreeRbd }),
          claim('block', { accessModes: ['ReadWriteMany'], volumeMode: 'Block', storageClassName: 'ceph-rbd' }),
          claim('files', { accessModes: ['ReadWriteMany'], storageClassName: 'cephfs' }),
        ],
        RULE,
      ),
    ).toEqual([]);
  });

  test('leaves a claim that binds to an existing non-RBD volume of the same class to that volume', () => {
    const nfs = volume('func-storage', {
      accessModes: ['ReadWriteMany'],
      storageClassName: 'slow',
      nfs: { server: 'nfs', path: '/x' },
    });
    const inTreeClass = storageClass('slow', 'kubernetes.io/rbd', {
      monitors: 'm',
      adminSecretName: 'a',
      userSecretName: 'u',
    });
    expect(
      ruleHits([nfs, inTreeClass, claim('func', { accessModes: ['ReadWriteMany'], storageClassName: 'slow' })], RULE),
    ).toEqual([]);
  });

  // jijeesh/kubernetes-sysdig ceph-pv.yaml (held-out-116): a Rook FlexVolume RBD image (erasure-coded
  // pools, xfs) declared ReadWriteMany for a DaemonSet on every node.
  test('real world: refuses a Rook FlexVolume RBD PV declared ReadWriteMany; a flex CephFS mount (fsName) is shared storage', () => {
    const flexRbd = volume('sysdig-scap-storage-pv', {
      accessModes: ['ReadWriteMany'],
      flexVolume: {
        driver: 'ceph.rook.io/rook-ceph-system',
        fsType: 'xfs',
        options: { pool: 'replicated-metadata-pool', dataPool: 'ec-data-pool', clusterNamespace: 'rook-ceph' },
      },
    });
    expect(ruleHits([flexRbd], RULE)).toEqual([
      {
        kind: 'PersistentVolume',
        name: 'sysdig-scap-storage-pv',
        path: 'spec.accessModes',
        severity: 'error',
        suppressed: false,
      },
    ]);
    expect(findingsFor([flexRbd]).find((f) => f.rule === RULE)?.message).toContain('Rook FlexVolume RBD');
    const flexCephfs = volume('shared', {
      accessModes: ['ReadWriteMany'],
      flexVolume: { driver: 'ceph.rook.io/rook', options: { fsName: 'myfs', clusterNamespace: 'rook-ceph' } },
    });
    expect(ruleHits([flexCephfs], RULE)).toEqual([]);
  });

  // j-griffith/deploy-rook rbd-pvc.yaml with ceph-manifests/csi/example/rbd/storageclass.yaml
  // (held-out-116): ceph-csi before 1.0, whose driver was named csi-rbdplugin; and Rook's flex class.
  test('real world: refuses ReadWriteMany claims on ceph-csi v0 (csi-rbdplugin) and Rook flex (ceph.rook.io/block) classes', () => {
    const v0Class = storageClass('csi-rbd', 'csi-rbdplugin', { monitors: '10.0.0.1:6789', pool: 'rbd' });
    const flexClass = storageClass('rook-ceph-block', 'ceph.rook.io/block', { blockPool: 'replicapool' });
    const objects = [
      v0Class,
      flexClass,
      claim('pvc-1', { accessModes: ['ReadWriteMany'], storageClassName: 'csi-rbd' }),
      claim('registry', { accessModes: ['ReadWriteMany'], storageClassName: 'rook-ceph-block' }),
      claim('single', { accessModes: ['ReadWriteOnce'], storageClassName: 'rook-ceph-block' }),
    ];
    expect(ruleHits(objects, RULE).map((hit) => [hit.name, hit.path, hit.severity])).toEqual([
      ['pvc-1', 'spec.accessModes', 'error'],
      ['registry', 'spec.accessModes', 'error'],
    ]);
    // Their parameters are not ceph-csi 1.x's: the missing-parameter rule leaves both classes alone.
    expect(ruleHits([v0Class, flexClass], 'rbd-storage-class-missing-parameters')).toEqual([]);
  });

  // h3mmy/bloopySphere (held-out-361): cluster/core/rook-ceph/rook-ceph/cluster/helm-release.yaml, a
  // Flux HelmRelease of the rook-ceph-cluster chart whose block pool's class is ceph-block (the
  // default); cluster/apps/database/redis/config-pvc.yaml asks it for ReadWriteOnce and ReadWriteMany.
  describe('a class a Helm release of rook-ceph-cluster installs', () => {
    const rookRelease = (values: Record<string, unknown>) => ({
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'rook-ceph-cluster', namespace: 'rook-ceph' },
      spec: {
        chart: { spec: { chart: 'rook-ceph-cluster', sourceRef: { kind: 'HelmRepository', name: 'rook-ceph' } } },
        values,
      },
    });
    const blockPool = (storageClass: Record<string, unknown>) => ({
      cephBlockPools: [{ name: 'ceph-blockpool', spec: { replicated: { size: 3 } }, storageClass }],
    });
    const bothModes = (storageClassName?: string) =>
      claim('redis-config-v1', {
        accessModes: ['ReadWriteOnce', 'ReadWriteMany'],
        ...(storageClassName === undefined ? {} : { storageClassName }),
      });
    const hits = (...objects: unknown[]) => ruleHits(objects, RULE).map((hit) => [hit.name, hit.path, hit.severity]);

    test('real world: a claim of its RBD class, named or as the default, asking ReadWriteMany is refused', () => {
      const release = rookRelease(blockPool({ enabled: true, name: 'ceph-block', isDefault: true }));
      expect(hits(release, bothModes('ceph-block'))).toEqual([['redis-config-v1', 'spec.accessModes', 'error']]);
      expect(hits(release, bothModes())).toEqual([['redis-config-v1', 'spec.accessModes', 'error']]);
      const message = findingsFor([release, bothModes('ceph-block')]).find((f) => f.rule === RULE)?.message;
      expect(message).toContain('StorageClass ceph-block, installed by HelmRelease rook-ceph-cluster,');
      // The chart's own values, when the release sets no pools, make the same class.
      expect(hits(rookRelease({}), bothModes('ceph-block'))).toEqual([
        ['redis-config-v1', 'spec.accessModes', 'error'],
      ]);
    });

    test('its CephFS class, a pool whose class is not enabled, and a class of another name pass', () => {
      expect(hits(rookRelease({}), bothModes('ceph-filesystem'))).toEqual([]);
      expect(hits(rookRelease(blockPool({ name: 'ceph-block' })), bothModes('ceph-block'))).toEqual([]);
      expect(hits(rookRelease(blockPool({ enabled: true, name: 'fast' })), bothModes('ceph-block'))).toEqual([]);
    });
  });
});
