import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-27';
import { Construct, IConstruct } from 'constructs';
import { NFS_CLIENT, asArray, asRecord, podSpecOf } from '../validators';
import { BallastGate } from './ballast-gate';
import { requireNodePrerequisite } from './node-prerequisite-affinity';
import { BallastPropError } from './prop-error';
import { DNS_SUBDOMAIN } from './kubernetes-names';

/** NFS protocol versions; pinned so every node mounts the same way. */
export enum NfsVersion {
  V3 = '3',
  V4_0 = '4.0',
  V4_1 = '4.1',
  V4_2 = '4.2',
}

export interface NfsMountOptions {
  /** The NFS protocol version (`nfsvers=`). @default NfsVersion.V4_1 */
  readonly version?: NfsVersion;
  /**
   * Mount soft instead of hard. A soft mount returns I/O errors on a timeout and can lose writes;
   * the gate warns (`nfs-soft-mount`). Only for read-mostly data that must never hang.
   * @default false (hard)
   */
  readonly soft?: boolean;
  /** Further options (`timeo=600`, `noatime`). `soft`/`hard`/`vers` belong in the typed props. @default - none */
  readonly extra?: readonly string[];
}

/** A PersistentVolume and the one claim bound to it. */
export interface NfsClaimProps {
  /** Namespace of the claim (and of the workloads mounting it). */
  readonly namespace: string;
  /** Name of the claim. @default - the construct's id */
  readonly name?: string;
  /**
   * Name of the PersistentVolume. PersistentVolumes are cluster-wide: two claims named `data` in
   * two namespaces must not share one, or the second apply rewrites the first volume's `claimRef`
   * and server. @default - `<namespace>-<claim name>`
   */
  readonly volumeName?: string;
  /** Capacity written on the PV and requested by the claim (NFS does not enforce it). @default '1Gi' */
  readonly storage?: string;
  /** @default ['ReadWriteMany'] */
  readonly accessModes?: ReadonlyArray<'ReadWriteOnce' | 'ReadOnlyMany' | 'ReadWriteMany'>;
}

export interface NfsVolumeProps {
  /** NFS server host name or IP. */
  readonly server: string;
  /** Exported path, absolute. */
  readonly path: string;
  /** Mount read-only. @default false */
  readonly readOnly?: boolean;
  /**
   * Create a PersistentVolume + claim (static binding, Retain) instead of an inline pod volume.
   * Needed for mount options: inline nfs volumes have none, so the version is not pinned.
   * @default - inline volume
   */
  readonly claim?: NfsClaimProps;
  /** Mount options of the PersistentVolume (`claim` only). @default - hard, nfsvers=4.1 */
  readonly mountOptions?: NfsMountOptions;
}

/**
 * An in-tree NFS volume. The kubelet mounts it with the host's own `mount.nfs`, so every workload
 * that mounts it through {@link NfsVolume.mountIn} gets a REQUIRED node affinity on the
 * `nfs-client` prerequisite label (set by the node-config Pulumi stack once the package is installed
 * and verified), merged with its own affinity. The PV carries the same affinity.
 *
 * Choose this when the nodes can be prepared (the node-config stack) and you want no extra
 * component in the cluster. Choose {@link NfsCsiStorageClass} (csi-driver-nfs) when you cannot
 * install packages on the nodes (Flatcar, Bottlerocket, managed pools), need dynamic provisioning
 * of sub-directories, or already run the driver.
 *
 * ```ts
 * const shared = new NfsVolume(chart, 'shared', { server: 'nfs.example.com', path: '/exports/shared', claim: { namespace: 'shop' } });
 * shared.mountIn(deployment); // cdk8s-plus or k8s.KubeDeployment; add the volumeMount to the container
 * ```
 */
export class NfsVolume extends Construct {
  /** The pod volume (`{name, nfs}` inline or `{name, persistentVolumeClaim}`). */
  public readonly volume: k8s.Volume;
  public readonly persistentVolume?: k8s.KubePersistentVolume;
  public readonly persistentVolumeClaim?: k8s.KubePersistentVolumeClaim;

