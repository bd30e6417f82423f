import { RBAC_KINDS } from '../scopes';
import { IndexedObject } from '../../object-index';
import { asString, getRecord } from '../../json';
import { Rule } from '../../rule';
import { DELETE_VERBS, WRITE_VERBS, grantsOnLeases, hasVerb, policyRules } from './rbac';

/** Bootstrap roles the API server reconciles on every start: editing them in manifests changes nothing. */
const BOOTSTRAP_ROLE_PREFIX = 'system:';
/** Where the control plane's leader locks and the nodes' heartbeat Leases live. */
const CONTROL_PLANE_LEASE_NAMESPACES = new Set(['kube-system', 'kube-node-lease']);

export const overbroadLeaseRbac: Rule = {
  id: 'overbroad-lease-rbac',
  severity: 'warning',
  scope: RBAC_KINDS,
  // Off unless switched on: CSI sidecars, cloud controllers, autoscalers and operators ship exactly
  // this RBAC upstream (536 warnings on 47 repositories of test/real-world), so a default-on
  // warning would bury the findings that matter.
  optIn: true,
  summary:
    'RBAC lets a workload write every Lease of the cluster (a ClusterRole bound by a ClusterRoleBinding), or delete Leases in kube-system or kube-node-lease.',
  why:
    'A leader lock needs create on leases and get/update on its own Lease, in one namespace. Whoever ' +
    "may delete or write every Lease can also take or release other components' leadership: " +
    'kube-controller-manager and kube-scheduler keep their locks as Leases in kube-system, and node ' +
    'heartbeats are Leases in kube-node-lease. A deleted or stolen lock is how a control plane ends up ' +
    "with no active controller (incident 3). A Role in the operator's own namespace that also allows " +
    "delete (kubebuilder's scaffold does) reaches only that namespace's Leases and is not reported.",
  fix:
    'Grant leases in a namespaced Role (bound by a RoleBinding in the namespace of the lock): create ' +
    'without resourceNames, get and update with resourceNames set to the lock name; no delete, no *. ' +
    'In cdk8s, LeaderLease.grantLeadership(serviceAccount) writes exactly this.',
  example: {
    bad: [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: ClusterRole',
      'metadata: {name: operator-leader}',
      'rules:',
      '- apiGroups: [coordination.k8s.io]',
      '  resources: [leases]',
      '  verbs: ["*"]',
      '---',
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: ClusterRoleBinding',
      'metadata: {name: operator-leader}',
      'roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: operator-leader}',
      'subjects: [{kind: ServiceAccount, name: operator, namespace: ops}]',
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
    for (const role of context.index.ofKind('Role')) {
      if (isBootstrap(role) || !CONTROL_PLANE_LEASE_NAMESPACES.has(role.ref.namespace ?? '')) continue;
      for (const rule of policyRules(role)) {
        if (!grantsOnLeases(rule)) continue;
        const broad = rule.verbs.includes('*') ? '*' : DELETE_VERBS.find((verb) => rule.verbs.includes(verb));
        if (!broad) continue;
        reported.add(role);
        context.report(role, {
          path: `rules[${rule.index}].verbs`,
          message:
            `Role ${role.ref.namespace ?? ''}/${role.ref.name ?? ''} grants "${broad}" on leases in ` +
            `${role.ref.namespace ?? ''}: a leader lock never needs to be deleted, and this lets the holder ` +
            "remove the control plane's locks or nodes' heartbeats.",
        });
        break;
      }
    }
    for (const binding of context.index.ofKind('ClusterRoleBinding')) {
      const roleRef = getRecord(binding.raw, 'roleRef');
      if (asString(roleRef?.kind) !== 'ClusterRole') continue;
      const role = context.index.get('ClusterRole', undefined, asString(roleRef?.name), binding);
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
