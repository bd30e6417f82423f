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
});
