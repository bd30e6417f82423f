import { JsonRecord, asRecord, asString, getRecord } from '../../json';
import { createsInTreeNfs } from '../nfs/nfs-volumes';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { inProject, projectOfSetup } from '../../cluster-config-scope';
import { inTreeCephPluginOf } from './ceph';
import { releasedStorageClasses } from '../../helm-release-storage-classes';
import { ProvisionerImage, declaredProvisionerNames, imageNamed } from '../../declared-provisioners';

/**
 * What a StorageClass's provisioner tells about where its volumes can be used. Known names only:
 * an unknown provisioner is taken as attachable block storage (the common case, and the one of
 * incident 1).
 */

/** The provisioner of classes whose volumes an administrator creates by hand (static provisioning). */
export const STATIC_PROVISIONER = 'kubernetes.io/no-provisioner';

/**
 * Provisioners whose every volume lives on one node's disk and carries a node affinity to it
 * (local PersistentVolumes, local-path, OpenEBS local and LVM/ZFS, TopoLVM, hostpath drivers):
 * every pod using such a volume is scheduled onto that node, where ReadWriteOnce allows them all.
 */
const NODE_LOCAL_PROVISIONERS = new Set([
  // Static: local PersistentVolumes, unless the claim's bound volume says otherwise (isAttachedDiskVolume).
  STATIC_PROVISIONER,
  'rancher.io/local-path',
  'openebs.io/local',
  'local.csi.openebs.io',
  'zfs.csi.openebs.io',
  'topolvm.io',
  'topolvm.cybozu.com',
  'hostpath.csi.k8s.io',
  'k8s.io/minikube-hostpath',
  'microk8s.io/hostpath',
  'docker.io/hostpath',
  'lvm.csi.metal-stack.io',
  // KubeVirt's hostpath-provisioner: the legacy external provisioner and its CSI driver.
  'kubevirt.io/hostpath-provisioner',
  'kubevirt.io.hostpath-provisioner',
]);

/**
 * StorageClass names that node-local provisioners install by default (k3s and Rancher's
 * local-path, OpenEBS, sig-storage-local-static-provisioner, MicroK8s's hostpath storage, Docker
 * Desktop's `hostpath`): used only when the class itself is not in the input. A name with the word
 * `localpv` (`openebs-localpv-drive1`) is OpenEBS Local PV's, as its documentation names classes;
 * one that begins `lvms-` is OpenShift LVM Storage's (`lvms-<device class>`, provisioner topolvm.io);
 * one with the word `topolvm` (`topolvm-provisioner`, the name TopoLVM's chart gives its class) is
 * TopoLVM's, whose volumes are logical volumes of one node; one that begins `csi-driver-lvm-` is
 * metal-stack's csi-driver-lvm's (its chart names classes `<storageClassStub>-linear`, `-mirror` and
 * `-striped`, the stub `csi-driver-lvm` by default; provisioner lvm.csi.metal-stack.io); one that
 * begins `local-path-` is local-path-provisioner's (`local-path-retain`: k3s homelabs add the
 * rancher.io/local-path class again with `reclaimPolicy: Retain`, and name it so).
 */
const NODE_LOCAL_CLASS_NAMES = new Set([
  'local-path',
  'local-storage',
  'openebs-hostpath',
  'openebs-lvmpv',
  'microk8s-hostpath',
  'hostpath',
]);

/**
 * Shared-filesystem drivers that need no attach step (NFS, SMB, EFS, Filestore, Azure Files,
 * CephFS, the clouds' NAS and file services, FUSE object-store mounts): the attach/detach
 * controller never sees the volume, so nothing stops a ReadWriteOnce claim of theirs from being
 * mounted on two nodes; the access mode is a declaration, not a lock.
 */
