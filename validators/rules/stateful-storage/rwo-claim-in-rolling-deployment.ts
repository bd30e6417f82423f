import { STORAGE_KINDS } from '../scopes';
import { valueExcerpt } from '../../value-excerpt';
import { LocalDistribution, localDistributionOf } from '../../local-cluster-path';
import { JsonRecord, asArray, asNumber, asString, getField, getRecord } from '../../json';
import { IndexedObject, ObjectIndex, PodTemplate } from '../../object-index';
import { z } from 'zod/v3';
import { Rule, RuleContext, parametersOf } from '../../rule';
import { Autoscaler, autoscalerOf } from './autoscaled-replicas';
import { rbdKindOfStorageClass } from './ceph';
import {
  ClaimResolver,
  DefaultStorageClass,
  ResolvedClaim,
  accessModesOf,
  claimVolumes,
  defaultStorageClasses,
  isSingleNodeWriter,
  storageClassOf,
  takesDefaultClass,
} from './claims';
import { hostnameAffinityTerms, keptOnOneNode } from './co-location';
import { OverlayFix, overlayClaimsOf, overlayFixOf } from './overlay-patches';
import { pinnedNodeOfPod, volumePinnedToOneNode } from './node-pinning';
import {
  KIND_DEFAULT_CLASS_NAME,
  STATIC_PROVISIONER,
  isAttachedDiskVolume,
  isNodeLocalStorage,
  onKindCluster,
  isSharedFilesystemStorage,
  sharedFilesystemOfClassName,
  sharedFilesystemOfVolume,
} from './storage-provisioners';
import { NODE_LOSS_RECOVERY } from './recovery';
import { storageClassNameOf } from '../../storage-class-name';
import { holdsPlaceholder } from '../../placeholders';
import { SideLoadedImage, sideLoadedImageOf } from './side-loaded-images';
import { cloudClusterFor } from './cloud-autoscaler';
import { usedVolumeNames } from '../../pod-templates';

/** The owners whose pods can run at the same time on different nodes, for the reasons below. */
const OWNERS = new Set([
  'Deployment',
  'ReplicaSet',
  'ReplicationController',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'Rollout',
  'DeploymentConfig',
]);

const PARAMETERS = z.strictObject({
  nodeLocalStorageClasses: z
    .array(z.string().min(1, 'a StorageClass name cannot be empty'))
    .default([])
    .describe(
      "StorageClass names whose volumes live on one node (a team's own local-volume classes, beyond the node-local provisioners ballast knows): every pod using such a claim runs on that node, where ReadWriteOnce allows them all",
    ),
  defaultStorageClass: z
    .string()
    .min(1, 'a StorageClass name cannot be empty')
    .optional()
    .describe(
      "The name of the cluster's default StorageClass, for claims that name no class when the input marks no class the default (a k3s cluster's `local-path`). Without it, such a claim is taken to get attachable block storage, as on the clouds' defaults; where the workload's directories are named for a single-machine distribution (k3s, k3d, kind, minikube, microk8s, Docker or Rancher Desktop: `homelab-k3s/`, `kind/`), or a container of the workload, or of two or more workloads written in its directory, never pulls its image (`imagePullPolicy: Never`, an image loaded into a local cluster by hand), whose bundled default is node-local, the finding is a warning",
    ),
});

/** What the message adds when the cluster's default class, which the input does not hold, decided the finding. */
const UNKNOWN_DEFAULT_CLASS =
  ' The claim names no StorageClass and the input marks none the default, so ballast takes the ' +
  "cluster's default to be attachable block storage (cloud disks, Ceph RBD). If your cluster's default is " +
  'node-local (k3s local-path, kind, minikube), name it once in .ballast.yaml: ' +
  '`parameters: {rwo-claim-in-rolling-deployment: {defaultStorageClass: local-path}}`.';

/**
 * What the message adds, as a warning, when the claim takes a default the input does not name and the
 * workload's directories are named for a single-machine distribution, whose bundled default is node-local.
 */
function localDistributionNote(local: LocalDistribution): string {
  return (
    ` The claim names no StorageClass and the input marks none the default; ${namedFor(local)}, whose default class ${local.defaultClass} keeps volumes on one node, where this cannot happen. ` +
    `If the cluster's default is attachable storage (Longhorn, a cloud disk, Ceph RBD), it does. Name the default ` +
    `once in .ballast.yaml to decide: \`parameters: {rwo-claim-in-rolling-deployment: {defaultStorageClass: ${local.defaultClass}}}\`.`
  );
}

/**
 * What the message adds, as a warning, when the claim takes a default the input does not name and a
 * container of the workload, or of two or more workloads written beside it, never pulls its image
 * (`imagePullPolicy: Never`): the pods run only where images were loaded by hand (`kind load`,
 * `minikube image load`, Docker Desktop's image store), a local cluster whose bundled default class
 * keeps volumes on one node.
 */
function sideLoadedImageNote(workload: IndexedObject, image: SideLoadedImage): string {
  const whose =
    image.owner === workload
      ? `container ${image.container}`
      : `container ${image.container} of ${image.owner.ref.kind ?? 'the workload'} ${image.owner.ref.name ?? ''}, written in the same directory,`;
  return (
    ` The claim names no StorageClass and the input marks none the default; ${whose} never pulls ` +
    'its image (imagePullPolicy: Never), so the pods run where it was loaded by hand, as on kind, minikube or ' +
    "Docker Desktop, whose default class keeps volumes on one node, where this cannot happen. If the cluster's " +
    'default is attachable storage (Longhorn, a cloud disk, Ceph RBD), it does. Name the default once in ' +
    '.ballast.yaml to decide: `parameters: {rwo-claim-in-rolling-deployment: {defaultStorageClass: <class>}}`.'
  );
}

/**
 * What the message adds, as a warning, when the claim names the class that the distribution its
 * directories are named for installs as its node-local default, and the input does not hold it.
 */
/** Where the input names the distribution: its directories, or the project's README. */
function namedFor(local: LocalDistribution): string {
  return local.readme === undefined
    ? `the directories are named for ${local.name}`
    : `the project's ${local.readme} names ${local.name}`;
}

function localClassNote(local: LocalDistribution): string {
  return (
    ` StorageClass ${local.defaultClass} is not in the input; ${namedFor(local)}, whose ` +
    `default class of that name keeps volumes on one node, where this cannot happen. Elsewhere a class of that ` +
    `name may be attachable (GKE's standard is a persistent disk).`
  );
}

