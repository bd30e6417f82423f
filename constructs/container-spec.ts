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
   * Environment variables from whole ConfigMaps or Secrets.
   * @default - none
   */
  readonly envFrom?: readonly k8s.EnvFromSource[];
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
  /**
   * Startup probe: holds off liveness while a database replays its log after a crash.
   * @default - none
   */
  readonly startupProbe?: k8s.Probe;
  /**
   * Further volume mounts (of the pod's `volumes`), beside the data volume.
   * @default - none
   */
  readonly volumeMounts?: readonly k8s.VolumeMount[];
  /**
   * Container security context, merged over ballast's (no privilege escalation, all capabilities
   * dropped, `readOnlyRootFilesystem` as given): set `capabilities` to add one back.
   * @default - ballast's
   */
  readonly securityContext?: k8s.SecurityContext;
  /**
   * Image pull policy.
   * @default - Kubernetes' default (IfNotPresent for a tag, Always for :latest)
   */
  readonly imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
}

/** The `k8s.Container` for a stateful workload, with the data volume attached as `dataAttachment`. */
export function buildContainer(
  props: StatefulContainerProps,
  dataAttachment: Pick<k8s.Container, 'volumeMounts' | 'volumeDevices'>,
): k8s.Container {
  const plainEnv = props.env ?? {};
  const env: k8s.EnvVar[] = [
    ...Object.keys(plainEnv)
      .sort()
      .map((name) => ({ name, value: plainEnv[name] })),
    ...(props.envVars ?? []),
  ];
  const limits: Record<string, k8s.Quantity> = { memory: sizeQuantity(props.resources.memory) };
  if (props.resources.cpuLimit) limits.cpu = cpuQuantity(props.resources.cpuLimit);
  return {
    name: props.name ?? 'main',
    image: props.image,
    ...(props.imagePullPolicy ? { imagePullPolicy: props.imagePullPolicy } : {}),
    ...(props.command ? { command: [...props.command] } : {}),
    ...(props.args ? { args: [...props.args] } : {}),
    ...(env.length > 0 ? { env } : {}),
    ...(props.envFrom && props.envFrom.length > 0 ? { envFrom: [...props.envFrom] } : {}),
    ...(props.ports && props.ports.length > 0
      ? { ports: props.ports.map((port) => ({ name: port.name, containerPort: port.port })) }
      : {}),
    resources: {
      requests: { cpu: cpuQuantity(props.resources.cpu), memory: sizeQuantity(props.resources.memory) },
      limits,
    },
    securityContext: {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      ...props.securityContext,
      readOnlyRootFilesystem: props.readOnlyRootFilesystem,
    },
    ...(props.readinessProbe ? { readinessProbe: props.readinessProbe } : {}),
    ...(props.livenessProbe ? { livenessProbe: props.livenessProbe } : {}),
    ...(props.startupProbe ? { startupProbe: props.startupProbe } : {}),
    ...dataAttachment,
    ...(props.volumeMounts && props.volumeMounts.length > 0
      ? { volumeMounts: [...(dataAttachment.volumeMounts ?? []), ...props.volumeMounts] }
      : {}),
  };
}
