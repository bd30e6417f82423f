import { WORKLOAD_KINDS } from '../scopes';
import { JsonRecord, asArray, asString, getRecord } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { ClaimResolver, claimVolumes } from './claims';
import { podContainers } from '../../pod-templates';
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
  // CRI-O's, Podman's and Buildah's image and container storage (containers/storage).
  '/var/lib/containers',
  '/var/lib/cni',
  '/opt/cni',
  '/var/lib/etcd',
  // The control plane's certificates and configuration where Kubernetes the Hard Way puts them.
  '/var/lib/kubernetes',
  // k3s's and RKE2's data directories: server state, embedded etcd and its snapshots, the agent's containerd.
  '/var/lib/rancher/k3s',
  '/var/lib/rancher/rke2',
  '/var/lib/calico',
  '/var/lib/cilium',
  '/lib/modules',
  '/var/lib/rook',
  // GKE's node directory for its own binaries and the NVIDIA driver its installer DaemonSet puts
  // there (/home/kubernetes/bin/nvidia), which GPU pods mount for the driver's libraries.
  '/home/kubernetes/bin',
  // Filebeat's registry (offsets into the node's own log files), where Elastic's manifests keep it.
  '/var/lib/filebeat-data',
  // The X server's socket directory, which GUI pods (ROS rviz, simulators) mount to draw on the node's display.
  '/tmp/.X11-unix',
];

/**
 * hostPath types that are never an application's data directory: devices, sockets, and `File`,
 * a file that must already exist on the node (a kubeconfig or certificate the node provides).
 */
const NON_DATA_TYPES = new Set(['Socket', 'CharDevice', 'BlockDevice', 'File']);

const CONFIG_FILE = /\.(kubeconfig|conf|cfg|ini|pem|crt|key|json|ya?ml|toml)$/i;

function isSystemPath(path: string): boolean {
  // Windows nodes (C:\var\lib\kubelet, \\.\pipe\...): node agents' paths, never a Linux workload's data.
  if (/^[A-Za-z]:[\\/]|^\\\\/.test(path)) return true;
  const normalized = path.replace(/\/+$/, '') || '/';
  if (normalized === '/') return true;
  return SYSTEM_PATHS.some((prefix) => normalized === prefix || normalized.startsWith(`${prefix}/`));
}

/** A data directory on the host, or undefined for system paths and devices. */
function dataPath(hostPath: JsonRecord | undefined): string | undefined {
  const path = asString(hostPath?.path);
  if (path === undefined || isSystemPath(path)) return undefined;
  if (NON_DATA_TYPES.has(asString(hostPath?.type) ?? '')) return undefined;
  // A single configuration file the node provides (a kubeconfig, a certificate), not a data directory.
  if (CONFIG_FILE.test(path)) return undefined;
  return path;
}

/** How kube-system static pods were marked critical before the system priority classes (removed in 1.16). */
const CRITICAL_POD_ANNOTATION = 'scheduler.alpha.kubernetes.io/critical-pod';

/**
 * Node agents run on the node for the node: a DaemonSet (CSI node plugins, log shippers, exporters),
 * a pod sharing the host's PID namespace, or a control-plane static pod in kube-system (etcd keeps
 * its data on the host by design), labelled tier: control-plane, of priority system-node-critical or
 * annotated critical-pod. Their host paths are not application data. A privileged
 * container alone does not make an agent: NFS servers and databases run privileged too.
 */
function isNodeAgent(owner: IndexedObject, podSpec: JsonRecord): boolean {
  if (owner.ref.kind === 'DaemonSet' || podSpec.hostPID === true) return true;
  // Run-to-completion pods pinned to a node are node tasks (rook's cleanup Job wipes one node's
  // data directory): nothing of theirs needs to move.
  if ((owner.ref.kind === 'Job' || owner.ref.kind === 'CronJob') && pinnedNodeOfPod(podSpec) !== undefined) return true;
  // CSI plugins work in the kubelet's pod and plugin directories, with mount propagation.
  if (mountsKubeletState(podSpec)) return true;
  // A static pod of the control plane: kubeadm labels its own tier: control-plane; older installers
  // (kube-up's etcd and apiserver manifests) mark them only by the node-critical priority class, or,
  // before priority classes (1.11), by the critical-pod annotation (kube-proxy, kube-addon-manager).
  const labels = getRecord(owner.raw, 'metadata', 'labels');
  return (
    owner.ref.kind === 'Pod' &&
    owner.ref.namespace === 'kube-system' &&
    (asString(labels?.tier) === 'control-plane' ||
      asString(podSpec.priorityClassName) === 'system-node-critical' ||
      owner.annotations[CRITICAL_POD_ANNOTATION] !== undefined)
  );
}

/** Whether the pod shares mounts with the kubelet: a Bidirectional mount, or the kubelet's own directory. */
function mountsKubeletState(podSpec: JsonRecord): boolean {
  // Every container that can mount the pod's volumes: ephemeral ones (`kubectl debug`) too.
  const bidirectional = podContainers(podSpec, true).some(({ container }) =>
    asArray(container.volumeMounts).some((mount) => asString(getRecord(mount)?.mountPropagation) === 'Bidirectional'),
  );
  return (
    bidirectional ||
    asArray(podSpec.volumes).some((volume) =>
      /^\/var\/lib\/kubelet(\/|$)/.test(asString(getRecord(volume, 'hostPath')?.path) ?? ''),
    )
  );
}