/** What the message adds when the claim selects a volume by label that the input does not hold. */
const UNMATCHED_SELECTOR =
  ' The claim selects its volume by label (spec.selector) and no volume in the input matches: such a claim is ' +
  'never provisioned, so it gets whatever volume the cluster holds with those labels, or stays Pending. If ' +
  'that volume lives on one node or is a shared filesystem, suppress this.';

const UNSEEN_STATIC_VOLUME =
  ' The claim sets storageClassName: "", so it is never provisioned: it binds a volume made by hand without a ' +
  'class, and none in the input fits it, so its storage is unknown. If that volume lives on one node or is a ' +
  'shared filesystem, suppress this.';

/** What the message adds when the claim names a volume (volumeName) that the input does not hold. */
function unseenNamedVolumeNote(volumeName: string): string {
  return (
    ` The claim names its volume (volumeName: ${volumeName}), which is not in the input: it is never provisioned, ` +
    'it binds that volume made by hand, so its storage is unknown. If that volume lives on one node or is a ' +
    'shared filesystem, suppress this.'
  );
}

/** What the message adds when the claim's class is filled in at deploy time. */
function placeholderClassNote(className: string): string {
  return (
    ` The claim's StorageClass is the placeholder ${className}, filled in at deploy time: whether that storage ` +
    'attaches to one node is not in the input. If it is node-local or a shared filesystem, suppress this.'
  );
}

/**
 * Why a workload may run two pods at once, and, where that waits on someone's act (a paused
 * autoscaler), the note that makes the finding a warning; undefined when it never does.
 */
interface ConcurrentPods {
  readonly reason: string;
  readonly warningNote?: string;
}

function concurrentPods(index: ObjectIndex, workload: IndexedObject): ConcurrentPods | undefined {
  const spec = getRecord(workload.raw, 'spec');
  const replicas = asNumber(spec?.replicas) ?? 1;
  const autoscaler = autoscalerOf(index, workload);
  const reason = concurrentPodsReason(workload, spec, replicas, autoscaler);
  if (reason !== undefined) return { reason };
  if (!autoscaler?.paused || autoscaler.maxReplicas <= 1) return undefined;
  return {
    reason: scalesUpTo(autoscaler, ', once unpaused,'),
    warningNote:
      ` The ScaledObject is paused (autoscaling.keda.sh/paused: "true"), so this happens only when someone ` +
      'unpauses it.',
  };
}

function scalesUpTo(autoscaler: Autoscaler, when = ''): string {
  return (
    `${autoscaler.object.ref.kind ?? 'an autoscaler'} ${autoscaler.object.ref.name ?? ''}${when} scales it up to ` +
    `${autoscaler.maxReplicas} replicas, which the scheduler may place on different nodes`
  );
}

/** Why a workload may run two pods at once as written: the reason, or undefined when it never does. */
function concurrentPodsReason(
  workload: IndexedObject,
  spec: JsonRecord | undefined,
  replicas: number,
  autoscaler: Autoscaler | undefined,
): string | undefined {
  const kind = workload.ref.kind;
  if (kind === 'DaemonSet') return 'a DaemonSet runs one pod on every node it selects';
  if (kind === 'Job') {
    const parallelism = asNumber(spec?.parallelism) ?? 1;
    return parallelism > 1
      ? `it runs ${parallelism} pods in parallel, which the scheduler may place on different nodes`
      : undefined;
  }
  if (replicas > 1) return `it runs ${replicas} replicas, which the scheduler may place on different nodes`;
  // Scaling up starts new pods wherever the scheduler puts them, whatever the update strategy.
  // A HorizontalPodAutoscaler leaves a workload scaled to zero alone ("scaling is disabled since the
  // replica count of the target is zero"); KEDA scales up from zero.
  const scalesFromHere = replicas >= 1 || autoscaler?.object.ref.kind !== 'HorizontalPodAutoscaler';
  if (autoscaler && !autoscaler.paused && autoscaler.maxReplicas > 1 && scalesFromHere) return scalesUpTo(autoscaler);
  if (replicas < 1) return undefined;
  if (kind === 'Rollout') {
    // Argo Rollouts: both strategies start the new ReplicaSet's pods before scaling the old one down.
    const strategy = getRecord(spec, 'strategy');
    const type = getRecord(strategy, 'blueGreen') ? 'blueGreen' : getRecord(strategy, 'canary') ? 'canary' : undefined;
    return type === undefined
      ? undefined
      : `its Argo Rollouts ${type} strategy starts the new pod before the old one is gone`;
  }
  if (kind !== 'Deployment' && kind !== 'DeploymentConfig') return undefined;
  const strategy = getRecord(spec, 'strategy');
  // A DeploymentConfig's strategies are Rolling (the default, rollingParams), Recreate and Custom.
  const openShift = kind === 'DeploymentConfig';
  const type = asString(strategy?.type) ?? (openShift ? 'Rolling' : 'RollingUpdate');
  if (type === 'Recreate' || (openShift && type !== 'Rolling')) return undefined;
  const paramsKey = openShift ? 'rollingParams' : 'rollingUpdate';
  const surge = surgePods(getField(strategy, paramsKey, 'maxSurge'), replicas);
  if (surge === undefined || surge === 0) return undefined;
  const declared = getField(strategy, paramsKey, 'maxSurge');
  const surgeText = declared === undefined ? 'the default maxSurge 25%' : `maxSurge ${valueExcerpt(declared)}`;
  return (
    `its ${type} rollout (${surgeText}, rounded up to ${surge} pod${surge === 1 ? '' : 's'}) starts the new pod ` +
    'before the old one is gone'
  );
}

/** What the storage under the claim makes of two pods on two nodes. */
interface Storage {
  /** What the shared filesystem is (`shared-filesystem provisioner nfs.csi.k8s.io`), when it is one. */
  readonly sharedFilesystem: string | undefined;
  readonly rbd: boolean;
  /** The cloud disk plugin of a volume that declares several writer nodes, which it cannot have. */
  readonly declaredShared?: string;
}

/**
 * The finding's severity and message. An error where a second node cannot attach the volume; a
 * warning where nothing stops it: on a shared filesystem ReadWriteOnce is not enforced across nodes.
 */
