import { listedObjects } from '../../validators';
import { gateFindings, lintFindings, pluginFindings, policyFindings } from './door-harness';

/**
 * `kubectl get pv -o yaml` writes a `kind: List`; Included YAML or a raw ApiObject can hold one.
 * Every door expands it with the same function, so a bad object inside is refused everywhere.
 */
const LIST = `
apiVersion: v1
kind: List
metadata: {resourceVersion: ""}
items:
- apiVersion: v1
  kind: PersistentVolume
  metadata: {name: fine}
  spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: Retain, csi: {driver: rbd.csi.ceph.com, volumeHandle: fine}}
- apiVersion: v1
  kind: PersistentVolume
  metadata: {name: archive, namespace: shop}
  spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: Retain, csi: {driver: rbd.csi.ceph.com, volumeHandle: archive}}
`;
const TYPED_LIST = LIST.replace('kind: List', 'kind: PersistentVolumeList');
const EXPECTED = ['error persistent-volume-with-namespace PersistentVolume shop/archive metadata.namespace'];

describe('List-wrapped objects', () => {
  test('listedObjects expands List and *List kinds, recursively, and keeps only Kubernetes objects', () => {
    const nested = {
      kind: 'List',
      items: [
        { kind: 'ConfigMapList', items: [{ kind: 'ConfigMap' }, 'junk', { a: 1 }] },
        { apiVersion: 'v1', kind: 'Secret' },
      ],
    };
    expect(listedObjects(nested)).toEqual([
      { object: { kind: 'ConfigMap' }, itemIndexes: [0, 0], listField: 'items' },
      { object: { apiVersion: 'v1', kind: 'Secret' }, itemIndexes: [1], listField: 'items' },
    ]);
    expect(listedObjects({ kind: 'List' })).toEqual([{ object: { kind: 'List' }, itemIndexes: [] }]);
    expect(listedObjects('text')).toEqual([]);
  });

  test.each([
    ['kind: List', LIST],
    ['kind: PersistentVolumeList', TYPED_LIST],
  ])(
    'a namespaced PersistentVolume inside %s is refused by the gate, lint, the cdk8s plugin and the policy pack',
    async (_kind, manifests) => {
      const options = { kubernetesVersion: '1.31' };
      expect(gateFindings(manifests, options)).toEqual(EXPECTED);
      expect(await lintFindings(manifests, options)).toEqual(EXPECTED);
      expect(await pluginFindings(manifests, options)).toEqual(EXPECTED);
      expect(policyFindings(manifests, options)).toEqual(EXPECTED);
    },
  );
});
