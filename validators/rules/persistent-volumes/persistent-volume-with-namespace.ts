import { valueExcerpt } from '../../value-excerpt';
import { getRecord } from '../../json';
import { Rule } from '../../rule';

export const persistentVolumeWithNamespace: Rule = {
  id: 'persistent-volume-with-namespace',
  severity: 'error',
  scope: ['PersistentVolume'],
  summary: 'A PersistentVolume sets metadata.namespace, which the API server silently drops.',
  why:
    'PersistentVolumes are cluster-scoped. The API server drops metadata.namespace without a word, ' +
    'so whatever the author meant by it (binding the volume to one namespace, keeping tenants apart) ' +
    'is already lost. Incident 2 (Multi-Attach after a node died) came with a PV written this way.',
  fix:
    'Remove metadata.namespace from the PersistentVolume. To reserve the volume for one claim, set ' +
    'spec.claimRef (namespace and name of the claim), or have the claim name it in spec.volumeName.',
  example: {
    bad: [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata:',
      '  name: data',
      '  namespace: shop',
      'spec:',
      '  capacity: {storage: 10Gi}',
      '  accessModes: [ReadWriteOnce]',
      '  csi: {driver: rbd.csi.ceph.com, volumeHandle: data}',
    ].join('\n'),
    good: [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata:',
      '  name: data',
      'spec:',
      '  capacity: {storage: 10Gi}',
      '  accessModes: [ReadWriteOnce]',
      '  claimRef: {namespace: shop, name: data}',
      '  csi: {driver: rbd.csi.ceph.com, volumeHandle: data}',
    ].join('\n'),
  },
  check(context) {
    for (const volume of context.index.ofKind('PersistentVolume')) {
      const namespace = getRecord(volume.raw, 'metadata')?.namespace;
      if (namespace === undefined || namespace === null) continue;
      context.report(volume, {
        path: 'metadata.namespace',
        message:
          `PersistentVolume ${volume.ref.name ?? ''} sets metadata.namespace ${valueExcerpt(namespace)}, ` +
          'but PersistentVolumes are cluster-scoped: the API server drops it silently.',
      });
    }
  },
};
