import { fieldPath } from '../../field-path';
import { asRecord, asString } from '../../json';
import { Rule } from '../../rule';
import { rbdKindOfStorageClass } from './ceph';

/** A parameter the driver needs, with what breaks without it. Alternatives satisfy it too. */
interface RequiredParameter {
  readonly name: string;
  readonly alternatives?: readonly string[];
  readonly consequence: string;
}

const CSI_SECRET = 'csi.storage.k8s.io';

function secretPair(kind: string, consequence: string): RequiredParameter[] {
  return [
    { name: `${CSI_SECRET}/${kind}-secret-name`, consequence },
    {
      name: `${CSI_SECRET}/${kind}-secret-namespace`,
      consequence: `${consequence} (the external-provisioner needs name and namespace together)`,
    },
  ];
}

const CEPH_CSI_REQUIRED: readonly RequiredParameter[] = [
  {
    name: 'clusterID',
    consequence: 'ceph-csi cannot tell which Ceph cluster (csi-config-map entry) to create the image in',
  },
  {
    name: 'pool',
    alternatives: ['topologyConstrainedPools'],
    consequence: 'ceph-csi has no pool to create the image in',
  },
  ...secretPair('provisioner', 'the provisioner has no Ceph credentials: every claim stays Pending'),
  ...secretPair(
    'node-stage',
    'the node plugin has no Ceph credentials to map the image: pods stay in ContainerCreating',
  ),
];

/** Only needed when the class allows expansion: without it `kubectl edit pvc` to grow a volume fails. */
const CEPH_CSI_EXPANSION = secretPair(
  'controller-expand',
  'volume expansion is allowed but the resizer has no Ceph credentials',
);

const IN_TREE_REQUIRED: readonly RequiredParameter[] = [
  { name: 'monitors', consequence: 'the in-tree provisioner has no Ceph monitors to talk to' },
  { name: 'adminSecretName', consequence: 'the in-tree provisioner has no credentials to create images' },
  { name: 'userSecretName', consequence: 'the kubelet has no credentials to map the image' },
];

export const rbdStorageClassMissingParameters: Rule = {
  id: 'rbd-storage-class-missing-parameters',
  severity: 'error',
  scope: ['StorageClass'],
  summary:
    'An RBD StorageClass (rbd.csi.ceph.com or kubernetes.io/rbd) lacks clusterID, pool or a required secret parameter.',
  why:
    'A StorageClass is accepted by the API server whatever its parameters; a missing clusterID, pool or ' +
    'secret only shows when the first claim stays Pending, or when a pod hangs in ContainerCreating ' +
    'because the node plugin cannot map the image. The stateful workloads of incidents 1 and 2 ran on RBD.',
  fix:
    'Set clusterID and pool, and for each of the provisioner, node-stage (and, with allowVolumeExpansion, ' +
    'controller-expand) secrets both `csi.storage.k8s.io/<kind>-secret-name` and `-namespace`. ballast ' +
    '`CephRbdStorageClass` requires all of them.',
  example: {
    bad: [
      'apiVersion: storage.k8s.io/v1',
      'kind: StorageClass',
      'metadata: {name: ceph-rbd}',
      'provisioner: rbd.csi.ceph.com',
      'parameters: {clusterID: rook-ceph}',
    ].join('\n'),
    good: [
      'apiVersion: storage.k8s.io/v1',
      'kind: StorageClass',
      'metadata: {name: ceph-rbd}',
      'provisioner: rbd.csi.ceph.com',
      'allowVolumeExpansion: true',
      'parameters:',
      '  clusterID: rook-ceph',
      '  pool: replicapool',
      '  csi.storage.k8s.io/provisioner-secret-name: csi-rbd-provisioner',
      '  csi.storage.k8s.io/provisioner-secret-namespace: ceph-csi',
      '  csi.storage.k8s.io/controller-expand-secret-name: csi-rbd-provisioner',
      '  csi.storage.k8s.io/controller-expand-secret-namespace: ceph-csi',
      '  csi.storage.k8s.io/node-stage-secret-name: csi-rbd-node',
      '  csi.storage.k8s.io/node-stage-secret-namespace: ceph-csi',
    ].join('\n'),
  },
  check(context) {
    for (const storageClass of context.index.ofKind('StorageClass')) {
      const kind = rbdKindOfStorageClass(storageClass);
      // ceph-csi before 1.0 and Rook's flex provisioner took other parameters (monitors, blockPool).
      if (kind !== 'in-tree' && kind !== 'ceph-csi') continue;
      const parameters = asRecord(storageClass.raw.parameters) ?? {};
      const isSet = (name: string) => (asString(parameters[name]) ?? '').trim() !== '';
      const required =
        kind === 'in-tree'
          ? IN_TREE_REQUIRED
          : [...CEPH_CSI_REQUIRED, ...(storageClass.raw.allowVolumeExpansion === true ? CEPH_CSI_EXPANSION : [])];
      for (const parameter of required) {
        if (isSet(parameter.name) || (parameter.alternatives ?? []).some(isSet)) continue;
        context.report(storageClass, {
          path: fieldPath('parameters', parameter.name),
          message:
            `StorageClass ${storageClass.ref.name ?? ''} (${asString(storageClass.raw.provisioner)}) does not set ` +
            `parameter ${parameter.name}: ${parameter.consequence}.`,
        });
      }
    }
  },
};
