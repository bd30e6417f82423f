import { asRecord, getRecord } from '../../json';
import { Rule } from '../../rule';

/** The only volume types for which the deprecated Recycle policy still works. */
const RECYCLABLE_VOLUME_TYPES = ['nfs', 'hostPath'];

export const recycleReclaimPolicy: Rule = {
  id: 'recycle-reclaim-policy',
  severity: 'error',
  scope: ['PersistentVolume'],
  summary: 'A PersistentVolume uses persistentVolumeReclaimPolicy: Recycle.',
  why:
    'Recycle is deprecated and only supported by nfs and hostPath volumes: on any other type ' +
    'the volume is never reclaimed and sits in Failed. Even where it works it runs `rm -rf` on the ' +
    'data. Incident 2 (Multi-Attach after a node died) came with an RBD PV written this way.',
  fix:
    'Use persistentVolumeReclaimPolicy: Retain for data you care about, or Delete with dynamic ' +
    'provisioning (a StorageClass) for scratch data.',
  example: {
    bad: [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata: {name: data}',
      'spec:',
      '  capacity: {storage: 10Gi}',
      '  accessModes: [ReadWriteOnce]',
      '  persistentVolumeReclaimPolicy: Recycle',
      '  csi: {driver: rbd.csi.ceph.com, volumeHandle: data}',
    ].join('\n'),
    good: [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata: {name: data}',
      'spec:',
      '  capacity: {storage: 10Gi}',
      '  accessModes: [ReadWriteOnce]',
      '  persistentVolumeReclaimPolicy: Retain',
      '  csi: {driver: rbd.csi.ceph.com, volumeHandle: data}',
    ].join('\n'),
  },
  check(context) {
    for (const volume of context.index.ofKind('PersistentVolume')) {
      const spec = getRecord(volume.raw, 'spec');
      if (spec?.persistentVolumeReclaimPolicy !== 'Recycle') continue;
      const recyclableType = RECYCLABLE_VOLUME_TYPES.find((type) => asRecord(spec[type]) !== undefined);
      if (recyclableType) {
        context.report(volume, {
          path: 'spec.persistentVolumeReclaimPolicy',
          severity: 'warning',
          message:
            `PersistentVolume ${volume.ref.name ?? ''} uses the deprecated Recycle policy on a ` +
            `${recyclableType} volume: it works, but it deletes the data with rm -rf and may be removed.`,
        });
      } else {
        context.report(volume, {
          path: 'spec.persistentVolumeReclaimPolicy',
          message:
            `PersistentVolume ${volume.ref.name ?? ''} uses Recycle, which only nfs and hostPath ` +
            'volumes support: this volume will never be reclaimed and will sit in Failed.',
        });
      }
    }
  },
};
