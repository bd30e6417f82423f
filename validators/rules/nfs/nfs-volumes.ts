import { JsonRecord, asArray, asRecord, asString, asStringList, getField, getRecord } from '../../json';
import { NFS_CLIENT, NFS_CLIENT_PACKAGES, NODE_PREREQUISITES } from '../../node-prerequisites';
import { IndexedObject, ObjectIndex, directoryOf } from '../../object-index';
import { declaredNfsProvisionerNames } from './declared-nfs-provisioners';
import { NODE_PACKAGE_INSTALL_KIND } from '../../node-package-installs';
import { RKE_CLUSTER_CONFIG_KIND } from '../../rke-cluster-config';
import { K3OS_CONFIG_KIND } from '../../k3os-config';
import { inProject, projectOfSetup } from '../../cluster-config-scope';
import { eksctlNodeGroups } from '../eviction/eksctl-node-groups';
import {
  TALHELPER_CONFIG_KIND,
  TALOS_IMAGE_SCHEMATIC_KIND,
  OMNI_CLUSTER_TEMPLATE_KIND,
  TALOS_MACHINE_CONFIG_KIND,
} from '../../talos-machine-config';

/** The csi-driver-nfs driver / provisioner name. Its node plugin brings its own mount helper. */
export const NFS_CSI_DRIVER = 'nfs.csi.k8s.io';

/**
 * Talos node configuration in the input (a machine configuration or patch, a talhelper
 * `talconfig.yaml`, an Image Factory schematic, an Omni cluster template, or a system-upgrade-controller Plan that upgrades
 * the nodes with talosctl): the cluster's nodes run Talos, whose kubelet
 * image carries the NFS client ("The NFS client is part of the kubelet image maintained by the Talos
 * team", talos.dev storage guide), so an in-tree NFS mount fails only on a node that is not Talos.
 * Undefined without one.
 */
function talosNodeConfiguration(index: ObjectIndex): IndexedObject | undefined {
  return (
    index.ofKind(TALOS_MACHINE_CONFIG_KIND)[0] ??
    index.ofKind(TALHELPER_CONFIG_KIND)[0] ??
    index.ofKind(TALOS_IMAGE_SCHEMATIC_KIND)[0] ??
    index.ofKind(OMNI_CLUSTER_TEMPLATE_KIND)[0] ??
    index.ofKind('Plan').find(upgradesTalos)
  );
}

/**
 * The node operating system the input configures whose nodes carry the NFS client, with the
 * configuration that says so and why: Talos (above), k3OS, whose base image installs nfs-utils
 * (rancher/k3os images/00-base/Dockerfile), or EKS node groups on the EKS-optimized Amazon Linux
 * AMI, which installs it too (below). An in-tree NFS mount then fails only on a node that runs
 * something else. Undefined without any.
 */
export function nfsClientNodeOs(
  index: ObjectIndex,
): { readonly os: string; readonly object: IndexedObject; readonly carrier: string } | undefined {
  const talos = talosNodeConfiguration(index);
  if (talos) return { os: 'Talos', object: talos, carrier: 'whose kubelet image carries the NFS client' };
  const k3os = index.ofKind(K3OS_CONFIG_KIND)[0];
  if (k3os) return { os: 'k3OS', object: k3os, carrier: 'whose base image installs the NFS client (nfs-utils)' };
  const eks = eksctlClusterOnAmazonLinux(index);
  if (eks)
    return {
      os: 'EKS-optimized Amazon Linux',
      object: eks,
      carrier: 'whose AMI installs the NFS client (nfs-utils)',
    };
  return undefined;
}

/**
 * The AMI families whose EKS-optimized images install nfs-utils (awslabs/amazon-eks-ami
 * templates/al2 and templates/al2023 provisioners/install-worker.sh): eksctl's default, whichever
 * of the two it is, when a node group names none.
 */
const NFS_READY_EKS_AMI_FAMILIES = new Set(['AmazonLinux2', 'AmazonLinux2023']);

/**
 * An eksctl ClusterConfig of the input whose every node group (there is at least one) runs the
 * EKS-optimized Amazon Linux AMI: no `amiFamily` or an Amazon Linux one, and no custom `ami` (only
 * `auto` and `auto-ssm`, which resolve to the optimized image). Ubuntu, Bottlerocket, Windows and
 * custom AMIs say nothing. Undefined without one.
 */
function eksctlClusterOnAmazonLinux(index: ObjectIndex): IndexedObject | undefined {
  const groups = eksctlNodeGroups(index);
  const elsewhere = new Set(
    groups.filter(({ nodeGroup }) => !onAmazonLinuxAmi(nodeGroup)).map((group) => group.object),
  );
  return groups.find((group) => !elsewhere.has(group.object))?.object;
}

