import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { goModule } from '../../validators/go-module';
import { tempTree } from './run-cli';

const RULE = 'leader-election-without-lease-rbac';

/**
 * keikoproj/iam-manager (held-out-73), cut down: kubebuilder v2's scaffold kept on a current
 * controller-runtime. The manager runs --enable-leader-election as ServiceAccount system/default,
 * whose only leader-election Role grants configmaps and nothing on leases; go.mod pins v0.24.1,
 * whose only lock is a Lease.
 */
function goMod(controllerRuntime: string, extra = ''): string {
  return [
    'module github.com/keikoproj/iam-manager',
    '',
    'go 1.24.0',
    '',
    'require (',
    '\tgithub.com/go-logr/logr v1.4.3',
    `\tsigs.k8s.io/controller-runtime ${controllerRuntime}`,
    ')',
    '',
    'require k8s.io/api v0.34.1 // indirect',
    extra,
  ].join('\n');
}

function manager(image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: controller-manager
  namespace: system
spec:
  selector:
    matchLabels: {control-plane: controller-manager}
  replicas: 1
  template:
    metadata:
      labels: {control-plane: controller-manager}
    spec:
      containers:
      - command:
        - /manager
        args:
        - --enable-leader-election
        image: ${image}
        name: manager
`;
}

const LEADER_ELECTION_RBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: leader-election-role
  namespace: system
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list, watch, create, update, patch, delete]
- apiGroups: [""]
  resources: [events]
  verbs: [create]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: leader-election-rolebinding
  namespace: system
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: leader-election-role
subjects:
- kind: ServiceAccount
  name: default
  namespace: system
`;

function findingsIn(
  files: Record<string, string>,
): Array<{ severity: string; file: string; path: string; message: string }> {
  const { dir, cleanup } = tempTree(files);
  try {
    return lint([dir], { cwd: dir })
      .findings.filter((f) => f.rule === RULE)
      .map((f) => ({ severity: f.severity, file: path.relative(dir, f.file ?? ''), path: f.path, message: f.message }));
  } finally {
    cleanup();
  }
}

describe('the controller-runtime version of a Go module in the input', () => {
  test('real world: a manager built from the go.mod above it on controller-runtime >= 0.7 certainly needs leases: an error', () => {
    const found = findingsIn({
      'go.mod': goMod('v0.24.1'),
      'config/manager/manager.yaml': manager('controller:latest'),
      'config/rbac/leader_election_role.yaml': LEADER_ELECTION_RBAC,
    });
    expect(found).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'config/manager/manager.yaml',
        path: 'spec.template.spec.containers[0].args[0]',
      }),
    ]);
    expect(found[0]?.message).toContain('builds it with controller-runtime v0.24.1, whose default lock needs a Lease');
  });

  test('v0.7 to v0.11 (configmapsleases) need leases too; a pseudo-version counts by its release', () => {
    for (const version of ['v0.7.0', 'v0.9.8-0.20211019125639-aa2b3e68a52d'])
      expect(
        findingsIn({
          'operator/go.mod': goMod(version),
          'operator/config/manager/manager.yaml': manager('controller:latest'),
          'operator/config/rbac/role.yaml': LEADER_ELECTION_RBAC,
        }).map((f) => f.severity),
      ).toEqual(['error']);
  });

  test('an image named as the module (an install bundle) ties the manifest to the module', () => {
    const found = findingsIn({
      'go.mod': goMod('v0.24.1'),
      'hack/iam-manager.yaml': manager('keikoproj/iam-manager:latest') + '---\n' + LEADER_ELECTION_RBAC,
    });
    expect(found.map((f) => [f.severity, f.file])).toEqual([['error', 'hack/iam-manager.yaml']]);
  });

  test('stays a warning: controller-runtime before 0.7 (its lock is the ConfigMap the RBAC allows), saying so', () => {
    const found = findingsIn({
      'go.mod': goMod('v0.6.4'),
      'config/manager/manager.yaml': manager('controller:latest'),
      'config/rbac/role.yaml': LEADER_ELECTION_RBAC,
    });
    expect(found.map((f) => f.severity)).toEqual(['warning']);
    expect(found[0]?.message).toContain('builds it with controller-runtime v0.6.4, older than 0.7');
  });

  test('stays a warning when nothing ties the manifest to a module: no go.mod, another program, a go.mod in a sibling tree, a local replace', () => {
    const rbac = { 'config/rbac/role.yaml': LEADER_ELECTION_RBAC };
    const severities = (files: Record<string, string>) => findingsIn({ ...rbac, ...files }).map((f) => f.severity);
    expect(severities({ 'config/manager/manager.yaml': manager('controller:latest') })).toEqual(['warning']);
    expect(
      severities({ 'go.mod': goMod('v0.24.1'), 'config/manager/manager.yaml': manager('quay.io/other/operator:v1') }),
    ).toEqual(['warning']);
    expect(
      severities({ 'tools/go.mod': goMod('v0.24.1'), 'config/manager/manager.yaml': manager('controller:latest') }),
    ).toEqual(['warning']);
    expect(
      severities({
        'go.mod': goMod('v0.24.1', 'replace sigs.k8s.io/controller-runtime => ../controller-runtime'),
        'config/manager/manager.yaml': manager('controller:latest'),
      }),
    ).toEqual(['warning']);
  });
});

describe('goModule', () => {
  test('reads the module path and the controller-runtime requirement, in a block or on one line, comments ignored', () => {
    expect(goModule(goMod('v0.24.1'))).toEqual({
      kind: 'GoModule',
      module: 'github.com/keikoproj/iam-manager',
      requires: { 'sigs.k8s.io/controller-runtime': 'v0.24.1' },
    });
    expect(
      goModule('module example.com/op // the operator\nrequire sigs.k8s.io/controller-runtime v0.10.3 // indirect\n'),
    ).toEqual({
      kind: 'GoModule',
      module: 'example.com/op',
      requires: { 'sigs.k8s.io/controller-runtime': 'v0.10.3' },
    });
  });

  test('a replace that pins a version wins; one to a local directory leaves the version unknown', () => {
    const pinned = goModule(
      goMod(
        'v0.24.1',
        'replace (\n\tsigs.k8s.io/controller-runtime v0.24.1 => sigs.k8s.io/controller-runtime v0.6.5\n)',
      ),
    );
    expect(pinned.requires).toEqual({ 'sigs.k8s.io/controller-runtime': 'v0.6.5' });
    const local = goModule(goMod('v0.24.1', 'replace sigs.k8s.io/controller-runtime => ./third_party/cr'));
    expect(local.requires).toEqual({});
  });
});
