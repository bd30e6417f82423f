import { findingsFor, ruleHits } from '../../support/findings';

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

  test('is only a warning on nfs, where Recycle is deprecated but works', () => {
    const recyclable = volume({ persistentVolumeReclaimPolicy: 'Recycle', nfs: { server: 'nfs', path: '/exports' } });
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

  // benjah1/k8s-collection consul/k8s-yaml/yaml/pv.yaml (held-out-12): hostPath PVs under /opt/kind-data
  // with Recycle; Kubernetes recycles hostPath only on a single-node cluster.
  test('real world: is an error on hostPath, whose recycler scrubs whichever node it lands on', () => {
    const hostPath = volume({
      persistentVolumeReclaimPolicy: 'Recycle',
      hostPath: { path: '/opt/kind-data/consul-a' },
    });
    expect(ruleHits([hostPath], 'recycle-reclaim-policy')).toEqual([
      {
        kind: 'PersistentVolume',
        name: 'data',
        path: 'spec.persistentVolumeReclaimPolicy',
        severity: 'error',
        suppressed: false,
      },
    ]);
    expect(findingsFor([hostPath]).find((f) => f.rule === 'recycle-reclaim-policy')?.message).toContain(
      'works only on a single-node cluster',
    );
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
