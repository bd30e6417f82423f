import { JsonRecord, asArray, asStringList, isRecord } from '../../json';
import { IndexedObject } from '../../object-index';

/** One entry of a Role's or ClusterRole's `rules`, read defensively. */
export interface PolicyRule {
  readonly index: number;
  readonly raw: JsonRecord;
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames: readonly string[];
}

export const WRITE_VERBS: readonly string[] = ['create', 'update', 'patch'];
export const DELETE_VERBS: readonly string[] = ['delete', 'deletecollection'];

export function policyRules(role: IndexedObject): PolicyRule[] {
  const rules: PolicyRule[] = [];
  asArray(role.raw.rules).forEach((raw, index) => {
    if (!isRecord(raw)) return;
    rules.push({
      index,
      raw,
      apiGroups: asStringList(raw.apiGroups),
      resources: asStringList(raw.resources),
      verbs: asStringList(raw.verbs),
      resourceNames: asStringList(raw.resourceNames),
    });
  });
  return rules;
}

function inGroup(rule: PolicyRule, group: string): boolean {
  return rule.apiGroups.includes(group) || rule.apiGroups.includes('*');
}

/** The rule names `resource` of the core group explicitly (wildcards are not read as intent). */
export function namesCoreResource(rule: PolicyRule, resource: string): boolean {
  return inGroup(rule, '') && rule.resources.includes(resource);
}

/** The rule grants anything on coordination.k8s.io leases, wildcards included. */
export function grantsOnLeases(rule: PolicyRule): boolean {
  return (
    inGroup(rule, 'coordination.k8s.io') &&
    (rule.resources.includes('leases') || rule.resources.includes('*')) &&
    rule.verbs.length > 0
  );
}

export function hasVerb(rule: PolicyRule, verbs: readonly string[]): boolean {
  return rule.verbs.includes('*') || rule.verbs.some((verb) => verbs.includes(verb));
}

/** True when any rule of the role grants anything on leases. */
export function roleGrantsOnLeases(role: IndexedObject): boolean {
  return policyRules(role).some(grantsOnLeases);
}
