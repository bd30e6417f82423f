import { k8s } from 'cdk8s-plus-27';
import { PropProblems } from './prop-error';
import { DNS_LABEL } from './kubernetes-names';

/**
 * The pod around a stateful workload's main container: what real databases need beside it.
 * Fields take the Kubernetes API's own shapes (`k8s.*` types), so what the API documents is what
 * is written; ballast adds its safety settings and merges the two.
 */
export interface StatefulPodProps {
  /**
   * ServiceAccount the pods run as.
   * @default - the namespace's `default` account
   */
  readonly serviceAccountName?: string;
  /**
   * Whether the ServiceAccount token is mounted. A database rarely talks to the API server.
   * @default false
   */
  readonly automountServiceAccountToken?: boolean;
  /**
   * Tolerations, e.g. to run on dedicated storage nodes.
   * @default - none
   */
  readonly tolerations?: readonly k8s.Toleration[];
  /**
   * Node selector.
   * @default - none
   */
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /**
   * Affinity. The host spreading ballast adds (pod anti-affinity among the replicas) is merged
   * into `podAntiAffinity`; node and pod affinity are kept as given.
   * @default - only ballast's host spreading
   */
  readonly affinity?: k8s.Affinity;
  /**
   * Init containers, run in order before the main container (e.g. fixing permissions, restoring a backup).
   * @default - none
   */
  readonly initContainers?: readonly k8s.Container[];
  /**
   * Further containers beside the main one (exporters, backup agents, proxies).
   * @default - none
   */
  readonly sidecars?: readonly k8s.Container[];
  /**
   * Further pod volumes (ConfigMaps, Secrets, emptyDir) for the containers' `volumeMounts`.
   * `data` is the claim's name and is taken.
   * @default - none
   */
  readonly volumes?: readonly k8s.Volume[];
  /**
   * Labels of the pods. `app.kubernetes.io/name` is the selector and is set by ballast.
   * @default - the selector label only
   */
  readonly podLabels?: Readonly<Record<string, string>>;
  /**
   * Annotations of the pods (e.g. `prometheus.io/scrape`, backup hooks).
   * @default - none
   */
  readonly podAnnotations?: Readonly<Record<string, string>>;
  /**
   * Pod security context, merged over ballast's (`runAsNonRoot`, `runAsUser`/`fsGroup` from
   * their props, `fsGroupChangePolicy: OnRootMismatch`).
   * @default - ballast's
   */
  readonly podSecurityContext?: k8s.PodSecurityContext;
  /**
   * PriorityClass of the pods: databases usually deserve a high one, so they are evicted last.
   * @default - the cluster default
   */
  readonly priorityClassName?: string;
  /**
   * Secrets for pulling images from a private registry.
   * @default - none
   */
  readonly imagePullSecrets?: readonly string[];
}

/** The claim's volume name in the pod. */
export const DATA_VOLUME_NAME = 'data';
/** The selector label; ballast owns it. */
export const SELECTOR_LABEL = 'app.kubernetes.io/name';

