import { getField } from '../../json';
import { Rule } from '../../rule';
import { hasNfsVersion, mountOptions, nfsPersistentVolumeExample, nfsVolumeType } from './nfs-volumes';

export const nfsVolumeWithoutVersion: Rule = {
  id: 'nfs-volume-without-version',
  severity: 'warning',
  scope: ['PersistentVolume'],
  summary: 'An NFS PersistentVolume does not pin the NFS protocol version (nfsvers= / vers=).',
  why:
    "Without a version the client negotiates one, and the result depends on the node's kernel and nfs client " +
    'package and on the server: the same volume can mount as NFSv4.2 on one node and NFSv3 (different locking, ' +
    'different failure behaviour) on another, or fail on nodes whose default the server does not offer.',
  fix: 'Add the version the server is meant to serve to spec.mountOptions, e.g. nfsvers=4.1.',
  example: {
    bad: nfsPersistentVolumeExample(['hard']),
    good: nfsPersistentVolumeExample(['hard', 'nfsvers=4.1']),
  },
  check(context) {
    for (const volume of context.index.ofKind('PersistentVolume')) {
      if (!nfsVolumeType(volume.raw)) continue;
      const options = getField(volume.raw, 'spec', 'mountOptions');
      if (hasNfsVersion(mountOptions(options, 'spec.mountOptions'))) continue;
      context.report(volume, {
        path: options === undefined ? 'spec' : 'spec.mountOptions',
        message:
          `NFS PersistentVolume ${volume.ref.name ?? ''} does not set nfsvers= (or vers=) in spec.mountOptions: ` +
          'the protocol version is whatever each node negotiates.',
      });
    }
  },
};