const SHARED_FILESYSTEM_PROVISIONERS = new Set([
  'nfs.csi.k8s.io',
  'smb.csi.k8s.io',
  'efs.csi.aws.com',
  'fsx.csi.aws.com',
  'fsx.openzfs.csi.aws.com',
  'filestore.csi.storage.gke.io',
  'gcsfuse.csi.storage.gke.io',
  'file.csi.azure.com',
  'blob.csi.azure.com',
  'kubernetes.io/azure-file',
  'cephfs.csi.ceph.com',
  'kubernetes.io/cephfs',
  // The in-tree GlusterFS and Quobyte provisioners (removed in 1.26 and 1.25), still in older clusters' classes.
  'kubernetes.io/glusterfs',
  'kubernetes.io/quobyte',
  // Alibaba Cloud NAS and OSS (kubernetes-sigs/alibaba-cloud-csi-driver), Tencent Cloud CFS.
  'nasplugin.csi.alibabacloud.com',
  'ossplugin.csi.alibabacloud.com',
  'com.tencent.cloud.csi.cfs',
  'com.tencent.cloud.csi.cfsturbo',
  'vpc.file.csi.ibm.io',
  'csi.juicefs.com',
]);

/**
 * A hand-made PersistentVolume that is a disk attached to one node at a time (a cloud disk, RBD,
 * iSCSI, a block CSI driver): neither node-local (hostPath, local) nor a shared filesystem. Under a
 * static class (STATIC_PROVISIONER), usually taken for local volumes, such a volume is what decides.
 */
export function isAttachedDiskVolume(volume: JsonRecord): boolean {
  const spec = getRecord(volume, 'spec');
  if (!spec || asRecord(spec.hostPath) || asRecord(spec.local)) return false;
  return sharedFilesystemOfVolume(volume) === undefined;
}

/**
 * Node-local provisioners recognized by the image the input runs them with, under whatever name it
 * gives them: local-path-provisioner (`--provisioner-name` or PROVISIONER_NAME, default
 * `rancher.io/local-path`; rancher/local-path-provisioner main.go). A homelab that installs it by
 * hand names it its own (`provisioner.starsystem.dev/local`, constellation-net/cluster).
 */
const NODE_LOCAL_PROVISIONER_IMAGES: readonly ProvisionerImage[] = [
  { image: imageNamed('local-path-provisioner'), defaultName: 'rancher.io/local-path' },
];

function declaredNodeLocalProvisionerNames(index: ObjectIndex): ReadonlySet<string> {
  return declaredProvisionerNames(index, NODE_LOCAL_PROVISIONER_IMAGES);
}

/**
 * Whether volumes of this class live on one node: by its provisioner when the StorageClass is in
 * the input (a known node-local one, or one the input runs a node-local provisioner's image
 * under), else by the chart a Helm release in the input installs it with, else by the class name
 * the node-local provisioners install.
 */
export function isNodeLocalStorage(
  provisioner: string | undefined,
  className: string | undefined,
  index?: ObjectIndex,
  from?: IndexedObject,
): boolean {
  if (provisioner !== undefined)
    return (
      NODE_LOCAL_PROVISIONERS.has(provisioner) ||
      (index?.derived(declaredNodeLocalProvisionerNames).has(provisioner) ?? false)
    );
  if (className === undefined) return false;
  if (index && releasedStorageClasses(index).some((released) => released.name === className && released.nodeLocal))
    return true;
  // kind names its default local-path class `standard`, the name GKE gives a persistent-disk class:
  // it counts only where the input configures a kind cluster (kind.x-k8s.io Cluster).
  if (className === KIND_DEFAULT_CLASS_NAME && index) return onKindCluster(index, from);
  const lower = className.toLowerCase();
  const words = lower.split(/[-_.]/);
  return (
    NODE_LOCAL_CLASS_NAMES.has(className) ||
    words.includes('localpv') ||
    words.includes('topolvm') ||
    words.includes('hostpath') ||
    lower.startsWith('lvms-') ||
    lower.startsWith('local-path-') ||
    lower.startsWith('csi-driver-lvm-')
  );
}

/** The StorageClass kind creates in every cluster, and makes the default: provisioner rancher.io/local-path. */
export const KIND_DEFAULT_CLASS_NAME = 'standard';

/**
 * True when `from` lies in the project a kind configuration (kind.x-k8s.io Cluster) of the input
 * belongs to: the directory holding the configuration's own directory, and all below it (an e2e
 * suite's `e2e/definitions/kind/config.yaml` speaks for `e2e/definitions/`). A kind configuration in
 * one corner of a repository (one chapter of a course) says nothing of where its other manifests
 * run. Without `from`, or where either has no file (standard input, synthesized objects), any kind
 * configuration counts.
 */
