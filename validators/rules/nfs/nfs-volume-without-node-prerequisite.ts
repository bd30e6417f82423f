import { WORKLOAD_KINDS } from '../scopes';
import { z } from 'zod/v3';
import { asArray, asRecord, asString, asStringList, getField, getRecord } from '../../json';
import { NFS_CLIENT } from '../../node-prerequisites';
import { localDistributionOfPath } from '../../local-cluster-path';
import { IndexedObject } from '../../object-index';
import { claimTemplatesOf, defaultStorageClasses, storageClassOf } from '../stateful-storage/claims';
import { Rule, RuleContext, parametersOf } from '../../rule';
import {
  createsInTreeNfs,
  namesInTreeNfsClass,
  nfsClientInstall,
  nfsClientLabelKeys,
  nfsVolumeType,
  nfsReadyPlatformBeside,
  podRequiresLabel,
  rkeClusterOver,
  nfsClientNodeOs,
  volumeRequiresLabel,
} from './nfs-volumes';

const LABEL = `${NFS_CLIENT.label.key}=${NFS_CLIENT.label.value}`;

const PARAMETERS = z.strictObject({
  prerequisiteLabelKeys: z
    .array(z.string().min(1, 'a node label key cannot be empty'))
    .default([NFS_CLIENT.label.key])
    .describe(
      'node label keys that mark nodes where the NFS client is installed; a team that labels its prepared nodes itself adds its own key (the keys of the other node prerequisites never count)',
    ),
});