/**
 * The names of the volumes some container mounts writable. A volume no container mounts holds no
 * data (a leftover of an edit, a mount commented out); in a pod spec without containers (a fragment
 * another file completes) every volume counts as writable.
 */
function writableVolumes(podSpec: JsonRecord): Set<string> {
  const mounted = new Map<string, boolean>();
  const containers = podContainers(podSpec, true);
  for (const { container } of containers) {
    for (const mount of asArray(container.volumeMounts)) {
      const name = asString(getRecord(mount)?.name);
      if (name === undefined) continue;
      mounted.set(name, (mounted.get(name) ?? false) || getRecord(mount)?.readOnly !== true);
    }
  }
  const writable = new Set<string>();
  for (const volume of asArray(podSpec.volumes)) {
    const name = asString(getRecord(volume)?.name) ?? '';
    if (mounted.get(name) ?? containers.length === 0) writable.add(name);
  }
  return writable;
}

/**
 * For each PersistentVolume that pods of the input mount through a bound claim, whether one of
 * them can write it: its claim volume is not `readOnly` and a container mounts it writable. The
 * PersistentVolume form of the pod-volume exemption (writableVolumes); a volume no pod of the
 * input mounts is absent, and judged as written.
 */
function volumeWritesOfPods(index: ObjectIndex): Map<IndexedObject, boolean> {
  const writes = new Map<IndexedObject, boolean>();
  const claims = new ClaimResolver(index);
  for (const template of index.podTemplates()) {
    const writable = writableVolumes(template.spec);
    const volumes = asArray(template.spec.volumes);
    for (const { position, claimName, readOnly } of claimVolumes(template.spec, template.owner)) {
      const claim = claims.resolve(template.owner.ref.namespace, claimName, template.owner)?.object;
      const volume = claim ? index.volumeForClaim(claim) : undefined;
      if (!volume) continue;
      const written = !readOnly && writable.has(asString(getRecord(volumes[position])?.name) ?? '');
      writes.set(volume, (writes.get(volume) ?? false) || written);
    }
  }
  return writes;
}

function report(
  context: RuleContext,
  object: IndexedObject,
  path: string,
  hostPath: string,
  pinnedNode: string | undefined,
): void {
  const name = `${object.ref.kind} ${object.ref.name ?? ''}`;
  // A warning either way: the failure waits for a node to be lost or a pod to move, and neither is
  // certain; pinned, the cost when it comes is the workload itself, which the message says.
  context.report(object, {
    path,
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
  scope: [...WORKLOAD_KINDS, 'PersistentVolume'],
  summary:
    'A workload or PersistentVolume keeps application data in a hostPath (whether pinned to one node by hostname or not).',
  why:
    'Incident 3: a RabbitMQ ReplicationController kept its data in a hostPath and was pinned to one node by ' +
    "nodeSelector; when that node's control plane stalled it never got its pod back. hostPath data is tied to " +
    'one node: unpinned, a rescheduled pod finds an empty directory; pinned, the workload cannot move at all. ' +
    'Not reported, because they are not application data: node agents (DaemonSets; pods with hostPID; ' +
    'control-plane static pods: Pods in kube-system that are labelled tier: control-plane, run at priority ' +
    'class system-node-critical or carry the scheduler.alpha.kubernetes.io/critical-pod annotation, such as ' +
    "etcd; Jobs pinned to one node; pods that share the kubelet's directories), host paths that no container " +
    'mounts or that every container mounts read-only (a PersistentVolume: that every pod of the input mounting it ' +
    'through a claim mounts read-only), and system paths (/dev, /sys, /proc, /var/log, /var/lib/kubelet, ' +
    'CSI plugin and runtime directories, /var/lib/etcd, /var/lib/kubernetes, /var/lib/rancher/k3s and ' +
    "/var/lib/rancher/rke2, GKE's /home/kubernetes/bin, Filebeat's registry /var/lib/filebeat-data, Windows paths).",
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
      if (isNodeAgent(template.owner, template.spec)) continue;
      const pinnedNode = pinnedNodeOfPod(template.spec);
      const writable = writableVolumes(template.spec);
      asArray(template.spec.volumes).forEach((volume, position) => {
        const path = dataPath(getRecord(volume, 'hostPath'));
        // Read only in every container that mounts it: the pod reads node data, it keeps none there.
        if (path !== undefined && writable.has(asString(getRecord(volume)?.name) ?? ''))
          report(context, template.owner, `${template.path}.volumes[${position}].hostPath`, path, pinnedNode);
      });
    }
    const podWrites = volumeWritesOfPods(context.index);
    for (const volume of context.index.ofKind('PersistentVolume')) {
      const spec = getRecord(volume.raw, 'spec');
      const path = dataPath(getRecord(spec, 'hostPath'));
      // Mounted by pods of the input, each read-only: they read node data (a media library), keep none.
      if (path === undefined || podWrites.get(volume) === false) continue;
      const pinnedNode = hostnameOfTerms(asArray(getRecord(spec, 'nodeAffinity', 'required')?.nodeSelectorTerms));
      report(context, volume, 'spec.hostPath', path, pinnedNode);
    }
  },
};
