import { STORAGE_KINDS } from '../scopes';
import { JsonRecord, asString, asStringList, getRecord } from '../../json';
import { ObjectIndex } from '../../object-index';
import { Rule } from '../../rule';
import { RBD_KIND_NAMES, RbdKind, rbdKindOfProvisioner, rbdKindOfStorageClass, rbdKindOfVolume } from './ceph';
import { ClaimSpecLocation, claimSpecs, defaultStorageClasses, storageClassOf } from './claims';
import { releasedStorageClasses } from '../../helm-release-storage-classes';
import { NODE_LOSS_RECOVERY } from './recovery';

/**
 * The multi-node modes each RBD flavour cannot honour on a filesystem volume. The in-tree plugin
 * maps an image read-only on several nodes, so only ReadWriteMany is a lie there; ceph-csi refuses
 * both multi-node modes unless `volumeMode: Block`.
 */
const REFUSED_MODES: Readonly<Record<RbdKind, readonly string[]>> = {
  'ceph-csi': ['ReadWriteMany', 'ReadOnlyMany'],
  // Whether ceph-csi before 1.0 and Rook's flex driver refused a read-only multi-node mount is not
  // documented: only the mode that lets two nodes write one filesystem is judged.
  'ceph-csi-v0': ['ReadWriteMany'],
  'in-tree': ['ReadWriteMany'],
  'rook-flex': ['ReadWriteMany'],
};

function refusedModes(kind: RbdKind, spec: JsonRecord): string[] {
  if (asString(spec.volumeMode) === 'Block') return [];
  return asStringList(spec.accessModes).filter((mode) => REFUSED_MODES[kind].includes(mode));
}

/**
 * True when the claim gets an existing PersistentVolume instead of a provisioned one: it names or
 * is claimed by one, or (as the PV controller matches before it provisions) a volume of its class
 * offers every mode it asks for. That volume, checked on its own, decides what the storage is.
 */
function bindsToExistingVolume(index: ObjectIndex, location: ClaimSpecLocation): boolean {
  if (location.object && index.volumeForClaim(location.object)) return true;
  if (asString(location.spec.volumeName)) return true;
  return index.unclaimedVolumeFor(location.spec, location.owner, location.annotations) !== undefined;
}

export const multiNodeAccessOnRbdFilesystem: Rule = {
  id: 'multi-node-access-on-rbd-filesystem',
  severity: 'error',
  scope: ['StatefulSet (volumeClaimTemplates)', ...STORAGE_KINDS],
  summary:
    'A Ceph RBD filesystem volume (PV, claim or claim template) asks for multi-node access (ReadWriteMany, or ReadOnlyMany on ceph-csi).',
  why:
    'Incident 2: after a node was powered off, the replacement pod failed with "Multi-Attach error ... ' +
    'Volume is already used by pod(s)", and the RBD PV was "fixed" by declaring it ReadWriteMany. An RBD ' +
    'image carrying ext4/xfs can be mounted by one node only: the access mode lies to the scheduler, two ' +
    'nodes may mount and corrupt the filesystem, and ceph-csi refuses to provision it at all ("multi ' +
    'node access modes are only supported on rbd block type volumes").',
  fix:
    'Declare ReadWriteOnce (ReadWriteOncePod from 1.29 on ceph-csi) and run the workload as a StatefulSet. ' +
    NODE_LOSS_RECOVERY +
    ' Use `volumeMode: Block` only for an application that coordinates access to a ' +
    'raw device itself; for files shared between nodes use CephFS (cephfs.csi.ceph.com).',
  example: {
    bad: [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata: {name: data}',
      'spec:',
      '  capacity: {storage: 10Gi}',
      '  accessModes: [ReadWriteMany]',
      '  persistentVolumeReclaimPolicy: Retain',
      '  rbd: {monitors: ["10.0.0.1:6789"], pool: rbd, image: data, fsType: ext4, user: admin, secretRef: {name: ceph-secret}}',
    ].join('\n'),
    good: [
      'apiVersion: v1',
      'kind: PersistentVolume',
      'metadata: {name: data}',
      'spec:',
      '  capacity: {storage: 10Gi}',
      '  accessModes: [ReadWriteOnce]',
      '  persistentVolumeReclaimPolicy: Retain',
      '  rbd: {monitors: ["10.0.0.1:6789"], pool: rbd, image: data, fsType: ext4, user: admin, secretRef: {name: ceph-secret}}',
    ].join('\n'),
  },
  check(context) {
    for (const volume of context.index.ofKind('PersistentVolume')) {
      const kind = rbdKindOfVolume(volume);
      const spec = getRecord(volume.raw, 'spec');
      if (!kind || !spec) continue;
      const modes = refusedModes(kind, spec);
      if (modes.length === 0) continue;
      context.report(volume, {
        path: 'spec.accessModes',
        message:
          `PersistentVolume ${volume.ref.name ?? ''} is a ${RBD_KIND_NAMES[kind]} ` +
          `filesystem volume declared ${modes.join(', ')}: only one node can mount it, so this access mode ` +
          'lies to the scheduler and lets two nodes mount (and corrupt) the same filesystem.',
      });
    }
    const defaults = defaultStorageClasses(context.index);
    for (const location of claimSpecs(context.index)) {
      if (bindsToExistingVolume(context.index, location)) continue;
      const { storageClass, className: named } = storageClassOf(context.index, location, defaults);
      // A class no object of the input holds may be one a Helm release installs (rook-ceph-cluster's ceph-block).
      const released =
        storageClass || named === undefined
          ? undefined
          : releasedStorageClasses(context.index).find((candidate) => candidate.name === named);
      const kind = storageClass ? rbdKindOfStorageClass(storageClass) : rbdKindOfProvisioner(released?.provisioner);
      if (!kind) continue;
      const modes = refusedModes(kind, location.spec);
      if (modes.length === 0) continue;
      const className = storageClass?.ref.name ?? released?.name ?? '';
      const installedBy = released
        ? `, installed by ${released.release.ref.kind ?? 'release'} ${released.release.ref.name ?? ''},`
        : '';
      context.report(location.owner, {
        path: `${location.path}.accessModes`,
        message:
          `${location.owner.ref.kind} ${location.owner.ref.name ?? ''} asks StorageClass ` +
          `${className}${installedBy} (RBD) for a filesystem volume with ${modes.join(', ')}: an RBD ` +
          'filesystem is single-node, and ceph-csi refuses to provision it ("multi node access modes are ' +
          'only supported on rbd block type volumes").',
      });
    }
  },
};
