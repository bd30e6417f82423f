import { JsonRecord, asArray, asString, getRecord } from '../../json';
import { IndexedObject } from '../../object-index';
import { Rule, RuleContext } from '../../rule';
import { hostnameOfTerms, pinnedNodeOfPod } from './node-pinning';

/**
 * Host paths that belong to the node, not to an application: device and kernel interfaces,
 * kubelet and runtime state, logs and configuration. Node agents (CSI plugins, exporters) mount
 * them legitimately.
 */
const SYSTEM_PATHS = [
  '/dev',
  '/sys',
  '/proc',
  '/run',
  '/var/run',
  '/var/lib/kubelet',
  '/var/log',
  '/etc',
  '/lib',
  '/lib64',
  '/usr',
  '/boot',
  '/var/lib/docker',
  '/var/lib/containerd',
  '/var/lib/cni',
  '/opt/cni',
];

/** hostPath types that are devices or sockets, never a data directory. */
const NON_DATA_TYPES = new Set(['Socket', 'CharDevice', 'BlockDevice']);

function isSystemPath(path: string): boolean {
  const normalized = path.replace(/\/+$/, '') || '/';
  if (normalized === '/') return true;
  return SYSTEM_PATHS.some((prefix) => normalized === prefix || normalized.startsWith(`${prefix}/`));
}

/** A data directory on the host, or undefined for system paths and devices. */
function dataPath(hostPath: JsonRecord | undefined): string | undefined {
  const path = asString(hostPath?.path);
  if (path === undefined || isSystemPath(path)) return undefined;
  if (NON_DATA_TYPES.has(asString(hostPath?.type) ?? '')) return undefined;
  return path;
}

function report(
  context: RuleContext,
  object: IndexedObject,
  path: string,
  hostPath: string,
  pinnedNode: string | undefined,
): void {
  const name = `${object.ref.kind} ${object.ref.name ?? ''}`;
  context.report(object, {
    path,
    severity: pinnedNode === undefined ? 'warning' : 'error',
    message:
      pinnedNode === undefined
        ? `${name} keeps data in hostPath ${hostPath}: the data lives on whichever node the pod lands on, so a ` +
          'rescheduled pod starts on another node with an empty directory.'
        : `${name} keeps data in hostPath ${hostPath} and is pinned to node ${pinnedNode}: when that node fails ` +
          'the workload can never move, and its data dies with the disk.',
  });
}

export const hostPathForApplicationData: Rule = {
  id: 'host-path-for-application-data',
  severity: 'warning',
  summary:
    'A workload or PersistentVolume keeps application data in a hostPath (error when pinned to one node by hostname).',
  why:
    'Incident 3: a RabbitMQ ReplicationController kept its data in a hostPath and was pinned to one node by ' +
    "nodeSelector; when that node's control plane stalled it never got its pod back. hostPath data is tied to " +
    'one node: unpinned, a rescheduled pod finds an empty directory; pinned, the workload cannot move at all. ' +
    'Node agents (DaemonSets and others) mounting system paths such as /dev, /sys or /var/lib/kubelet are not ' +
    'application data and are not reported.',
  fix:
    'Keep the data on a PersistentVolume that can follow the pod: a StatefulSet with volumeClaimTemplates on ' +
    'a network StorageClass (ballast `RbdStatefulSet` on `CephRbdStorageClass`). For data that must stay on a ' +
    'local disk, use a `local` PersistentVolume with nodeAffinity, so the scheduler knows where it is.',
  example: {
    bad: [
      'apiVersion: v1',
      'kind: ReplicationController',
      'metadata: {name: rabbitmq}',
      'spec:',
      '  replicas: 1',
      '  selector: {app: rabbitmq}',
      '  template:',
      '    metadata: {labels: {app: rabbitmq}}',
      '    spec:',
      '      nodeSelector: {kubernetes.io/hostname: node-3}',
      '      containers: [{name: rabbitmq, image: rabbitmq:3, volumeMounts: [{name: data, mountPath: /var/lib/rabbitmq}]}]',
      '      volumes: [{name: data, hostPath: {path: /data/rabbitmq}}]',
    ].join('\n'),
    good: [
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata: {name: rabbitmq}',
      'spec:',
      '  serviceName: rabbitmq',
      '  selector: {matchLabels: {app: rabbitmq}}',
      '  template:',
      '    metadata: {labels: {app: rabbitmq}}',
      '    spec:',
      '      containers: [{name: rabbitmq, image: rabbitmq:3, volumeMounts: [{name: data, mountPath: /var/lib/rabbitmq}]}]',
      '  volumeClaimTemplates:',
      '  - metadata: {name: data}',
      '    spec: {accessModes: [ReadWriteOnce], storageClassName: ceph-rbd, resources: {requests: {storage: 10Gi}}}',
    ].join('\n'),
  },
  check(context) {
    for (const template of context.index.podTemplates()) {
      const pinnedNode = pinnedNodeOfPod(template.spec);
      asArray(template.spec.volumes).forEach((volume, position) => {
        const path = dataPath(getRecord(volume, 'hostPath'));
        if (path !== undefined)
          report(context, template.owner, `${template.path}.volumes[${position}].hostPath`, path, pinnedNode);
      });
    }
    for (const volume of context.index.ofKind('PersistentVolume')) {
      const spec = getRecord(volume.raw, 'spec');
      const path = dataPath(getRecord(spec, 'hostPath'));
      if (path === undefined) continue;
      const pinnedNode = hostnameOfTerms(asArray(getRecord(spec, 'nodeAffinity', 'required')?.nodeSelectorTerms));
      report(context, volume, 'spec.hostPath', path, pinnedNode);
    }
  },
};
