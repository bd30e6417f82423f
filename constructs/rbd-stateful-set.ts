import { Duration, Names, Size, SizeRoundingBehavior } from 'cdk8s';
import { k8s } from 'cdk8s-plus-27';
import { Construct } from 'constructs';
import { BallastGate } from './ballast-gate';
import { CephRbdStorageClass } from './ceph-rbd-storage-class';
import { StatefulContainerProps, buildContainer } from './container-spec';
import { PropProblems } from './prop-error';
import { sizeQuantity } from './quantity';
import { DNS_LABEL } from './kubernetes-names';
import {
  DATA_VOLUME_NAME,
  SELECTOR_LABEL,
  StatefulPodProps,
  checkStatefulPod,
  mergeAffinity,
  podFields,
  podMetadata,
} from './stateful-pod';

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

  private constructor(
    public readonly volumeMode: 'Filesystem' | 'Block',
    public readonly path: string,
  ) {}
}

/**
 * Built on the low-level `k8s.KubeStatefulSet` (not a cdk8s-plus StatefulSet): cdk8s-plus-27 has no
 * `volumeClaimTemplates`, and a plus-31+ StatefulSet would tie ballast to one plus line. The pod
 * around the main container is given with the Kubernetes API's own shapes ({@link StatefulPodProps}).
 */
export interface RbdStatefulSetProps extends StatefulPodProps {
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

