import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

const RULE = 'leader-election-without-lease-rbac';

/** A kubebuilder v2 manager: leader election on, running as the namespace's default ServiceAccount. */
const manager = (namespace: string, name: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  selector: {matchLabels: {control-plane: controller-manager}}
  template:
    metadata: {labels: {control-plane: controller-manager}}
    spec:
      containers:
      - name: manager
        image: smallstep/step-issuer:0.3.0
        command: [/manager]
        args: [--enable-leader-election]
`;
const clusterRole = (name: string, leases: boolean) => `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: ${name}}
rules:
- {apiGroups: [""], resources: [events], verbs: [create, patch]}
${leases ? '- {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [create, get, update]}\n' : ''}`;
const binding = (name: string, role: string, namespace: string) => `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ${name}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${role}}
subjects:
- {kind: ServiceAccount, name: default, namespace: ${namespace}}
`;

/**
 * smallstep/step-issuer (held-out-73), cut down: config/default sets `namespace: step-issuer-system`
 * over config/rbac, whose ClusterRoleBinding binds ServiceAccount default of namespace `system` to
 * the manager's ClusterRole, which grants leases; kustomize moves that subject with the rest. An
 * older install bundle beside it binds the same ServiceAccount to a role without leases.
 */
const kubebuilderTree = {
  'config/default/kustomization.yaml': 'namespace: step-issuer-system\nresources: [../rbac, ../manager]\n',
  'config/rbac/kustomization.yaml': 'resources: [role.yaml, role_binding.yaml]\n',
  'config/rbac/role.yaml': clusterRole('manager-role', true),
  'config/rbac/role_binding.yaml': binding('manager-rolebinding', 'manager-role', 'system'),
  'config/manager/kustomization.yaml': 'resources: [manager.yaml]\n',
  'config/manager/manager.yaml': manager('system', 'controller-manager'),
  'config/samples/deployment.yaml': [
    clusterRole('step-issuer-manager-role', false),
    binding('step-issuer-manager-rolebinding', 'step-issuer-manager-role', 'step-issuer-system'),
    manager('step-issuer-system', 'step-issuer-controller-manager'),
  ].join('---\n'),
};

describe('role binding subjects a kustomization moves with its namespace', () => {
  test('real world: the manager of a kubebuilder layout keeps the leases its own binding grants', () => {
    const { dir, cleanup } = tempTree(kubebuilderTree);
    try {
      // Both bindings name ServiceAccount step-issuer-system/default, so both managers may use leases.
      expect(lint([dir], { cwd: dir }).findings.filter((f) => f.rule === RULE)).toEqual([]);
    } finally {
      cleanup();
    }
  });

  test('a subject naming a ServiceAccount the kustomization moves is moved with it (kubebuilder v3)', () => {
    const tree = (leases: boolean) => ({
      'config/default/kustomization.yaml': 'namespace: operator-system\nresources: [../rbac, ../manager]\n',
      'config/rbac/kustomization.yaml': 'resources: [service_account.yaml, role.yaml, role_binding.yaml]\n',
      'config/rbac/service_account.yaml':
        'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: controller-manager, namespace: system}\n',
      'config/rbac/role.yaml': clusterRole('manager-role', leases),
      'config/rbac/role_binding.yaml': binding('manager-rolebinding', 'manager-role', 'system').replace(
        'name: default',
        'name: controller-manager',
      ),
      'config/manager/kustomization.yaml': 'resources: [manager.yaml]\n',
      'config/manager/manager.yaml': manager('system', 'controller-manager').replace(
        '    spec:\n      containers:',
        '    spec:\n      serviceAccountName: controller-manager\n      containers:',
      ),
    });
    const hits = (leases: boolean) => {
      const { dir, cleanup } = tempTree(tree(leases));
      try {
        return lint([dir], { cwd: dir })
          .findings.filter((f) => f.rule === RULE)
          .map((f) => [f.object.namespace, f.object.name, f.path]);
      } finally {
        cleanup();
      }
    };
    expect(hits(true)).toEqual([]);
    expect(hits(false)).toEqual([
      ['operator-system', 'controller-manager', 'spec.template.spec.containers[0].args[0]'],
    ]);
  });

  test('a subject that is neither default nor a ServiceAccount the kustomization moves keeps its namespace', () => {
    const { dir, cleanup } = tempTree({
      ...kubebuilderTree,
      'config/rbac/role_binding.yaml': binding('manager-rolebinding', 'manager-role', 'system').replace(
        'name: default',
        'name: manager',
      ),
    });
    try {
      const managerHits = lint([dir], { cwd: dir }).findings.filter(
        (f) => f.rule === RULE && f.object.name === 'controller-manager',
      );
      expect(managerHits.map((f) => f.path)).toEqual(['spec.template.spec.containers[0].args[0]']);
    } finally {
      cleanup();
    }
  });
});