/** Checks the pod props that TypeScript cannot, adding every problem to `problems`. */
export function checkStatefulPod(props: StatefulPodProps, mainContainerName: string, problems: PropProblems): void {
  const names = new Map<string, string>([[mainContainerName, 'container.name']]);
  const checkContainer = (container: k8s.Container, prop: string) => {
    if (!DNS_LABEL.test(container.name ?? '')) {
      problems.add(
        `${prop}.name`,
        container.name,
        'a container name must be a DNS label',
        'use lower-case letters, digits and "-"',
      );
    } else if (names.has(container.name)) {
      problems.add(
        `${prop}.name`,
        container.name,
        `the name is already used by ${names.get(container.name)}`,
        'give every container its own name',
      );
    } else {
      names.set(container.name, prop);
    }
    if ((container.image ?? '').trim() === '')
      problems.add(
        `${prop}.image`,
        container.image,
        'a container needs an image',
        'name an image pinned by tag or digest',
      );
  };
  (props.initContainers ?? []).forEach((container, index) => checkContainer(container, `initContainers[${index}]`));
  (props.sidecars ?? []).forEach((container, index) => checkContainer(container, `sidecars[${index}]`));

  const volumeNames = new Set([DATA_VOLUME_NAME]);
  (props.volumes ?? []).forEach((volume, index) => {
    if (volumeNames.has(volume.name)) {
      problems.add(
        `volumes[${index}].name`,
        volume.name,
        volume.name === DATA_VOLUME_NAME ? 'the claim\'s volume is named "data"' : 'a pod volume name must be unique',
        'rename the volume',
      );
    }
    volumeNames.add(volume.name);
  });
  const checkMounts = (mounts: readonly k8s.VolumeMount[] | undefined, prop: string) =>
    (mounts ?? []).forEach((mount, index) => {
      if (!volumeNames.has(mount.name)) {
        problems.add(
          `${prop}.volumeMounts[${index}].name`,
          mount.name,
          'no pod volume has this name',
          `add it to volumes, or mount one of: ${[...volumeNames].join(', ')}`,
        );
      }
    });
  (props.initContainers ?? []).forEach((container, index) =>
    checkMounts(container.volumeMounts, `initContainers[${index}]`),
  );
  (props.sidecars ?? []).forEach((container, index) => checkMounts(container.volumeMounts, `sidecars[${index}]`));

  const selector = props.podLabels?.[SELECTOR_LABEL];
  if (selector !== undefined) {
    problems.add(
      `podLabels["${SELECTOR_LABEL}"]`,
      selector,
      "this label is the StatefulSet's selector and is set from its name",
      'leave it out; use another label for your own grouping',
    );
  }
  if (props.serviceAccountName !== undefined && !DNS_LABEL.test(props.serviceAccountName)) {
    problems.add(
      'serviceAccountName',
      props.serviceAccountName,
      'a ServiceAccount name must be a DNS label',
      'name an existing ServiceAccount',
    );
  }
}

/** The pod template's metadata: the selector label wins over the user's labels. */
export function podMetadata(props: StatefulPodProps, selectorLabels: Record<string, string>): k8s.ObjectMeta {
  return {
    labels: { ...props.podLabels, ...selectorLabels },
    ...(props.podAnnotations && Object.keys(props.podAnnotations).length > 0
      ? { annotations: { ...props.podAnnotations } }
      : {}),
  };
}

/** The user's affinity with ballast's host anti-affinity term added to the matching list. */
export function mergeAffinity(
  user: k8s.Affinity | undefined,
  spreading: k8s.PodAntiAffinity | undefined,
): k8s.Affinity | undefined {
  if (!spreading) return user;
  const own = user?.podAntiAffinity;
  const podAntiAffinity: k8s.PodAntiAffinity = {
    ...own,
    ...(spreading.requiredDuringSchedulingIgnoredDuringExecution
      ? {
          requiredDuringSchedulingIgnoredDuringExecution: [
            ...(own?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
            ...spreading.requiredDuringSchedulingIgnoredDuringExecution,
          ],
        }
      : {}),
    ...(spreading.preferredDuringSchedulingIgnoredDuringExecution
      ? {
          preferredDuringSchedulingIgnoredDuringExecution: [
            ...(own?.preferredDuringSchedulingIgnoredDuringExecution ?? []),
            ...spreading.preferredDuringSchedulingIgnoredDuringExecution,
          ],
        }
      : {}),
  };
  return { ...user, podAntiAffinity };
}

/** The pod-level fields from the props that are set (nothing written for what is not). */
export function podFields(props: StatefulPodProps): Partial<k8s.PodSpec> {
  return {
    ...(props.serviceAccountName !== undefined ? { serviceAccountName: props.serviceAccountName } : {}),
    automountServiceAccountToken: props.automountServiceAccountToken ?? false,
    ...(props.tolerations && props.tolerations.length > 0 ? { tolerations: [...props.tolerations] } : {}),
    ...(props.nodeSelector && Object.keys(props.nodeSelector).length > 0
      ? { nodeSelector: { ...props.nodeSelector } }
      : {}),
    ...(props.initContainers && props.initContainers.length > 0 ? { initContainers: [...props.initContainers] } : {}),
    ...(props.priorityClassName !== undefined ? { priorityClassName: props.priorityClassName } : {}),
    ...(props.imagePullSecrets && props.imagePullSecrets.length > 0
      ? { imagePullSecrets: props.imagePullSecrets.map((name) => ({ name })) }
      : {}),
  };
}