function finding(mounts: string, reason: string, storage: Storage): { severity?: 'warning'; message: string } {
  if (storage.sharedFilesystem !== undefined)
    return {
      severity: 'warning',
      message:
        `${mounts} of ${storage.sharedFilesystem}, but ${reason}: ` +
        'the driver does not enforce ReadWriteOnce across nodes, so pods on two nodes write the same ' +
        'files while the claim promises one writer node. Declare ReadWriteMany if that is intended.',
    };
  // Name the storage's own symptom only when the storage is known to be Ceph RBD.
  const symptom = storage.rbd
    ? 'Ceph RBD reports "image is locked by other nodes"'
    : storage.declaredShared !== undefined
      ? `the volume is a cloud disk (${storage.declaredShared}), which attaches to one node at a time whatever ` +
        'access mode it declares: the attach/detach controller lets the second attach through, and the ' +
        'cloud refuses it, the disk being attached to another instance'
      : 'the attach fails with a Multi-Attach error';
  return {
    message:
      `${mounts}, but ${reason}. The second pod waits in ContainerCreating while another node holds the ` +
      `volume (${symptom}).`,
  };
}

/**
 * True when every pod using a volume of this class runs on the volume's one node: node-local storage.
 * A class of hand-made volumes (`kubernetes.io/no-provisioner`, most often local ones) is not, for a
 * claim bound to one of its volumes that is an attached disk (a GCE persistent disk written by hand).
 */
function onOneNode(
  index: ObjectIndex,
  storageClass: IndexedObject | undefined,
  className: string | undefined,
  nodeLocalClasses: ReadonlySet<string>,
  workload: IndexedObject,
  bound?: IndexedObject,
): boolean {
  if (className !== undefined && nodeLocalClasses.has(className)) return true;
  const provisioner = asString(storageClass?.raw.provisioner);
  if (bound && provisioner === STATIC_PROVISIONER && isAttachedDiskVolume(bound.raw)) return false;
  // A class known only by name (not in the input) is judged by its name (and the cluster the input configures).
  return isNodeLocalStorage(provisioner, storageClass ? undefined : className, index, workload);
}

/**
 * The shared filesystem under a claim: its bound volume's kind, else its class's provisioner, else,
 * for a class the input does not hold (`absentClassName`), what its name says.
 */
function sharedFilesystemOf(
  index: ObjectIndex,
  provisioner: string | undefined,
  bound: IndexedObject | undefined,
  absentClassName: string | undefined,
): string | undefined {
  const volumeKind = bound ? sharedFilesystemOfVolume(bound.raw) : undefined;
  if (volumeKind !== undefined) return `${volumeKind} PersistentVolume ${bound?.ref.name ?? ''}`;
  if (isSharedFilesystemStorage(provisioner, index)) return `shared-filesystem provisioner ${provisioner ?? ''}`;
  const named = absentClassName === undefined ? undefined : sharedFilesystemOfClassName(absentClassName);
  return named === undefined
    ? undefined
    : `StorageClass ${absentClassName ?? ''} (not in the input; its name says ${named})`;
}

/**
 * For a one-replica rolling Deployment (or DeploymentConfig) whose declared maxUnavailable lets the
 * rollout remove the old pod at once (1, or 100%), how it is written: the new pod then waits only
 * until the volume is detached from the old pod's node, a short outage, not the hang of incident 1.
 * The default (25%, rounded down: none of one pod) keeps the old pod until the new one is ready.
 * extensions/v1beta1 defaulted it to 1, but that API is gone since 1.16: moved to apps/v1 as it
 * stands, the manifest gets the default that hangs, so only a declared value counts.
 */
function oldPodRemovedAtOnce(workload: IndexedObject): string | undefined {
  const kind = workload.ref.kind;
  if (kind !== 'Deployment' && kind !== 'DeploymentConfig') return undefined;
  const spec = getRecord(workload.raw, 'spec');
  if ((asNumber(spec?.replicas) ?? 1) !== 1) return undefined;
  const paramsKey = kind === 'DeploymentConfig' ? 'rollingParams' : 'rollingUpdate';
  const declared = getField(spec, 'strategy', paramsKey, 'maxUnavailable');
  const unavailable = typeof declared === 'string' ? unavailablePods(declared) : asNumber(declared);
  return unavailable !== undefined && unavailable >= 1 ? `maxUnavailable ${valueExcerpt(declared)}` : undefined;
}

/** maxUnavailable of one pod: a percentage rounded down as the Deployment controller does, or a whole number written as a string. */
function unavailablePods(value: string): number | undefined {
  return percentOfPods(value, 1, Math.floor) ?? (/^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined);
}

/** A percentage (`25%`) of the replicas, rounded as the Deployment controller rounds the field; undefined for anything else. */
function percentOfPods(value: string, replicas: number, round: (pods: number) => number): number | undefined {
  const percent = /^(\d+)%$/.exec(value.trim());
  return percent ? round((replicas * Number(percent[1])) / 100) : undefined;
}

/** What the message adds when the rollout removes the old pod at once: why it is no hang. */
function oldPodGoesNote(maxUnavailable: string): string {
  return (
    ` But ${maxUnavailable} removes the old pod when the rollout starts, so the new pod waits only until the ` +
    'volume is detached from the old node: a short outage with Multi-Attach events, not a hang. strategy: ' +
    '{type: Recreate} says so outright.'
  );
}

/** The finding as a warning with `note` added to its message; unchanged without a note. */
function asWarning(
  reported: { severity?: 'warning'; message: string },
  note: string | undefined,
): { severity?: 'warning'; message: string } {
  return note === undefined ? reported : { severity: 'warning', message: `${reported.message}${note}` };
}

/**
 * Extra pods a rolling update may start, as the Deployment controller computes it: an integer, or
 * a percentage of replicas rounded up. Undefined when the value cannot be read.
 */
function surgePods(maxSurge: unknown, replicas: number): number | undefined {
  if (maxSurge === undefined) return Math.ceil(replicas * 0.25);
  return (
    (typeof maxSurge === 'string' ? percentOfPods(maxSurge, replicas, Math.ceil) : undefined) ?? asNumber(maxSurge)
  );
}

