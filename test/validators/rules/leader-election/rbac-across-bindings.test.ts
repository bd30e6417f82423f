import { ruleHits } from '../../../support/findings';
import { clusterRoleBinding, deployment, leaseLockRules, role, roleBinding } from './fixtures';

describe('lease RBAC judged per ServiceAccount across bindings', () => {
  // gcp-compute-persistent-disk-csi-driver deploy/kubernetes/base: a kustomize base whose
  // Deployment and ServiceAccount subject carry no namespace (kustomize's `namespace:` sets it).
  test('leader-election-without-lease-rbac: a workload without a namespace counts every binding of its ServiceAccount', () => {
    const { metadata, ...rest } = deployment(['--leader-elect=true'], 'controller-sa');
    const unplaced = { ...rest, metadata: { name: metadata.name } };
    const binding = roleBinding('leader', 'controller-sa', 'Role', 'csi-system');
    const withoutNamespace = { ...binding, subjects: [{ kind: 'ServiceAccount', name: 'controller-sa' }] };
    const objects = [unplaced, role('leader', leaseLockRules('controller'), 'Role', 'csi-system'), withoutNamespace];
    expect(ruleHits(objects, 'leader-election-without-lease-rbac')).toEqual([]);
  });

  // cluster-autoscaler examples: a Role writes the status ConfigMap by resourceNames, while the
  // ServiceAccount's ClusterRole grants leases: the ConfigMap is not a lock.
  test('leader-lock-rbac-on-endpoints-or-configmaps: passes a ConfigMap grant when the same ServiceAccount holds leases elsewhere', () => {
    const status = role('autoscaler', [
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['autoscaler-status'], verbs: ['get', 'update'] },
    ]);
    const leases = role('autoscaler-cluster', leaseLockRules('autoscaler'), 'ClusterRole');
    const objects = [
      status,
      roleBinding('autoscaler', 'autoscaler'),
      leases,
      clusterRoleBinding('autoscaler-cluster', 'autoscaler'),
    ];
    expect(ruleHits(objects, 'leader-lock-rbac-on-endpoints-or-configmaps')).toEqual([]);
    expect(
      ruleHits([status, roleBinding('autoscaler', 'autoscaler')], 'leader-lock-rbac-on-endpoints-or-configmaps'),
    ).toEqual([{ kind: 'Role', name: 'autoscaler', path: 'rules[0]', severity: 'warning', suppressed: false }]);
  });
});
