import { LEADER_ELECTION_SETTING_KINDS, RBAC_KINDS } from '../scopes';
import { asArray, asString, isRecord } from '../../json';
import { IndexedObject, ObjectIndex } from '../../object-index';
import { Rule } from '../../rule';
import { DELETE_VERBS, PolicyRule, WRITE_VERBS, grantsOnLeases, hasVerb, namesCoreResource, policyRules } from './rbac';

/**
 * Names that say they are for a leader lock, by one of their words (split at `-`, `_`, `.`, `:`):
 * `leader-locking-nfs-provisioner`, `my-operator-leader-election`, `manager-leaderelection-role`,
 * `ingress-controller-leader`. Whole words only: `ibm-block-csi-operator` holds no lock.
 */
function namedForLocking(name: string): boolean {
  return name.split(/[-_.:]/).some((word) => LOCK_WORD.test(word));
}

const LOCK_WORD = /^(leader.*|.*election|locks?|locking|locker)$/i;
/**
 * Object names that say they hold data, not a lock: `kubernetes-dashboard-settings`,
 * `cluster-autoscaler-status`. A lock is named after its component or the lock itself
 * (`nfs-client-provisioner`, `ingress-controller-leader`, `8d3f2a1c.example.com`).
 */
const DATA_OBJECT_NAME = /[-_.](settings|config|configuration|conf|status|state|data|cache)$/i;

/** The resources client-go's legacy locks live in: a lock grant names nothing else. */
const LOCK_RESOURCES: ReadonlySet<string> = new Set(['endpoints', 'configmaps']);

/**
 * Why a write grant on endpoints/configmaps looks like a leader lock rather than a controller that
 * manages those objects, or undefined when it does not.
 */
function lockSignal(
  role: IndexedObject,
  rule: PolicyRule,
  resource: string,
  rules: readonly PolicyRule[],
): string | undefined {
  if (!hasVerb(rule, WRITE_VERBS)) return undefined;
  const namesLock = rule.resourceNames.some((name) => namedForLocking(name) || !DATA_OBJECT_NAME.test(name));
  // client-go renews a lock with update (resourcelock's Update), never patch: a get/patch grant on a
  // named object is a controller editing it (Reloader's trigger ConfigMap), not a lock. It creates
  // the lock on its first election, so a role that cannot create the resource updates an object
  // someone else made (a ConfigMap a developer may edit), unless the object's name says lock.
  // RBAC cannot restrict create by resourceNames (the name is unknown when it is authorized): a
  // create in a rule with resourceNames grants nothing.
  const creates = rules.some(
    (candidate) =>
      namesCoreResource(candidate, resource) && hasVerb(candidate, ['create']) && candidate.resourceNames.length === 0,
  );
  const namedAsLock = rule.resourceNames.some(namedForLocking);
  if (rule.resourceNames.length > 0 && hasVerb(rule, ['update']) && namesLock && (creates || namedAsLock)) {
    return `restricted to ${rule.resourceNames.map((name) => `"${name}"`).join(', ')} by resourceNames`;
  }
  // Every object the grant names holds data (`dependency-analysis-state`, `recovery-patterns-config`):
  // whatever the verbs, it is no lock.
  if (rule.resourceNames.length > 0 && !namesLock) return undefined;
  if (namedForLocking(role.ref.name ?? '')) return 'in a role named for leader locking';
  // A lock object is created once and renewed by update, never deleted; controllers that own
  // Endpoints or ConfigMaps (prometheus-operator, rook, ceph-csi) also delete them. A grant that
  // also writes Services keeps a Service and its Endpoints (an early prometheus-operator's kubelet
  // Service), no lock.
  const onLockKindsOnly = rule.resources.every((resource) => LOCK_RESOURCES.has(resource));
  if (
    onLockKindsOnly &&
    rule.verbs.includes('create') &&
    rule.verbs.includes('update') &&
    !hasVerb(rule, DELETE_VERBS)
  ) {
    return 'as create and update without delete, the lifecycle of a lock object';
  }
  return undefined;
}

