import { WORKLOAD_KINDS } from '../scopes';
import { asArray, asRecord, asString, getRecord, isRecord } from '../../json';
import { IndexedObject } from '../../object-index';
import { Rule, RuleContext } from '../../rule';
import { ClaimResolver, claimTemplatesOf, claimVolumes, defaultStorageClass, storageClassOfSpec } from './claims';
import { inTreeCephPluginOf } from './ceph';

const IN_TREE_PLUGINS = ['rbd', 'cephfs'] as const;
type InTreePlugin = (typeof IN_TREE_PLUGINS)[number];
const REMOVED_IN = '1.31';
const CSI_DRIVER: Readonly<Record<string, string>> = { rbd: 'rbd.csi.ceph.com', cephfs: 'cephfs.csi.ceph.com' };

function reportUse(context: RuleContext, object: IndexedObject, path: string, what: string): void {
  const removed = context.kubernetesVersion.atLeast(REMOVED_IN);
  context.report(object, {
    path,
    severity: removed ? 'error' : 'warning',
    message: removed
      ? `${object.ref.kind} ${object.ref.name ?? ''} uses ${what}, which Kubernetes ${context.kubernetesVersion} no longer ` +
        'has (removed in 1.31): the volume can neither be provisioned nor mounted.'
      : `${object.ref.kind} ${object.ref.name ?? ''} uses ${what}, deprecated since 1.28 and removed in 1.31: ` +
        `it stops working when the cluster is upgraded past ${context.kubernetesVersion}.`,
  });
}

/** The in-tree Ceph plugin of a PersistentVolume, if it is one. */
function inTreePluginOfVolume(volume: IndexedObject): InTreePlugin | undefined {
  const spec = getRecord(volume.raw, 'spec');
  return IN_TREE_PLUGINS.find((plugin) => asRecord(spec?.[plugin]) !== undefined);
}

/**
 * The workloads that break with their storage: a pod mounting a claim bound to an in-tree Ceph
 * volume or of a class whose provisioner creates them, and a StatefulSet whose claim templates ask
 * such a class. A warning that points at the volume or class, which is the error: one fix there
 * (or the migration) covers every consumer, and the list says what stops mounting on upgrade.
 */
function reportConsumers(context: RuleContext): void {
  const { index } = context;
  const claims = new ClaimResolver(index);
  const fallbackClass = defaultStorageClass(index);
  const pointer = (object: IndexedObject, path: string, what: string) => {
    const removed = context.kubernetesVersion.atLeast(REMOVED_IN);
    context.report(object, {
      path,
      severity: 'warning',
      message:
        `${object.ref.kind} ${object.ref.name ?? ''} ${what}: ` +
        (removed
          ? `Kubernetes ${context.kubernetesVersion} can neither provision nor mount it (removed in 1.31).`
          : `it stops mounting when the cluster is upgraded past ${context.kubernetesVersion} (removed in 1.31).`) +
        ' The volume or StorageClass is reported as the error.',
    });
  };
  const classPlugin = (storageClass: IndexedObject | undefined) =>
    inTreeCephPluginOf(asString(storageClass?.raw.provisioner));
  for (const template of index.podTemplates()) {
    for (const volume of claimVolumes(template.spec, template.owner)) {
      const claim = claims.resolve(template.owner.ref.namespace, volume.claimName, template.owner);
      if (!claim) continue;
      const path = `${template.path}.volumes[${volume.position}].persistentVolumeClaim`;
      const bound = claim.object ? index.volumeForClaim(claim.object) : undefined;
      const boundPlugin = bound ? inTreePluginOfVolume(bound) : undefined;
      if (bound) {
        if (boundPlugin)
          pointer(
            template.owner,
            path,
            `mounts ${claim.description}, bound to in-tree ${boundPlugin} PersistentVolume ${bound.ref.name ?? ''}`,
          );
        continue;
      }
      const storageClass = storageClassOfSpec(index, claim, fallbackClass);
      const plugin = classPlugin(storageClass);
      if (plugin)
        pointer(
          template.owner,
          path,
          `mounts ${claim.description} of StorageClass ${storageClass?.ref.name ?? ''}, whose provisioner creates in-tree ${plugin} volumes`,
        );
    }
  }
  for (const statefulSet of index.ofKind('StatefulSet')) {
    for (const { spec, position, annotations } of claimTemplatesOf(statefulSet)) {
      if (!spec || index.unclaimedVolumeFor(spec, statefulSet, annotations)) continue;
      const storageClass = storageClassOfSpec(index, { spec, annotations }, fallbackClass);
      const plugin = classPlugin(storageClass);
      if (plugin)
        pointer(
          statefulSet,
          `spec.volumeClaimTemplates[${position}].spec`,
          `asks StorageClass ${storageClass?.ref.name ?? ''}, whose provisioner creates in-tree ${plugin} volumes, for its claims`,
        );
    }
  }
}

