import { ruleHits } from '../../../support/findings';
import { clusterRoleBinding, deployment, leaseLockRules, role, roleBinding } from './fixtures';

const RULE = 'leader-election-without-lease-rbac';
const configReader = role('operator', [
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
]);

describe(RULE, () => {
  test("refuses when the ServiceAccount's roles are all in the set and none grants leases: the lock certainly fails", () => {
    expect(
      ruleHits(
        [
          deployment(['--metrics-bind-address=:8080', '--leader-elect=true']),
          configReader,
          roleBinding('operator', 'operator'),
        ],
        RULE,
      ),
    ).toEqual([
      {
        kind: 'Deployment',
        name: 'operator',
        path: 'spec.template.spec.containers[0].args[1]',
        severity: 'error',
        suppressed: false,
      },
    ]);
  });

  // 13567436138/kubernetes-yamls nbbank/aliyun/kube-controller-manager.yaml (held-out-33): a static
  // kube-controller-manager with --kubeconfig and --leader-elect=true; the default ServiceAccount of
  // its namespace is bound to a role without leases, but the component is not that ServiceAccount.
  test('real world: a component with --kubeconfig elects as its kubeconfig user, so its ServiceAccount is not judged', () => {
    const withKubeconfig = deployment(['--kubeconfig=/etc/kubernetes/controller-manager.conf', '--leader-elect=true']);
    expect(ruleHits([withKubeconfig, configReader, roleBinding('operator', 'operator')], RULE)).toEqual([]);
    const separate = deployment(['--kubeconfig', '/etc/kubernetes/controller-manager.conf', '--leader-elect=true']);
    expect(ruleHits([separate, configReader, roleBinding('operator', 'operator')], RULE)).toEqual([]);
  });

  // GoogleCloudPlatform/flink-on-k8s-operator config/manager/manager.yaml (held-out-32): kubebuilder
  // v2's --enable-leader-election, whose controller-runtime (before 0.7) locks on a ConfigMap.
  test("real world: kubebuilder v2's --enable-leader-election with ConfigMap-lock RBAC is a warning, not certain", () => {
    const configLock = role('operator', [
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      },
    ]);
    expect(
      ruleHits([deployment(['--enable-leader-election']), configLock, roleBinding('operator', 'operator')], RULE),
    ).toEqual([expect.objectContaining({ severity: 'warning' })]);
    expect(ruleHits([deployment(['--leader-elect']), configLock, roleBinding('operator', 'operator')], RULE)).toEqual([
      expect.objectContaining({ severity: 'error' }),
    ]);
    // Without even the ConfigMap lock's rights, no version can hold a lock.
    expect(
      ruleHits([deployment(['--enable-leader-election']), configReader, roleBinding('operator', 'operator')], RULE),
    ).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  test('also reads --leader-election (CSI sidecars) and a bare --leader-elect', () => {
    for (const flag of ['--leader-election', '--leader-elect']) {
      expect(ruleHits([deployment([flag]), configReader, roleBinding('operator', 'operator')], RULE)).toHaveLength(1);
    }
  });

  test('passes with a lease grant, with RBAC outside the set, with election off, and without bindings', () => {
    expect(
      ruleHits(
        [
          deployment(['--leader-elect=true']),
          configReader,
          roleBinding('operator', 'operator'),
          role('operator-leader', leaseLockRules('operator')),
          roleBinding('operator-leader', 'operator'),
        ],
        RULE,
      ),
    ).toEqual([]);
    // cluster-admin is not in the set: the rule cannot know what it grants.
    expect(
      ruleHits([deployment(['--leader-elect=true'], 'ccm'), clusterRoleBinding('cluster-admin', 'ccm')], RULE),
    ).toEqual([]);
    expect(
      ruleHits([deployment(['--leader-elect=false']), configReader, roleBinding('operator', 'operator')], RULE),
    ).toEqual([]);
    expect(ruleHits([deployment(['--leader-elect=true'], 'lonely')], RULE)).toEqual([]);
  });

  test('RBAC is judged per ServiceAccount across every binding: a Role and a ClusterRole together are enough', () => {
    const leaseCreator = role(
      'lease-creator',
      [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] }],
      'ClusterRole',
    );
    const leaseRenewer = role('operator-lease', [
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: ['operator'],
        verbs: ['get', 'update'],
      },
    ]);
    const objects = [
      deployment(['--leader-elect=true']),
      leaseCreator,
      clusterRoleBinding('lease-creator', 'operator'),
      leaseRenewer,
      roleBinding('operator-lease', 'operator'),
    ];
    expect(ruleHits(objects, RULE)).toEqual([]);
    // Without the ClusterRoleBinding, create is missing.
    const hits = ruleHits(
      objects.filter((object) => object.kind !== 'ClusterRoleBinding'),
      RULE,
    );
    expect(hits).toEqual([
      expect.objectContaining({ severity: 'error', path: 'spec.template.spec.containers[0].args[0]' }),
    ]);
  });

  test('create limited by resourceNames does not count (the name is unknown when a create is authorized)', () => {
    const namedOnly = role('operator-lease', [
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: ['operator'],
        verbs: ['get', 'create', 'update'],
      },
    ]);
    const findings = ruleHits(
      [deployment(['--leader-elect=true']), namedOnly, roleBinding('operator-lease', 'operator')],
      RULE,
    );
    expect(findings).toEqual([expect.objectContaining({ severity: 'error' })]);
  });

  test('an aggregated ClusterRole grants what the ClusterRoles its selectors (matchLabels, matchExpressions) select grant', () => {
    const aggregate = (selector: Record<string, unknown>) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'operator-aggregate' },
      aggregationRule: { clusterRoleSelectors: [selector] },
      rules: [],
    });
    const part = {
      ...role('operator-leases', leaseLockRules('operator'), 'ClusterRole'),
      metadata: { name: 'operator-leases', labels: { 'rbac.example.com/aggregate-to-operator': 'true' } },
    };
    const base = [deployment(['--leader-elect=true']), part, clusterRoleBinding('operator-aggregate', 'operator')];
    expect(
      ruleHits([...base, aggregate({ matchLabels: { 'rbac.example.com/aggregate-to-operator': 'true' } })], RULE),
    ).toEqual([]);
    expect(
      ruleHits([...base, aggregate({ matchLabels: { 'rbac.example.com/aggregate-to-other': 'true' } })], RULE),
    ).toEqual([expect.objectContaining({ severity: 'error' })]);
    const expression = (operator: string, values?: string[]) =>
      aggregate({
        matchExpressions: [{ key: 'rbac.example.com/aggregate-to-operator', operator, ...(values ? { values } : {}) }],
      });
    expect(ruleHits([...base, expression('In', ['true'])], RULE)).toEqual([]);
    expect(ruleHits([...base, expression('Exists')], RULE)).toEqual([]);
    expect(ruleHits([...base, expression('DoesNotExist')], RULE)).toEqual([
      expect.objectContaining({ severity: 'error' }),
    ]);
    // An operator Kubernetes does not know: the aggregate's rules cannot be known, so nothing is said.
    expect(ruleHits([...base, expression('Gt', ['1'])], RULE)).toEqual([]);
  });
});
