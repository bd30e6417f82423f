import * as fs from 'fs';
import * as path from 'path';
import '@microsoft/jest-sarif';
import { workloadOnClaim } from '../support/workload-on-claim';
import { ballast, lintJson, tempTree } from './run-cli';

const MIXED = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'fix', 'mixed.yaml'), 'utf8');
const GOOD = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fine}  # untouched\n';

describe('ballast fix', () => {
  test('fixes every fixable error in place, keeps comments and untouched text, and a second run changes nothing', async () => {
    const tree = tempTree({ 'deploy/mixed.yaml': MIXED, 'deploy/good.yaml': GOOD });
    const file = path.join(tree.dir, 'deploy/mixed.yaml');
    const good = path.join(tree.dir, 'deploy/good.yaml');
    try {
      const before = await lintJson(['--kube-version', '1.31', tree.dir]);
      expect(before.code).toBe(1);
      expect(
        before.json.findings
          .filter((f) => f.edits.length > 0)
          .map((f) => f.rule)
          .sort(),
      ).toEqual([
        'eviction-hard-drops-default-signals',
        'multi-node-access-on-rbd-filesystem',
        'persistent-volume-with-namespace',
        'recycle-reclaim-policy',
        'rwo-claim-in-rolling-deployment',
      ]);
      fs.utimesSync(good, new Date(2020, 0, 1), new Date(2020, 0, 1));
      const fixed = await ballast(['fix', '--kube-version', '1.31', tree.dir]);
      expect(fixed.stderr).toContain('5 finding(s) fixed in 1 file(s)');
      expect(fixed.code).toBe(0);
      const text = fs.readFileSync(file, 'utf8');
      for (const comment of MIXED.split('\n').filter((line) => line.includes('#'))) expect(text).toContain(comment);
      expect(text).toContain('  strategy: {type: Recreate}\n  selector: {matchLabels: {app: db}}');
      expect(text).toContain('  accessModes: [ReadWriteOnce]\n  persistentVolumeReclaimPolicy: Retain\n');
      expect(text).not.toContain('namespace: archive');
      expect(text).toContain('  nodefs.available: "5%"   # small disks\n  memory.available: 100Mi\n');
      expect((await lintJson(['--kube-version', '1.31', tree.dir])).json.summary.errors).toBe(0);
      // A file without findings is never written; a second run changes nothing.
      expect(fs.statSync(good).mtime.getFullYear()).toBe(2020);
      expect(fs.readFileSync(good, 'utf8')).toBe(GOOD);
      const again = await ballast(['fix', '--kube-version', '1.31', tree.dir]);
      expect(again.stderr).toContain('0 finding(s) fixed in 0 file(s)');
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
    } finally {
      tree.cleanup();
    }
  });

  test('an OpenShift DeploymentConfig on a ReadWriteOnce claim gets Recreate, keeping the rest of its strategy', async () => {
    const dc = workloadOnClaim('apps.openshift.io/v1', 'DeploymentConfig', [
      '  strategy:',
      '    type: Rolling  # the default',
      '    rollingParams: {maxSurge: 25%}',
      '    resources: {limits: {cpu: 100m}}',
    ]).join('\n');
    const tree = tempTree({ 'dc.yaml': dc });
    try {
      expect((await ballast(['fix', tree.dir])).code).toBe(0);
      const text = fs.readFileSync(path.join(tree.dir, 'dc.yaml'), 'utf8');
      expect(text).toContain('resources: {limits: {cpu: 100m}}');
      expect(text).toContain('type: Recreate');
      expect(text).not.toContain('rollingParams');
      expect((await lintJson([tree.dir])).json.summary.errors).toBe(0);
    } finally {
      tree.cleanup();
    }
  });

  // shannon1989/data-platform-k8s infra/kind/kind-single-node.yaml (held-out-32): a kind cluster
  // written with Windows line ends, whose InitConfiguration patch sets eviction-hard to one signal.
  // A cluster-wide KubeletConfiguration patch is added that turns nodefs.available on, so the flag
  // drops it (kind's own disk signals are off: dropping them is no finding).
  test('real world: a file with Windows line ends keeps them, in a block-scalar patch and in an inserted line', async () => {
    const kind = [
      'kind: Cluster',
      'apiVersion: kind.x-k8s.io/v1alpha4',
      'kubeadmConfigPatches:',
      '  - |',
      '    kind: KubeletConfiguration',
      '    evictionHard:',
      '      nodefs.available: "10%"',
      'nodes:',
      '  - role: control-plane',
      '    kubeadmConfigPatches:',
      '      - |',
      '        kind: InitConfiguration',
      '        nodeRegistration:',
      '          kubeletExtraArgs:',
      '            eviction-hard: "memory.available<500Mi"',
      '',
    ].join('\r\n');
    const deployment = workloadOnClaim('apps/v1', 'Deployment', ['  selector: {matchLabels: {app: db}}']).join('\r\n');
    const tree = tempTree({ 'kind.yaml': kind, 'db.yaml': deployment });
    try {
      await ballast(['fix', '--kube-version', '1.31', tree.dir]);
      const fixedKind = fs.readFileSync(path.join(tree.dir, 'kind.yaml'), 'utf8');
      expect(fixedKind).toContain('eviction-hard: "memory.available<500Mi,nodefs.available<10%');
      const fixedDeployment = fs.readFileSync(path.join(tree.dir, 'db.yaml'), 'utf8');
      expect(fixedDeployment).toContain('  strategy: {type: Recreate}\r\n');
      for (const text of [fixedKind, fixedDeployment]) expect(text.replace(/\r\n/g, '')).not.toContain('\n');
      const json = await lintJson(['--kube-version', '1.31', tree.dir]);
      expect(json.json.findings.filter((f) => f.rule !== 'deprecated-kubelet-eviction-flag')).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });

  test('JSON findings carry their edits; SARIF results carry fixes whose replacements turn the file into the fixed one', async () => {
    const tree = tempTree({ 'mixed.yaml': MIXED });
    const file = path.join(tree.dir, 'mixed.yaml');
    try {
      const json = await lintJson(['--kube-version', '1.31', file]);
      expect(json.json.findings.find((f) => f.rule === 'recycle-reclaim-policy')?.edits).toEqual([
        { op: 'set', path: ['spec', 'persistentVolumeReclaimPolicy'], value: 'Retain' },
      ]);
      const sarif = JSON.parse((await ballast(['lint', '--format', 'sarif', '--kube-version', '1.31', file])).stdout);
      // Against the SARIF 2.1.0 JSON schema (rtm.5, shipped by @microsoft/jest-sarif): fixes included.
      expect(sarif).toBeValidSarifLog();
      // The check itself can fail: a fix without artifactChanges is not SARIF.
      expect({
        ...sarif,
        runs: [{ ...sarif.runs[0], results: [{ ...sarif.runs[0].results[0], fixes: [{}] }] }],
      }).not.toBeValidSarifLog();
      const results = sarif.runs[0].results as Array<{
        ruleId: string;
        fixes?: Array<{
          artifactChanges: Array<{
            replacements: Array<{
              deletedRegion: { charOffset: number; charLength: number };
              insertedContent?: { text: string };
            }>;
          }>;
        }>;
      }>;
      const replacements = results
        .flatMap((result) => result.fixes ?? [])
        .flatMap((fix) => fix.artifactChanges.flatMap((change) => change.replacements))
        .sort((a, b) => b.deletedRegion.charOffset - a.deletedRegion.charOffset);
      expect(
        results
          .filter((result) => result.fixes)
          .map((result) => result.ruleId)
          .sort(),
      ).toEqual([
        'eviction-hard-drops-default-signals',
        'multi-node-access-on-rbd-filesystem',
        'persistent-volume-with-namespace',
        'recycle-reclaim-policy',
        'rwo-claim-in-rolling-deployment',
      ]);
      let text = MIXED;
      for (const { deletedRegion, insertedContent } of replacements) {
        text =
          text.slice(0, deletedRegion.charOffset) +
          (insertedContent?.text ?? '') +
          text.slice(deletedRegion.charOffset + deletedRegion.charLength);
      }
      await ballast(['fix', '--kube-version', '1.31', file]);
      const fixed = fs.readFileSync(file, 'utf8');
      // Same content as ballast fix wrote (insertions at one offset may come in another order).
      expect(text.split('\n').sort()).toEqual(fixed.split('\n').sort());
    } finally {
      tree.cleanup();
    }
  });

  test('--dry-run prints a unified diff and writes nothing', async () => {
    const tree = tempTree({ 'mixed.yaml': MIXED });
    const file = path.join(tree.dir, 'mixed.yaml');
    try {
      const run = await ballast(['fix', '--dry-run', '--kube-version', '1.31', file]);
      expect(run.stdout).toContain(
        '-  persistentVolumeReclaimPolicy: Recycle\n+  accessModes: [ReadWriteOnce]\n+  persistentVolumeReclaimPolicy: Retain',
      );
      expect(run.stderr).toContain('(dry run: nothing written)');
      expect(run.code).toBe(1);
      expect(fs.readFileSync(file, 'utf8')).toBe(MIXED);
    } finally {
      tree.cleanup();
    }
  });

  test('a finding without a safe fix says why; Helm templates are refused; stdin is a usage error', async () => {
    const twoReplicas = MIXED.replace('replicas: 1', 'replicas: 2');
    const helmTemplate = `${MIXED}\n---\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-config\n`;
    // `{{` inside a string of valid YAML (a ClusterClass patch, a Prometheus rule) is content.
    const templatedString = `${MIXED}\n---\nkind: ConfigMap\napiVersion: v1\nmetadata: {name: rules}\ndata: {summary: "{{ $labels.instance }} down"}\n`;
    const tree = tempTree({ 'app.yaml': twoReplicas, 'pv.yaml': helmTemplate, 'rules.yaml': templatedString });
    try {
      const files = ['app.yaml', 'pv.yaml', 'rules.yaml'].map((file) => path.join(tree.dir, file));
      const run = await ballast(['fix', '--kube-version', '1.31', ...files]);
      expect(run.stderr).toContain(
        'rwo-claim-in-rolling-deployment: not fixed: 2 replicas cannot share one ReadWriteOnce volume',
      );
      expect(run.stderr).toContain('a Helm template ({{ ... }}): not rewritten');
      expect(run.code).toBe(1);
      expect(fs.readFileSync(path.join(tree.dir, 'pv.yaml'), 'utf8')).toContain('Recycle');
      expect(fs.readFileSync(path.join(tree.dir, 'rules.yaml'), 'utf8')).not.toContain('Recycle');
      const stdin = await ballast(['fix', '-']);
      expect(stdin.code).toBe(2);
    } finally {
      tree.cleanup();
    }
  });

  // kairen/k8s-ceph-examples rbd-storage-classes/rbd-storage-class.yml: an in-tree rbd class.
  test('real world: an in-tree rbd StorageClass is left alone, and the message says what the move to ceph-csi needs', async () => {
    const inTree = [
      'apiVersion: storage.k8s.io/v1',
      'kind: StorageClass',
      'metadata:',
      '   name: hdd',
      'provisioner: kubernetes.io/rbd',
      'parameters:',
      '    monitors: 172.20.3.92:6789,172.20.3.93:6789,172.20.3.95:6789',
      '    adminId: admin',
      '    adminSecretName: admin-key',
      '    adminSecretNamespace: kube-system',
      '    pool: kube',
      '    userId: kube',
      '    userSecretName: kube-key',
    ].join('\n');
    const tree = tempTree({ 'sc.yml': inTree });
    try {
      const file = path.join(tree.dir, 'sc.yml');
      const run = await ballast(['fix', file]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        'in-tree-ceph-volume: not fixed: no machine-applicable fix: moving to ceph-csi needs ceph-csi running, a clusterID',
      );
      expect(fs.readFileSync(file, 'utf8')).toBe(inTree);
    } finally {
      tree.cleanup();
    }
  });

  test('real world: a misspelt piVersion is renamed in place, a ConfigMap without one gets apiVersion: v1 before its first key', async () => {
    // harsh4870/Kubernetes-wordpress-php-fpm-nginx wordpress-service.yaml; StackPointCloud/external-storage
    // local-volume/bootstrapper/deployment/kubernetes/example-config.yaml (its comment lines kept above).
    const service = [
      'piVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: wordpress-site',
      'spec:',
      '  ports:',
      '  - port: 80',
      '',
    ].join('\n');
    const configMap = [
      '# The config map is used to configure local volume discovery',
      'kind: ConfigMap',
      'metadata:',
      '  name: local-volume-config',
      '  namespace: kube-system',
      'data:',
      '  "local-fast": |',
      '    {"hostDir": "/mnt/ssds"}',
      '',
    ].join('\n');
    const tree = tempTree({ 'service.yaml': service, 'config.yaml': configMap });
    try {
      const run = await ballast(['fix', tree.dir]);
      expect(run.code).toBe(0);
      expect(fs.readFileSync(path.join(tree.dir, 'service.yaml'), 'utf8')).toBe(
        service.replace('piVersion', 'apiVersion'),
      );
      expect(fs.readFileSync(path.join(tree.dir, 'config.yaml'), 'utf8')).toBe(
        configMap.replace('kind: ConfigMap', 'apiVersion: v1\nkind: ConfigMap'),
      );
      const again = await ballast(['fix', tree.dir]);
      expect(again.stderr).toContain('0 finding(s) fixed in 0 file(s)');
    } finally {
      tree.cleanup();
    }
  });

  test('real world: two objects run together for want of a `---` line are split where the second begins', async () => {
    // mohsenkamini/DCAI manifests/gitlab-kube-agent/RoleBinding.yml (held-out-169): a RoleBinding and a
    // ClusterRoleBinding in one document; kubectl refuses it, and a lenient reader keeps only the second.
    const first = [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: RoleBinding',
      'metadata:',
      '  name: gitlab-agent:dcai-gitlab-agent-gitlab-kube-agent',
      '  namespace: gitlab',
      'roleRef:',
      '  apiGroup: rbac.authorization.k8s.io',
      '  kind: Role',
      '  name: gitlab-kube-agent',
      'subjects:',
      '- kind: ServiceAccount',
      '  name: dcai-gitlab-agent',
      '  namespace: gitlab-agent-dcai',
      '',
    ].join('\n');
    const second = [
      '# the admin agent',
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: ClusterRoleBinding',
      'metadata:',
      '  name: gitlab-agent:dcai-admin-gitlab-agent-gitlab-kube-agent-admin',
      'roleRef:',
      '  apiGroup: rbac.authorization.k8s.io',
      '  kind: ClusterRole',
      '  name: gitlab-kube-agent-admin',
      'subjects:',
      '- kind: ServiceAccount',
      '  name: dcai-admin-gitlab-agent',
      '  namespace: gitlab-agent-dcai-admin',
      '',
    ].join('\n');
    // The second object written metadata first: its keys interleave with the first's, for a person.
    const interleaved = [
      'kind: ConfigMap',
      'apiVersion: v1',
      'data: {a: "1"}',
      'metadata: {name: b}',
      'kind: Secret',
      'apiVersion: v1',
      '',
    ].join('\n');
    const tree = tempTree({ 'bindings.yml': first + second, 'interleaved.yaml': interleaved });
    try {
      const before = await lintJson([path.join(tree.dir, 'bindings.yml')]);
      expect(before.json.findings.map((f) => [f.rule, f.path])).toEqual([['yaml-syntax-error', 'kind']]);
      const run = await ballast(['fix', tree.dir]);
      expect(fs.readFileSync(path.join(tree.dir, 'bindings.yml'), 'utf8')).toBe(`${first}---\n${second}`);
      expect(run.stderr).toContain(
        'interleaved.yaml:5 yaml-syntax-error: not fixed: the objects interleave their keys',
      );
      expect(fs.readFileSync(path.join(tree.dir, 'interleaved.yaml'), 'utf8')).toBe(interleaved);
      const after = await lintJson([path.join(tree.dir, 'bindings.yml')]);
      expect(after.code).toBe(0);
      expect(after.json.summary.objects).toBe(2);
    } finally {
      tree.cleanup();
    }
  });
  test('real world: four objects run together are split where each after the first begins', async () => {
    // Ronster2018/HomeLab redis/redis-all.yml (held-out-213): a Namespace, a PersistentVolume, a claim
    // and a Deployment separated by blank lines only, then a Service after a `---`.
    const objects = [
      ['apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: redis', ''],
      [
        'apiVersion: v1',
        'kind: PersistentVolume',
        'metadata:',
        '  name: redis-pv',
        'spec:',
        '  capacity:',
        '    storage: 10Gi  # Adjust based on your expected cache size',
        '  accessModes:',
        '    - ReadWriteOnce',
        '  hostPath:',
        '    path: /mnt/data/redis',
        '',
      ],
      [
        'apiVersion: v1',
        'kind: PersistentVolumeClaim',
        'metadata:',
        '  name: redis-pvc',
        '  namespace: redis',
        'spec:',
        '  accessModes: [ReadWriteOnce]',
        '  storageClassName: ""',
        '  volumeName: redis-pv',
        '  resources: {requests: {storage: 10Gi}}',
        '',
      ],
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: redis',
        '  namespace: redis',
        'spec:',
        '  replicas: 1',
        '  strategy: {type: Recreate}',
        '  selector: {matchLabels: {app: redis}}',
        '  template:',
        '    metadata: {labels: {app: redis}}',
        '    spec:',
        '      containers: [{name: redis, image: redis:7}]',
        '',
      ],
    ].map((lines) => lines.join('\n'));
    const service =
      '---\napiVersion: v1\nkind: Service\nmetadata: {name: redis, namespace: redis}\nspec: {ports: [{port: 6379}]}\n';
    const tree = tempTree({ 'redis-all.yml': objects.join('\n') + service });
    const file = path.join(tree.dir, 'redis-all.yml');
    try {
      const before = await lintJson([file]);
      expect(before.json.findings.map((f) => [f.rule, f.path, f.line])).toEqual([['yaml-syntax-error', 'kind', 29]]);
      await ballast(['fix', tree.dir]);
      expect(fs.readFileSync(file, 'utf8')).toBe(objects.join('\n---\n') + service);
      const after = await lintJson([file]);
      expect(after.json.findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect(after.json.summary.objects).toBe(5);
    } finally {
      tree.cleanup();
    }
  });
});