function onAmazonLinuxAmi(nodeGroup: JsonRecord | undefined): boolean {
  const family = asString(nodeGroup?.amiFamily);
  const ami = asString(nodeGroup?.ami);
  return (
    (family === undefined || NFS_READY_EKS_AMI_FAMILIES.has(family)) &&
    (ami === undefined || ami === 'auto' || ami === 'auto-ssm')
  );
}

/**
 * The RKE (1) cluster.yml of the input that speaks for an object's file (its directory project,
 * as for a kind configuration: `k8s-clusters/cluster03/cluster.yml` speaks for `k8s-clusters/`):
 * RKE runs each node's kubelet in the rancher/hyperkube container, whose image carries the NFS
 * client (it is built on Kubernetes' debian-hyperkube-base, which installs nfs-common; the later
 * SUSE-based images install nfs-client), so an in-tree NFS mount there fails only on a node RKE
 * does not run. A repository of several clusters holds one cluster.yml that says nothing of the
 * others. Undefined without one.
 */
export function rkeClusterOver(index: ObjectIndex, object: IndexedObject): IndexedObject | undefined {
  const file = object.source.file;
  return index
    .ofKind(RKE_CLUSTER_CONFIG_KIND)
    .find(
      (cluster) =>
        cluster.source.file === undefined || file === undefined || inProject(projectOfSetup(cluster.source.file), file),
    );
}

/**
 * A node-preparation document in the input (Ansible tasks or role variables, a cloud-init
 * cloud-config) that installs the NFS client package: the input says nodes get mount.nfs, so an
 * in-tree NFS mount fails only on a node it did not prepare. Undefined without one.
 */
export function nfsClientInstall(index: ObjectIndex): IndexedObject | undefined {
  return index
    .ofKind(NODE_PACKAGE_INSTALL_KIND)
    .find((install) => asStringList(install.raw.packages).some((name) => NFS_CLIENT_PACKAGES.has(name)));
}

/**
 * A system-upgrade-controller Plan (upgrade.cattle.io) that upgrades its nodes' operating system with
 * talosctl: only Talos nodes can be upgraded so (the talosctl image, or a Talos installer image).
 */
function upgradesTalos(plan: IndexedObject): boolean {
  if (!(plan.ref.apiVersion ?? '').startsWith('upgrade.cattle.io/')) return false;
  const upgrade = getRecord(plan.raw, 'spec', 'upgrade');
  const words = [asString(upgrade?.image), ...asStringList(upgrade?.command), ...asStringList(upgrade?.args)];
  return words.some(
    (word) => word !== undefined && /(^|\/)siderolabs\/(talosctl|installer)(:|@|$)|factory\.talos\.dev\//.test(word),
  );
}

/** Kinds only OpenShift serves, which OpenShift 3 manifests write with apiVersion v1. */
const OPENSHIFT_KINDS = new Set(['DeploymentConfig', 'Route', 'ImageStream', 'BuildConfig']);

/** RBAC kinds that only OpenShift 3 served with apiVersion v1 (external-storage's `openshift-clusterrole.yaml`). */
const OPENSHIFT_V1_RBAC_KINDS = new Set(['ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding']);

const ROLE_KINDS = new Set(['Role', 'ClusterRole']);

/**
 * A Role or ClusterRole whose every rule is on OpenShift's own API groups (adfinis/openshift-etcd-backup:
 * `use` of the privileged SecurityContextConstraints in security.openshift.io): it grants nothing on
 * any other cluster, so it is written for OpenShift. A role that also grants on Kubernetes' groups
 * (an operator that runs on both) says nothing.
 */
function grantsOnlyOnOpenShiftApis(role: JsonRecord): boolean {
  const rules = asArray(role.rules);
  return (
    rules.length > 0 &&
    rules.every((rule) => {
      const groups = asArray(asRecord(rule)?.apiGroups);
      return groups.length > 0 && groups.every((group) => /\.openshift\.io$/.test(asString(group) ?? ''));
    })
  );
}

/** A managed platform whose nodes mount NFS with no install step, and why ballast believes so. */
export type NfsReadyPlatform = 'OpenShift' | 'GKE';

/**
 * The platform an object's apiVersion and kind belong to, when its nodes carry the NFS client:
 * OpenShift (an `*.openshift.io` API, a DeploymentConfig, Route, ImageStream or BuildConfig, an
 * RBAC kind written with apiVersion v1, or a role that grants only on OpenShift's APIs;
 * OpenShift's "Persistent storage using NFS": a server and an export path are all a volume needs), or
 * GKE (its own APIs: `cloud.google.com` BackendConfig, `*.gke.io` ManagedCertificate; GKE's node
 * images mount Filestore shares as in-tree nfs volumes, as Google's Filestore guides do).
 */
