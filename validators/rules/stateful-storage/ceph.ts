import { asRecord, asString, getRecord } from '../../json';
import { IndexedObject } from '../../object-index';

/** The ceph-csi RBD driver name. Rook deploys it prefixed with its namespace (`rook-ceph.rbd.csi.ceph.com`). */
export const RBD_CSI_DRIVER = 'rbd.csi.ceph.com';

/** The in-tree RBD provisioner, removed with the in-tree plugin in 1.31. */
export const IN_TREE_RBD_PROVISIONER = 'kubernetes.io/rbd';

/**
 * Provisioners whose volumes are in-tree rbd volumes: the in-tree one, and the retired
 * external-storage rbd-provisioner (`ceph.com/rbd`), which creates `rbd:` PersistentVolumes.
 */
export function createsInTreeRbd(provisioner: string | undefined): boolean {
  return provisioner === IN_TREE_RBD_PROVISIONER || provisioner === 'ceph.com/rbd';
}

/** True for the ceph-csi RBD driver under its own name or an operator-prefixed one. */
export function isRbdCsiDriver(name: string | undefined): boolean {
  return name !== undefined && (name === RBD_CSI_DRIVER || name.endsWith(`.${RBD_CSI_DRIVER}`));
}

/** How an RBD image reaches the node, which decides what multi-node access it tolerates. */
export type RbdKind = 'ceph-csi' | 'in-tree';

/** The RBD flavour a StorageClass provisions, if any. */
export function rbdKindOfStorageClass(storageClass: IndexedObject | undefined): RbdKind | undefined {
  const provisioner = asString(storageClass?.raw.provisioner);
  if (isRbdCsiDriver(provisioner)) return 'ceph-csi';
  if (createsInTreeRbd(provisioner)) return 'in-tree';
  return undefined;
}

/** The RBD flavour of a PersistentVolume, if it is an RBD volume. */
export function rbdKindOfVolume(volume: IndexedObject): RbdKind | undefined {
  const spec = getRecord(volume.raw, 'spec');
  if (asRecord(spec?.rbd)) return 'in-tree';
  if (isRbdCsiDriver(asString(getRecord(spec, 'csi')?.driver))) return 'ceph-csi';
  return undefined;
}
