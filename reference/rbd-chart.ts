import { Chart, Size } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { CephRbdStorageClass, RbdDataVolume, RbdStatefulSet } from '../constructs';

/**
 * A PostgreSQL StatefulSet on Ceph RBD, the way incidents 1 and 2 call for: a ceph-csi
 * StorageClass with every parameter the driver needs, one single-node volume per replica from
 * `volumeClaimTemplates`, a headless Service and a PodDisruptionBudget.
 *
 * The chart sets no namespace: cdk8s would stamp it onto the cluster-scoped StorageClass. The
 * workload gets its namespace from its own props.
 */
export class RbdChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { disableResourceNameHashes: true });
    const rbd = new CephRbdStorageClass(this, 'ceph-rbd', {
      name: 'ceph-rbd',
      clusterId: 'rook-ceph',
      pool: 'replicapool',
      driverName: 'rook-ceph.rbd.csi.ceph.com',
      provisionerSecret: { name: 'rook-csi-rbd-provisioner', namespace: 'rook-ceph' },
      nodeStageSecret: { name: 'rook-csi-rbd-node', namespace: 'rook-ceph' },
    });
    new RbdStatefulSet(this, 'orders-db', {
      name: 'orders-db',
      namespace: 'orders',
      storageClass: rbd,
      storage: Size.gibibytes(20),
      data: RbdDataVolume.filesystem('/var/lib/postgresql/data'),
      // The official image runs as uid 999; fsGroup makes the RBD filesystem writable for it.
      runAsUser: 999,
      fsGroup: 999,
      container: {
        name: 'postgres',
        image: 'postgres:16.4',
        env: { PGDATA: '/var/lib/postgresql/data/pgdata', POSTGRES_DB: 'orders' },
        envVars: [{ name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: 'orders-db', key: 'password' } } }],
        ports: [{ name: 'postgres', port: 5432 }],
        resources: { cpu: Cpu.millis(500), memory: Size.gibibytes(1) },
        // PostgreSQL writes its socket and lock files under /var/run/postgresql.
        readOnlyRootFilesystem: false,
        readinessProbe: { exec: { command: ['pg_isready', '-U', 'postgres'] }, periodSeconds: 10 },
      },
    });
  }
}