function platformOf(object: IndexedObject): NfsReadyPlatform | undefined {
  const apiVersion = object.ref.apiVersion ?? '';
  if (/\.openshift\.io\//.test(apiVersion) || OPENSHIFT_KINDS.has(object.ref.kind ?? '')) return 'OpenShift';
  // OpenShift 3 served its RBAC kinds in the legacy v1 API too; Kubernetes never did.
  if (apiVersion === 'v1' && OPENSHIFT_V1_RBAC_KINDS.has(object.ref.kind ?? '')) return 'OpenShift';
  if (ROLE_KINDS.has(object.ref.kind ?? '') && grantsOnlyOnOpenShiftApis(object.raw)) return 'OpenShift';
  if (/^cloud\.google\.com\/|\.gke\.io\//.test(apiVersion)) return 'GKE';
  return undefined;
}

/**
 * An object of a platform whose nodes carry the NFS client, in the directory of `object`: what is
 * written there runs on that platform. Only the same directory counts: a repository often keeps
 * OpenShift, GKE and plain-Kubernetes variants side by side.
 */
export function nfsReadyPlatformBeside(
  index: ObjectIndex,
  object: IndexedObject,
): { readonly platform: NfsReadyPlatform; readonly object: IndexedObject } | undefined {
  return index.derived(nfsReadyPlatformsByDirectory).get(directoryOf(object.source.file));
}

function nfsReadyPlatformsByDirectory(
  index: ObjectIndex,
): ReadonlyMap<string, { readonly platform: NfsReadyPlatform; readonly object: IndexedObject }> {
  const byDirectory = new Map<string, { readonly platform: NfsReadyPlatform; readonly object: IndexedObject }>();
  for (const object of index.objects) {
    const platform = platformOf(object);
    const directory = directoryOf(object.source.file);
    if (platform && object.source.file !== undefined && !byDirectory.has(directory))
      byDirectory.set(directory, { platform, object });
  }
  return byDirectory;
}

/**
 * The label keys that say "this node has an NFS client": the configured keys, minus the keys of
 * the other declared prerequisites (an rbd-client label says nothing about mount.nfs).
 */
export function nfsClientLabelKeys(configured: readonly string[]): ReadonlySet<string> {
  const otherKeys = new Set(
    Object.values(NODE_PREREQUISITES)
      .filter((prerequisite) => prerequisite.name !== NFS_CLIENT.name)
      .map((prerequisite) => prerequisite.label.key),
  );
  return new Set(configured.filter((key) => !otherKeys.has(key)));
}

/**
 * True when a node selector (`{nodeSelectorTerms: [...]}`, required affinity of a pod or a PV)
 * only admits nodes carrying one of `keys`. Terms are ORed, so every term must require the label
 * (operator In with values, or Exists).
 */
export function nodeSelectorRequiresLabel(selector: JsonRecord | undefined, keys: ReadonlySet<string>): boolean {
  const terms = asArray(selector?.nodeSelectorTerms);
  if (terms.length === 0) return false;
  return terms.every((term) =>
    asArray(getField(term, 'matchExpressions')).some((expression) => {
      const key = asString(getField(expression, 'key'));
      if (key === undefined || !keys.has(key)) return false;
      const operator = asString(getField(expression, 'operator'));
      return operator === 'Exists' || (operator === 'In' && asStringList(getField(expression, 'values')).length > 0);
    }),
  );
}

/** True when a pod spec's nodeSelector or required node affinity needs one of `keys`. */
export function podRequiresLabel(podSpec: JsonRecord, keys: ReadonlySet<string>): boolean {
  const nodeSelector = asRecord(podSpec.nodeSelector);
  if (nodeSelector && Object.keys(nodeSelector).some((key) => keys.has(key) && typeof nodeSelector[key] === 'string'))
    return true;
  return nodeSelectorRequiresLabel(
    getRecord(podSpec, 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'),
    keys,
  );
}

/** True when a PersistentVolume's spec.nodeAffinity.required needs one of `keys`. */
export function volumeRequiresLabel(volume: JsonRecord, keys: ReadonlySet<string>): boolean {
  return nodeSelectorRequiresLabel(getRecord(volume, 'spec', 'nodeAffinity', 'required'), keys);
}

/**
 * Provisioners that create in-tree `nfs:` PersistentVolumes, so every pod using their claims needs
 * the node's NFS client: nfs-subdir-external-provisioner (default name
 * `k8s-sigs.io/nfs-subdir-external-provisioner`, set per install as `<prefix>/nfs-subdir-external-provisioner`)
 * and its predecessor nfs-client-provisioner (default `fuseim.pri/ifs`), OpenEBS's dynamic NFS
 * provisioner (`openebs.io/nfsrwx`: an NFS server pod per claim, exported through an in-tree
 * `NFSVolumeSource`, openebs/dynamic-nfs-provisioner pkg/kubernetes/api/core/v1/persistentvolume/build.go),
 * Rook's NFS operator (`nfs.rook.io/<NFSServer>-provisioner`, rook/nfs pkg/operator/nfs/spec.go and
 * provisioner.go),
 * and, given the set, any name under which it runs one of the provisioners of
 * declared-nfs-provisioners.ts (nfs-subdir, NFS Ganesha, efs-provisioner, freenas-provisioner).
 */
export function createsInTreeNfs(provisioner: string | undefined, index?: ObjectIndex): boolean {
  return (
    provisioner !== undefined &&
    (/nfs-subdir-external-provisioner$|nfs-client-provisioner$/.test(provisioner) ||
      provisioner === 'fuseim.pri/ifs' ||
      provisioner === 'openebs.io/nfsrwx' ||
      /^nfs\.rook\.io\/.+-provisioner$/.test(provisioner) ||
      (index?.derived(declaredNfsProvisionerNames).has(provisioner) ?? false))
  );
}

/**
 * The names the in-tree NFS provisioners' own manifests give their class: nfs-subdir-external-provisioner's
 * (deploy/class.yaml, and its chart's `storageClass.name`) `nfs-client`, and nfs-client-provisioner's
 * (deploy/class.yaml) `managed-nfs-storage`. Read only for a class the input holds no object of.
 */
const IN_TREE_NFS_CLASS_NAMES: ReadonlySet<string> = new Set(['nfs-client', 'managed-nfs-storage']);

/** True when a class the input does not hold is, by its name, one of an in-tree NFS provisioner. */
export function namesInTreeNfsClass(className: string | undefined): boolean {
  return className !== undefined && IN_TREE_NFS_CLASS_NAMES.has(className);
}

/** The kind of NFS a PersistentVolume carries: the in-tree plugin, csi-driver-nfs, or none. */
export function nfsVolumeType(volume: JsonRecord): 'in-tree' | 'csi' | undefined {
  const spec = getRecord(volume, 'spec');
  if (asRecord(spec?.nfs)) return 'in-tree';
  if (asString(getField(spec, 'csi', 'driver')) === NFS_CSI_DRIVER) return 'csi';
  return undefined;
}

/** One mount option with the field path of the list entry it came from. */
export interface MountOption {
  readonly option: string;
  readonly path: string;
}

/**
 * Mount options from a `mountOptions` list (entries may hold several comma-separated options,
 * as `-o` does) or from a comma-separated string (csi inline `volumeAttributes.mountOptions`).
 */
export function mountOptions(value: unknown, path: string): MountOption[] {
  if (typeof value === 'string') return splitOptions(value).map((option) => ({ option, path }));
  return asArray(value).flatMap((entry, index) =>
    typeof entry === 'string' ? splitOptions(entry).map((option) => ({ option, path: `${path}[${index}]` })) : [],
  );
}

function splitOptions(text: string): string[] {
  return text
    .split(',')
    .map((option) => option.trim())
    .filter((option) => option !== '');
}

/** The option that wins between `soft` and `hard` (mount takes the last one), if it is `soft`. */
export function effectiveSoftOption(options: readonly MountOption[]): MountOption | undefined {
  const last = [...options].reverse().find((entry) => entry.option === 'soft' || entry.option === 'hard');
  return last?.option === 'soft' ? last : undefined;
}

/** True when the options pin an NFS protocol version (`nfsvers=4.1`, `vers=4`). */
export function hasNfsVersion(options: readonly MountOption[]): boolean {
  return options.some((entry) => /^(nfs)?vers=\S+$/.test(entry.option));
}

/** A static in-tree NFS PersistentVolume as YAML, for rule examples that differ only in its mount options. */
export function nfsPersistentVolumeExample(mountOptions: readonly string[]): string {
  return [
    'apiVersion: v1',
    'kind: PersistentVolume',
    'metadata: {name: shared}',
    'spec:',
    '  capacity: {storage: 10Gi}',
    '  accessModes: [ReadWriteMany]',
    `  mountOptions: [${mountOptions.join(', ')}]`,
    '  nfs: {server: nfs.example.com, path: /exports/shared}',
  ].join('\n');
}
