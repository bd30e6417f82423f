/** Small object builders shared by the stateful-storage rule tests. */

export const claim = (name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, ...metadata },
  spec: { resources: { requests: { storage: '10Gi' } }, ...spec },
});

export const volume = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: { capacity: { storage: '10Gi' }, persistentVolumeReclaimPolicy: 'Retain', ...spec },
});

export const storageClass = (
  name: string,
  provisioner: string,
  parameters: Record<string, string> = {},
  extra: Record<string, unknown> = {},
) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner,
  parameters,
  ...extra,
});

export const podSpec = (volumes: unknown[], extra: Record<string, unknown> = {}) => ({
  // The container mounts every named volume, as a pod does that uses its volumes.
  containers: [
    {
      name: 'app',
      image: 'postgres:16',
      volumeMounts: volumes.flatMap((volume) => {
        const name = (volume as { name?: unknown } | null)?.name;
        return typeof name === 'string' ? [{ name, mountPath: `/mnt/${name}` }] : [];
      }),
    },
  ],
  volumes,
  ...extra,
});

/** A workload of `kind` with a pod template; `spec` is merged into its spec. */
export const workload = (
  kind: string,
  name: string,
  pod: Record<string, unknown>,
  spec: Record<string, unknown> = {},
) => ({
  apiVersion: kind === 'ReplicationController' ? 'v1' : 'apps/v1',
  kind,
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: pod },
    ...spec,
  },
});

export const claimVolume = (claimName: string, readOnly?: boolean) => ({
  name: 'data',
  persistentVolumeClaim: { claimName, ...(readOnly === undefined ? {} : { readOnly }) },
});

export const CEPH_CSI_PARAMETERS: Record<string, string> = {
  clusterID: 'rook-ceph',
  pool: 'replicapool',
  'csi.storage.k8s.io/provisioner-secret-name': 'csi-rbd-provisioner',
  'csi.storage.k8s.io/provisioner-secret-namespace': 'ceph-csi',
  'csi.storage.k8s.io/node-stage-secret-name': 'csi-rbd-node',
  'csi.storage.k8s.io/node-stage-secret-namespace': 'ceph-csi',
};