    const labels = { [SELECTOR_LABEL]: this.name };
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
          ...(ports.length > 0
            ? {
                ports: ports.map((port) => ({
                  name: port.name,
                  port: port.port,
                  targetPort: k8s.IntOrString.fromString(port.name),
                })),
              }
            : {}),
        },
      });
    }

    const dataVolumeName = DATA_VOLUME_NAME;
    const attachment =
      props.data.volumeMode === 'Block'
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
          metadata: podMetadata(props, labels),
          spec: {
            ...podFields(props),
            terminationGracePeriodSeconds: (props.terminationGracePeriod ?? Duration.seconds(60)).toSeconds(),
            securityContext: {
              runAsNonRoot: true,
              runAsUser: props.runAsUser ?? 1000,
              runAsGroup: props.fsGroup ?? 1000,
              fsGroup: props.fsGroup ?? 1000,
              // Re-chowning a large volume on every start delays the pod by minutes.
              fsGroupChangePolicy: 'OnRootMismatch',
              ...props.podSecurityContext,
            },
            ...optional(
              'affinity',
              mergeAffinity(
                props.affinity,
                replicas > 1 ? hostAntiAffinity(props.hostSpreading ?? 'required', labels) : undefined,
              ),
            ),
            containers: [buildContainer(props.container, attachment), ...(props.sidecars ?? [])],
            ...(props.volumes && props.volumes.length > 0 ? { volumes: [...props.volumes] } : {}),
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: dataVolumeName, labels },
            spec: {
              accessModes: [this.accessMode],
              storageClassName: props.storageClass.storageClassName,
              volumeMode: props.data.volumeMode,
              resources: { requests: { storage: sizeQuantity(props.storage) } },
            },
          },
        ],
      },
    });

    this.disruptionBudget = new k8s.KubePodDisruptionBudget(this, 'DisruptionBudget', {
      metadata,
      spec: { maxUnavailable: k8s.IntOrString.fromNumber(maxUnavailable), selector: { matchLabels: labels } },
    });
  }

  private validate(
    props: RbdStatefulSetProps,
    replicas: number,
    maxUnavailable: number,
    rwopSupported: boolean,
    version: string,
  ): void {
    const problems = new PropProblems();
    if (!DNS_LABEL.test(this.name) || this.name.length > MAX_STATEFUL_SET_NAME) {
      problems.add(
        'name',
        this.name,
        `a StatefulSet name must be a DNS label of at most ${MAX_STATEFUL_SET_NAME} characters (it is part of every pod's host name and of its controller-revision-hash label)`,
        `use at most ${MAX_STATEFUL_SET_NAME} lower-case letters, digits and "-"`,
      );
    }
    if (props.namespace !== undefined && !DNS_LABEL.test(props.namespace)) {
      problems.add(
        'namespace',
        props.namespace,
        'a namespace must be a DNS label',
        'use lower-case letters, digits and "-"',
      );
    }
    const portNames = new Set<string>();
    (props.container.ports ?? []).forEach((port, index) => {
      if (!PORT_NAME.test(port.name) || portNames.has(port.name)) {
        problems.add(
          `container.ports[${index}].name`,
          port.name,
          'a port name must be unique, at most 15 lower-case letters, digits and single "-", with at least one letter',
          'use e.g. "postgres"',
        );
      }
      portNames.add(port.name);
      if (!Number.isInteger(port.port) || port.port < 1 || port.port > 65535) {
        problems.add(
          `container.ports[${index}].port`,
          port.port,
          'a port number is a whole number from 1 to 65535',
          'use e.g. 5432',
        );
      }
    });
    if (!Number.isInteger(replicas) || replicas < 1) {
      problems.add('replicas', replicas, 'a StatefulSet on RBD needs at least one pod', 'use a whole number >= 1');
    }
    if (this.accessMode === 'ReadWriteOncePod' && !rwopSupported) {
      problems.add(
        'accessMode',
        this.accessMode,
        `ReadWriteOncePod is GA from Kubernetes 1.29; the target is ${version}`,
        'use "ReadWriteOnce", or target 1.29+ with new BallastGate(app, { kubernetesVersion })',
      );
    }
    if (!Number.isInteger(maxUnavailable) || maxUnavailable < 1) {
      problems.add(
        'maxUnavailable',
        maxUnavailable,
        'a budget of 0 blocks every node drain forever',
        'use a whole number >= 1',
      );
    }
    const grace = (props.terminationGracePeriod ?? Duration.seconds(60)).toSeconds();
    if (grace < 10) {
      problems.add(
        'terminationGracePeriod',
        `${grace}s`,
        'a database killed before it flushes loses writes or replays its log',
        'give it at least 10 seconds (default 60)',
      );
    }
    if (!props.data.path.startsWith('/')) {
      problems.add(
        'data',
        props.data.path,
        'a mount or device path must be absolute',
        'use e.g. RbdDataVolume.filesystem("/var/lib/postgresql/data")',
      );
    }
    const storageMiB = props.storage.toMebibytes({ rounding: SizeRoundingBehavior.NONE });
    if (!(storageMiB >= 1)) {
      problems.add('storage', props.storage, 'ceph-csi images are at least 1 MiB', 'use e.g. Size.gibibytes(10)');
    }
    if (props.existingServiceName !== undefined && !DNS_LABEL.test(props.existingServiceName)) {
      problems.add(
        'existingServiceName',
        props.existingServiceName,
        'a Service name must be a DNS label',
        'name the headless Service that already exists',
      );
    }
    const mainName = props.container.name ?? 'main';
    if (!DNS_LABEL.test(mainName))
      problems.add('container.name', mainName, 'a container name must be a DNS label', 'use e.g. "postgres"');
    checkStatefulPod(props, mainName, problems);
    const mountable = new Set([DATA_VOLUME_NAME, ...(props.volumes ?? []).map((volume) => volume.name)]);
    (props.container.volumeMounts ?? []).forEach((mount, index) => {
      if (mount.name === DATA_VOLUME_NAME) {
        problems.add(
          `container.volumeMounts[${index}].name`,
          mount.name,
          'the data volume is mounted from the `data` prop',
          'mount another volume',
        );
      } else if (!mountable.has(mount.name)) {
        problems.add(
          `container.volumeMounts[${index}].name`,
          mount.name,
          'no pod volume has this name',
          'add it to volumes',
        );
      }
    });
    problems.throwIfAny(this);
  }
}

/** `{ [key]: value }` when the value is set, else nothing: no `key: undefined` in the output. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function hostAntiAffinity(spreading: HostSpreading, labels: Record<string, string>): k8s.PodAntiAffinity {
  const term = { labelSelector: { matchLabels: labels }, topologyKey: 'kubernetes.io/hostname' };
  return spreading === 'required'
    ? { requiredDuringSchedulingIgnoredDuringExecution: [term] }
    : { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }] };
}
