import { IndexedObject } from '../../object-index';
import { asString, getRecord } from '../../json';
import { Rule } from '../../rule';
import { DELETE_VERBS, WRITE_VERBS, grantsOnLeases, hasVerb, policyRules } from './rbac';

/** Bootstrap roles the API server reconciles on every start: editing them in manifests changes nothing. */
const BOOTSTRAP_ROLE_PREFIX = 'system:';

export const overbroadLeaseRbac: Rule = {
  id: 'overbroad-lease-rbac',
  severity: 'warning',
  summary: 'RBAC on leases grants *, delete, or write in every namespace (ClusterRole bound by a ClusterRoleBinding).',
  why:
    'A leader lock needs create on leases and get/update on its own Lease, in one namespace. Whoever ' +
    "may delete or write every Lease can also take or release other components' leadership: " +
    'kube-controller-manager and kube-scheduler keep their locks as Leases in kube-system, and node ' +
    'heartbeats are Leases in kube-node-lease. A deleted or stolen lock is how a control plane ends up ' +
    'with no active controller (incident 3).',
  fix:
    'Grant leases in a namespaced Role (bound by a RoleBinding in the namespace of the lock): create ' +
    'without resourceNames, get and update with resourceNames set to the lock name; no delete, no *. ' +
    'In cdk8s, LeaderLease.grantLeadership(serviceAccount) writes exactly this.',
  example: {
    bad: [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: Role',
      'metadata: {name: operator-leader, namespace: ops}',
      'rules:',
      '- apiGroups: [coordination.k8s.io]',
      '  resources: [leases]',
      '  verbs: ["*"]',
    ].join('\n'),
    good: [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: Role',
      'metadata: {name: operator-leader, namespace: ops}',
      'rules:',
      '- apiGroups: [coordination.k8s.io]',
      '  resources: [leases]',
      '  verbs: [create]',
      '- apiGroups: [coordination.k8s.io]',
      '  resources: [leases]',
      '  resourceNames: [operator]',
      '  verbs: [get, update]',
    ].join('\n'),
  },
  check(context) {
    const isBootstrap = (role: IndexedObject) => (role.ref.name ?? '').startsWith(BOOTSTRAP_ROLE_PREFIX);
    const reported = new Set<IndexedObject>();
    for (const role of [...context.index.ofKind('Role'), ...context.index.ofKind('ClusterRole')]) {
      if (isBootstrap(role)) continue;
      for (const rule of policyRules(role)) {
        if (!grantsOnLeases(rule)) continue;
        const broad = rule.verbs.includes('*') ? '*' : DELETE_VERBS.find((verb) => rule.verbs.includes(verb));
        if (!broad) continue;
        reported.add(role);
        context.report(role, {
          path: `rules[${rule.index}].verbs`,
          message:
            `${role.ref.kind} ${role.ref.name ?? ''} grants "${broad}" on leases: a leader lock never needs ` +
            "to be deleted, and this lets the holder remove other components' locks.",
        });
        break;
      }
    }
    for (const binding of context.index.ofKind('ClusterRoleBinding')) {
      const roleRef = getRecord(binding.raw, 'roleRef');
      if (asString(roleRef?.kind) !== 'ClusterRole') continue;
      const role = context.index.get('ClusterRole', undefined, asString(roleRef?.name));
      if (!role || reported.has(role) || isBootstrap(role)) continue;
      const rule = policyRules(role).find((candidate) => grantsOnLeases(candidate) && hasVerb(candidate, WRITE_VERBS));
      if (!rule) continue;
      reported.add(role);
      context.report(role, {
        path: `rules[${rule.index}]`,
        message:
          `ClusterRole ${role.ref.name ?? ''} grants write on leases and ClusterRoleBinding ` +
          `${binding.ref.name ?? ''} applies it in every namespace, kube-system's control-plane locks included; ` +
          'a leader lock lives in one namespace, so a Role and RoleBinding there would do.',
      });
    }
  },
};
