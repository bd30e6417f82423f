import { ruleHits } from '../../../support/findings';
import { clusterRoleBinding, leaseLockRules, role, roleBinding } from './fixtures';

const RULE = 'overbroad-lease-rbac';

describe(RULE, () => {
  test.each([['*'], ['delete'], ['deletecollection']])('warns on verb %s on leases', (verb) => {
    const broad = role('operator', [
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', verb] },
    ]);
    expect(ruleHits([broad], RULE)).toEqual([
      { kind: 'Role', name: 'operator', path: 'rules[0].verbs', severity: 'warning', suppressed: false },
    ]);
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
