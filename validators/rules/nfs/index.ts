import { Rule } from '../../rule';
import { nfsCsiStorageClassIncomplete } from './nfs-csi-storage-class-incomplete';
import { nfsSoftMount } from './nfs-soft-mount';
import { nfsVolumeWithoutNodePrerequisite } from './nfs-volume-without-node-prerequisite';
import { nfsVolumeWithoutVersion } from './nfs-volume-without-version';

export const NFS_RULES: readonly Rule[] = [
  nfsVolumeWithoutNodePrerequisite,
  nfsSoftMount,
  nfsVolumeWithoutVersion,
  nfsCsiStorageClassIncomplete,
];