export const leaderLockRbacOnEndpointsOrConfigmaps: Rule = {
  id: 'leader-lock-rbac-on-endpoints-or-configmaps',
  severity: 'warning',
  scope: [...LEADER_ELECTION_SETTING_KINDS, ...RBAC_KINDS],
  summary:
    'A Role/ClusterRole grants lock-shaped write on endpoints or configmaps and nothing on leases: a controller on a legacy leader lock.',
  why:
    'Incident 3: the leader lock lived on an Endpoints object and got stuck, and every controller ' +
    'stopped. Controllers built on old client-go or on the retired external-storage provisioner library ' +
    'hard-code the endpoints lock; their RBAC is often the only visible sign. Those locks were removed ' +
    'from the Kubernetes components in 1.24; the controllers keep working but depend on an object that ' +
    'was never meant to be a lock.',
  fix:
    'Move to a controller that elects its leader on a coordination.k8s.io Lease (for the retired ' +
    'external-storage cephfs/rbd/nfs provisioners: ceph-csi or csi-driver-nfs, whose sidecars use Leases), ' +
    'then replace the endpoints/configmaps grant with create on leases and get/update on the lease by ' +
    'resourceNames. If the role is not a leader lock, name the objects in resourceNames and suppress with a justification.',
  example: {
    bad: [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: Role',
      'metadata: {name: leader-locking-nfs-client-provisioner}',
      'rules:',
      '- apiGroups: [""]',
      '  resources: [endpoints]',
      '  verbs: [get, list, watch, create, update, patch]',
    ].join('\n'),
    good: [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: Role',
      'metadata: {name: leader-locking-nfs-client-provisioner}',
      'rules:',
      '- apiGroups: [coordination.k8s.io]',
      '  resources: [leases]',
      '  verbs: [create]',
      '- apiGroups: [coordination.k8s.io]',
      '  resources: [leases]',
      '  resourceNames: [nfs-client-provisioner]',
      '  verbs: [get, update]',
    ].join('\n'),
  },
  check(context) {
    const holdsLeases = new Map<string, boolean>();
    // Copies of one role (same kind, namespace and name) have the same bindings: judged once.
    const boundToLeaseHolders = new Map<string, boolean>();
    for (const role of [...context.index.ofKind('Role'), ...context.index.ofKind('ClusterRole')]) {
      const rules = policyRules(role);
      if (rules.some(grantsOnLeases)) continue;
      const roleKey = `${role.ref.kind ?? ''}/${role.ref.namespace ?? ''}/${role.ref.name ?? ''}`;
      let bound = boundToLeaseHolders.get(roleKey);
      if (bound === undefined) {
        bound = subjectsHoldLeases(context.index, role, holdsLeases);
        boundToLeaseHolders.set(roleKey, bound);
      }
      if (bound) continue;
      for (const rule of rules) {
        const resource = ['endpoints', 'configmaps'].find((name) => namesCoreResource(rule, name));
        if (!resource) continue;
        const signal = lockSignal(role, rule, resource, rules);
        if (!signal) continue;
        context.report(role, {
          path: `rules[${rule.index}]`,
          message:
            `${role.ref.kind} ${role.ref.name ?? ''} grants write on ${resource} ${signal}, and nothing on ` +
            'leases: the controller using it most likely keeps its leader lock on ' +
            `${resource === 'endpoints' ? 'an Endpoints object' : 'a ConfigMap'}, the lock that got stuck in incident 3.`,
        });
        break;
      }
    }
  },
};

/**
 * Whether every ServiceAccount bound to the role in the input may also use leases through another
 * role: then the endpoints or configmaps write is for something else (cluster-autoscaler's status
 * ConfigMap), not a lock. False when the role is bound to nobody in the input. `holdsLeases`
 * keeps the answer per ServiceAccount, as many roles share one.
 */
function subjectsHoldLeases(index: ObjectIndex, role: IndexedObject, holdsLeases: Map<string, boolean>): boolean {
  let bound = false;
  for (const binding of index.bindingsOf(role)) {
    for (const subject of asArray(binding.raw.subjects)) {
      const name = isRecord(subject) && subject.kind === 'ServiceAccount' ? asString(subject.name) : undefined;
      if (name === undefined || !isRecord(subject)) continue;
      bound = true;
      const namespace = asString(subject.namespace) ?? binding.ref.namespace;
      const subjectKey = `${namespace ?? ''}/${name}`;
      let holds = holdsLeases.get(subjectKey);
      if (holds === undefined) {
        holds = index
          .grantsFor(namespace, name)
          .some((grant) => grant.role !== undefined && policyRules(grant.role).some(grantsOnLeases));
        holdsLeases.set(subjectKey, holds);
      }
      if (!holds) return false;
    }
  }
  return bound;
}