export function onKindCluster(index: ObjectIndex, from?: IndexedObject): boolean {
  const projects = index.derived(kindProjectDirectories);
  if (projects.length === 0) return false;
  const file = from?.source.file;
  if (file === undefined || projects.includes(undefined)) return true;
  return projects.some((project) => project !== undefined && inProject(project, file));
}

/**
 * The directories a kind configuration speaks for: the one above its file's, and above that while
 * the directory is named for setting a cluster up (`setup-cluster/kind/cluster-config.yaml` speaks
 * for the repository, as `setup/kind.yaml` does); undefined for a configuration without a file.
 */
function kindProjectDirectories(index: ObjectIndex): ReadonlyArray<string | undefined> {
  return index
    .ofKind('Cluster')
    .filter((cluster) => (asString(cluster.raw.apiVersion) ?? '').startsWith('kind.x-k8s.io/'))
    .map((cluster) => (cluster.source.file === undefined ? undefined : projectOfSetup(cluster.source.file)));
}

/**
 * Whether the provisioner is a shared filesystem, where ReadWriteOnce is not enforced across nodes:
 * the drivers above, and the provisioners that create in-tree nfs or cephfs volumes (with the set,
 * also those its NFS provisioner Deployments name).
 */
export function isSharedFilesystemStorage(provisioner: string | undefined, index?: ObjectIndex): boolean {
  return (
    provisioner !== undefined &&
    (SHARED_FILESYSTEM_PROVISIONERS.has(provisioner) ||
      provisioner.endsWith('.cephfs.csi.ceph.com') ||
      createsInTreeNfs(provisioner, index) ||
      inTreeCephPluginOf(provisioner) === 'cephfs')
  );
}

/**
 * What a StorageClass name says of a shared filesystem, for a class the input does not hold: the
 * classes the NFS provisioners' own manifests and charts create (`nfs-client`, `managed-nfs-storage`,
 * `nfs-csi`) and the clouds' file classes (`efs-sc`, `azurefile-csi`, `rook-cephfs`) carry the
 * filesystem in a word of their name. Undefined when no word of the name is one.
 */
export function sharedFilesystemOfClassName(className: string): string | undefined {
  const lower = className.toLowerCase();
  const words = lower.split(/[-_.]/);
  return SHARED_FILESYSTEM_CLASS_NAMES.get(lower) ?? SHARED_FILESYSTEM_NAME_WORDS.find((word) => words.includes(word));
}

/**
 * Class names that charts give shared filesystems without a filesystem word: rook's
 * rook-ceph-cluster chart names its CephFS class after the filesystem, `ceph-filesystem`
 * (values.yaml `cephFileSystems[0]`), beside `ceph-block` for RBD.
 */
const SHARED_FILESYSTEM_CLASS_NAMES: ReadonlyMap<string, string> = new Map([['ceph-filesystem', 'cephfs']]);

const SHARED_FILESYSTEM_NAME_WORDS = [
  'nfs',
  // The protocol version in the word (`managed-nfs4-storage`, `nfsv4-client`).
  'nfs3',
  'nfs4',
  'nfsv3',
  'nfsv4',
  'cephfs',
  'efs',
  'azurefile',
  'filestore',
  'smb',
  'cifs',
  'glusterfs',
  'gluster',
  // heketi is GlusterFS's volume manager: its classes (`gluster-heketi`) are GlusterFS.
  'heketi',
];

/** In-tree volume plugins of shared filesystems: mounted on each node, never attached. */
const SHARED_FILESYSTEM_PLUGINS = ['nfs', 'cephfs', 'glusterfs', 'azureFile', 'quobyte'] as const;

/**
 * The kind of shared filesystem a PersistentVolume is (`nfs`, `cephfs`, a CSI driver's name), or
 * undefined when it is not one.
 */
export function sharedFilesystemOfVolume(volume: JsonRecord): string | undefined {
  const spec = getRecord(volume, 'spec');
  const plugin = SHARED_FILESYSTEM_PLUGINS.find((name) => asRecord(spec?.[name]) !== undefined);
  if (plugin !== undefined) return plugin;
  const driver = asString(getRecord(spec, 'csi')?.driver);
  return isSharedFilesystemStorage(driver) ? driver : undefined;
}
