import { Chart } from 'cdk8s';
import * as plus from 'cdk8s-plus-27';
import { k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { NfsCsiStorageClass, NfsVersion, NfsVolume } from '../constructs';

/**
 * Two ways to NFS, in a chart with a namespace: the cluster-scoped PersistentVolume and
 * StorageClass come out without it, the claims and workloads in it. In-tree: a static PV + claim, mounted by a cdk8s-plus Deployment, which gets a
 * required node affinity on `node.ballast.dev/nfs-client` (nodes prepared by the node-config
 * stack). csi-driver-nfs: a StorageClass and a claim, mounted by a k8s.KubeDeployment, no node
 * affinity needed.
 */
export class NfsChart extends Chart {
  constructor(scope: Construct, id: string) {
    super(scope, id, { namespace: 'analytics', disableResourceNameHashes: true });
    const reports = new NfsVolume(this, 'reports', {
      server: 'nfs.example.com',
      path: '/exports/reports',
      claim: { namespace: 'analytics', name: 'reports', storage: '100Gi' },
      mountOptions: { version: NfsVersion.V4_1 },
    });
    const viewer = new plus.Deployment(this, 'report-viewer', {
      metadata: { name: 'report-viewer' },
      replicas: 2,
    });
    const container = viewer.addContainer({
      name: 'viewer',
      image: 'nginx:1.27',
      portNumber: 8080,
      securityContext: { user: 101, group: 101 },
    });
    // The user's own affinity stays: the prerequisite is added to it.
    viewer.scheduling.attract(plus.Node.labeled(plus.NodeLabelQuery.is('topology.kubernetes.io/zone', 'eu-west-1a')));
    container.mount(
      '/usr/share/nginx/html',
      plus.Volume.fromPersistentVolumeClaim(
        this,
        'reports-volume',
        plus.PersistentVolumeClaim.fromClaimName(this, 'reports-claim', 'reports'),
        { name: reports.volume.name, readOnly: true },
      ),
    );
    reports.mountIn(viewer);

    const uploads = new NfsCsiStorageClass(this, 'nfs-csi', {
      server: 'nfs.example.com',
      share: '/exports/dynamic',
      subDir: '${pvc.metadata.namespace}/${pvc.metadata.name}',
    });
    new k8s.KubePersistentVolumeClaim(this, 'uploads', {
      metadata: { name: 'uploads' },
      spec: {
        accessModes: ['ReadWriteMany'],
        storageClassName: uploads.name,
        resources: { requests: { storage: k8s.Quantity.fromString('20Gi') } },
      },
    });
    new k8s.KubeDeployment(this, 'uploader', {
      metadata: { name: 'uploader' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'uploader' } },
        template: {
          metadata: { labels: { app: 'uploader' } },
          spec: {
            containers: [
              {
                name: 'uploader',
                image: 'busybox:1.36',
                command: ['sh', '-c', 'sleep infinity'],
                volumeMounts: [{ name: 'uploads', mountPath: '/data' }],
              },
            ],
            volumes: [{ name: 'uploads', persistentVolumeClaim: { claimName: 'uploads' } }],
          },
        },
      },
    });
  }
}