export const inTreeCephVolume: Rule = {
  id: 'in-tree-ceph-volume',
  severity: 'error',
  scope: [...WORKLOAD_KINDS, 'PersistentVolume', 'StorageClass'],
  kubernetesVersions: { from: '1.28' },
  summary:
    'An in-tree rbd/cephfs volume, or a provisioner that creates them (kubernetes.io/rbd, ceph.com/rbd, ceph.com/cephfs or its early name kubernetes.io/cephfs), is used (warning 1.28–1.30, error from 1.31, where they are removed); the workloads that mount them get a warning that points there.',
  why:
    'The in-tree rbd and cephfs volume plugins were deprecated in 1.28 and removed in 1.31. Incidents 1 and 2 ' +
    'ran on in-tree RBD volumes, which also need the rbd client (ceph-common) on every node. After the upgrade ' +
    'to 1.31 such volumes no longer mount, and the kubernetes.io/rbd provisioner provisions nothing.',
  fix:
    'Move to ceph-csi: a StorageClass with provisioner rbd.csi.ceph.com (ballast `CephRbdStorageClass`) or ' +
    'cephfs.csi.ceph.com, or a static PersistentVolume with `csi: {driver: rbd.csi.ceph.com, ...}`. Existing ' +
    'volumes can be migrated with CSI migration (CSIMigrationRBD) before upgrading to 1.31.',
  example: {
    bad: [
      'apiVersion: storage.k8s.io/v1',
      'kind: StorageClass',
      'metadata: {name: ceph-rbd}',
      'provisioner: kubernetes.io/rbd',
      'parameters: {monitors: "10.0.0.1:6789", pool: kube, adminSecretName: ceph-admin, userSecretName: ceph-user}',
    ].join('\n'),
    good: [
      'apiVersion: storage.k8s.io/v1',
      'kind: StorageClass',
      'metadata: {name: ceph-rbd}',
      'provisioner: rbd.csi.ceph.com',
      'parameters:',
      '  clusterID: rook-ceph',
      '  pool: replicapool',
      '  csi.storage.k8s.io/provisioner-secret-name: csi-rbd-provisioner',
      '  csi.storage.k8s.io/provisioner-secret-namespace: ceph-csi',
      '  csi.storage.k8s.io/node-stage-secret-name: csi-rbd-node',
      '  csi.storage.k8s.io/node-stage-secret-namespace: ceph-csi',
    ].join('\n'),
  },
  check(context) {
    for (const volume of context.index.ofKind('PersistentVolume')) {
      const spec = getRecord(volume.raw, 'spec');
      for (const plugin of IN_TREE_PLUGINS) {
        if (asRecord(spec?.[plugin]))
          reportUse(
            context,
            volume,
            `spec.${plugin}`,
            `the in-tree ${plugin} volume plugin (use ${CSI_DRIVER[plugin]})`,
          );
      }
    }
    for (const template of context.index.podTemplates()) {
      asArray(template.spec.volumes).forEach((volume, position) => {
        if (!isRecord(volume)) return;
        for (const plugin of IN_TREE_PLUGINS) {
          if (asRecord(volume[plugin])) {
            reportUse(
              context,
              template.owner,
              `${template.path}.volumes[${position}].${plugin}`,
              `an inline in-tree ${plugin} volume (use a claim on ${CSI_DRIVER[plugin]})`,
            );
          }
        }
      });
    }
    reportConsumers(context);
    for (const storageClass of context.index.ofKind('StorageClass')) {
      const provisioner = asString(storageClass.raw.provisioner);
      const plugin = inTreeCephPluginOf(provisioner);
      if (plugin !== undefined) {
        reportUse(
          context,
          storageClass,
          'provisioner',
          `the provisioner ${provisioner ?? ''}, whose volumes are in-tree ${plugin} volumes (use ${CSI_DRIVER[plugin]})`,
        );
      }
    }
  },
};