/** The incident-1 Deployment and its ReadWriteOnce claim as YAML; the examples differ only in `strategyLines`. */
function deploymentOnClaimExample(strategyLines: readonly string[]): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: db}',
    'spec:',
    ...strategyLines,
    '  selector: {matchLabels: {app: db}}',
    '  template:',
    '    metadata: {labels: {app: db}}',
    '    spec:',
    '      containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]',
    '      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]',
    '---',
    'apiVersion: v1',
    'kind: PersistentVolumeClaim',
    'metadata: {name: data}',
    'spec: {accessModes: [ReadWriteOnce], storageClassName: ceph-rbd, resources: {requests: {storage: 10Gi}}}',
  ].join('\n');
}

export const rwoClaimInRollingDeployment: Rule = {
  id: 'rwo-claim-in-rolling-deployment',
  severity: 'error',
  scope: [...OWNERS, 'CronJob', 'Pod', ...STORAGE_KINDS],
  summary:
    'A ReadWriteOnce/ReadWriteOncePod claim (or an inline cloud disk, iSCSI or Fibre Channel LUN) is mounted by a workload that can run two pods at once on different nodes (a rolling or scaled Deployment, one an autoscaler in its directory scales past one pod, parallel Jobs, a DaemonSet, StatefulSet pods sharing one claim), or by two workloads deployed together (written in one file; bare Pods that run until deleted too, a warning where one of them or a Job ends); a DaemonSet on a volume that lives on one node (local, node-local provisioner) is refused too, as its other pods stay Pending; a Job, CronJob or bare Pod on a claim that a running workload holds is warned. A ReadWriteOncePod claim admits one pod wherever it runs: a workload running two pods at once on one is refused even when its pods are pinned to one node.',
  why:
    'Incident 1: a stateful service ran as a rolling Deployment on a ReadWriteOnce Ceph RBD volume. ' +
    '`kubectl apply` of a new image started the new pod on another node while the old node still held ' +
    'the RBD lock; the pod hung in ContainerCreating ("rbd: image ... is locked by other nodes") until an ' +
    'operator removed the lock by hand. A RollingUpdate with maxSurge > 0 (the default 25% rounds up to ' +
    'one pod) or more than one replica always needs the volume on two pods at once.',
  fix:
    'Run the workload as a StatefulSet with volumeClaimTemplates (ballast `RbdStatefulSet`): each pod ' +
    'gets its own claim and the old pod is gone before its successor starts. For a single instance, a ' +
    'Deployment with `replicas: 1` and `strategy: {type: Recreate}` also works. ' +
    NODE_LOSS_RECOVERY,
  example: {
    bad: deploymentOnClaimExample([]),
    good: deploymentOnClaimExample(['  replicas: 1', '  strategy: {type: Recreate}']),
  },
  parameters: PARAMETERS,
  check(context) {
    const parameters = parametersOf(context, PARAMETERS);
    const judge: StorageJudge = {
      index: context.index,
      claims: new ClaimResolver(context.index),
      nodeLocalClasses: new Set(parameters.nodeLocalStorageClasses),
      defaultsFor: (workload) => defaultClasses(context.index, parameters.defaultStorageClass, workload),
    };
    // Every mount of a claim whose storage holds it to one node, by claim: two workloads on one
    // claim can run their pods on two nodes as surely as two replicas can.
    const mountsByClaim = new Map<IndexedObject, ClaimMount[]>();
    const jobMountsByClaim = new Map<IndexedObject, ClaimMount[]>();
    const singlePods = new Map<string, boolean>();
    for (const template of context.index.podTemplates()) {
      const workload = template.owner;
      const kind = workload.ref.kind ?? '';
      // A bare Pod is judged as a job run is: beside a workload that holds its claim, it may land elsewhere.
      const runsNowAndThen = kind === 'Job' || kind === 'CronJob' || kind === 'Pod';
      if (!OWNERS.has(kind) && !runsNowAndThen) continue;
      if (OWNERS.has(kind)) reportOnePodClaims(context, judge, template);
      // Every pod of a workload pinned to one node runs there, where ReadWriteOnce allows them all;
      // so do those a required podAffinity keeps beside pods that all run on one node.
      if (pinnedNodeOfPod(template.spec) !== undefined) continue;
      if (kind !== 'DaemonSet' && keptOnOneNode(context.index, template, singlePods)) continue;
      // A claim no container mounts is never waited for: the kubelet skips the volume, and the new
      // pod starts whatever the old one holds (FoxntaU/Reto2TopTel's drupal-db lists mariadb-pvc).
      const used = usedVolumeNames(template.spec);
      const claimMounts = claimVolumes(template.spec, workload).filter(
        (volume) => used?.has(volume.name ?? '') !== false,
      );
      const pinning = claimMounts.find((volume) => pinsPodsToOneNode(judge, workload, volume.claimName));
      if (pinning && kind === 'DaemonSet') {
        // The scheduler moves a Deployment's pods to the volume's node; a DaemonSet's pods are bound
        // to their own nodes, so every pod but the one on the volume's node can never start.
        context.report(workload, {
          path: `${template.path}.volumes[${pinning.position}].persistentVolumeClaim`,
          message:
            `DaemonSet ${workload.ref.name ?? ''} mounts claim ${pinning.claimName}, whose volume lives on one node ` +
            '(a local PersistentVolume or a node-local provisioner), but a DaemonSet runs one pod on every node it ' +
            'selects: the pods on every other node stay Pending ("volume node affinity conflict").',
        });
        continue;
      }
      if (pinning) continue;
      const concurrent = kind === 'CronJob' || kind === 'Pod' ? undefined : concurrentPods(context.index, workload);
      const reason = concurrent?.reason;
      const mayShare = isLongRunning(workload) && runsPods(workload);
      // A workload that neither runs two pods at once nor may share a claim has nothing to judge.
      if (reason === undefined && !mayShare && !runsNowAndThen) continue;
      // Notes that make the finding a warning: the overlay that makes the base safe, the old pod removed at once.
      const overlay = reason === undefined ? undefined : overlayFixOf(context.index, template);
      const overlayWarning = overlay ? overlayNote(overlay) : undefined;
      // A rollout's own note: not for pods a paused autoscaler would add.
      const removedAtOnce =
        reason === undefined || concurrent?.warningNote !== undefined ? undefined : oldPodRemovedAtOnce(workload);
      const rolloutWarning = removedAtOnce === undefined ? undefined : oldPodGoesNote(removedAtOnce);
      const judged = (reported: { severity?: 'warning'; message: string }) =>
        asWarning(asWarning(asWarning(reported, rolloutWarning), overlayWarning), concurrent?.warningNote);
      if (reason !== undefined) {
        for (const disk of inlineDisks(template.spec)) {
          const mounted = `${kind} ${workload.ref.name ?? ''} mounts inline ${disk.plugin} volume "${disk.name}"`;
          context.report(workload, {
            path: `${template.path}.volumes[${disk.position}].${disk.plugin}`,
            ...judged({
              message: disk.attachGuarded
                ? `${mounted}, a disk that attaches to one node at a time, but ${reason}. The second pod waits in ` +
                  'ContainerCreating while another node holds the disk (the attach fails with a Multi-Attach error).'
                : `${mounted} read-write, a block device for one writer, but ${reason}. Nothing stops a second node ` +
                  'from mounting it: an inline volume has no access mode, so the attach/detach controller allows it ' +
                  'on many nodes, and two nodes writing one filesystem (ext4, xfs) corrupt it.',
            }),
          });
        }
      }
      for (const volume of claimMounts) {
        const storage = judgeStorage(judge, workload, volume);
        if (!storage) continue;
        const path = `${template.path}.volumes[${volume.position}].persistentVolumeClaim`;
        if (reason !== undefined) context.report(workload, { path, ...judged(storage.report(reason)) });
        const shared = mayShare ? mountsByClaim : runsNowAndThen && storage.attached ? jobMountsByClaim : undefined;
        if (storage.claim.object && shared) {
          const mounts = shared.get(storage.claim.object) ?? [];
          mounts.push({
            workload,
            path,
            storage,
            reported: reason !== undefined,
            coLocated: requiresCoLocation(template.spec),
          });
          shared.set(storage.claim.object, mounts);
        }
      }
    }
    for (const mounts of mountsByClaim.values()) reportSharedClaim(context, mounts);
    for (const [claim, jobMounts] of jobMountsByClaim) {
      const holders = mountsByClaim.get(claim) ?? [];
      reportJobOnHeldClaim(context, jobMounts, holders);
      if (holders.length === 0) reportBarePodsTogether(context, jobMounts);
    }
  },
};

