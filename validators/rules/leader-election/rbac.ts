import { JsonRecord, asArray, asKeptStringList, getRecord, isRecord } from '../../json';
import { IndexedObject } from '../../object-index';
import { matchesLabelSelector } from '../../label-selector';

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

/** Read once per role: every RBAC rule reads the same roles again for each ServiceAccount and binding. */
const POLICY_RULES = new WeakMap<IndexedObject, PolicyRule[]>();

export function policyRules(role: IndexedObject): PolicyRule[] {
  const known = POLICY_RULES.get(role);
  if (known) return known;
  const rules: PolicyRule[] = [];
  POLICY_RULES.set(role, rules);
  asArray(role.raw.rules).forEach((raw, index) => {
    if (!isRecord(raw)) return;
    rules.push({
      index,
      raw,
      apiGroups: asKeptStringList(raw.apiGroups),
      resources: asKeptStringList(raw.resources),
      verbs: asKeptStringList(raw.verbs),
      resourceNames: asKeptStringList(raw.resourceNames),
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

/** The verbs client-go's LeaseLock uses: read the lease, create it the first time, renew it. */
export const LEASE_LOCK_VERBS: readonly string[] = ['get', 'create', 'update'];

/**
 * The rules a role really grants: its own, or for an aggregated ClusterRole the rules of every
 * ClusterRole in `candidates` whose labels match one of its `clusterRoleSelectors` (matchLabels and
 * matchExpressions). Undefined when a selector cannot be read (an unknown operator): then nobody can say.
 */
export function effectiveRules(role: IndexedObject, candidates: readonly IndexedObject[]): PolicyRule[] | undefined {
  const selectors = asArray(getRecord(role.raw, 'aggregationRule')?.clusterRoleSelectors);
  if (selectors.length === 0) return policyRules(role);
  const rules: PolicyRule[] = [];
  for (const selector of selectors) {
    for (const candidate of candidates) {
      if (candidate === role) continue;
      const matches = matchesLabelSelector(getRecord(candidate.raw, 'metadata', 'labels'), selector);
      if (matches === undefined) return undefined;
      if (matches) rules.push(...policyRules(candidate));
    }
  }
  return rules;
}

/**
 * The lease-lock verbs the rules leave out. `create` cannot be limited by resourceNames (the name
 * is unknown when a create is authorized), so a create restricted to names does not count.
 */
export function missingLeaseVerbs(rules: readonly PolicyRule[]): string[] {
  return LEASE_LOCK_VERBS.filter(
    (verb) =>
      !rules.some(
        (rule) =>
          grantsOnLeases(rule) && hasVerb(rule, [verb]) && !(verb === 'create' && rule.resourceNames.length > 0),
      ),
  );
}
