import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';

/**
 * A pre-provisioned (static) ceph-csi volume and the claim reserved for it, written as raw
 * ApiObjects: the synth gate checks objects like these as strictly as ballast's own constructs.
 * The PV carries no namespace (PVs are cluster-scoped), keeps its data on release (Retain) and is
 * reserved for exactly one claim by `claimRef`.
 *
 * The chart sets no namespace on purpose: cdk8s stamps a Chart's `namespace` onto every object,
 * cluster-scoped PersistentVolumes included, and the gate would refuse that
 * (`persistent-volume-with-namespace`).
 */
export class StaticVolumeChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { disableResourceNameHashes: true });
    new ApiObject(this, 'volume', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'archive-2024' },
      spec: {
        capacity: { storage: '50Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: '',
        claimRef: { namespace: 'archive', name: 'archive-2024' },
        csi: {
          driver: 'rbd.csi.ceph.com',
          volumeHandle: '0001-0009-rook-ceph-0000000000000002-archive-2024',
          fsType: 'ext4',
          volumeAttributes: {
            clusterID: 'rook-ceph',
            pool: 'replicapool',
            staticVolume: 'true',
            imageFeatures: 'layering',
          },
          nodeStageSecretRef: { name: 'csi-rbd-node', namespace: 'ceph-csi' },
        },
      },
    });
    new ApiObject(this, 'claim', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'archive-2024', namespace: 'archive' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: '',
        volumeName: 'archive-2024',
        resources: { requests: { storage: '50Gi' } },
      },
    });
  }
}
