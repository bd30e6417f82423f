import { Chart, Size } from 'cdk8s';
import { Cpu, k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { CephRbdStorageClass, RbdDataVolume, RbdStatefulSet } from '../constructs';

/**
 * A PostgreSQL StatefulSet on Ceph RBD, the way incidents 1 and 2 call for: a ceph-csi
 * StorageClass with every parameter the driver needs, one single-node volume per replica from
 * `volumeClaimTemplates`, a headless Service and a PodDisruptionBudget. The pod is a real
 * database's: its own ServiceAccount, dedicated storage nodes (toleration + node selector), an
 * init container that checks the data directory, a metrics exporter sidecar, a startup probe for
 * crash recovery, credentials from a Secret, scrape annotations.
 *
 * The chart has a namespace; the StorageClass, cluster-scoped, comes out without it.
 */
export class RbdChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'orders', disableResourceNameHashes: true });
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
      storageClass: rbd,
      storage: Size.gibibytes(20),
      data: RbdDataVolume.filesystem('/var/lib/postgresql/data'),
      // The official image runs as uid 999; fsGroup makes the RBD filesystem writable for it.
      runAsUser: 999,
      fsGroup: 999,
      serviceAccountName: 'orders-db',
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'databases', effect: 'NoSchedule' }],
      nodeSelector: { 'node.example.com/pool': 'databases' },
      podAnnotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9187' },
      podLabels: { 'app.kubernetes.io/part-of': 'orders' },
      initContainers: [
        {
          name: 'check-data-dir',
          image: 'postgres:16.4',
          command: ['sh', '-c', 'test ! -e /var/lib/postgresql/data/pgdata || test -O /var/lib/postgresql/data/pgdata'],
          volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
          securityContext: {
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          },
          resources: {
            requests: { cpu: k8s.Quantity.fromString('50m'), memory: k8s.Quantity.fromString('64Mi') },
            limits: { memory: k8s.Quantity.fromString('64Mi') },
          },
        },
      ],
      sidecars: [
        {
          name: 'metrics',
          image: 'quay.io/prometheuscommunity/postgres-exporter:v0.15.0',
          ports: [{ name: 'metrics', containerPort: 9187 }],
          env: [{ name: 'DATA_SOURCE_URI', value: 'localhost:5432/orders?sslmode=disable' }],
          envFrom: [{ secretRef: { name: 'orders-db-exporter' } }],
          securityContext: {
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          },
          resources: {
            requests: { cpu: k8s.Quantity.fromString('50m'), memory: k8s.Quantity.fromString('64Mi') },
            limits: { memory: k8s.Quantity.fromString('64Mi') },
          },
        },
      ],
      container: {
        name: 'postgres',
        image: 'postgres:16.4',
        env: { PGDATA: '/var/lib/postgresql/data/pgdata', POSTGRES_DB: 'orders' },
        envVars: [{ name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: 'orders-db', key: 'password' } } }],
        ports: [{ name: 'postgres', port: 5432 }],
        resources: { cpu: Cpu.millis(500), memory: Size.gibibytes(1) },
        // PostgreSQL writes its socket and lock files under /var/run/postgresql.
        readOnlyRootFilesystem: false,
        envFrom: [{ configMapRef: { name: 'orders-db-tuning' } }],
        readinessProbe: { exec: { command: ['pg_isready', '-U', 'postgres'] }, periodSeconds: 10 },
        // Crash recovery replays the WAL: up to 10 minutes before liveness may restart it.
        startupProbe: { exec: { command: ['pg_isready', '-U', 'postgres'] }, periodSeconds: 10, failureThreshold: 60 },
      },
    });
  }
}