  constructor(scope: Construct, id: string, props: NfsVolumeProps) {
    super(scope, id);
    BallastGate.of(this);
    if (!/^[A-Za-z0-9.:\-[\]]+$/.test(props.server)) {
      throw new BallastPropError(this, 'server', props.server, 'not a host name or IP address', 'use e.g. "nfs.example.com" or "10.0.0.5"');
    }
    if (!props.path.startsWith('/')) throw new BallastPropError(this, 'path', props.path, 'the export path must be absolute', 'use e.g. "/exports/shared"');
    if (props.mountOptions && !props.claim) {
      throw new BallastPropError(this, 'mountOptions', props.mountOptions, 'inline nfs volumes have no mount options',
        'set `claim` to get a PersistentVolume, which carries them');
    }
    for (const option of props.mountOptions?.extra ?? []) {
      if (/^(soft|hard|(nfs)?vers=.*)$/.test(option) || option.includes(',')) {
        throw new BallastPropError(this, 'mountOptions.extra', option, 'soft/hard/version are typed props and options go one per entry',
          'use mountOptions.soft / mountOptions.version');
      }
    }
    const nfs = { server: props.server, path: props.path, ...(props.readOnly ? { readOnly: true } : {}) };
    const volumeName = 'nfs-' + id.toLowerCase().replace(/[^a-z0-9-]/g, '-');
    if (!props.claim) {
      this.volume = { name: volumeName, nfs };
      return;
    }
    const name = props.claim.name ?? id.toLowerCase();
    if (!DNS_SUBDOMAIN.test(name)) {
      throw new BallastPropError(this, 'claim.name', name, 'the claim name must be a DNS subdomain',
        'set claim.name to lower-case letters, digits, "-" and ".", e.g. "reports"');
    }
    const persistentVolumeName = props.claim.volumeName ?? `${props.claim.namespace}-${name}`;
    if (!DNS_SUBDOMAIN.test(persistentVolumeName)) {
      throw new BallastPropError(this, 'claim.volumeName', persistentVolumeName, 'the PersistentVolume name must be a DNS subdomain',
        'set claim.volumeName to at most 253 lower-case letters, digits, "-" and ".", e.g. "analytics-reports"');
    }
    const storage = props.claim.storage ?? '1Gi';
    const accessModes = [...(props.claim.accessModes ?? ['ReadWriteMany'])];
    const options = props.mountOptions ?? {};
    this.persistentVolume = new k8s.KubePersistentVolume(this, 'volume', {
      metadata: { name: persistentVolumeName },
      spec: {
        capacity: { storage: k8s.Quantity.fromString(storage) },
        accessModes,
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: '',
        mountOptions: [options.soft ? 'soft' : 'hard', `nfsvers=${options.version ?? NfsVersion.V4_1}`, ...(options.extra ?? [])],
        claimRef: { namespace: props.claim.namespace, name },
        nfs,
        nodeAffinity: {
          required: { nodeSelectorTerms: [{ matchExpressions: [{ key: NFS_CLIENT.label.key, operator: 'In', values: [NFS_CLIENT.label.value] }] }] },
        },
      },
    });
    this.persistentVolumeClaim = new k8s.KubePersistentVolumeClaim(this, 'claim', {
      metadata: { name, namespace: props.claim.namespace },
      spec: { accessModes, storageClassName: '', volumeName: persistentVolumeName, resources: { requests: { storage: k8s.Quantity.fromString(storage) } } },
    });
    this.volume = { name: volumeName, persistentVolumeClaim: { claimName: name, ...(props.readOnly ? { readOnly: true } : {}) } };
  }

  /**
   * Adds the volume to the workload's pod template (unless a volume of that name is already there,
   * e.g. added through cdk8s-plus) and requires nodes with an NFS client. Mount it in containers
   * with `volumeMounts: [{name: nfs.volume.name, mountPath}]`.
   */
  public mountIn(workload: IConstruct): void {
    requireNodePrerequisite(workload, NFS_CLIENT);
    const apiObject = ApiObject.isApiObject(workload) ? workload : workload.node.children.find((c): c is ApiObject => ApiObject.isApiObject(c));
    if (!apiObject) return;
    const toJson = apiObject.toJson.bind(apiObject);
    const volume = this.volume;
    apiObject.toJson = () => {
      const json = toJson();
      const location = podSpecOf(apiObject.kind, json);
      if (location) {
        const volumes = asArray(location.spec.volumes).slice();
        if (!volumes.some((existing) => asRecord(existing)?.name === volume.name)) volumes.push(JSON.parse(JSON.stringify(volume)));
        location.spec.volumes = volumes;
      }
      return json;
    };
  }
}
