import { ApiObject, JsonPatch } from 'cdk8s';
import { IConstruct } from 'constructs';
import { JsonRecord, NodePrerequisite, asArray, asRecord, podSpecOf } from '../validators';
import { WorkloadLike, podTemplateOf } from './workload';

/** The prerequisites already required of each ApiObject, so a second call adds nothing. */
const REQUIRED = new WeakMap<ApiObject, Set<string>>();

const REQUIRED_PATH = [
  'affinity',
  'nodeAffinity',
  'requiredDuringSchedulingIgnoredDuringExecution',
  'nodeSelectorTerms',
] as const;

/**
 * Makes a workload require nodes where `prerequisite` is installed: a required node affinity on
 * the prerequisite's label, merged into the affinity the workload has when this is called (added
 * to every existing nodeSelectorTerm, since terms are ORed; never replacing one). The change is a
 * JSON patch on the workload's ApiObject, so every synth carries it.
 *
 * Call it after the workload's own affinity is set. A required term added later (e.g. another
 * `scheduling.attract`) would let the pod escape to an unprepared node: a validation on the
 * workload refuses the synth then, saying so.
 *
 * Works for cdk8s-plus workloads of any line and for `k8s.Kube*` / raw ApiObjects with a pod template.
 */
export function requireNodePrerequisite(
  workload: WorkloadLike,
  prerequisite: NodePrerequisite,
  where?: IConstruct | string,
): void {
  const template = podTemplateOf(workload, where ?? (workload as IConstruct), 'workload');
  const { apiObject } = template;
  const key = `${prerequisite.label.key}=${prerequisite.label.value}`;
  let required = REQUIRED.get(apiObject);
  if (!required) {
    required = new Set();
    REQUIRED.set(apiObject, required);
    const prerequisites = required;
    apiObject.node.addValidation({ validate: () => missingPrerequisites(apiObject, prerequisites) });
  }
  if (required.has(key)) return;
  required.add(key);
  for (const patch of affinityPatches(template.podSpec, template.pointer, prerequisite)) apiObject.addJsonPatch(patch);
}

/** The JSON patches that add `label In [value]` to every required nodeSelectorTerm of the pod spec (creating one if none). */
export function affinityPatches(podSpec: JsonRecord, pointer: string, prerequisite: NodePrerequisite): JsonPatch[] {
  const expression = { key: prerequisite.label.key, operator: 'In', values: [prerequisite.label.value] };
  let value: unknown = [{ matchExpressions: [expression] }];
  let current: JsonRecord | undefined = podSpec;
  let path = pointer;
  // Walk down affinity/nodeAffinity/required...: create the first level that is missing.
  for (const [depth, key] of REQUIRED_PATH.entries()) {
    const next: unknown = current?.[key];
    if (next === undefined || next === null || (depth === REQUIRED_PATH.length - 1 && asArray(next).length === 0)) {
      for (const inner of [...REQUIRED_PATH.slice(depth + 1)].reverse()) value = { [inner]: value };
      return [JsonPatch.add(`${path}/${key}`, value)];
    }
    path = `${path}/${key}`;
    current = asRecord(next);
  }
  const patches: JsonPatch[] = [];
  asArray(podSpecPath(podSpec)).forEach((term, index) => {
    const expressions = asRecord(term)?.matchExpressions;
    if (asArray(expressions).some((existing) => asRecord(existing)?.key === expression.key)) return;
    patches.push(
      Array.isArray(expressions)
        ? JsonPatch.add(`${path}/${index}/matchExpressions/-`, expression)
        : JsonPatch.add(`${path}/${index}/matchExpressions`, [expression]),
    );
  });
  return patches;
}

function podSpecPath(podSpec: JsonRecord): unknown {
  let value: unknown = podSpec;
  for (const key of REQUIRED_PATH) value = asRecord(value)?.[key];
  return value;
}

/** Validation: every required term of the final pod spec names every prerequisite. */
function missingPrerequisites(apiObject: ApiObject, prerequisites: ReadonlySet<string>): string[] {
  const location = podSpecOf(apiObject.kind, apiObject.toJson() as JsonRecord);
  if (!location) return [];
  const terms = asArray(podSpecPath(location.spec));
  const errors: string[] = [];
  for (const key of prerequisites) {
    const [label, value] = key.split('=') as [string, string];
    const escaping =
      terms.length === 0
        ? [-1]
        : terms.flatMap((term, index) =>
            asArray(asRecord(term)?.matchExpressions).some(
              (e) =>
                asRecord(e)?.key === label &&
                asRecord(e)?.operator === 'In' &&
                asArray(asRecord(e)?.values).includes(value),
            )
              ? []
              : [index],
          );
    if (escaping.length > 0) {
      errors.push(
        `the pod must require nodes labelled ${key}, but ${
          terms.length === 0
            ? 'it has no required node affinity'
            : `nodeSelectorTerms ${escaping.join(', ')} do not require it (terms are ORed)`
        }: the affinity was changed after ` +
          "the prerequisite was added. Set the workload's affinity first, then call mountIn/requireNodePrerequisite.",
      );
    }
  }
  return errors;
}

/** Adds `label In [value]` to every required nodeSelectorTerm of a plain pod spec object (creating one if none). */
export function addRequiredNodeAffinity(podSpec: JsonRecord, prerequisite: NodePrerequisite): void {
  const expression = { key: prerequisite.label.key, operator: 'In', values: [prerequisite.label.value] };
  const affinity = (podSpec.affinity = asRecord(podSpec.affinity) ?? {});
  const nodeAffinity = (affinity.nodeAffinity = asRecord(affinity.nodeAffinity) ?? {});
  const required = (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution =
    asRecord(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution) ?? {});
  const terms = asArray(required.nodeSelectorTerms).map((term) => asRecord(term) ?? {});
  if (terms.length === 0) terms.push({});
  for (const term of terms) {
    const expressions = asArray(term.matchExpressions).slice();
    if (!expressions.some((existing) => asRecord(existing)?.key === expression.key))
      expressions.push({ ...expression, values: [...expression.values] });
    term.matchExpressions = expressions;
  }
  required.nodeSelectorTerms = terms;
}