/**
 * Disks written inline in a pod template (no claim), which one node at a time may use:
 * - cloud disks attach to one node at a time, as a ReadWriteOnce claim's disk does, so two pods on
 *   two nodes cannot both mount one (`attachGuarded`); a GCE persistent disk mounted read-only by
 *   every pod may attach to many nodes;
 * - iSCSI and Fibre Channel LUNs hold one node's filesystem, yet nothing guards them: an inline
 *   volume has no access mode, and the attach/detach controller refuses a second node only for
 *   Azure Disk and Cinder among inline volumes (kubernetes pkg/volume/util IsMultiAttachAllowed), so
 *   pods on two nodes both mount the LUN read-write, which the iSCSI volume's documentation forbids
 *   ("can only be mounted by a single consumer in read-write mode. Simultaneous writers are not
 *   allowed", kubernetes.io Volumes). Read-only, they may share it.
 */
const INLINE_DISKS: ReadonlyArray<{
  readonly plugin: string;
  readonly readOnlyShares: boolean;
  readonly attachGuarded: boolean;
}> = [
  { plugin: 'awsElasticBlockStore', readOnlyShares: false, attachGuarded: true },
  { plugin: 'gcePersistentDisk', readOnlyShares: true, attachGuarded: true },
  { plugin: 'azureDisk', readOnlyShares: false, attachGuarded: true },
  { plugin: 'cinder', readOnlyShares: false, attachGuarded: true },
  { plugin: 'iscsi', readOnlyShares: true, attachGuarded: false },
  { plugin: 'fc', readOnlyShares: true, attachGuarded: false },
];

/**
 * The plugin of a PersistentVolume that is a cloud disk (`attachGuarded` above): one node at a time
 * attaches it, whatever access modes the volume declares. Undefined for any other volume.
 */
function cloudDiskOf(volume: JsonRecord): string | undefined {
  const spec = getRecord(volume, 'spec');
  return INLINE_DISKS.find(({ plugin, attachGuarded }) => attachGuarded && getRecord(spec, plugin) !== undefined)
    ?.plugin;
}

/** A pod template's inline disks that pods on two nodes could not both use. */
function inlineDisks(
  podSpec: JsonRecord,
): Array<{ position: number; name: string; plugin: string; attachGuarded: boolean }> {
  return asArray(podSpec.volumes).flatMap((volume, position) => {
    const source = INLINE_DISKS.find(({ plugin }) => getRecord(volume, plugin) !== undefined);
    if (!source) return [];
    if (source.readOnlyShares && getField(volume, source.plugin, 'readOnly') === true) return [];
    return [
      {
        position,
        name: asString(getField(volume, 'name')) ?? `#${position}`,
        plugin: source.plugin,
        attachGuarded: source.attachGuarded,
      },
    ];
  });
}

/**
 * The classes a claim of no class may get: those the input marks the default; where it marks none,
 * the one the team names (`defaultStorageClass`), else kind's local-path `standard` where the input
 * configures a kind cluster for the workload (its directory or one above), and beside it the cloud's
 * default where the input also deploys a cloud cluster-autoscaler for the workload; else none known.
 */
function defaultClasses(
  index: ObjectIndex,
  named: string | undefined,
  workload: IndexedObject,
): readonly DefaultStorageClass[] {
  const marked = defaultStorageClasses(index);
  if (marked.length > 0) return marked;
  if (named !== undefined)
    return [{ name: named, ...optionalStorageClass(index.get('StorageClass', undefined, named)) }];
  if (!onKindCluster(index, workload)) return [];
  // A repository that runs its manifests on kind locally and on a cloud cluster (whose autoscaler it
  // deploys too): the claim gets kind's local-path there, and the cloud's disk here.
  const cloud = cloudClusterFor(index, workload);
  if (!cloud) return [{ name: KIND_DEFAULT_CLASS_NAME }];
  return [
    { name: KIND_DEFAULT_CLASS_NAME, cluster: 'the kind cluster the input configures' },
    {
      name: cloud.className,
      cluster: `the ${cloud.cloud} cluster whose cluster-autoscaler the input deploys (${cloud.autoscaler.source.file ?? cloud.autoscaler.ref.name ?? ''})`,
    },
  ];
}

/** What judging a claim's storage needs, made once per run. */
interface StorageJudge {
  readonly index: ObjectIndex;
  readonly claims: ClaimResolver;
  readonly nodeLocalClasses: ReadonlySet<string>;
  /** The classes the input makes the default where the workload runs. */
  readonly defaultsFor: (workload: IndexedObject) => readonly DefaultStorageClass[];
}

