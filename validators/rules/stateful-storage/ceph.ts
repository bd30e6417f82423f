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

/**
 * How an RBD image reaches the node, which decides what multi-node access it tolerates: ceph-csi,
 * ceph-csi before 1.0 (its driver was named `csi-rbdplugin`, its parameters were others), the
 * in-tree plugin, or Rook's FlexVolume driver (Rook before 1.x's CSI: provisioner
 * `ceph.rook.io/block`, volumes `flexVolume: {driver: ceph.rook.io/<operator namespace>}`).
 */
export type RbdKind = 'ceph-csi' | 'ceph-csi-v0' | 'in-tree' | 'rook-flex';

/** How a message names each flavour. */
export const RBD_KIND_NAMES: Readonly<Record<RbdKind, string>> = {
  'ceph-csi': 'ceph-csi RBD',
  'ceph-csi-v0': 'ceph-csi (before 1.0) RBD',
  'in-tree': 'in-tree rbd',
  'rook-flex': 'Rook FlexVolume RBD',
};

/** The pre-1.0 ceph-csi RBD driver name (ceph-csi v0.3's examples: `provisioner: csi-rbdplugin`). */
const RBD_CSI_V0_DRIVER = 'csi-rbdplugin';
/** Rook's FlexVolume provisioner for RBD (its CephFS went through `flexVolume` with `fsName`, never a class). */
const ROOK_FLEX_RBD_PROVISIONER = 'ceph.rook.io/block';
/** Rook's FlexVolume driver, named after the operator's namespace (`ceph.rook.io/rook`, `ceph.rook.io/rook-ceph-system`). */
const ROOK_FLEX_DRIVER = /^ceph\.rook\.io\/./;

/** The RBD flavour a StorageClass provisions, if any. */
export function rbdKindOfStorageClass(storageClass: IndexedObject | undefined): RbdKind | undefined {
  return rbdKindOfProvisioner(asString(storageClass?.raw.provisioner));
}

/** The RBD flavour a provisioner creates, if any (a class's, or the one a Helm release's values give it). */
export function rbdKindOfProvisioner(provisioner: string | undefined): RbdKind | undefined {
  if (isRbdCsiDriver(provisioner)) return 'ceph-csi';
  if (provisioner === RBD_CSI_V0_DRIVER) return 'ceph-csi-v0';
  if (provisioner === ROOK_FLEX_RBD_PROVISIONER) return 'rook-flex';
  if (createsInTreeRbd(provisioner)) return 'in-tree';
  return undefined;
}

/** The RBD flavour of a PersistentVolume, if it is an RBD volume. */
export function rbdKindOfVolume(volume: IndexedObject): RbdKind | undefined {
  const spec = getRecord(volume.raw, 'spec');
  if (asRecord(spec?.rbd)) return 'in-tree';
  const csiDriver = asString(getRecord(spec, 'csi')?.driver);
  if (isRbdCsiDriver(csiDriver)) return 'ceph-csi';
  if (csiDriver === RBD_CSI_V0_DRIVER) return 'ceph-csi-v0';
  const flex = getRecord(spec, 'flexVolume');
  // Rook's flex driver mounts CephFS too, when its options name a filesystem (`fsName`).
  if (ROOK_FLEX_DRIVER.test(asString(flex?.driver) ?? '') && getRecord(flex, 'options')?.fsName === undefined)
    return 'rook-flex';
  return undefined;
}
