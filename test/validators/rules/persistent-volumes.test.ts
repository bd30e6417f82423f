import { ruleHits } from '../../support/findings';

const volume = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'data', ...metadata },
  spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], ...spec },
});
const rbdCsi = { csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'data' } };

describe('persistent-volume-with-namespace', () => {
  test('refuses a PersistentVolume with metadata.namespace', () => {
    expect(ruleHits([volume(rbdCsi, { namespace: 'shop' })], 'persistent-volume-with-namespace')).toEqual([
      { kind: 'PersistentVolume', name: 'data', path: 'metadata.namespace', severity: 'error', suppressed: false },
    ]);
  });

  test('passes a PersistentVolume without namespace, and ignores namespaced kinds', () => {
    const claim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'shop' } };
    expect(ruleHits([volume(rbdCsi), claim], 'persistent-volume-with-namespace')).toEqual([]);
  });
});

describe('recycle-reclaim-policy', () => {
  test('is an error on a volume type that cannot be recycled (RBD, incident 2)', () => {
    const rbd = volume({
      persistentVolumeReclaimPolicy: 'Recycle',
      rbd: { monitors: ['10.0.0.1:6789'], image: 'data' },
    });
    expect(ruleHits([rbd], 'recycle-reclaim-policy')).toEqual([
      {
        kind: 'PersistentVolume',
        name: 'data',
        path: 'spec.persistentVolumeReclaimPolicy',
        severity: 'error',
        suppressed: false,
      },
    ]);
  });

  test.each(['nfs', 'hostPath'])('is only a warning on %s, where Recycle is deprecated but works', (type) => {
    const recyclable = volume({ persistentVolumeReclaimPolicy: 'Recycle', [type]: { path: '/exports' } });
    expect(ruleHits([recyclable], 'recycle-reclaim-policy')).toEqual([
      {
        kind: 'PersistentVolume',
        name: 'data',
        path: 'spec.persistentVolumeReclaimPolicy',
        severity: 'warning',
        suppressed: false,
      },
    ]);
  });

  test('passes Retain and Delete', () => {
    expect(
      ruleHits(
        [
          volume({ ...rbdCsi, persistentVolumeReclaimPolicy: 'Retain' }),
          volume({ ...rbdCsi, persistentVolumeReclaimPolicy: 'Delete' }),
        ],
        'recycle-reclaim-policy',
      ),
    ).toEqual([]);
  });
});
