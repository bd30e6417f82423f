import { Names } from 'cdk8s';
import { k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { BallastGate } from './ballast-gate';
import { keepClusterScoped } from './cluster-scope';
import { PropProblems } from './prop-error';
import { DNS_LABEL, DNS_SUBDOMAIN } from './kubernetes-names';

/** A Secret referenced by name and namespace: the key material stays in the cluster, never in props. */
export interface CephSecretReference {
  /** Secret name. */
  readonly name: string;
  /** Namespace of the Secret (usually where ceph-csi runs). */
  readonly namespace: string;
}

/** Filesystems ceph-csi formats RBD images with. */
export type RbdFsType = 'ext4' | 'xfs';

/**
 * RBD image features. The kernel client (krbd) maps `layering`, `exclusive-lock`, `object-map`,
 * `fast-diff` and `deep-flatten`; `journaling` needs the rbd-nbd mounter.
 */
export type RbdImageFeature =
  'layering' | 'exclusive-lock' | 'object-map' | 'fast-diff' | 'deep-flatten' | 'journaling';

/** What the StorageClass does with the image when its claim is deleted. */
export type RbdReclaimPolicy = 'Retain' | 'Delete';

export interface CephRbdStorageClassProps {
  /**
   * The StorageClass name, which claims reference in `storageClassName`.
   * @default - derived from the construct path (deterministic)
   */
  readonly name?: string;
  /** The ceph-csi cluster id: the `clusterID` of an entry in ceph-csi's `ceph-csi-config` ConfigMap (Rook: the cluster namespace). */
  readonly clusterId: string;
  /** The RBD pool the images are created in. */
  readonly pool: string;
  /** Secret with the Ceph user the provisioner creates and deletes images as. */
  readonly provisionerSecret: CephSecretReference;
  /** Secret with the Ceph user the node plugin maps images as. */
  readonly nodeStageSecret: CephSecretReference;
  /**
   * Secret with the Ceph user the resizer grows images as (volume expansion is on).
   * @default - the provisioner secret
   */
  readonly controllerExpandSecret?: CephSecretReference;
  /**
   * Filesystem created on each image.
   * @default 'ext4'
   */
  readonly fsType?: RbdFsType;
  /**
   * Image features. Only what the nodes' kernel client supports: an unsupported feature makes
   * mapping fail on the node.
   * @default ['layering']
   */
  readonly imageFeatures?: readonly RbdImageFeature[];
  /**
   * What happens to the image when its claim is deleted.
   * @default 'Retain' - the image holds someone's data; deleting it is an explicit choice
   */
  readonly reclaimPolicy?: RbdReclaimPolicy;
  /**
   * The CSI driver name. Rook deploys ceph-csi as `<operator-namespace>.rbd.csi.ceph.com`.
   * @default 'rbd.csi.ceph.com'
   */
  readonly driverName?: string;
  /**
   * Mount options for the filesystem.
   * @default - none
   */
  readonly mountOptions?: readonly string[];
}

const SECRET_PARAMETER = 'csi.storage.k8s.io';

/** Ceph refuses these features unless the feature they build on is enabled too. */
const FEATURE_DEPENDENCIES: ReadonlyArray<[feature: RbdImageFeature, needs: RbdImageFeature]> = [
  ['object-map', 'exclusive-lock'],
  ['fast-diff', 'object-map'],
  ['journaling', 'exclusive-lock'],
];

/**
 * A ceph-csi RBD StorageClass with every parameter the driver needs: cluster, pool, and the
 * provisioner, node-stage and controller-expand secrets by reference. Volumes are expandable,
 * bound only when the first pod is scheduled (`WaitForFirstConsumer`, so the image is created
 * where the pod can reach it) and retained when their claim is deleted.
 *
 * ```ts
 * const rbd = new CephRbdStorageClass(chart, 'rbd', {
 *   clusterId: 'rook-ceph',
 *   pool: 'replicapool',
 *   provisionerSecret: { name: 'rook-csi-rbd-provisioner', namespace: 'rook-ceph' },
 *   nodeStageSecret: { name: 'rook-csi-rbd-node', namespace: 'rook-ceph' },
 * });
 * ```
 */
export class CephRbdStorageClass extends Construct {
  /** The name claims use in `storageClassName`. */
  public readonly storageClassName: string;
  /** The CSI driver (provisioner) name. */
  public readonly driverName: string;
  /** The filesystem formatted on each image. */
  public readonly fsType: RbdFsType;
  /** The underlying API object. */
  public readonly resource: k8s.KubeStorageClass;

  constructor(scope: Construct, id: string, props: CephRbdStorageClassProps) {
    super(scope, id);
    BallastGate.of(this);
    this.driverName = props.driverName ?? 'rbd.csi.ceph.com';
    this.fsType = props.fsType ?? 'ext4';
    this.storageClassName = props.name ?? Names.toDnsLabel(this);
    this.validate(props);

    const expandSecret = props.controllerExpandSecret ?? props.provisionerSecret;
    const features = props.imageFeatures ?? ['layering'];
    this.resource = new k8s.KubeStorageClass(this, 'Resource', {
      metadata: { name: this.storageClassName },
      provisioner: this.driverName,
      parameters: {
        clusterID: props.clusterId,
        pool: props.pool,
        imageFeatures: features.join(','),
        [`${SECRET_PARAMETER}/fstype`]: this.fsType,
        ...secretParameters('provisioner', props.provisionerSecret),
        ...secretParameters('controller-expand', expandSecret),
        ...secretParameters('node-stage', props.nodeStageSecret),
      },
      reclaimPolicy: props.reclaimPolicy ?? 'Retain',
      allowVolumeExpansion: true,
      volumeBindingMode: 'WaitForFirstConsumer',
      ...(props.mountOptions && props.mountOptions.length > 0 ? { mountOptions: [...props.mountOptions] } : {}),
    });
    // StorageClasses are cluster-scoped: a namespace from the chart must not stay on it.
    keepClusterScoped(this.resource);
  }

  private validate(props: CephRbdStorageClassProps): void {
    const problems = new PropProblems();
    if (!DNS_SUBDOMAIN.test(this.storageClassName)) {
      problems.add(
        'name',
        this.storageClassName,
        'a StorageClass name must be a DNS subdomain',
        'use lower-case letters, digits, "-" and "."',
      );
    }
    if ((props.clusterId ?? '').trim() === '') {
      problems.add(
        'clusterId',
        props.clusterId,
        'ceph-csi needs the cluster id to find the monitors',
        'use the clusterID of your ceph-csi-config entry (Rook: the cluster namespace)',
      );
    }
    if ((props.pool ?? '').trim() === '') {
      problems.add(
        'pool',
        props.pool,
        'ceph-csi needs a pool to create images in',
        'name an existing RBD pool, e.g. "replicapool"',
      );
    }
    if (!(this.driverName === 'rbd.csi.ceph.com' || this.driverName.endsWith('.rbd.csi.ceph.com'))) {
      problems.add(
        'driverName',
        this.driverName,
        'this construct only writes ceph-csi RBD parameters',
        'use "rbd.csi.ceph.com" or Rook\'s "<namespace>.rbd.csi.ceph.com"',
      );
    }
    const secrets: Array<[string, CephSecretReference | undefined]> = [
      ['provisionerSecret', props.provisionerSecret],
      ['nodeStageSecret', props.nodeStageSecret],
      ['controllerExpandSecret', props.controllerExpandSecret],
    ];
    for (const [prop, secret] of secrets) {
      if (!secret) {
        if (prop !== 'controllerExpandSecret')
          problems.add(prop, secret, 'ceph-csi needs this Secret', 'name the Secret and its namespace');
        continue;
      }
      if (!DNS_SUBDOMAIN.test(secret.name ?? '')) {
        problems.add(
          `${prop}.name`,
          secret.name,
          'a Secret name must be a DNS subdomain',
          'name the existing Secret that holds the Ceph user key',
        );
      }
      if (!DNS_LABEL.test(secret.namespace ?? '')) {
        problems.add(
          `${prop}.namespace`,
          secret.namespace,
          'a namespace must be a DNS label',
          'name the namespace the Secret lives in, e.g. "ceph-csi"',
        );
      }
    }
    const features = props.imageFeatures ?? ['layering'];
    if (features.length === 0) {
      problems.add('imageFeatures', features, 'an image needs at least the layering feature', 'use ["layering"]');
    }
    for (const [feature, needs] of FEATURE_DEPENDENCIES) {
      if (features.includes(feature) && !features.includes(needs)) {
        problems.add(
          'imageFeatures',
          features,
          `Ceph refuses ${feature} without ${needs}`,
          `add "${needs}" or drop "${feature}"`,
        );
      }
    }
    problems.throwIfAny(this);
  }
}

function secretParameters(kind: string, secret: CephSecretReference): Record<string, string> {
  return {
    [`${SECRET_PARAMETER}/${kind}-secret-name`]: secret.name,
    [`${SECRET_PARAMETER}/${kind}-secret-namespace`]: secret.namespace,
  };
}
