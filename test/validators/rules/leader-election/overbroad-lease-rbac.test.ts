import { ruleHits } from '../../../support/findings';
import { clusterRoleBinding, leaseLockRules, role, roleBinding } from './fixtures';

const RULE = 'overbroad-lease-rbac';

describe(RULE, () => {
  test.each([['*'], ['delete'], ['deletecollection']])('warns on verb %s on leases in kube-system', (verb) => {
    const broad = role(
      'operator',
      [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', verb] }],
      'Role',
      'kube-system',
    );
    expect(ruleHits([broad], RULE)).toEqual([
      { kind: 'Role', name: 'operator', path: 'rules[0].verbs', severity: 'warning', suppressed: false },
    ]);
  });

  test("passes delete on leases in the operator's own namespace (kubebuilder's scaffold)", () => {
    const scaffold = role('leader-election-role', [
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      },
    ]);
    expect(ruleHits([scaffold], RULE)).toEqual([]);
  });

  test('is opt-in: without `rules: {overbroad-lease-rbac: on}` it reports nothing', () => {
    const clusterRole = role('operator-leader', leaseLockRules('operator'), 'ClusterRole');
    const objects = [clusterRole, clusterRoleBinding('operator-leader', 'operator')];
    expect(ruleHits(objects, RULE, { enabledRules: [] })).toEqual([]);
    expect(ruleHits(objects, RULE)).toHaveLength(1);
  });

  test('warns on a ClusterRole with lease write bound cluster-wide', () => {
    const clusterRole = role('operator-leader', leaseLockRules('operator'), 'ClusterRole');
    expect(ruleHits([clusterRole, clusterRoleBinding('operator-leader', 'operator')], RULE)).toEqual([
      { kind: 'ClusterRole', name: 'operator-leader', path: 'rules[0]', severity: 'warning', suppressed: false },
    ]);
  });

  test('passes least-privilege Roles, ClusterRoles bound per namespace, and bootstrap system: roles', () => {
    const clusterRole = role('operator-leader', leaseLockRules('operator'), 'ClusterRole');
    expect(
      ruleHits(
        [
          role('operator', leaseLockRules('operator')),
          clusterRole,
          roleBinding('operator-leader', 'operator', 'ClusterRole'),
          role('system:kube-scheduler', leaseLockRules('kube-scheduler'), 'ClusterRole'),
          clusterRoleBinding('system:kube-scheduler', 'kube-scheduler', 'kube-system'),
          role(
            'reader',
            [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch'] }],
            'ClusterRole',
          ),
          clusterRoleBinding('reader', 'dashboard'),
        ],
        RULE,
      ),
    ).toEqual([]);
  });
});
