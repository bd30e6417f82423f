import { WORKLOAD_KINDS } from '../scopes';
import { asArray, asString, getField, getRecord } from '../../json';
import { Rule } from '../../rule';
import {
  NFS_CSI_DRIVER,
  effectiveSoftOption,
  mountOptions,
  nfsPersistentVolumeExample,
  nfsVolumeType,
} from './nfs-volumes';

/** Provisioners of NFS-backed StorageClasses: csi-driver-nfs, ceph-csi/rook NFS, nfs-subdir and friends. */
const NFS_PROVISIONER = /nfs/i;

export const nfsSoftMount: Rule = {
  id: 'nfs-soft-mount',
  severity: 'warning',
  scope: [...WORKLOAD_KINDS, 'PersistentVolume', 'StorageClass'],
  summary: 'An NFS volume or StorageClass mounts with the soft option.',
  why:
    'With soft, an NFS request that times out (server restart, network blip) returns EIO to the application ' +
    'instead of retrying: writes the application believed done are silently lost and files end up corrupt. ' +
    'hard (the kernel default) blocks until the server is back, which databases and most applications expect.',
  fix:
    'Remove soft (or write hard) from mountOptions. If hung mounts are the worry, bound retries with timeo= and ' +
    'retrans= and fix availability of the server instead.',
  example: {
    bad: nfsPersistentVolumeExample(['soft', 'nfsvers=4.1']),
    good: nfsPersistentVolumeExample(['hard', 'nfsvers=4.1']),
  },
  check(context) {
    const message = (what: string) =>
      `${what} mounts NFS with soft: a timed-out request returns an I/O error and ` +
      'writes can be lost. Use hard (the default).';
    for (const volume of context.index.ofKind('PersistentVolume')) {
      if (!nfsVolumeType(volume.raw)) continue;
      const soft = effectiveSoftOption(mountOptions(getField(volume.raw, 'spec', 'mountOptions'), 'spec.mountOptions'));
      if (soft)
        context.report(volume, { path: soft.path, message: message(`PersistentVolume ${volume.ref.name ?? ''}`) });
    }
    for (const storageClass of context.index.ofKind('StorageClass')) {
      if (!NFS_PROVISIONER.test(asString(storageClass.raw.provisioner) ?? '')) continue;
      const soft = effectiveSoftOption(mountOptions(storageClass.raw.mountOptions, 'mountOptions'));
      if (soft)
        context.report(storageClass, {
          path: soft.path,
          message: message(`StorageClass ${storageClass.ref.name ?? ''}`),
        });
    }
    for (const template of context.index.podTemplates()) {
      asArray(template.spec.volumes).forEach((volume, index) => {
        const csi = getRecord(volume, 'csi');
        if (asString(csi?.driver) !== NFS_CSI_DRIVER) return;
        const path = `${template.path}.volumes[${index}].csi.volumeAttributes.mountOptions`;
        const soft = effectiveSoftOption(mountOptions(getField(csi, 'volumeAttributes', 'mountOptions'), path));
        if (soft) {
          context.report(template.owner, {
            path: soft.path,
            message: message(
              `${template.owner.ref.kind ?? 'Object'} ${template.owner.ref.name ?? ''} (inline csi-driver-nfs volume)`,
            ),
          });
        }
      });
    }
  },
};
