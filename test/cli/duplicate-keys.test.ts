import * as fs from 'fs';
import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { ballast, tempTree } from './run-cli';

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

  // mgoltzsche/kustomizations docker-registry/base/kustomization.yaml (held-out-333): `configurations`
  // written twice. kustomize reads a kustomization leniently (`kubectl kustomize` builds it, the last
  // writing winning), so it is no error there; the same repeat in a manifest still is.
  test('real world: a kustomization.yaml that writes a key twice is read as kustomize reads it, the last writing winning; objects run together are still refused', () => {
    const tree = tempTree({
      'base/kustomization.yaml': 'resources: [cm.yaml]\nnamespace: first\nnamespace: registry\n',
      'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf}\ndata: {a: "1"}\n',
      'other/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf}\ndata: {a: "1"}\ndata: {a: "2"}\n',
      // sbaker5/k3s-flux apps/example-app/overlays/prod: a Kustomization and an HPA run together
      // without `---`; kustomize refuses it (`invalid Kustomization: json: unknown field "spec"`).
      'prod/kustomization.yaml': [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'resources: [../base]',
        'apiVersion: autoscaling/v2',
        'kind: HorizontalPodAutoscaler',
        'spec: {minReplicas: 2, maxReplicas: 4}',
        '',
      ].join('\n'),
    });
    try {
      expect(
        lint([tree.dir], { cwd: tree.dir }).findings.map((f) => [f.rule, path.relative(tree.dir, f.file ?? '')]),
      ).toEqual([
        ['yaml-syntax-error', path.join('other', 'cm.yaml')],
        ['yaml-syntax-error', path.join('prod', 'kustomization.yaml')],
      ]);
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

  // bcgov/range-web openshift/deployments/api.yaml (held-out-72): a container writes `ports` twice;
  // Gryffindor-CN/k8s-installation mysql/mysql-deployment.yaml (held-out-78): an env entry writes `name` twice.
  const twice = [
    '# api',
    'apiVersion: v1',
    'kind: Pod',
    'metadata: {name: api, namespace: shop}',
    'spec:',
    '  containers:',
    '  - name: api',
    '    image: example/api:1',
    '    ports:',
    '    - containerPort: 8080',
    '    # the metrics port as well',
    '    ports:',
    '    - containerPort: 9090',
    '    env:',
    '    - name: MODE',
    '      name: PROFILE  # the one that counts',
    '      value: prod',
    '---',
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: {name: api-config, namespace: shop, name: api-settings}',
    '',
  ].join('\n');

  test('each repeated key is its own finding, at its last writing and field, with a keep-last edit', () => {
    const tree = tempTree({ 'api.yaml': twice });
    try {
      const findings = lint([tree.dir], { cwd: tree.dir }).findings.filter((f) => f.rule === 'yaml-syntax-error');
      expect(findings.map((f) => [f.line, f.path, f.object.kind, f.edits])).toEqual(
        [
          ['12', 'spec.containers[0].ports', 'Pod', [{ op: 'keep-last', path: ['spec', 'containers', 0, 'ports'] }]],
          [
            '16',
            'spec.containers[0].env[0].name',
            'Pod',
            [{ op: 'keep-last', path: ['spec', 'containers', 0, 'env', 0, 'name'] }],
          ],
          ['21', 'metadata.name', 'ConfigMap', [{ op: 'keep-last', path: ['metadata', 'name'] }]],
        ].map(([line, ...rest]) => [Number(line), ...rest]),
      );
    } finally {
      tree.cleanup();
    }
  });

  test('ballast fix keeps the last writing of every repeated key, in every document, with the comments; a second run changes nothing', async () => {
    const tree = tempTree({ 'api.yaml': twice });
    const file = path.join(tree.dir, 'api.yaml');
    try {
      const fixed = await ballast(['fix', tree.dir]);
      expect(fixed.stderr).toContain('3 finding(s) fixed in 1 file(s)');
      const text = fs.readFileSync(file, 'utf8');
      expect(text).not.toContain('containerPort: 8080');
      expect(text).toContain('    # the metrics port as well\n    ports:\n    - containerPort: 9090\n');
      expect(text).toContain('    - name: PROFILE  # the one that counts\n      value: prod\n');
      expect(text).toContain(
        'metadata: {name: api-config, name: api-settings}'.replace('name: api-config, ', 'namespace: shop, '),
      );
      expect(text.startsWith('# api\n')).toBe(true);
      expect(lint([tree.dir], { cwd: tree.dir }).findings.filter((f) => f.rule === 'yaml-syntax-error')).toEqual([]);
      const again = await ballast(['fix', tree.dir]);
      expect(again.stderr).toContain('0 finding(s) fixed in 0 file(s)');
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
    } finally {
      tree.cleanup();
    }
  });

  // vinicima/kubemedia handbrake/deployment.yaml (held-out-106): a missing `- ` wrote the UMASK
  // entry into the one before it, so that entry writes both `name` and `value` twice.
  test('real world: two keys of one list item written twice are both fixed in one run; a second run changes nothing', async () => {
    const merged = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: handbrake}',
      'spec:',
      '  containers:',
      '  - name: handbrake',
      '    image: jlesage/handbrake',
      '    env:',
      '      - name: AUTOMATED_CONVERSION_SOURCE_MIN_DURATION',
      '        value: "60"',
      '        name: UMASK',
      '        value: "000"',
      '',
    ].join('\n');
    const tree = tempTree({ 'handbrake.yaml': merged });
    const file = path.join(tree.dir, 'handbrake.yaml');
    try {
      const fixed = await ballast(['fix', tree.dir]);
      expect(fixed.stderr).toContain('2 finding(s) fixed in 1 file(s)');
      const text = fs.readFileSync(file, 'utf8');
      expect(text).toContain('    env:\n      - name: UMASK\n        value: "000"\n');
      expect(lint([tree.dir], { cwd: tree.dir }).findings).toEqual([]);
      const again = await ballast(['fix', tree.dir]);
      expect(again.stderr).toContain('0 finding(s) fixed in 0 file(s)');
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
    } finally {
      tree.cleanup();
    }
  });

  // chrisevett/kind-k8s quote.yaml (held-out-82): a Service and a Deployment with no `---` between
  // them, so apiVersion, kind, metadata and spec are each written twice.
  test('two objects run together (kind written twice at the top): one finding that names the missing ---, which ballast fix writes', async () => {
    const runTogether = [
      'apiVersion: v1',
      'kind: Service',
      'metadata: {name: quote, namespace: ambassador}',
      'spec: {selector: {app: quote}, ports: [{port: 80}]}',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: quote, namespace: ambassador}',
      'data: {mode: fast}',
      '',
    ].join('\n');
    const tree = tempTree({ 'quote.yaml': runTogether });
    try {
      const findings = lint([tree.dir], { cwd: tree.dir }).findings;
      expect(findings.map((f) => [f.rule, f.line, f.path, f.edits])).toEqual([
        ['yaml-syntax-error', 5, 'kind', [{ op: 'split', path: ['kind'] }]],
      ]);
      expect(findings[0]?.message).toContain('a `---` line between them is missing');
      const fixed = await ballast(['fix', tree.dir]);
      expect(fixed.code).toBe(0);
      expect(fs.readFileSync(path.join(tree.dir, 'quote.yaml'), 'utf8')).toBe(
        runTogether.replace('apiVersion: v1\nkind: ConfigMap', '---\napiVersion: v1\nkind: ConfigMap'),
      );
    } finally {
      tree.cleanup();
    }
  });

  // microsoft/cluster-api-provider-azurestackhci templates/addons/windows-addons.yaml (held-out-138):
  // one ConfigMap writes `apiVersion: v1` above its `data` script and again below it, with its only
  // `kind`. One object with a repeated key, not two run together: the key's own finding and fix.
  test('apiVersion written again around a data block, kind once: one object, the repeated key reported and fixed', async () => {
    const repeatedApiVersion = [
      'apiVersion: v1',
      'data:',
      '  run-script.ps1: |-',
      '    Write-Host starting',
      'kind: ConfigMap',
      'apiVersion: v1',
      'metadata: {name: kube-proxy-windows, namespace: kube-system}',
      '',
    ].join('\n');
    const tree = tempTree({ 'windows-addons.yaml': repeatedApiVersion });
    try {
      const findings = lint([tree.dir], { cwd: tree.dir }).findings;
      expect(findings.map((f) => [f.rule, f.line, f.path, f.object.name])).toEqual([
        ['yaml-syntax-error', 6, 'apiVersion', 'kube-proxy-windows'],
      ]);
      expect(findings[0]?.message).not.toContain('run together');
      const fixed = await ballast(['fix', tree.dir]);
      expect(fixed.code).toBe(0);
      expect(fs.readFileSync(path.join(tree.dir, 'windows-addons.yaml'), 'utf8')).toBe(
        repeatedApiVersion.replace('apiVersion: v1\ndata:', 'data:'),
      );
    } finally {
      tree.cleanup();
    }
  });

  test('an earlier writing that holds a comment is left for a person: the comment would go with it', async () => {
    const commented = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: settings}',
      'data:',
      '  # the old mode, kept for reference',
      '  mode: slow',
      'data:',
      '  mode: fast',
      '',
    ].join('\n');
    const tree = tempTree({ 'settings.yaml': commented });
    try {
      const fixed = await ballast(['fix', tree.dir]);
      expect(fixed.stderr).toContain('yaml-syntax-error: not fixed: an earlier writing of the key holds comments');
      expect(fs.readFileSync(path.join(tree.dir, 'settings.yaml'), 'utf8')).toBe(commented);
    } finally {
      tree.cleanup();
    }
  });
});
