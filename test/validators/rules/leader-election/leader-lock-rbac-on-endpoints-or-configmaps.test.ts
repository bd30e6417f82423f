import { ruleHits } from '../../../support/findings';
import { leaseLockRules, role } from './fixtures';

const RULE = 'leader-lock-rbac-on-endpoints-or-configmaps';
const lockVerbs = ['get', 'list', 'watch', 'create', 'update', 'patch'];

describe(RULE, () => {
  test('warns on a role named for leader locking that writes endpoints (nfs-client-provisioner)', () => {
    const locking = role('leader-locking-nfs-client-provisioner', [
      { apiGroups: [''], resources: ['endpoints'], verbs: lockVerbs },
    ]);
    expect(ruleHits([locking], RULE)).toEqual([
      {
        kind: 'Role',
        name: 'leader-locking-nfs-client-provisioner',
        path: 'rules[0]',
        severity: 'warning',
        suppressed: false,
      },
    ]);
  });

  // IBM/ibm-block-csi-operator config/rbac/role.yaml (held-out-303): the operator manages its
  // ConfigMaps (create, delete, get) and elects no leader; "block" is not the word "lock".
  test('real world: a name says leader locking by a whole word, not by a word that holds one (block)', () => {
    const configMapsWrite = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'delete', 'get'] }];
    const roles = [
      role('ibm-block-csi-operator', configMapsWrite, 'ClusterRole'),
      role('manager-leaderelection-role', configMapsWrite),
      role('operator-locks', configMapsWrite),
    ];
    expect(ruleHits(roles, RULE).map((hit) => [hit.name, hit.path])).toEqual([
      ['manager-leaderelection-role', 'rules[0]'],
      ['operator-locks', 'rules[0]'],
    ]);
  });

  test('warns on write restricted by resourceNames, and on create+update without delete (ceph rbd-provisioner)', () => {
    const named = role('operator', [
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['operator-lock'], verbs: ['get', 'update'] },
    ]);
    const provisioner = role(
      'rbd-provisioner',
      [
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        { apiGroups: [''], resources: ['endpoints'], verbs: lockVerbs },
      ],
      'ClusterRole',
    );
    expect(ruleHits([named, provisioner], RULE)).toEqual([
      { kind: 'Role', name: 'operator', path: 'rules[0]', severity: 'warning', suppressed: false },
      { kind: 'ClusterRole', name: 'rbd-provisioner', path: 'rules[1]', severity: 'warning', suppressed: false },
    ]);
  });

  // knowledgesystems/knowledgesystems-k8s-deployment cbioagent-clickhouse-clone-daily.yaml (held-out-108):
  // a CronJob patches the ConfigMap Reloader watches; client-go renews a lock only with update, and
  // creates it on its first election.
  test('real world: get and patch on a named ConfigMap is no lock; get and update is, where the role can create it', () => {
    const grant = (verbs: string[], more: Array<Record<string, unknown>> = []) =>
      role('clickhouse-clone-job-role', [
        { apiGroups: [''], resources: ['configmaps'], resourceNames: ['clickhouse-mcp-active'], verbs },
        ...more,
      ]);
    expect(ruleHits([grant(['get', 'patch'])], RULE)).toEqual([]);
    expect(
      ruleHits([grant(['get', 'update'], [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }])], RULE),
    ).toEqual([
      { kind: 'Role', name: 'clickhouse-clone-job-role', path: 'rules[0]', severity: 'warning', suppressed: false },
    ]);
  });

  // mhwilkes/ombra-labops gitops/apps/secrets/home-cluster-access/role-argocd.yaml (held-out-238): a
  // kubeconfig-generator Job's Role lists create beside update on its one named ConfigMap. RBAC cannot
  // restrict create by name, so that rule grants no create: the role creates no lock.
  test('real world: create listed only in a rule with resourceNames grants none; update of a named ConfigMap is then no lock', () => {
    const generator = (more: Array<Record<string, unknown>> = []) =>
      role('read-argocd-secrets', [
        {
          apiGroups: [''],
          resources: ['configmaps'],
          verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'],
          resourceNames: ['cluster-kubeconfig-view'],
        },
        ...more,
      ]);
    expect(ruleHits([generator()], RULE)).toEqual([]);
    expect(ruleHits([generator([{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }])], RULE)).toEqual([
      { kind: 'Role', name: 'read-argocd-secrets', path: 'rules[0]', severity: 'warning', suppressed: false },
    ]);
  });

  // larkintuckerllc/k8s-cka-tutorial 06-.../a-fruit-role.yaml (held-out-217): a Role that lets a
  // developer edit one ConfigMap, and create none; a lock's role creates its lock the first time.
  test('real world: get, patch and update on one named ConfigMap, with no create, is no lock unless its name says lock', () => {
    const edit = (resourceNames: string[]) =>
      role('fruit:edit', [
        { apiGroups: [''], resources: ['configmaps'], resourceNames, verbs: ['get', 'patch', 'update'] },
      ]);
    expect(ruleHits([edit(['fruit'])], RULE)).toEqual([]);
    expect(ruleHits([edit(['fruit-leader'])], RULE)).toEqual([
      { kind: 'Role', name: 'fruit:edit', path: 'rules[0]', severity: 'warning', suppressed: false },
    ]);
  });

  test('a named object that holds settings is no lock (kubernetes-dashboard, as minikube ships it); a named lock still is', () => {
    // kubernetes/minikube deploy/addons/dashboard/dashboard-role.yaml (81fec2e): get/update on its settings ConfigMap.
    const dashboard = role('kubernetes-dashboard', [
      {
        apiGroups: [''],
        resources: ['secrets'],
        resourceNames: ['kubernetes-dashboard-key-holder', 'kubernetes-dashboard-certs', 'kubernetes-dashboard-csrf'],
        verbs: ['get', 'update', 'delete'],
      },
      {
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['kubernetes-dashboard-settings'],
        verbs: ['get', 'update'],
      },
    ]);
    const settingsAndLock = role('ingress', [
      {
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: ['ingress-controller-config', 'ingress-controller-leader'],
        verbs: ['get', 'update'],
      },
    ]);
    expect(ruleHits([dashboard, settingsAndLock], RULE)).toEqual([
      { kind: 'Role', name: 'ingress', path: 'rules[0]', severity: 'warning', suppressed: false },
    ]);
  });

  // sbaker5/k3s-flux infrastructure/recovery/dependency-analyzer-deployment.yaml (held-out-167): create,
  // patch and update on two named ConfigMaps that hold state and configuration, and no delete.
  test('real world: create and update restricted to named data objects is no lock; with an unnamed one it is', () => {
    const grant = (resourceNames: string[]) =>
      role(
        'dependency-analyzer',
        [
          {
            apiGroups: [''],
            resources: ['configmaps'],
            verbs: ['get', 'list', 'watch', 'create', 'patch', 'update'],
            resourceNames,
          },
        ],
        'ClusterRole',
      );
    expect(ruleHits([grant(['dependency-analysis-state', 'recovery-patterns-config'])], RULE)).toEqual([]);
    expect(ruleHits([grant(['dependency-analysis-state', 'dependency-analyzer'])], RULE)).toEqual([
      { kind: 'ClusterRole', name: 'dependency-analyzer', path: 'rules[0]', severity: 'warning', suppressed: false },
    ]);
  });

  // WingkaiHo/k8s-notes metris/prometheus-operator/prometheus-operator-cluster-role.yaml (held-out-164):
  // an early prometheus-operator creates and updates its kubelet Service and that Service's Endpoints.
  test('real world: create and update on services and endpoints together is no lock; on endpoints alone it is', () => {
    const grant = (resources: string[]) =>
      role('prometheus-operator', [{ apiGroups: [''], resources, verbs: ['get', 'create', 'update'] }], 'ClusterRole');
    expect(ruleHits([grant(['services', 'endpoints'])], RULE)).toEqual([]);
    expect(ruleHits([grant(['endpoints'])], RULE)).toEqual([
      { kind: 'ClusterRole', name: 'prometheus-operator', path: 'rules[0]', severity: 'warning', suppressed: false },
    ]);
  });

  test('stays quiet on controllers that manage endpoints/configmaps, read-only grants, and roles that also grant leases', () => {
    expect(
      ruleHits(
        [
          // prometheus-operator: manages the kubelet Endpoints (create/update/delete).
          role(
            'prometheus-operator',
            [
              { apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['*'] },
              { apiGroups: [''], resources: ['endpoints'], verbs: ['get', 'create', 'update', 'delete'] },
            ],
            'ClusterRole',
          ),
          // rook: owns its ConfigMaps.
          role('rook-ceph-osd', [
            {
              apiGroups: [''],
              resources: ['configmaps'],
              verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
            },
          ]),
          role('elasticsearch', [{ apiGroups: [''], resources: ['endpoints'], verbs: ['get'] }]),
          // ceph-csi -cfg: configmap writes beside a lease grant.
          role('rbd-external-provisioner-cfg', [
            { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create', 'update'] },
            ...leaseLockRules('rbd-csi'),
          ]),
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'Role',
            metadata: { name: 'leader-lock' },
            rules: 'not a list',
          },
        ],
        RULE,
      ),
    ).toEqual([]);
  });
});