/** A claim whose storage allows one node at a time, and how to report pods on two nodes. */
interface JudgedStorage {
  readonly claim: ResolvedClaim;
  /** The volume attaches to one node at a time (not a shared filesystem). */
  readonly attached: boolean;
  /** `Deployment web mounts PersistentVolumeClaim data (ReadWriteOnce)`. */
  readonly mounts: string;
  /** The severity and message for pods on two nodes, given why there are two. */
  readonly report: (reason: string) => { severity?: 'warning'; message: string };
}

/**
 * The classes a claim may get. A claim of the default class, where the input makes several classes
 * the default: which one it gets depends on which was created last, so a failure on some of them
 * is a risk.
 */
function classCandidates(
  index: ObjectIndex,
  defaults: readonly DefaultStorageClass[],
  claim: ResolvedClaim,
  bound: IndexedObject | undefined,
): ReadonlyArray<{ storageClass?: IndexedObject; className?: string; cluster?: string }> {
  return !bound && takesDefaultClass(claim) && defaults.length > 1
    ? defaults.map(({ name, storageClass, cluster }) => ({
        className: name,
        ...optionalStorageClass(storageClass),
        ...(cluster !== undefined ? { cluster } : {}),
      }))
    : [storageClassOf(index, claim, defaults)];
}

const ONE_POD = 'ReadWriteOncePod';

/**
 * Reports each ReadWriteOncePod claim of a workload that runs two pods at once. Such a claim admits
 * one pod in the whole cluster, on whatever node: the scheduler leaves a second pod using it Pending
 * (and before 1.27 the kubelet refused its mount), so a rolling update's new pod waits for the old
 * one, which waits for it, and a second replica never starts. Pinning the pods to one node, which
 * makes ReadWriteOnce safe, changes nothing here.
 */
function reportOnePodClaims(context: RuleContext, judge: StorageJudge, template: PodTemplate): void {
  const workload = template.owner;
  const onePod = claimVolumes(template.spec, workload).filter((volume) => {
    const claim = judge.claims.resolve(workload.ref.namespace, volume.claimName, workload);
    return claim !== undefined && accessModesOf(judge.index, claim).includes(ONE_POD);
  });
  if (onePod.length === 0) return;
  const concurrent = concurrentPods(judge.index, workload);
  if (!concurrent) return;
  for (const volume of onePod) {
    context.report(workload, {
      path: `${template.path}.volumes[${volume.position}].persistentVolumeClaim`,
      ...asWarning(
        {
          message:
            `${workload.ref.kind ?? ''} ${workload.ref.name ?? ''} mounts claim ${volume.claimName} (ReadWriteOncePod), ` +
            `which admits one pod in the whole cluster, but ${concurrent.reason}: the second pod stays Pending ` +
            'whatever node it is scheduled to, so the rollout or the extra replica never starts.',
        },
        concurrent.warningNote,
      ),
    });
  }
}

/**
 * True when the claim's volume lives on one node (a local PersistentVolume, a node-local
 * provisioner's): every pod mounting it is scheduled onto that node, so whatever else the pods
 * mount, they never run on two nodes.
 */
function pinsPodsToOneNode(judge: StorageJudge, workload: IndexedObject, claimName: string): boolean {
  const claim = judge.claims.resolve(workload.ref.namespace, claimName, workload);
  if (!claim) return false;
  const bound = claim.object ? judge.index.volumeForClaim(claim.object) : undefined;
  if (bound) return volumePinnedToOneNode(bound.raw);
  return classCandidates(judge.index, judge.defaultsFor(workload), claim, bound).every(({ storageClass, className }) =>
    onOneNode(judge.index, storageClass, className, judge.nodeLocalClasses, workload),
  );
}

/**
 * The storage under one of a workload's claim mounts, when pods on two nodes cannot both use it
 * (or, on a shared filesystem, should not); undefined when they can: a multi-node mode, a read-only
 * mount of ReadOnlyMany, node-local storage, a volume pinned to a node, a hostPath volume (the
 * volume's own finding).
 */
function judgeStorage(
  judge: StorageJudge,
  workload: IndexedObject,
  volume: { position: number; claimName: string; readOnly: boolean },
): JudgedStorage | undefined {
  const claim = judge.claims.resolve(workload.ref.namespace, volume.claimName, workload);
  if (!claim) return undefined;
  // A claim the base leaves safe fails where an overlay's patch makes it single-writer attachable storage.
  for (const candidate of [claim, ...overlayClaimsOf(judge.index, claim)]) {
    const judged = judgeClaim(judge, workload, volume, candidate);
    if (judged) return judged;
  }
  return undefined;
}

