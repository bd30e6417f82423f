import { ApiObject, JsonPatch } from 'cdk8s';
import { k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { JsonRecord, NFS_CLIENT, asArray, asRecord, podSpecOf } from '../validators';
import { BallastGate } from './ballast-gate';
import { keepClusterScoped } from './cluster-scope';
import { requireNodePrerequisite } from './node-prerequisite-affinity';
import { BallastPropError, PropProblems } from './prop-error';
import { DNS_LABEL, DNS_SUBDOMAIN } from './kubernetes-names';
import { WorkloadLike, podTemplateOf, workloadPath } from './workload';

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
  /** The claim's namespace, when there is a claim. */
  public readonly claimNamespace?: string;
  private readonly mountedIn: ApiObject[] = [];

  constructor(scope: Construct, id: string, props: NfsVolumeProps) {
    super(scope, id);
    BallastGate.of(this);
    const problems = new PropProblems();
    if (!/^[A-Za-z0-9.:\-[\]]+$/.test(props.server ?? '')) {
      problems.add('server', props.server, 'not a host name or IP address', 'use e.g. "nfs.example.com" or "10.0.0.5"');
    }
    if (!(props.path ?? '').startsWith('/'))
      problems.add('path', props.path, 'the export path must be absolute', 'use e.g. "/exports/shared"');
    if (props.mountOptions && !props.claim) {
      problems.add(
        'mountOptions',
        props.mountOptions,
        'inline nfs volumes have no mount options',
        'set `claim` to get a PersistentVolume, which carries them',
      );
    }
    (props.mountOptions?.extra ?? []).forEach((option, index) => {
      if (/^(soft|hard|(nfs)?vers=.*)$/.test(option) || option.includes(',')) {
        problems.add(
          `mountOptions.extra[${index}]`,
          option,
          'soft/hard/version are typed props and options go one per entry',
          'use mountOptions.soft / mountOptions.version',
        );
      }
    });
    this.node.addValidation({ validate: () => this.checkMounts() });
    const nfs = { server: props.server, path: props.path, ...(props.readOnly ? { readOnly: true } : {}) };
    const volumeName = 'nfs-' + id.toLowerCase().replace(/[^a-z0-9-]/g, '-');
    if (!props.claim) {
      problems.throwIfAny(this);
      this.volume = { name: volumeName, nfs };
      return;
    }
    const name = props.claim.name ?? id.toLowerCase();
    if (!DNS_LABEL.test(props.claim.namespace ?? '')) {
      problems.add(
        'claim.namespace',
        props.claim.namespace,
        'a namespace must be a DNS label',
        'use lower-case letters, digits and "-", e.g. "analytics"',
      );
    }
    if (!DNS_SUBDOMAIN.test(name)) {
      problems.add(
        'claim.name',
        name,
        'the claim name must be a DNS subdomain',
        'set claim.name to lower-case letters, digits, "-" and ".", e.g. "reports"',
      );
    }
    const persistentVolumeName = props.claim.volumeName ?? `${props.claim.namespace}-${name}`;
    if (!DNS_SUBDOMAIN.test(persistentVolumeName)) {
      problems.add(
        'claim.volumeName',
        persistentVolumeName,
        'the PersistentVolume name must be a DNS subdomain',
        'set claim.volumeName to at most 253 lower-case letters, digits, "-" and ".", e.g. "analytics-reports"',
      );
    }
    const storage = props.claim.storage ?? '1Gi';
    if (!/^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/.test(storage)) {
      problems.add('claim.storage', storage, 'not a Kubernetes quantity', 'use e.g. "100Gi"');
    }
    problems.throwIfAny(this);
    const accessModes = [...(props.claim.accessModes ?? ['ReadWriteMany'])];
    const options = props.mountOptions ?? {};
    this.claimNamespace = props.claim.namespace;
    this.persistentVolume = new k8s.KubePersistentVolume(this, 'volume', {
      metadata: { name: persistentVolumeName },
      spec: {
        capacity: { storage: k8s.Quantity.fromString(storage) },
        accessModes,
        persistentVolumeReclaimPolicy: 'Retain',
        storageClassName: '',
        mountOptions: [
          options.soft ? 'soft' : 'hard',
          `nfsvers=${options.version ?? NfsVersion.V4_1}`,
          ...(options.extra ?? []),
        ],
        claimRef: { namespace: props.claim.namespace, name },
        nfs,
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: NFS_CLIENT.label.key, operator: 'In', values: [NFS_CLIENT.label.value] }] },
            ],
          },
        },
      },
    });
    // PersistentVolumes are cluster-scoped: a namespace from the chart must not stay on it.
    keepClusterScoped(this.persistentVolume);
    this.persistentVolumeClaim = new k8s.KubePersistentVolumeClaim(this, 'claim', {
      metadata: { name, namespace: props.claim.namespace },
      spec: {
        accessModes,
        storageClassName: '',
        volumeName: persistentVolumeName,
        resources: { requests: { storage: k8s.Quantity.fromString(storage) } },
      },
    });
    this.volume = {
      name: volumeName,
      persistentVolumeClaim: { claimName: name, ...(props.readOnly ? { readOnly: true } : {}) },
    };
  }

  /**
   * Adds the volume to the workload's pod template (unless a volume of that name is already there,
   * e.g. added through cdk8s-plus) and requires nodes with an NFS client; both are JSON patches on
   * the workload's ApiObject. Mount it in containers with `volumeMounts: [{name: nfs.volume.name,
   * mountPath}]` (or a cdk8s-plus `containers[0].mount` of a volume with that name).
   *
   * Call it after the workload's own volumes and affinity are set: a synth validation refuses a
   * workload whose later changes dropped the volume or let it escape the affinity.
   *
   * @param workload a cdk8s-plus workload of any line, a `k8s.Kube*` workload or a raw ApiObject
   * @throws BallastPropError when the workload is in another namespace than the claim
   */
  public mountIn(workload: WorkloadLike): void {
    const template = podTemplateOf(workload, this, 'mountIn(workload)');
    if (
      this.claimNamespace !== undefined &&
      template.namespace !== undefined &&
      template.namespace !== this.claimNamespace
    ) {
      throw new BallastPropError(
        this,
        'mountIn(workload)',
        workloadPath(workload),
        `the workload is in namespace "${template.namespace}" but the claim is in namespace "${this.claimNamespace}"; ` +
          'a pod can only use claims of its own namespace',
        `set claim.namespace to "${template.namespace}", or mount a claim made in "${this.claimNamespace}" into a workload there`,
      );
    }
    const volumes = template.podSpec.volumes;
    if (!asArray(volumes).some((existing) => asRecord(existing)?.name === this.volume.name)) {
      const volume = JSON.parse(JSON.stringify(this.volume)) as JsonRecord;
      template.apiObject.addJsonPatch(
        Array.isArray(volumes)
          ? JsonPatch.add(`${template.pointer}/volumes/-`, volume)
          : JsonPatch.add(`${template.pointer}/volumes`, [volume]),
      );
    }
    requireNodePrerequisite(workload, NFS_CLIENT, this);
    if (!this.mountedIn.includes(template.apiObject)) this.mountedIn.push(template.apiObject);
  }

  /**
   * Validation: every workload it was mounted in still has the volume when synthesized, and no
   * container mounts a volume the pod lacks (the volumes patch replaced volumes added after mountIn).
   */
  private checkMounts(): string[] {
    return this.mountedIn.flatMap((apiObject) => {
      const location = podSpecOf(apiObject.kind, apiObject.toJson() as JsonRecord);
      if (!location) return [];
      const volumes = new Set(asArray(location.spec.volumes).map((v) => asRecord(v)?.name));
      const errors: string[] = [];
      const where = `${apiObject.kind} ${apiObject.node.path}`;
      if (!volumes.has(this.volume.name))
        errors.push(`${where} no longer has volume ${this.volume.name}: call mountIn last.`);
      for (const key of ['initContainers', 'containers']) {
        for (const container of asArray(location.spec[key])) {
          for (const mount of asArray(asRecord(container)?.volumeMounts)) {
            const name = asRecord(mount)?.name;
            if (typeof name === 'string' && !volumes.has(name)) {
              errors.push(
                `${where}: container ${String(asRecord(container)?.name)} mounts volume "${name}", which the pod no longer has: ` +
                  `volumes added after ${this.node.path}.mountIn were replaced by its patch; call mountIn last.`,
              );
            }
          }
        }
      }
      return errors;
    });
  }
}