export const nfsVolumeWithoutNodePrerequisite: Rule = {
  id: 'nfs-volume-without-node-prerequisite',
  severity: 'error',
  scope: [
    ...WORKLOAD_KINDS,
    'PersistentVolume',
    'TalosMachineConfig, TalhelperConfig, TalosImageSchematic and Plan (Talos nodes; an upgrade.cattle.io Plan that upgrades with talosctl)',
    'K3osConfig (a k3OS node configuration: its base image installs nfs-utils)',
    'NodePackageInstall (Ansible tasks or role variables, or a cloud-init cloud-config, that install the NFS client package)',
    'RkeClusterConfig (an RKE cluster.yml: the kubelet runs in the rancher/hyperkube container)',
    'ClusterConfig (eksctl.io: node groups on the EKS-optimized Amazon Linux AMI, which installs nfs-utils)',
  ],
  summary: 'An in-tree NFS volume can be mounted on a node that is not known to have an NFS client.',
  why:
    "The kubelet mounts in-tree nfs volumes with the host's own mount.nfs (nfs-common on Debian/Ubuntu, " +
    'nfs-utils on RHEL-family, nfs-client on SUSE). On a node without it the pod hangs in ContainerCreating with ' +
    '"wrong fs type, bad option ... you might need a /sbin/mount.<type> helper program" (incident 5). Only a ' +
    'required node affinity on the label of prepared nodes keeps the pod off the others. Talos nodes carry the ' +
    'client in their kubelet image: with Talos node configuration in the input (a machine configuration, ' +
    'an Image Factory schematic, talhelper talconfig.yaml, or a system-upgrade-controller Plan that upgrades the nodes ' +
    'with talosctl), the volume is a warning, as only a node that ' +
    'is not Talos would fail. So it is with a k3OS node configuration in the input (a `k3os:` section), as ' +
    "k3OS's base image installs nfs-utils, with an eksctl ClusterConfig whose every node group runs the EKS-optimized " +
    'Amazon Linux AMI (AmazonLinux2 or AmazonLinux2023, no custom ami), which installs nfs-utils too, and ' +
    "where the input prepares nodes itself: Ansible tasks (or an Ansible role's " +
    'package list) or a cloud-init cloud-config that install nfs-common, nfs-utils or nfs-client; the mount then ' +
    'fails only on a node they did not reach. So it is on an RKE cluster (its cluster.yml in the input): RKE runs ' +
    'the kubelet in the rancher/hyperkube container, whose image carries the NFS client. OpenShift and GKE nodes mount NFS with no install step: a volume whose directory ' +
    'holds OpenShift objects (a Route, a DeploymentConfig, an *.openshift.io API, a ClusterRole of apiVersion v1, a Role that grants only on OpenShift APIs) or GKE ones (a cloud.google.com ' +
    'BackendConfig, a *.gke.io ManagedCertificate) is a warning too, and so is one whose directories are named for ' +
    'minikube, whose node images ship the client. The error sits where the volume is written: an inline nfs volume of a pod ' +
    'template, or an in-tree NFS PersistentVolume (one affinity there covers every pod using it). A workload ' +
    'that reaches NFS only through a claim gets a warning naming the claim: a claim bound to such a ' +
    'PersistentVolume (reported itself), or one whose StorageClass (named, or the default) has a provisioner ' +
    'that creates in-tree NFS volumes (nfs-subdir-external-provisioner, nfs-client-provisioner), whose ' +
    'volumes are not in the input; so is a class the input does not hold that has the name those ' +
    'provisioners give their own (nfs-client, managed-nfs-storage).',
  fix:
    'Require a node label that marks nodes with an NFS client installed: on the PersistentVolume in ' +
    'spec.nodeAffinity.required (covers every pod using it), or on the pod template in nodeSelector / ' +
    `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution; then label the nodes that have the client ` +
    `(\`kubectl label node <node> ${LABEL}\`, or list your own key in this rule's prerequisiteLabelKeys parameter). ` +
    'Or use csi-driver-nfs (nfs.csi.k8s.io), which needs no host package. With ballast: the node-config stack ' +
    'installs the client and labels the nodes, and the NfsVolume construct adds the affinity.',
  example: {
    bad: [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec:',
      '      containers: [{name: web, image: nginx}]',
      '      volumes: [{name: data, nfs: {server: nfs.example.com, path: /exports/web}}]',
    ].join('\n'),
    good: [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec:',
      '      affinity:',
      '        nodeAffinity:',
      '          requiredDuringSchedulingIgnoredDuringExecution:',
      '            nodeSelectorTerms:',
      `            - matchExpressions: [{key: ${NFS_CLIENT.label.key}, operator: In, values: [${NFS_CLIENT.label.value}]}]`,
      '      containers: [{name: web, image: nginx}]',
      '      volumes: [{name: data, nfs: {server: nfs.example.com, path: /exports/web}}]',
    ].join('\n'),
  },
  parameters: PARAMETERS,
  check(context) {
    const keys = nfsClientLabelKeys(parametersOf(context, PARAMETERS).prerequisiteLabelKeys);
    const keyList = keys.size === 0 ? '(none configured)' : [...keys].join(', ');
    const onPreparedNodes = preparedNodesGrade(context);
    // Whether the nodes carry the client: Talos and node preparation speak for every node of the
    // input, an RKE cluster.yml for its project.
    const clientOnNodes = (object: IndexedObject): NfsClientGrade =>
      onPreparedNodes.severity ? onPreparedNodes : (rkeGrade(context, object) ?? onPreparedNodes);
    // Else OpenShift and GKE speak for what their own directory holds.
    const gradeOf = (object: IndexedObject): NfsClientGrade => {
      const nodes = clientOnNodes(object);
      if (nodes.severity) return nodes;
      const beside = nfsReadyPlatformBeside(context.index, object);
      if (!beside) return minikubeGrade(object) ?? nodes;
      const { platform, object: marker } = beside;
      return {
        severity: 'warning',
        note:
          ` Its directory holds ${platform} objects (${marker.ref.kind ?? 'object'} ${marker.ref.name ?? ''} in ` +
          `${describeSource(marker)}), and ${platform}'s nodes mount NFS with no install step: the mount fails ` +
          `only on a node that is not ${platform}.`,
      };
    };
    for (const volume of context.index.ofKind('PersistentVolume')) {
      if (nfsVolumeType(volume.raw) !== 'in-tree' || volumeRequiresLabel(volume.raw, keys)) continue;
      const grade = gradeOf(volume);
      context.report(volume, {
        path: 'spec.nfs',
        ...(grade.severity ? { severity: grade.severity } : {}),
        message:
          `PersistentVolume ${volume.ref.name ?? ''} is an in-tree NFS volume without spec.nodeAffinity.required ` +
          `on a node-prerequisite label (${keyList}): any pod using it may land on a node without mount.nfs and hang ` +
          `in ContainerCreating.${grade.note}`,
      });
    }
    for (const template of context.index.podTemplates()) {
      checkPodTemplate(context, template.owner, template.spec, template.path, keys, keyList, gradeOf(template.owner));
      if (template.owner.ref.kind === 'StatefulSet' && !clientOnNodes(template.owner).severity)
        checkClaimTemplates(context, template.owner, template.spec, keys, keyList);
    }
  },
};

/**
 * A warning for every in-tree NFS volume when the input says its nodes have the NFS client: they run
 * Talos, whose kubelet image carries it, or k3OS, whose base image does, or the input's own node
 * preparation installs it. The mount then fails only on a node that is not so; no severity without
 * one of them.
 */
