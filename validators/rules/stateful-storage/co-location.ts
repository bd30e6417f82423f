import { parseFieldPath } from '../../field-path';
import { JsonRecord, asArray, asNumber, asString, getRecord, valueAt } from '../../json';
import { matchesLabelSelector } from '../../label-selector';
import { ObjectIndex, PodTemplate, sameNamespace } from '../../object-index';
import { autoscalerOf } from './autoscaled-replicas';

const HOSTNAME_TOPOLOGY = 'kubernetes.io/hostname';

/** The labels a pod template gives its pods: the `metadata` beside its `spec`. */
export function podLabelsOf(template: PodTemplate): unknown {
  const parent = valueAt(template.owner.raw, parseFieldPath(template.path).slice(0, -1));
  return getRecord(parent, 'metadata')?.labels;
}

/**
 * True when every pod of the template must run on one node, because a required podAffinity by
 * hostname ties it to pods that all run on one node: its own pods (the scheduler places the first
 * anywhere, and every later one, a rollout's new pod included, beside a running one), or the pods of
 * a workload of the input that runs one pod (the holder of a claim, the webdav beside its library).
 * ReadWriteOnce allows any number of pods on one node. `singlePods` keeps the answer for other
 * workloads' selectors through one rule run: copies of a repository repeat them.
 */
export function keptOnOneNode(index: ObjectIndex, template: PodTemplate, singlePods: Map<string, boolean>): boolean {
  return sameNodeSelectors(template.spec).some((selector) => {
    if (matchesLabelSelector(podLabelsOf(template), selector) === true) return true;
    const key = `${template.owner.ref.namespace ?? ''}\u0000${JSON.stringify(selector)}`;
    let single = singlePods.get(key);
    if (single === undefined) {
      const matched = index
        .podTemplates()
        .filter(
          (other) =>
            sameNamespace(other.owner, template.owner) && matchesLabelSelector(podLabelsOf(other), selector) === true,
        );
      single = matched.length > 0 && matched.every((other) => runsOnePod(index, other));
      singlePods.set(key, single);
    }
    return single;
  });
}

/** A pod spec's required podAffinity terms by hostname: each puts its pods on a node that runs the pods it selects. */
export function hostnameAffinityTerms(podSpec: JsonRecord): JsonRecord[] {
  return asArray(getRecord(podSpec, 'affinity', 'podAffinity')?.requiredDuringSchedulingIgnoredDuringExecution)
    .map((term) => getRecord(term))
    .filter((term): term is JsonRecord => term !== undefined && asString(term.topologyKey) === HOSTNAME_TOPOLOGY);
}

/**
 * The label selectors of a pod spec's required podAffinity terms by hostname in its own namespace:
 * the pods it must run beside. Terms that reach into other namespaces are left out, as which pods
 * they match is not in view.
 */
export function sameNodeSelectors(podSpec: JsonRecord): unknown[] {
  return hostnameAffinityTerms(podSpec)
    .filter((term) => term.namespaces === undefined && term.namespaceSelector === undefined)
    .map((term) => term.labelSelector);
}

/** A workload that never runs more than one pod: one replica, no autoscaler past one, not a DaemonSet. */
function runsOnePod(index: ObjectIndex, template: PodTemplate): boolean {
  const owner = template.owner;
  if (owner.ref.kind === 'DaemonSet') return false;
  if (owner.ref.kind === 'Job' && (asNumber(getRecord(owner.raw, 'spec')?.parallelism) ?? 1) > 1) return false;
  if (owner.ref.kind === 'Pod') return true;
  if ((asNumber(getRecord(owner.raw, 'spec')?.replicas) ?? 1) > 1) return false;
  return (autoscalerOf(index, owner)?.maxReplicas ?? 1) <= 1;
}
