/** Small object builders shared by the leader-election rule tests. */

export const staticPod = (command: string[], name = 'kube-controller-manager') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'kube-system' },
  spec: { containers: [{ name, image: `registry.k8s.io/${name}:v1.27.4`, command }] },
});

export const deployment = (args: string[], serviceAccountName = 'operator', namespace = 'ops') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'operator', namespace },
  spec: {
    selector: { matchLabels: { app: 'operator' } },
    template: {
      metadata: { labels: { app: 'operator' } },
      spec: { serviceAccountName, containers: [{ name: 'manager', image: 'example/operator:1.0', args }] },
    },
  },
});

export const role = (name: string, rules: unknown[], kind: 'Role' | 'ClusterRole' = 'Role', namespace = 'ops') => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata: kind === 'Role' ? { name, namespace } : { name },
  rules,
});

export const roleBinding = (
  roleName: string,
  serviceAccount: string,
  roleKind: 'Role' | 'ClusterRole' = 'Role',
  namespace = 'ops',
) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name: `${roleName}-${serviceAccount}`, namespace },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
  subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
});

export const clusterRoleBinding = (roleName: string, serviceAccount: string, namespace = 'ops') => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name: `${roleName}-${serviceAccount}` },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
  subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
});

/** The least RBAC a LeaseLock needs. */
export const leaseLockRules = (leaseName: string) => [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: [leaseName], verbs: ['get', 'update'] },
];
