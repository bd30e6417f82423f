import { Duration, Names, Size, SizeRoundingBehavior } from 'cdk8s';
import { k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { BallastGate } from './ballast-gate';
import { CephRbdStorageClass } from './ceph-rbd-storage-class';
import { StatefulContainerProps, buildContainer } from './container-spec';
import { BallastPropError } from './prop-error';
import { sizeQuantity } from './quantity';
import { DNS_LABEL } from './kubernetes-names';

/** Single-node access modes: the only ones an RBD filesystem volume honours. */
export type RbdAccessMode = 'ReadWriteOnce' | 'ReadWriteOncePod';

/** How pods are spread over nodes when there is more than one replica. */
export type HostSpreading = 'required' | 'preferred';

/** How the data volume reaches the container: a mounted filesystem or a raw block device. */
export class RbdDataVolume {
  /** A filesystem (the StorageClass's fstype) mounted at `mountPath`: what almost every application wants. */
  public static filesystem(mountPath: string): RbdDataVolume {
    return new RbdDataVolume('Filesystem', mountPath);
  }

  /** The raw RBD image as a block device at `devicePath`, for software that manages a device itself. */
  public static blockDevice(devicePath: string): RbdDataVolume {
    return new RbdDataVolume('Block', devicePath);
  }

  private constructor(public readonly volumeMode: 'Filesystem' | 'Block', public readonly path: string) {}
}

export interface RbdStatefulSetProps {
  /** The ceph-csi RBD StorageClass the claims are provisioned from. */
  readonly storageClass: CephRbdStorageClass;
  /** The container. */
  readonly container: StatefulContainerProps;
  /** Where the data volume appears in the container. */
  readonly data: RbdDataVolume;
  /** Size of each replica's volume. */
  readonly storage: Size;
  /**
   * Name of the StatefulSet (and of the Service and PodDisruptionBudget it creates).
   * @default - derived from the construct path (deterministic)
   */
  readonly name?: string;
  /**
   * Namespace.
   * @default - the chart's namespace
   */
  readonly namespace?: string;
  /**
   * Number of pods, each with its own volume.
   * @default 1
   */
  readonly replicas?: number;
  /**
   * Access mode of each claim.
   * @default 'ReadWriteOncePod' when the target Kubernetes version is 1.29 or newer (GA), else 'ReadWriteOnce'
   */
  readonly accessMode?: RbdAccessMode;
  /**
   * Whether replicas must (`required`) or should (`preferred`) run on different hosts. Ignored with one replica.
   * @default 'required' - two replicas on one host fail together
   */
  readonly hostSpreading?: HostSpreading;
  /**
   * Pod management: `OrderedReady` starts and stops pods one at a time, waiting for readiness.
   * @default 'OrderedReady'
   */
  readonly podManagementPolicy?: 'OrderedReady' | 'Parallel';
  /**
   * Time the application gets to flush and stop before it is killed.
   * @default Duration.seconds(60)
   */
  readonly terminationGracePeriod?: Duration;
  /**
   * User id the container runs as (non-root).
   * @default 1000
   */
  readonly runAsUser?: number;
  /**
   * Group that owns the volume's files, so the non-root user can write them.
   * @default 1000
   */
  readonly fsGroup?: number;
  /**
   * Name of an existing headless Service (clusterIP: None) for the pods' DNS names.
   * @default - a headless Service named like the StatefulSet is created
   */
  readonly existingServiceName?: string;
  /**
   * Pods a voluntary disruption (node drain) may take down at once. 0 blocks every drain: not allowed.
   * @default 1
   */
  readonly maxUnavailable?: number;
}

/**
 * The StatefulSet controller labels each pod `controller-revision-hash: <name>-<hash of up to 10
 * characters>`; a label value over 63 characters makes every pod creation fail.
 */
const MAX_STATEFUL_SET_NAME = 52;
/** IANA_SVC_NAME, what the API requires of a port name: the Service refers to the port by it. */
const PORT_NAME = /^(?=.{1,15}$)(?=.*[a-z])[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * A StatefulSet whose every replica owns a Ceph RBD volume (from `volumeClaimTemplates`), with
 * its headless Service and a PodDisruptionBudget: the structure incidents 1 and 2 call for. A pod
 * is replaced only after its predecessor is gone, so the image is never wanted by two nodes; the
 * claims outlive the StatefulSet (Retain/Retain) and are single-node.
 *
 * ```ts
 * new RbdStatefulSet(chart, 'orders-db', {
 *   storageClass: rbd,
 *   storage: Size.gibibytes(20),
 *   data: RbdDataVolume.filesystem('/var/lib/postgresql/data'),
 *   container: {
 *     image: 'postgres:16.4',
 *     ports: [{ name: 'postgres', port: 5432 }],
 *     resources: { cpu: Cpu.millis(500), memory: Size.gibibytes(1) },
 *     readOnlyRootFilesystem: false,
 *   },
 * });
 * ```
 */
export class RbdStatefulSet extends Construct {
  /** The StatefulSet. */
  public readonly statefulSet: k8s.KubeStatefulSet;
  /** The headless Service it created, unless an existing one was named. */
  public readonly service?: k8s.KubeService;
  /** The PodDisruptionBudget. */
  public readonly disruptionBudget: k8s.KubePodDisruptionBudget;
  /** The StatefulSet name. */
  public readonly name: string;
  /** The access mode of the claims. */
  public readonly accessMode: RbdAccessMode;

  constructor(scope: Construct, id: string, props: RbdStatefulSetProps) {
    super(scope, id);
    const version = BallastGate.of(this).kubernetesVersion;
    this.name = props.name ?? Names.toDnsLabel(this, { maxLen: MAX_STATEFUL_SET_NAME });
    const replicas = props.replicas ?? 1;
    const maxUnavailable = props.maxUnavailable ?? 1;
    const rwopSupported = version.atLeast('1.29');
    this.accessMode = props.accessMode ?? (rwopSupported ? 'ReadWriteOncePod' : 'ReadWriteOnce');
    this.validate(props, replicas, maxUnavailable, rwopSupported, version.toString());

    const labels = { 'app.kubernetes.io/name': this.name };
    const serviceName = props.existingServiceName ?? this.name;
    const metadata = { name: this.name, ...(props.namespace ? { namespace: props.namespace } : {}), labels };
    const ports = props.container.ports ?? [];

    if (props.existingServiceName === undefined) {
      this.service = new k8s.KubeService(this, 'Service', {
        metadata,
        spec: {
          clusterIp: 'None',
          // Peers must find each other while starting, before they are ready.
          publishNotReadyAddresses: true,
          selector: labels,
          ...(ports.length > 0 ? { ports: ports.map((port) => ({ name: port.name, port: port.port, targetPort: k8s.IntOrString.fromString(port.name) })) } : {}),
        },
      });
    }

    const dataVolumeName = 'data';
    const attachment = props.data.volumeMode === 'Block'
      ? { volumeDevices: [{ name: dataVolumeName, devicePath: props.data.path }] }
      : { volumeMounts: [{ name: dataVolumeName, mountPath: props.data.path }] };

    this.statefulSet = new k8s.KubeStatefulSet(this, 'Resource', {
      metadata,
      spec: {
        serviceName,
        replicas,
        podManagementPolicy: props.podManagementPolicy ?? 'OrderedReady',
        selector: { matchLabels: labels },
        ...(version.atLeast('1.27')
          ? { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' } }
          : {}),
        template: {
          metadata: { labels },
          spec: {
            terminationGracePeriodSeconds: (props.terminationGracePeriod ?? Duration.seconds(60)).toSeconds(),
            securityContext: {
              runAsNonRoot: true,
              runAsUser: props.runAsUser ?? 1000,
              runAsGroup: props.fsGroup ?? 1000,
              fsGroup: props.fsGroup ?? 1000,
              // Re-chowning a large volume on every start delays the pod by minutes.
              fsGroupChangePolicy: 'OnRootMismatch',
            },
            ...(replicas > 1 ? { affinity: { podAntiAffinity: hostAntiAffinity(props.hostSpreading ?? 'required', labels) } } : {}),
            containers: [buildContainer(props.container, attachment)],
          },
        },
        volumeClaimTemplates: [{
          metadata: { name: dataVolumeName, labels },
          spec: {
            accessModes: [this.accessMode],
            storageClassName: props.storageClass.storageClassName,
            volumeMode: props.data.volumeMode,
            resources: { requests: { storage: sizeQuantity(props.storage) } },
          },
        }],
      },
    });

    this.disruptionBudget = new k8s.KubePodDisruptionBudget(this, 'DisruptionBudget', {
      metadata,
      spec: { maxUnavailable: k8s.IntOrString.fromNumber(maxUnavailable), selector: { matchLabels: labels } },
    });
  }

  private validate(props: RbdStatefulSetProps, replicas: number, maxUnavailable: number, rwopSupported: boolean, version: string): void {
    if (!DNS_LABEL.test(this.name) || this.name.length > MAX_STATEFUL_SET_NAME) {
      throw new BallastPropError(this, 'name', this.name,
        `a StatefulSet name must be a DNS label of at most ${MAX_STATEFUL_SET_NAME} characters (it is part of every pod's host name and of its controller-revision-hash label)`,
        `use at most ${MAX_STATEFUL_SET_NAME} lower-case letters, digits and "-"`);
    }
    const portNames = new Set<string>();
    for (const port of props.container.ports ?? []) {
      if (!PORT_NAME.test(port.name) || portNames.has(port.name)) {
        throw new BallastPropError(this, 'container.ports.name', port.name,
          'a port name must be unique, at most 15 lower-case letters, digits and single "-", with at least one letter', 'use e.g. "postgres"');
      }
      portNames.add(port.name);
      if (!Number.isInteger(port.port) || port.port < 1 || port.port > 65535) {
        throw new BallastPropError(this, 'container.ports.port', port.port, 'a port number is a whole number from 1 to 65535', 'use e.g. 5432');
      }
    }
    if (!Number.isInteger(replicas) || replicas < 1) {
      throw new BallastPropError(this, 'replicas', replicas, 'a StatefulSet on RBD needs at least one pod', 'use a whole number >= 1');
    }
    if (this.accessMode === 'ReadWriteOncePod' && !rwopSupported) {
      throw new BallastPropError(this, 'accessMode', this.accessMode, `ReadWriteOncePod is GA from Kubernetes 1.29; the target is ${version}`, 'use "ReadWriteOnce", or target 1.29+ with new BallastGate(app, { kubernetesVersion })');
    }
    if (!Number.isInteger(maxUnavailable) || maxUnavailable < 1) {
      throw new BallastPropError(this, 'maxUnavailable', maxUnavailable, 'a budget of 0 blocks every node drain forever', 'use a whole number >= 1');
    }
    const grace = (props.terminationGracePeriod ?? Duration.seconds(60)).toSeconds();
    if (grace < 10) {
      throw new BallastPropError(this, 'terminationGracePeriod', `${grace}s`, 'a database killed before it flushes loses writes or replays its log', 'give it at least 10 seconds (default 60)');
    }
    if (!props.data.path.startsWith('/')) {
      throw new BallastPropError(this, 'data', props.data.path, 'a mount or device path must be absolute', 'use e.g. RbdDataVolume.filesystem("/var/lib/postgresql/data")');
    }
    const storageMiB = props.storage.toMebibytes({ rounding: SizeRoundingBehavior.NONE });
    if (!(storageMiB >= 1)) {
      throw new BallastPropError(this, 'storage', props.storage, 'ceph-csi images are at least 1 MiB', 'use e.g. Size.gibibytes(10)');
    }
    if (props.existingServiceName !== undefined && !DNS_LABEL.test(props.existingServiceName)) {
      throw new BallastPropError(this, 'existingServiceName', props.existingServiceName, 'a Service name must be a DNS label', 'name the headless Service that already exists');
    }
  }
}

function hostAntiAffinity(spreading: HostSpreading, labels: Record<string, string>): k8s.PodAntiAffinity {
  const term = { labelSelector: { matchLabels: labels }, topologyKey: 'kubernetes.io/hostname' };
  return spreading === 'required'
    ? { requiredDuringSchedulingIgnoredDuringExecution: [term] }
    : { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }] };
}
