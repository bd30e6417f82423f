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
    // Without the lease grant, a write on an object named like a lock (the component's name), in a
    // role that can create it (cluster-autoscaler's create on configmaps), is one.
    const lock = role('autoscaler', [
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-autoscaler'], verbs: ['get', 'update'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'list', 'watch'] },
    ]);
    expect(
      ruleHits([lock, roleBinding('autoscaler', 'autoscaler')], 'leader-lock-rbac-on-endpoints-or-configmaps'),
    ).toEqual([{ kind: 'Role', name: 'autoscaler', path: 'rules[0]', severity: 'warning', suppressed: false }]);
    // A ConfigMap named as data (`-status`) is no lock, with or without the lease grant.
    expect(
      ruleHits([status, roleBinding('autoscaler', 'autoscaler')], 'leader-lock-rbac-on-endpoints-or-configmaps'),
    ).toEqual([]);
  });

  // The RBAC of kubernetes-csi/external-provisioner v1.x's deploy example: write on endpoints, the
  // lock its default --leader-election-type=endpoints takes; nothing on leases, which it never uses.
  test('an old sidecar on its default Endpoints lock is not told it lacks lease RBAC: its lock is the warning', () => {
    const sidecar = deployment(['--csi-address=$(ADDRESS)', '--enable-leader-election'], 'csi-provisioner');
    sidecar.spec.template.spec.containers[0]!.image = 'quay.io/k8scsi/csi-provisioner:v1.6.0';
    const endpointsLock = role('external-provisioner-cfg', [
      { apiGroups: [''], resources: ['endpoints'], verbs: ['get', 'watch', 'list', 'delete', 'update', 'create'] },
    ]);
    const objects = [sidecar, endpointsLock, roleBinding('external-provisioner-cfg', 'csi-provisioner')];
    expect(ruleHits(objects, 'leader-election-without-lease-rbac')).toEqual([]);
    expect(ruleHits(objects, 'legacy-leader-election-lock')).toEqual([
      expect.objectContaining({ severity: 'warning', path: 'spec.template.spec.containers[0].image' }),
    ]);
    // The same workload on a v2 image, which takes a Lease, lacks the RBAC for it.
    sidecar.spec.template.spec.containers[0]!.image = 'registry.k8s.io/sig-storage/csi-provisioner:v2.2.2';
    sidecar.spec.template.spec.containers[0]!.args = ['--csi-address=$(ADDRESS)', '--leader-election'];
    expect(ruleHits(objects, 'leader-election-without-lease-rbac')).toEqual([
      expect.objectContaining({ severity: 'error' }),
    ]);
  });
});
