import { JsonRecord, getRecord } from './json';

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
