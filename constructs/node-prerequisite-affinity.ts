import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { JsonRecord, NodePrerequisite, asArray, asRecord, podSpecOf } from '../validators';
import { BallastPropError } from './prop-error';

const WRAPPED = Symbol.for('ballast.nodePrerequisites');

/**
 * Makes a workload require nodes where `prerequisite` is installed: a required node affinity on the
 * prerequisite's label, merged into whatever affinity the workload has when it is synthesized
 * (added to every existing nodeSelectorTerm, since terms are ORed; never replacing one).
 *
 * Works for cdk8s-plus workloads and for `k8s.Kube*` / raw ApiObjects with a pod template.
 */
export function requireNodePrerequisite(workload: IConstruct, prerequisite: NodePrerequisite): void {
  const apiObject = ApiObject.isApiObject(workload)
    ? workload
    : workload.node.children.find((child): child is ApiObject => ApiObject.isApiObject(child));
  if (!apiObject) {
    throw new BallastPropError(workload, 'workload', workload.node.path, 'it is not an API object and has none as a child',
      'pass a Deployment/StatefulSet/DaemonSet/Job/CronJob/Pod (cdk8s-plus or k8s.Kube*)');
  }
  const holder = apiObject as unknown as { [WRAPPED]?: NodePrerequisite[] };
  if (holder[WRAPPED]) {
    if (!holder[WRAPPED].includes(prerequisite)) holder[WRAPPED].push(prerequisite);
    return;
  }
  const prerequisites = [prerequisite];
  holder[WRAPPED] = prerequisites;
  const toJson = apiObject.toJson.bind(apiObject);
  apiObject.toJson = () => {
    const json = toJson() as JsonRecord;
    const location = podSpecOf(apiObject.kind, json);
    if (!location) {
      throw new BallastPropError(apiObject, 'workload', apiObject.kind, 'this kind has no pod template', 'mount NFS volumes in a workload kind');
    }
    for (const each of prerequisites) addRequiredNodeAffinity(location.spec, each);
    return json;
  };
}

/** Adds `label In [value]` to every required nodeSelectorTerm of a pod spec (creating one if none). */
export function addRequiredNodeAffinity(podSpec: JsonRecord, prerequisite: NodePrerequisite): void {
  const expression = { key: prerequisite.label.key, operator: 'In', values: [prerequisite.label.value] };
  const affinity = (podSpec.affinity = asRecord(podSpec.affinity) ?? {});
  const nodeAffinity = (affinity.nodeAffinity = asRecord(affinity.nodeAffinity) ?? {});
  const required = (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = asRecord(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution) ?? {});
  const terms = asArray(required.nodeSelectorTerms).map((term) => asRecord(term) ?? {});
  if (terms.length === 0) terms.push({});
  for (const term of terms) {
    const expressions = asArray(term.matchExpressions).slice();
    if (!expressions.some((existing) => asRecord(existing)?.key === expression.key)) expressions.push({ ...expression, values: [...expression.values] });
    term.matchExpressions = expressions;
  }
  required.nodeSelectorTerms = terms;
}
