import * as fs from 'fs';
import * as path from 'path';
import { ballast, lintJson, tempTree } from './run-cli';

const PV = (name: string) =>
  `apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: ${name}, namespace: shop}\n` +
  'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: rbd.csi.ceph.com, volumeHandle: x}}\n';
const IN_TREE_RBD_POD = [
  'apiVersion: v1',
  'kind: Pod',
  'metadata: {name: legacy, namespace: shop}',
  'spec:',
  '  containers: [{name: app, image: busybox}]',
  '  volumes: [{name: data, rbd: {monitors: ["10.0.0.1:6789"], image: legacy, pool: rbd}}]',
  '',
].join('\n');
const WARNING_ONLY = [
  'apiVersion: apps/v1',
  'kind: StatefulSet',
  'metadata: {name: db, namespace: shop}',
  'spec:',
  '  serviceName: db',
  '  replicas: 3',
  '  selector: {matchLabels: {app: db}}',
  '  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: postgres:16}]}}',
  '',
].join('\n');

describe('adopting ballast in an existing repository', () => {
  test('--suppress-all takes a repo from exit 1 to exit 0; a new bad file fails again; --prune-suppressions drops fixed ones', async () => {
    const tree = tempTree({ 'deploy/a.yaml': PV('a'), 'deploy/b.yaml': PV('b') });
    const file = path.join(tree.dir, 'ballast-suppressions.json');
    const lint = (...extra: string[]) =>
      lintJson(['--suppressions-file', file, ...extra, path.join(tree.dir, 'deploy')]);
    try {
      expect((await lint()).code).toBe(1);
      const recorded = await ballast([
        'lint',
        '--suppressions-file',
        file,
        '--suppress-all',
        path.join(tree.dir, 'deploy'),
      ]);
      expect(recorded.code).toBe(0);
      expect(recorded.stderr).toContain('recorded 2 finding(s)');
      const after = await lint();
      expect(after.code).toBe(0);
      expect(after.json.summary).toMatchObject({ errors: 0, baselined: 2 });
      expect(after.json.findings.every((f) => f.baselined)).toBe(true);

      // Moving a finding to another line keeps it recorded: fingerprints hold no line numbers.
      fs.writeFileSync(path.join(tree.dir, 'deploy/a.yaml'), `# a comment\n# another\n${PV('a')}`);
      expect((await lint()).code).toBe(0);

      fs.writeFileSync(path.join(tree.dir, 'deploy/c.yaml'), PV('c'));
      const withNew = await lint();
      expect(withNew.code).toBe(1);
      expect(withNew.json.findings.filter((f) => !f.baselined).map((f) => f.object.name)).toEqual(['c']);
      const text = await ballast(['lint', '--suppressions-file', file, path.join(tree.dir, 'deploy')]);
      expect(text.stdout).toContain('2 baselined in');

      fs.rmSync(path.join(tree.dir, 'deploy/b.yaml'));
      const pruned = await ballast([
        'lint',
        '--suppressions-file',
        file,
        '--prune-suppressions',
        path.join(tree.dir, 'deploy'),
      ]);
      expect(pruned.stderr).toContain('1 suppression(s) still match');
      const entries = (JSON.parse(fs.readFileSync(file, 'utf8')) as { suppressions: Array<{ object: string }> })
        .suppressions;
      expect(entries.map((entry) => entry.object)).toEqual(['PersistentVolume shop/a']);
    } finally {
      tree.cleanup();
    }
  });

  test('SARIF carries partialFingerprints, and a baselineState when compared with a suppressions file', async () => {
    const tree = tempTree({ 'pv.yaml': PV('a') });
    const file = path.join(tree.dir, 'ballast-suppressions.json');
    try {
      const plain = JSON.parse((await ballast(['lint', '--format', 'sarif', path.join(tree.dir, 'pv.yaml')])).stdout);
      const [result] = plain.runs[0].results;
      expect(result.partialFingerprints['ballastFinding/v1']).toMatch(/^[0-9a-f]{32}$/);
      expect(result.baselineState).toBeUndefined();
      await ballast(['lint', '--suppressions-file', file, '--suppress-all', path.join(tree.dir, 'pv.yaml')]);
      fs.writeFileSync(path.join(tree.dir, 'new.yaml'), PV('b'));
      const compared = JSON.parse(
        (await ballast(['lint', '--format', 'sarif', '--suppressions-file', file, tree.dir])).stdout,
      );
      expect(compared.runs[0].results.map((r: { baselineState: string }) => r.baselineState)).toEqual([
        'new',
        'unchanged',
      ]);
    } finally {
      tree.cleanup();
    }
  });

  test('--fail-on: error (default), warning, never', async () => {
    expect((await ballast(['lint', '-'], WARNING_ONLY)).code).toBe(0);
    expect((await ballast(['lint', '--fail-on', 'warning', '-'], WARNING_ONLY)).code).toBe(1);
    expect((await ballast(['lint', '--fail-on', 'never', '-'], PV('a'))).code).toBe(0);
    const bad = await ballast(['lint', '--fail-on', 'sometimes', '-'], PV('a'));
    expect(bad.code).toBe(2);
  });

  test('--upgrade-to 1.31 from 1.30 refuses an in-tree rbd Pod; what is already an error is not repeated', async () => {
    const today = await lintJson(['--kube-version', '1.30', '-'], IN_TREE_RBD_POD);
    expect(today.json.findings.filter((f) => f.severity === 'error').map((f) => f.rule)).not.toContain(
      'in-tree-ceph-volume',
    );
    const upgrade = await lintJson(['--kube-version', '1.30', '--upgrade-to', '1.31', '-'], IN_TREE_RBD_POD);
    expect(upgrade.code).toBe(1);
    expect(upgrade.json.target).toEqual({ kubernetesVersion: '1.31', source: 'command line', upgradeFrom: '1.30' });
    expect(upgrade.json.findings).toEqual([
      expect.objectContaining({ rule: 'in-tree-ceph-volume', severity: 'error', path: 'spec.volumes[0].rbd' }),
    ]);
    const text = await ballast(['lint', '--kube-version', '1.30', '--upgrade-to', '1.31', '-'], IN_TREE_RBD_POD);
    expect(text.stdout).toContain('Upgrade check, Kubernetes 1.30 -> 1.31');
    const clean = await lintJson(['--kube-version', '1.31', '--upgrade-to', '1.32', '-'], IN_TREE_RBD_POD);
    expect(clean.code).toBe(0); // already an error at 1.31: nothing new on upgrade
    const backwards = await ballast(['lint', '--kube-version', '1.31', '--upgrade-to', '1.30', '-'], IN_TREE_RBD_POD);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toContain('is not newer than the target 1.31');
  });
});