function preparedNodesGrade(context: RuleContext): NfsClientGrade {
  const nodeOs = nfsClientNodeOs(context.index);
  if (nodeOs)
    return {
      severity: 'warning',
      note:
        ` The input configures ${nodeOs.os} nodes (${describeSource(nodeOs.object)}), ${nodeOs.carrier}: ` +
        `the mount fails only on a node that is not ${nodeOs.os}.`,
    };
  const install = nfsClientInstall(context.index);
  if (install)
    return {
      severity: 'warning',
      note:
        ` The input installs the NFS client on nodes (${asStringList(install.raw.packages).join(', ')}, with ` +
        `${asString(install.raw.tool) ?? ''} in ${describeSource(install)}): the mount fails only on a node it did not prepare.`,
    };
  return { note: '' };
}

/**
 * A warning for an in-tree NFS volume of a project an RKE cluster.yml in the input speaks for: RKE
 * runs the kubelet in the rancher/hyperkube container, which carries the client. Undefined elsewhere.
 */
function rkeGrade(context: RuleContext, object: IndexedObject): NfsClientGrade | undefined {
  const rke = rkeClusterOver(context.index, object);
  if (!rke) return undefined;
  return {
    severity: 'warning',
    note:
      ` The input configures an RKE cluster (${describeSource(rke)}), whose kubelet runs in the ` +
      'rancher/hyperkube container, which carries the NFS client: the mount fails only on a node RKE does not run.',
  };
}

/** How certain a missing node prerequisite is: a warning, with a note saying why, when the nodes run Talos or k3OS, are prepared by the input, or run OpenShift, GKE or minikube. */
interface NfsClientGrade {
  readonly severity?: 'warning';
  readonly note: string;
}

function describeSource(object: IndexedObject): string {
  return object.source.file ?? `${object.ref.kind ?? 'object'} ${object.ref.name ?? ''}`.trim();
}

/**
 * A StatefulSet's claim templates of a class whose provisioner creates in-tree NFS volumes, or that
 * bind pre-provisioned in-tree NFS PersistentVolumes: each pod mounts one, so the pods need the node
 * prerequisite as a pod that names such a claim does. Warnings, as for such a pod: a provisioned
 * volume is not in the input, and a pre-provisioned one carries the error itself.
 */
function checkClaimTemplates(
  context: RuleContext,
  statefulSet: IndexedObject,
  podSpec: Record<string, unknown>,
  keys: ReadonlySet<string>,
  keyList: string,
): void {
  if (podRequiresLabel(podSpec, keys)) return;
  const unprepared =
    `without a required nodeSelector / node affinity on a node-prerequisite label (${keyList}): its pods may ` +
    'land on a node without mount.nfs and hang in ContainerCreating.';
  for (const { spec, position, annotations } of claimTemplatesOf(statefulSet)) {
    const { storageClass, className } = spec
      ? storageClassOf(context.index, { spec, annotations }, defaultStorageClasses(context.index))
      : {};
    const path = `spec.volumeClaimTemplates[${position}]`;
    const name = statefulSet.ref.name ?? '';
    const creates = inTreeNfsProvisioning(context, storageClass, className);
    if (creates) {
      context.report(statefulSet, {
        path,
        severity: 'warning',
        message: `StatefulSet ${name} claims volumes of StorageClass ${className ?? ''}, ${creates}, ${unprepared}`,
      });
      continue;
    }
    const bound = context.index.unclaimedVolumeFor(spec, statefulSet, annotations);
    if (!bound || nfsVolumeType(bound.raw) !== 'in-tree' || volumeRequiresLabel(bound.raw, keys)) continue;
    context.report(statefulSet, {
      path,
      severity: 'warning',
      message:
        `StatefulSet ${name} claims volumes that bind in-tree NFS PersistentVolumes such as ` +
        `${bound.ref.name ?? ''} (reported as an error), ${unprepared}`,
    });
  }
}

