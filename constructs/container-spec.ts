import { Size } from 'cdk8s';
import { Cpu, k8s } from 'cdk8s-plus-27';
import { cpuQuantity, sizeQuantity } from './quantity';

/** A named container port, also published on the workload's Service. */
export interface StatefulContainerPort {
  /** Port name (IANA_SVC_NAME: at most 15 characters). */
  readonly name: string;
  /** Port number. */
  readonly port: number;
}

/**
 * Explicit resources. Memory request equals the limit, so the pod is not the first to be
 * OOM-killed or evicted under memory pressure; CPU has no limit unless asked for (throttling a
 * database hurts more than it protects).
 */
export interface StatefulContainerResources {
  /** CPU request. */
  readonly cpu: Cpu;
  /** Memory request and limit. */
  readonly memory: Size;
  /**
   * CPU limit.
   * @default - none
   */
  readonly cpuLimit?: Cpu;
}

/** The one container of a stateful workload. */
export interface StatefulContainerProps {
  /**
   * Container name.
   * @default 'main'
   */
  readonly name?: string;
  /** Image, pinned by tag or digest. */
  readonly image: string;
  /**
   * Entrypoint override.
   * @default - the image's entrypoint
   */
  readonly command?: readonly string[];
  /**
   * Arguments.
   * @default - the image's arguments
   */
  readonly args?: readonly string[];
  /**
   * Plain environment variables (written sorted by name, so output is deterministic).
   * @default - none
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Environment variables from Secrets or the downward API, as the API writes them.
   * @default - none
   */
  readonly envVars?: readonly k8s.EnvVar[];
  /**
   * Ports the container serves.
   * @default - none
   */
  readonly ports?: readonly StatefulContainerPort[];
  /** Requests and limits. Required: a database without them is the first thing the kubelet evicts. */
  readonly resources: StatefulContainerResources;
  /**
   * Whether the root filesystem is read-only. Required and explicit: cdk8s-plus turns it on by
   * default, which breaks images that write to /tmp or /var/run; choose it knowingly.
   */
  readonly readOnlyRootFilesystem: boolean;
  /**
   * Readiness probe: the StatefulSet's OrderedReady rollout waits on it before the next pod.
   * @default - none (a pod is ready once it runs)
   */
  readonly readinessProbe?: k8s.Probe;
  /**
   * Liveness probe.
   * @default - none
   */
  readonly livenessProbe?: k8s.Probe;
}

/** The `k8s.Container` for a stateful workload, with the data volume attached as `dataAttachment`. */
export function buildContainer(
  props: StatefulContainerProps,
  dataAttachment: Pick<k8s.Container, 'volumeMounts' | 'volumeDevices'>,
): k8s.Container {
  const env: k8s.EnvVar[] = [
    ...Object.keys(props.env ?? {}).sort().map((name) => ({ name, value: props.env![name] })),
    ...(props.envVars ?? []),
  ];
  const limits: Record<string, k8s.Quantity> = { memory: sizeQuantity(props.resources.memory) };
  if (props.resources.cpuLimit) limits.cpu = cpuQuantity(props.resources.cpuLimit);
  return {
    name: props.name ?? 'main',
    image: props.image,
    ...(props.command ? { command: [...props.command] } : {}),
    ...(props.args ? { args: [...props.args] } : {}),
    ...(env.length > 0 ? { env } : {}),
    ...(props.ports && props.ports.length > 0
      ? { ports: props.ports.map((port) => ({ name: port.name, containerPort: port.port })) }
      : {}),
    resources: {
      requests: { cpu: cpuQuantity(props.resources.cpu), memory: sizeQuantity(props.resources.memory) },
      limits,
    },
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: props.readOnlyRootFilesystem,
      capabilities: { drop: ['ALL'] },
    },
    ...(props.readinessProbe ? { readinessProbe: props.readinessProbe } : {}),
    ...(props.livenessProbe ? { livenessProbe: props.livenessProbe } : {}),
    ...dataAttachment,
  };
}
