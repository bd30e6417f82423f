import { lint } from '../../cli/lint-command';
import { tempTree } from './run-cli';

describe('ballast lint: a mapping that names a key twice', () => {
  // The shape of cloudcafetech/kubesetup nfs-storage/nfs-deployment.yaml: `selector` written twice
  // in a provisioner Deployment that mounts an in-tree NFS volume.
  const deployment = [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: nfs-client-provisioner}',
    'spec:',
    '  selector: {matchLabels: {app: nfs}}',
    '  strategy: {type: Recreate}',
    '  selector: {matchLabels: {app: nfs}}',
    '  template:',
    '    metadata: {labels: {app: nfs}}',
    '    spec:',
    '      containers: [{name: p, image: registry.k8s.io/sig-storage/nfs-subdir-external-provisioner:v4.0.2}]',
    '      volumes: [{name: root, nfs: {server: 10.0.0.9, path: /exports}}]',
    '',
  ].join('\n');

  test('is refused at the duplicate line (kubectl refuses the file), and the document is still checked by every rule', () => {
    const tree = tempTree({ 'deploy.yaml': deployment });
    try {
      const result = lint([tree.dir], { cwd: tree.dir });
      expect(result.findings.map((f) => [f.rule, f.severity, f.line])).toEqual([
        ['yaml-syntax-error', 'error', 7],
        ['nfs-volume-without-node-prerequisite', 'error', 12],
      ]);
      expect(result.findings[0]?.message).toContain('kubectl refuses the file');
      expect(result.summary.objects).toBe(1);
    } finally {
      tree.cleanup();
    }
  });

  test('beside another syntax error, each document is read alone: both errors reported, the duplicate-key one still checked', () => {
    const broken = `${deployment}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: [unclosed\n`;
    const tree = tempTree({ 'deploy.yaml': broken });
    try {
      const result = lint([tree.dir], { cwd: tree.dir });
      expect(result.findings.map((f) => [f.rule, f.line])).toEqual([
        ['yaml-syntax-error', 7],
        ['nfs-volume-without-node-prerequisite', 12],
        ['yaml-syntax-error', 17],
      ]);
    } finally {
      tree.cleanup();
    }
  });
});
