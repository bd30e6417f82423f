import { JsonRecord, asRecord, getRecord, isRecord } from './json';
import { fieldPath } from './field-path';

/**
 * Where each workload kind keeps its pod spec, as keys from the object root. A Map, not an object
 * literal: `kind` is user input, and `kind: toString` must not find `Object.prototype.toString`.
 */
const POD_SPEC_KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ['Pod', ['spec']],
  ['PodTemplate', ['template', 'spec']],
  ['Deployment', ['spec', 'template', 'spec']],
  ['StatefulSet', ['spec', 'template', 'spec']],
  ['DaemonSet', ['spec', 'template', 'spec']],
  ['ReplicaSet', ['spec', 'template', 'spec']],
  ['ReplicationController', ['spec', 'template', 'spec']],
  ['Job', ['spec', 'template', 'spec']],
  ['CronJob', ['spec', 'jobTemplate', 'spec', 'template', 'spec']],
  // Argo Rollouts' Rollout replaces a Deployment and carries the same pod template.
  ['Rollout', ['spec', 'template', 'spec']],
  // OpenShift's DeploymentConfig (apps.openshift.io/v1, or plain v1 in OpenShift 3 manifests).
  ['DeploymentConfig', ['spec', 'template', 'spec']],
]);

/** The kinds that carry a pod template. */
export const WORKLOAD_KINDS: readonly string[] = [...POD_SPEC_KEYS.keys()];

/** A pod spec found inside a workload, with the field path that leads to it. */
export interface PodSpecLocation {
  readonly spec: JsonRecord;
  /** `spec.template.spec` for a Deployment, `spec` for a Pod. */
  readonly path: string;
}

/** The pod spec of a workload object, or undefined when the kind has none or it is malformed. */
export function podSpecOf(kind: string | undefined, object: JsonRecord): PodSpecLocation | undefined {
  const keys = kind === undefined ? undefined : POD_SPEC_KEYS.get(kind);
  if (!keys) return undefined;
  const spec = getRecord(object, ...keys);
  return spec ? { spec, path: keys.join('.') } : undefined;
}

/**
 * The keys under which custom resources keep a pod template: `template` (Kubeflow, Volcano,
 * OpenKruise), `pod` (Microsoft's FrameworkController: `spec.taskRoles[0].task.pod`).
 */
const POD_TEMPLATE_KEYS: readonly string[] = ['template', 'pod'];

/** How far under `spec` a custom resource's pod templates are looked for (`spec.pytorchReplicaSpecs.Worker.template`). */
const CUSTOM_RESOURCE_TEMPLATE_DEPTH = 4;

/**
 * The pod specs of a custom resource: an object of an API group of its own (Kubeflow's PyTorchJob,
 * Volcano's Job, Huawei's AscendJob, OpenKruise's CloneSet), whose pods its operator creates from
 * every `template` (or `pod`) under `spec` whose `spec` lists containers, down to a few levels
 * (`spec.tfReplicaSpecs.Worker.template.spec`, `spec.tasks[1].template.spec`, `spec.taskRoles[0].task.pod.spec`). Empty for the
 * built-in groups (`apps`, `batch`, `*.k8s.io`), whose kinds are known.
 */
export function customResourcePodSpecs(object: JsonRecord): PodSpecLocation[] {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  if (!group.includes('.') || group.endsWith('.k8s.io')) return [];
  const found: PodSpecLocation[] = [];
  // A node YAML aliases in many places is searched once: an alias bomb stays a few hundred nodes.
  const seen = new Set<unknown>();
  const search = (value: unknown, path: Array<string | number>, depth: number): void => {
    if (depth > CUSTOM_RESOURCE_TEMPLATE_DEPTH || value === null || typeof value !== 'object' || seen.has(value))
      return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((item, i) => search(item, [...path, i], depth + 1));
      return;
    }
    const record = asRecord(value);
    if (!record) return;
    for (const key of POD_TEMPLATE_KEYS) {
      const podSpec = getRecord(record, key, 'spec');
      if (podSpec && Array.isArray(podSpec.containers)) {
        found.push({ spec: podSpec, path: fieldPath(...path, key, 'spec') });
        return;
      }
    }
    for (const [key, child] of Object.entries(record))
      if (!POD_TEMPLATE_KEYS.includes(key)) search(child, [...path, key], depth + 1);
  };
  search(object.spec, ['spec'], 0);
  return found;
}

/** The fields of a pod spec that list containers. */
export type ContainerList = 'initContainers' | 'containers' | 'ephemeralContainers';

/** A container of a pod spec, with the list that holds it and its index there (for field paths). */
export interface PodContainer {
  readonly container: JsonRecord;
  readonly list: ContainerList;
  readonly position: number;
}

/**
 * The containers of a pod spec, init containers first as the kubelet starts them; entries that are
 * not objects are passed over, but keep their place in `position`. Ephemeral containers (`kubectl
 * debug`) only with `withEphemeral`: they mount volumes, but run no component and no kubelet.
 */
export function podContainers(spec: JsonRecord, withEphemeral = false): PodContainer[] {
  const lists: ContainerList[] = withEphemeral
    ? ['initContainers', 'containers', 'ephemeralContainers']
    : ['initContainers', 'containers'];
  const found: PodContainer[] = [];
  for (const list of lists) {
    const items = spec[list];
    if (!Array.isArray(items)) continue;
    items.forEach((container, position) => {
      if (isRecord(container)) found.push({ container, list, position });
    });
  }
  return found;
}

/**
 * The names of the volumes some container of a pod spec mounts (`volumeMounts`) or maps as a block
 * device (`volumeDevices`), ephemeral containers included. The kubelet sets up only these: a volume
 * no container uses is skipped ("Skipping unused volume", kubelet volumemanager's
 * desired_state_of_world_populator), so the pod never waits for it. Undefined when `containers`
 * is not a list.
 */
export function usedVolumeNames(spec: JsonRecord): ReadonlySet<string> | undefined {
  // Containers written as a mapping, not a list (the API server refuses it): which volumes they use is unknown.
  if (!Array.isArray(spec.containers)) return undefined;
  const names = new Set<string>();
  for (const { container } of podContainers(spec, true)) {
    for (const field of ['volumeMounts', 'volumeDevices'] as const) {
      const entries = container[field];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) if (isRecord(entry) && typeof entry.name === 'string') names.add(entry.name);
    }
  }
  return names;
}

/**
 * True when an item of a container's `command` or `args` contains `text`: a cheap test that lets
 * rules looking for one program or flag skip most containers before splitting command lines.
 */
export function commandLineMentions(container: JsonRecord, text: string): boolean {
  for (const list of [container.command, container.args]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) if (typeof item === 'string' && item.includes(text)) return true;
  }
  return false;
}