function checkPodTemplate(
  context: RuleContext,
  owner: IndexedObject,
  spec: Record<string, unknown>,
  specPath: string,
  keys: ReadonlySet<string>,
  keyList: string,
  grade: NfsClientGrade,
): void {
  if (podRequiresLabel(spec, keys)) return;
  asArray(spec.volumes).forEach((volume, index) => {
    const volumeName = asString(getField(volume, 'name')) ?? `#${index}`;
    if (asRecord(getField(volume, 'nfs'))) {
      context.report(owner, {
        path: `${specPath}.volumes[${index}].nfs`,
        ...(grade.severity ? { severity: grade.severity } : {}),
        message:
          `${owner.ref.kind ?? 'Object'} ${owner.ref.name ?? ''} mounts in-tree NFS volume "${volumeName}" without a ` +
          `required nodeSelector / node affinity on a node-prerequisite label (${keyList}): its pods may land on a node ` +
          `without mount.nfs and hang in ContainerCreating.${grade.note}`,
      });
      return;
    }
    // On Talos or prepared nodes the pointers below add nothing: the volumes they point at are reported, or provisioned, alike.
    if (grade.severity !== undefined) return;
    const claimName = asString(getField(volume, 'persistentVolumeClaim', 'claimName'));
    const claim = context.index.get('PersistentVolumeClaim', owner.ref.namespace, claimName, owner);
    const persistentVolume = claim && context.index.volumeForClaim(claim);
    // A claim that names no class is provisioned by the default class, when the input makes one the default.
    const claimSpec = claim && !persistentVolume ? getRecord(claim.raw, 'spec') : undefined;
    const { storageClass, className } =
      claim && claimSpec
        ? storageClassOf(
            context.index,
            { spec: claimSpec, object: claim, annotations: claim.annotations },
            defaultStorageClasses(context.index),
          )
        : {};
    const creates = inTreeNfsProvisioning(context, storageClass, className);
    if (creates) {
      // Provisioned later, as an in-tree nfs volume: nothing in the set can carry the affinity but
      // the pod. A warning: the volume itself is not in the input, so the failure is not certain.
      context.report(owner, {
        path: `${specPath}.volumes[${index}].persistentVolumeClaim`,
        severity: 'warning',
        message:
          `${owner.ref.kind ?? 'Object'} ${owner.ref.name ?? ''} mounts claim ${claimName ?? ''} of StorageClass ` +
          `${className ?? ''}, ${creates}, without a required nodeSelector / node affinity on a node-prerequisite ` +
          `label (${keyList}): its pods may land on a node without mount.nfs and hang in ContainerCreating.`,
      });
      return;
    }
    if (
      !persistentVolume ||
      nfsVolumeType(persistentVolume.raw) !== 'in-tree' ||
      volumeRequiresLabel(persistentVolume.raw, keys)
    )
      return;
    // The error belongs to the PV (one fix there covers every pod using it); the pod gets a pointer.
    context.report(owner, {
      path: `${specPath}.volumes[${index}].persistentVolumeClaim`,
      severity: 'warning',
      message:
        `${owner.ref.kind ?? 'Object'} ${owner.ref.name ?? ''} mounts claim ${claimName ?? ''}, bound to in-tree NFS ` +
        `PersistentVolume ${persistentVolume.ref.name ?? ''}, and neither the pod nor the volume requires a ` +
        `node-prerequisite label (${keyList}): its pods may land on a node without mount.nfs. The volume is reported as an error.`,
    });
  });
}

/**
 * A warning for an object in directories named for minikube (`minikube/`, `minikube-labs/`): both
 * minikube node images ship the NFS client (the VM ISO: `BR2_PACKAGE_NFS_UTILS=y` in
 * deploy/iso/minikube-iso/configs/minikube_x86_64_defconfig; the docker driver's kicbase: nfs-common
 * in deploy/kicbase/Dockerfile), so the mount fails only where the manifests run on some other
 * cluster. Undefined elsewhere.
 */
function minikubeGrade(object: IndexedObject): NfsClientGrade | undefined {
  if (localDistributionOfPath(object.source.file)?.name !== 'minikube') return undefined;
  return {
    severity: 'warning',
    note:
      ' Its directories are named for minikube, whose node images ship the NFS client: the mount fails only where ' +
      'these manifests run on another cluster.',
  };
}

/**
 * Why a claim's volumes will be in-tree NFS ones, or undefined: its class's provisioner creates
 * them, or the input holds no such class and its name is the one an in-tree NFS provisioner gives
 * its own (`nfs-client`).
 */
function inTreeNfsProvisioning(
  context: RuleContext,
  storageClass: IndexedObject | undefined,
  className: string | undefined,
): string | undefined {
  const provisioner = asString(storageClass?.raw.provisioner);
  if (createsInTreeNfs(provisioner, context.index))
    return `whose provisioner ${provisioner ?? ''} creates in-tree NFS volumes`;
  if (!storageClass && namesInTreeNfsClass(className))
    return (
      'a class the input does not hold, named as nfs-subdir-external-provisioner (or nfs-client-provisioner) ' +
      'names its own, whose volumes are in-tree NFS'
    );
  return undefined;
}
