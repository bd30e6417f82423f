import { k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { BallastGate } from './ballast-gate';
import { keepClusterScoped } from './cluster-scope';
import { NfsMountOptions, NfsVersion } from './nfs-volume';
import { PropProblems } from './prop-error';
import { DNS_SUBDOMAIN } from './kubernetes-names';

export interface NfsCsiStorageClassProps {
  /** Name of the StorageClass. @default - the construct's id */
  readonly name?: string;
  /** NFS server host name or IP (`parameters.server`). */
  readonly server: string;
  /** Exported path under which volumes are created (`parameters.share`), absolute. */
  readonly share: string;
  /**
   * Sub-directory per volume (`parameters.subDir`); may use the driver's templates such as
   * `${pvc.metadata.namespace}/${pvc.metadata.name}`.
   * @default - the driver's default (a directory named after the PV)
   */
  readonly subDir?: string;
  /** @default - hard, nfsvers=4.1 */
  readonly mountOptions?: NfsMountOptions;
  /** Retain keeps the directory when the claim is deleted. @default 'Retain' */
  readonly reclaimPolicy?: 'Retain' | 'Delete';
}

/**
 * A csi-driver-nfs (`nfs.csi.k8s.io`) StorageClass. The driver's node plugin carries its own mount
 * helper, so nodes need no NFS package and workloads need no node affinity; it also provisions a
 * sub-directory per claim.
 *
 * Choose it when you cannot (or do not want to) install packages on the nodes — immutable OSes,
 * managed node pools — or want dynamic provisioning. It requires csi-driver-nfs installed in the
 * cluster. Choose {@link NfsVolume} (in-tree) for a fixed export on nodes prepared by the
 * node-config stack, with no extra component in the cluster.
 */
export class NfsCsiStorageClass extends Construct {
  public readonly storageClass: k8s.KubeStorageClass;
  public readonly name: string;

  constructor(scope: Construct, id: string, props: NfsCsiStorageClassProps) {
    super(scope, id);
    BallastGate.of(this);
    const problems = new PropProblems();
    if ((props.server ?? '').trim() === '')
      problems.add('server', props.server, 'empty', 'set the NFS server host name or IP');
    if (!(props.share ?? '').startsWith('/'))
      problems.add('share', props.share, 'the share must be an absolute path', 'use e.g. "/exports"');
    const options = props.mountOptions ?? {};
    (options.extra ?? []).forEach((option, index) => {
      if (/^(soft|hard|(nfs)?vers=.*)$/.test(option) || option.includes(',')) {
        problems.add(
          `mountOptions.extra[${index}]`,
          option,
          'soft/hard/version are typed props and options go one per entry',
          'use mountOptions.soft / mountOptions.version',
        );
      }
    });
    this.name = props.name ?? id.toLowerCase();
    if (!DNS_SUBDOMAIN.test(this.name)) {
      problems.add(
        'name',
        this.name,
        'a StorageClass name must be a DNS subdomain',
        'use lower-case letters, digits, "-" and ".", e.g. "nfs-csi"',
      );
    }
    problems.throwIfAny(this);
    this.storageClass = new k8s.KubeStorageClass(this, 'class', {
      metadata: { name: this.name },
      provisioner: 'nfs.csi.k8s.io',
      parameters: { server: props.server, share: props.share, ...(props.subDir ? { subDir: props.subDir } : {}) },
      reclaimPolicy: props.reclaimPolicy ?? 'Retain',
      volumeBindingMode: 'Immediate',
      mountOptions: [
        options.soft ? 'soft' : 'hard',
        `nfsvers=${options.version ?? NfsVersion.V4_1}`,
        ...(options.extra ?? []),
      ],
    });
    // StorageClasses are cluster-scoped: a namespace from the chart must not stay on it.
    keepClusterScoped(this.storageClass);
  }
}
