import { asRecord, asString, getRecord } from '../../json';
import { IndexedObject } from '../../object-index';

/** The ceph-csi RBD driver name. Rook deploys it prefixed with its namespace (`rook-ceph.rbd.csi.ceph.com`). */
export const RBD_CSI_DRIVER = 'rbd.csi.ceph.com';

/** The in-tree RBD provisioner, removed with the in-tree plugin in 1.31. */
export const IN_TREE_RBD_PROVISIONER = 'kubernetes.io/rbd';

/** Provisioners whose volumes are in-tree rbd volumes (see IN_TREE_CEPH_PROVISIONERS). */
export function createsInTreeRbd(provisioner: string | undefined): boolean {
  return inTreeCephPluginOf(provisioner) === 'rbd';
}

/** The in-tree Ceph volume plugin whose volumes a provisioner creates, if any. */
export function inTreeCephPluginOf(provisioner: string | undefined): 'rbd' | 'cephfs' | undefined {
  if (provisioner === undefined) return undefined;
  return IN_TREE_CEPH_PROVISIONERS[provisioner];
}

/**
 * kubernetes.io/rbd is the in-tree provisioner; the retired external-storage provisioners
 * `ceph.com/rbd` and `ceph.com/cephfs` create `rbd:` and `cephfs:` PersistentVolumes. There never
 * was an in-tree cephfs provisioner: `kubernetes.io/cephfs` is the name the external cephfs
 * provisioner (rootfs/cephfs-provisioner) had before it became `ceph.com/cephfs`.
 */
const IN_TREE_CEPH_PROVISIONERS: Readonly<Record<string, 'rbd' | 'cephfs'>> = {
  [IN_TREE_RBD_PROVISIONER]: 'rbd',
  'ceph.com/rbd': 'rbd',
  'ceph.com/cephfs': 'cephfs',
  'kubernetes.io/cephfs': 'cephfs',
};

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