/** judgeStorage for one form of the claim: the base's, or the one an overlay's patch makes. */
function judgeClaim(
  judge: StorageJudge,
  workload: IndexedObject,
  volume: { position: number; claimName: string; readOnly: boolean },
  claim: ResolvedClaim,
): JudgedStorage | undefined {
  const { index } = judge;
  const defaults = judge.defaultsFor(workload);
  const modes = accessModesOf(index, claim);
  const bound = claim.object ? index.volumeForClaim(claim.object) : undefined;
  // A cloud disk written as a PersistentVolume that declares ReadWriteMany still attaches to one node
  // (nightmareze1/kops-k8s-traefik-addons: an awsElasticBlockStore volume for a rolling Traefik).
  const declaredShared = bound && !volume.readOnly && !isSingleNodeWriter(modes) ? cloudDiskOf(bound.raw) : undefined;
  // A ReadWriteOncePod claim is judged by the pods it admits, not the nodes (reportOnePodClaims).
  if ((!isSingleNodeWriter(modes) && declaredShared === undefined) || modes.includes(ONE_POD)) return undefined;
  // A local (or single-hostname) PersistentVolume pins every pod using it to its node.
  if (bound && volumePinnedToOneNode(bound.raw)) return undefined;
  // A hostPath volume is never attached, so no second pod waits for it; its risk, a pod on another
  // node starting on that node's own directory, is the volume's whatever the strategy, and
  // host-path-for-application-data reports it on the volume (Recreate would not help).
  if (bound && getRecord(bound.raw, 'spec', 'hostPath')) return undefined;
  if (volume.readOnly && modes.includes('ReadOnlyMany')) return undefined;
  const candidates = classCandidates(index, defaults, claim, bound);
  const failing = candidates.filter(
    ({ storageClass, className }) =>
      !onOneNode(index, storageClass, className, judge.nodeLocalClasses, workload, bound),
  );
  const [first] = failing;
  if (!first) return undefined;
  const provisioner = asString(first.storageClass?.raw.provisioner);
  const mounts = `${workload.ref.kind} ${workload.ref.name ?? ''} mounts ${claim.description} (${modes.join(', ')})`;
  const storage: Storage = {
    sharedFilesystem: sharedFilesystemOf(index, provisioner, bound, first.storageClass ? undefined : first.className),
    rbd: rbdKindOfStorageClass(first.storageClass) !== undefined,
    ...(declaredShared !== undefined ? { declaredShared } : {}),
  };
  const unknownDefault = !bound && takesDefaultClass(claim) && defaults.length === 0;
  // A claim with a label selector is never provisioned for: it binds only to a volume its selector
  // matches, and without that volume in the input its storage is unknown, whatever its class.
  const unmatchedSelector = !bound && claim.spec.selector !== undefined;
  const className = storageClassNameOf(claim.spec, claim.annotations);
  // So is one of class "" (static binding only) whose volume, made by hand, is not in the input,
  // and one that names its volume (volumeName): the binder waits for that one, provisioning none.
  const namedVolume = asString(claim.spec.volumeName);
  const unseenStaticVolume = !bound && (className === '' || namedVolume !== undefined);
  // A class a deploy step fills in (`${STORAGE_CLASS}`) is none the input holds: its storage is unknown.
  const placeholderClass =
    !bound && !first.storageClass && className !== undefined && holdsPlaceholder(className) ? className : undefined;
  // A class the input does not hold, named as the distribution the directories are named for names
  // its node-local default (`standard` under `minikube/` or `kind/`, which GKE gives a disk class).
  // A claim of no class where the input marks no default gets the one of the distribution too.
  const local = !bound && !first.storageClass ? localDistributionOf(index, workload.source.file) : undefined;
  const localDefaultNamed = local !== undefined && first.className === local.defaultClass ? local : undefined;
  // A volume of no class written for the claim (pv.yaml beside pvc.yaml) that it does not bind, as it
  // names no class and so is given the default: the claim is provisioned for instead. Looked up only
  // for a finding that is reported.
  const withUnboundVolume = (reported: { severity?: 'warning'; message: string }) => {
    const unboundVolume =
      !bound && takesDefaultClass(claim)
        ? index.unclaimedVolumeFor({ ...claim.spec, storageClassName: '' }, claim.object, claim.annotations)
        : undefined;
    return unboundVolume === undefined
      ? reported
      : { ...reported, message: `${reported.message}${unboundVolumeNote(unboundVolume)}` };
  };
  const reportOf = (reason: string): { severity?: 'warning'; message: string } => {
    const reported = finding(mounts, reason, storage);
    if (unmatchedSelector) return asWarning(reported, UNMATCHED_SELECTOR);
    if (unseenStaticVolume)
      return asWarning(reported, namedVolume !== undefined ? unseenNamedVolumeNote(namedVolume) : UNSEEN_STATIC_VOLUME);
    if (placeholderClass !== undefined) return asWarning(reported, placeholderClassNote(placeholderClass));
    if (localDefaultNamed !== undefined) return asWarning(reported, localClassNote(localDefaultNamed));
    if (unknownDefault) {
      if (local) return asWarning(reported, localDistributionNote(local));
      const sideLoaded = sideLoadedImageOf(judge.index, workload);
      return sideLoaded !== undefined
        ? asWarning(reported, sideLoadedImageNote(workload, sideLoaded))
        : { ...reported, message: `${reported.message}${UNKNOWN_DEFAULT_CLASS}` };
    }
    // On each cluster the input runs it on, the claim gets that cluster's default: failing on one
    // of them is failing, said where.
    if (failing.length < candidates.length && candidates.every((c) => c.cluster !== undefined))
      return {
        ...reported,
        message:
          `${reported.message} The claim names no class, and the input runs it on more than one cluster: ` +
          `${candidates.map((c) => `on ${c.cluster ?? ''} it gets ${c.className ?? ''}`).join('; ')}. ` +
          `This fails where it gets ${failing.map((c) => c.className ?? '').join(' and ')}.`,
      };
    if (failing.length < candidates.length)
      return {
        severity: 'warning',
        message:
          `${reported.message} This holds if the claim gets StorageClass ${first.className ?? ''}: it names no ` +
          `class, and the input makes ${candidates.map((c) => c.className ?? '').join(' and ')} the default, ` +
          'of which Kubernetes gives it the most recently created.',
      };
    return reported;
  };
  return {
    claim,
    attached: storage.sharedFilesystem === undefined,
    mounts,
    report: (reason) => withUnboundVolume(reportOf(reason)),
  };
}

/** Why a volume of no class written for a claim that names none stays unbound, and how to bind it. */
function unboundVolumeNote(volume: IndexedObject): string {
  return (
    ` PersistentVolume ${volume.ref.name ?? ''}, of no class, is not bound to it: a claim that names no class is ` +
    "given the cluster's default class when it is created, and binds only volumes of that class. To use that " +
    'volume, write storageClassName: "" in the claim.'
  );
}

/** One workload's mount of a claim, as the per-claim pass needs it. */
interface ClaimMount {
  readonly workload: IndexedObject;
  readonly path: string;
  readonly storage: JudgedStorage;
  /** Already reported for the workload's own pods. */
  readonly reported: boolean;
  /** Its pods must run on a node with a pod of some other workload (required podAffinity by hostname). */
  readonly coLocated: boolean;
}

/**
 * Two or more workloads mounting one claim: each mount after the first workload's is reported
 * (once per workload, and not again where its own pods were), where both are controllers that keep
 * pods running written in the same file, so deployed together. Workloads in different files are
 * as often alternative examples of one app as parts of it: on the public repositories labelled by
 * hand, reporting those was noise, so they are left alone. A Job or CronJob on a claim a running
 * workload holds is judged apart (reportJobOnHeldClaim).
 */
