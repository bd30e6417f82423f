import { asRecord, getRecord } from '../../json';
import { Rule } from '../../rule';

export const recycleReclaimPolicy: Rule = {
  id: 'recycle-reclaim-policy',
  severity: 'error',
  scope: ['PersistentVolume'],
  summary: 'A PersistentVolume uses persistentVolumeReclaimPolicy: Recycle.',
  why:
    'Recycle is deprecated and only supported by nfs and hostPath volumes: on any other type ' +
    'the volume is never reclaimed and sits in Failed. On hostPath it works only on a single-node ' +
    "cluster: the recycler pod is not placed on the volume's node, so it scrubs the path of whichever " +
    'node it lands on and the volume goes back to Available with the old data still on its own node ' +
    '(kubernetes pkg/volume/hostpath: "HostPath recycling only works in single node clusters"). On nfs ' +
    'it works (a warning): it runs `rm -rf` on the data. Incident 2 (Multi-Attach after a node died) ' +
    'came with an RBD PV written this way.',
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
      const name = volume.ref.name ?? '';
      if (asRecord(spec.nfs) !== undefined) {
        context.report(volume, {
          path: 'spec.persistentVolumeReclaimPolicy',
          severity: 'warning',
          message:
            `PersistentVolume ${name} uses the deprecated Recycle policy on an nfs volume: it works, but it ` +
            'deletes the data with rm -rf and may be removed.',
        });
      } else if (asRecord(spec.hostPath) !== undefined) {
        context.report(volume, {
          path: 'spec.persistentVolumeReclaimPolicy',
          message:
            `PersistentVolume ${name} uses Recycle on a hostPath volume, which works only on a single-node ` +
            "cluster: the recycler pod is not placed on the volume's node, so it scrubs that path on another " +
            'node and the volume goes back to Available with the old data still on its own.',
        });
      } else {
        context.report(volume, {
          path: 'spec.persistentVolumeReclaimPolicy',
          message:
            `PersistentVolume ${name} uses Recycle, which only nfs and hostPath ` +
            'volumes support: this volume will never be reclaimed and will sit in Failed.',
        });
      }
    }
  },
};