function reportSharedClaim(context: RuleContext, mounts: readonly ClaimMount[]): void {
  const byIdentity = new Map<string, ClaimMount>();
  for (const mount of mounts) {
    const identity = workloadIdentity(mount);
    if (!byIdentity.has(identity)) byIdentity.set(identity, mount);
  }
  const [first, ...others] = byIdentity.values();
  if (!first || [first, ...others].some((mount) => mount.coLocated)) return;
  for (const mount of others) {
    if (mount.reported || mount.workload.source.file !== first.workload.source.file) continue;
    const reason = `${first.workload.ref.kind} ${first.workload.ref.name ?? ''} in the same file mounts it too, and nothing keeps their pods on one node`;
    context.report(mount.workload, { path: mount.path, ...mount.storage.report(reason) });
  }
}

/** The workload of a mount by kind, namespace and name: its mounts of one claim count once. */
function workloadIdentity(mount: ClaimMount): string {
  return `${mount.workload.ref.kind ?? ''}/${mount.workload.ref.namespace ?? ''}/${mount.workload.ref.name ?? ''}`;
}

/**
 * A Job or CronJob (a backup, a report) mounting an attached claim that a running workload holds,
 * in any file: each run whose pod the scheduler puts on another node waits in ContainerCreating
 * (Multi-Attach) and never runs, which no one sees until the backup is needed. A bare Pod (a debug
 * or migration pod) on such a claim waits the same way. A warning, as the scheduler may place it on
 * the holder's node; pods required on the holder's node (podAffinity by hostname) are left alone.
 */
function reportJobOnHeldClaim(
  context: RuleContext,
  jobMounts: readonly ClaimMount[],
  holders: readonly ClaimMount[],
): void {
  const holder = holders.find((mount) => !mount.coLocated);
  if (!holder || holders.some((mount) => mount.coLocated)) return;
  const reported = new Set<IndexedObject>();
  for (const mount of jobMounts) {
    if (mount.reported || mount.coLocated || reported.has(mount.workload)) continue;
    reported.add(mount.workload);
    const holderName = `${holder.workload.ref.kind ?? ''} ${holder.workload.ref.name ?? ''}`;
    const barePod = mount.workload.ref.kind === 'Pod';
    context.report(mount.workload, {
      path: mount.path,
      severity: 'warning',
      message:
        `${mount.storage.mounts}, which ${holderName} keeps attached to the node its pod runs on, and nothing ` +
        (barePod
          ? 'schedules this Pod onto that node: placed on another node, it waits in ContainerCreating (the attach ' +
            `fails with a Multi-Attach error) for as long as ${holderName} runs.`
          : `schedules this ${mount.workload.ref.kind ?? ''}'s pods onto that node: a run whose pod lands on ` +
            'another node waits in ContainerCreating (the attach fails with a Multi-Attach error) and never runs.'),
      fix:
        `Require the node of ${holderName}'s pod for ${barePod ? 'this Pod' : "the job's pods"}: affinity.podAffinity.` +
        'requiredDuringSchedulingIgnoredDuringExecution with topologyKey kubernetes.io/hostname and a ' +
        `labelSelector on ${holderName}'s pod labels. Or run the task in ${holderName}'s own pod.`,
    });
  }
}

/**
 * Bare Pods and Jobs written in one file that mount one attached claim, with no running workload
 * holding it (that case is reportJobOnHeldClaim's): applied together, their pods start together, and
 * nothing keeps them on one node. Each after the first is reported: an error where both are Pods that
 * restart always (the default: they run until deleted, so the later one waits in ContainerCreating for
 * good), a warning where either ends (a Job, `restartPolicy: Never` or `OnFailure`), as its volume
 * detaches once it is done. CronJobs run on schedules of their own, so they are left out.
 */
function reportBarePodsTogether(context: RuleContext, jobMounts: readonly ClaimMount[]): void {
  const byFile = new Map<string, Map<string, ClaimMount>>();
  for (const mount of jobMounts) {
    const kind = mount.workload.ref.kind;
    if ((kind !== 'Pod' && kind !== 'Job') || mount.workload.source.file === undefined) continue;
    const pods = byFile.get(mount.workload.source.file) ?? new Map<string, ClaimMount>();
    const identity = workloadIdentity(mount);
    if (!pods.has(identity)) pods.set(identity, mount);
    byFile.set(mount.workload.source.file, pods);
  }
  for (const pods of byFile.values()) {
    const [first, ...others] = pods.values();
    if (!first || [first, ...others].some((mount) => mount.coLocated)) continue;
    for (const mount of others) {
      if (mount.reported) continue;
      const ends = !restartsAlways(first.workload) || !restartsAlways(mount.workload);
      const reason =
        `${first.workload.ref.kind ?? ''} ${first.workload.ref.name ?? ''} in the same file mounts it too, and nothing keeps their pods on one node` +
        (ends ? " (one of them ends, so this one waits only until that pod's volume is detached)" : '');
      context.report(mount.workload, {
        path: mount.path,
        ...asWarning(mount.storage.report(reason), ends ? '' : undefined),
      });
    }
  }
}

/** A bare Pod whose containers are restarted whatever their exit (restartPolicy Always, the default); never a Job. */
function restartsAlways(workload: IndexedObject): boolean {
  if (workload.ref.kind !== 'Pod') return false;
  const policy = getRecord(workload.raw, 'spec')?.restartPolicy;
  return policy === undefined || policy === 'Always';
}

/** A controller that keeps its pods running (not a Job, a CronJob or a bare Pod). */
function isLongRunning(workload: IndexedObject): boolean {
  const kind = workload.ref.kind ?? '';
  return OWNERS.has(kind) && kind !== 'Job';
}

/** True for a workload that runs pods now: not one scaled to zero replicas. */
function runsPods(workload: IndexedObject): boolean {
  const replicas = asNumber(getRecord(workload.raw, 'spec')?.replicas);
  return replicas === undefined || replicas >= 1;
}

/** What the message adds on a base that an overlay's patch in the input makes safe: applied alone it still fails. */
function overlayNote(overlay: OverlayFix): string {
  return (
    ` The kustomize patch in ${overlay.patch.source.file ?? 'the input'} ${overlay.does}: ` +
    'applied through that overlay it does not fail, applied alone it does.'
  );
}

/** True when the pod spec requires a node that runs some other pod (podAffinity by hostname): the pods share a node. */
function requiresCoLocation(podSpec: JsonRecord): boolean {
  return hostnameAffinityTerms(podSpec).length > 0;
}

function optionalStorageClass(storageClass: IndexedObject | undefined): { storageClass?: IndexedObject } {
  return storageClass ? { storageClass } : {};
}
