import * as fs from 'fs';
import * as path from 'path';
import { readLintOptions } from '../../cli/config';
import { UsageError } from '../../cli/load-manifests';
import { ALL_RULES, DEFAULT_KUBERNETES_VERSION } from '../../validators';
import { ballast, lintJson, tempTree } from './run-cli';

const PV_WITH_NAMESPACE = [
  'apiVersion: v1',
  'kind: PersistentVolume',
  'metadata:',
  '  name: data',
  '  namespace: db',
  'spec:',
  '  capacity: {storage: 1Gi}',
  '  accessModes: [ReadWriteOnce]',
  '  csi: {driver: rbd.csi.ceph.com, volumeHandle: x}',
  '',
].join('\n');

const CLEAN_CONFIGMAP =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: db\ndata:\n  a: b\n';

const RWO_CLAIM =
  'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: db}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n';
const TWO_REPLICA_DEPLOYMENT = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: web, namespace: db}',
  'spec:',
  '  replicas: 2',
  '  selector: {matchLabels: {app: web}}',
  '  template:',
  '    metadata: {labels: {app: web}}',
  '    spec:',
  '      containers: [{name: web, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}]',
  '      volumes:',
  '      - name: data',
  '        persistentVolumeClaim: {claimName: data}',
  '',
].join('\n');

describe('ballast lint: the JSON contract', () => {
  test('one JSON object with every finding key, exact line, and summary; exit 1 on an error', async () => {
    const tree = tempTree({ 'pv.yaml': PV_WITH_NAMESPACE });
    try {
      const { code, json, stderr } = await lintJson([tree.dir]);
      expect(stderr).toBe('');
      expect(code).toBe(1);
      expect(Object.keys(json)).toEqual(['findings', 'summary', 'target']);
      expect(json.summary).toEqual({
        files: 1,
        objects: 1,
        errors: 1,
        warnings: 0,
        suppressed: 0,
        baselined: 0,
        skipped: { helmCharts: 0, templates: 0, notKubernetes: 0, kustomizePatches: 0, kustomizeData: 0, encrypted: 0 },
      });
      expect(json.findings).toEqual([
        {
          rule: 'persistent-volume-with-namespace',
          severity: 'error',
          message: expect.stringContaining('PersistentVolume data'),
          fix: expect.any(String),
          file: path.join(tree.dir, 'pv.yaml'),
          line: 5,
          object: { apiVersion: 'v1', kind: 'PersistentVolume', namespace: 'db', name: 'data' },
          path: 'metadata.namespace',
          suppressed: false,
          baselined: false,
          fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
          edits: [{ op: 'delete', path: ['metadata', 'namespace'] }],
        },
      ]);
      expect(Object.keys(json.findings[0]!)).toEqual([
        'rule',
        'severity',
        'message',
        'fix',
        'file',
        'line',
        'object',
        'path',
        'suppressed',
        'baselined',
        'fingerprint',
        'edits',
      ]);
    } finally {
      tree.cleanup();
    }
  });

  test('a suppressed finding is reported as suppressed and does not fail the run', async () => {
    const suppressed = PV_WITH_NAMESPACE.replace(
      '  namespace: db\n',
      '  namespace: db\n  annotations:\n    ballast.dev/suppress.persistent-volume-with-namespace: "kept for the old tooling, OPS-1"\n',
    );
    const { code, json } = await lintJson(['-'], suppressed);
    expect(code).toBe(0);
    expect(json.summary).toMatchObject({ errors: 0, suppressed: 1 });
    expect(json.findings[0]).toMatchObject({
      rule: 'persistent-volume-with-namespace',
      suppressed: true,
      file: '<stdin>',
      line: 5,
    });
  });

  test('clean input exits 0 with no findings', async () => {
    const { code, json } = await lintJson(['-'], CLEAN_CONFIGMAP);
    expect(code).toBe(0);
    expect(json).toEqual({
      findings: [],
      summary: {
        files: 1,
        objects: 1,
        errors: 0,
        warnings: 0,
        suppressed: 0,
        baselined: 0,
        skipped: { helmCharts: 0, templates: 0, notKubernetes: 0, kustomizePatches: 0, kustomizeData: 0, encrypted: 0 },
      },
      target: { kubernetesVersion: DEFAULT_KUBERNETES_VERSION, source: 'default' },
    });
  });
});

describe('ballast lint: what it reads', () => {
  test('directories recursively (.yaml, .yml, .json, .conf with [Service]), multi-document files and v1 Lists', async () => {
    const list = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        JSON.parse(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } })),
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } },
      ],
    });
    const tree = tempTree({
      'a/multi.yaml': `${CLEAN_CONFIGMAP}---\n${CLEAN_CONFIGMAP.replace('settings', 'other')}---\n`,
      'a/b/list.json': list,
      'a/b/c/pv.yml': PV_WITH_NAMESPACE,
      'kubelet.service.d/20-eviction.conf':
        '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--eviction-hard=nodefs.available<5%"\n',
      'notes.conf': '[Unit]\nDescription=not a service drop-in\n',
      'README.md': '# not linted',
      'node_modules/x/pv.yaml': PV_WITH_NAMESPACE,
      // What a zip made on macOS leaves when unpacked (LeonLow97-Sandbox/docker-and-kubernetes-bootcamp,
      // held-out-489): AppleDouble resource forks, binary, beside and under __MACOSX/.
      '__MACOSX/a/b/c/pv.yml': PV_WITH_NAMESPACE,
      'a/b/c/._pv.yml': '\u0000\u0005\u0016\u0007\u0000\u0002\u0000\u0000Mac OS X',
    });
    try {
      const { json } = await lintJson([tree.dir]);
      expect(json.summary).toMatchObject({ files: 4, objects: 6 });
      expect(json.findings.filter((f) => f.file!.includes('__MACOSX') || f.file!.includes('._pv'))).toEqual([]);
      const located = json.findings.map((f) => [path.relative(tree.dir, f.file!), f.line, f.rule]);
      expect(located).toContainEqual([path.join('a', 'b', 'c', 'pv.yml'), 5, 'persistent-volume-with-namespace']);
      // The drop-in is read through the eviction rules' parser; its findings point at the line.
      expect(located).toContainEqual([
        path.join('kubelet.service.d', '20-eviction.conf'),
        2,
        'eviction-hard-drops-default-signals',
      ]);
      expect(json.findings.filter((f) => f.file!.includes('node_modules') || f.file!.endsWith('notes.conf'))).toEqual(
        [],
      );
    } finally {
      tree.cleanup();
    }
  });

  test('results do not depend on the order of the paths: files in path order, stdin last, each file once', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++)
      files[`tree/${String.fromCharCode(122 - (i % 26))}${i}/pv.yaml`] = PV_WITH_NAMESPACE.replace(
        'name: data',
        `name: data-${i}`,
      );
    files['zz-last.yaml'] = PV_WITH_NAMESPACE.replace('name: data', 'name: named-last');
    const tree = tempTree(files);
    const stdin = PV_WITH_NAMESPACE.replace('name: data', 'name: from-stdin');
    try {
      const walked = await lintJson(['-', path.join(tree.dir, 'zz-last.yaml'), path.join(tree.dir, 'tree')], stdin);
      const allFiles = Object.keys(files)
        .sort()
        .map((file) => path.join(tree.dir, file));
      expect(walked.json.findings.map((f) => f.file)).toEqual([...allFiles, '<stdin>']);
      const treeFiles = allFiles.filter((file) => !file.endsWith('zz-last.yaml'));
      // Named one by one, in reverse, and the directory given again: the same output.
      const named = await lintJson(
        ['-', ...[...allFiles].reverse(), path.join(tree.dir, 'tree'), treeFiles[0]!],
        stdin,
      );
      expect(named.stdout).toBe(walked.stdout);
    } finally {
      tree.cleanup();
    }
  });

  test('incident 4: the kubelet drop-in that dropped the default eviction thresholds fails lint at its line', async () => {
    const fixture = path.resolve(__dirname, '..', 'fixtures', 'incident-4');
    const { code, json } = await lintJson([fixture]);
    expect(code).toBe(1);
    expect(json.findings).toContainEqual(
      expect.objectContaining({
        rule: 'eviction-hard-drops-default-signals',
        severity: 'error',
        file: path.join(fixture, '10-eviction.conf'),
        line: 6,
        object: { apiVersion: 'ballast.dev/v1', kind: 'SystemdDropIn', namespace: null, name: '10-eviction.conf' },
      }),
    );
  });

  test('cross-object rules see every path given in one run as one set', async () => {
    const tree = tempTree({ 'claim.yaml': RWO_CLAIM, 'deploy/web.yaml': TWO_REPLICA_DEPLOYMENT });
    try {
      const together = await lintJson([path.join(tree.dir, 'claim.yaml'), path.join(tree.dir, 'deploy')]);
      expect(together.json.findings).toContainEqual(
        expect.objectContaining({
          rule: 'rwo-claim-in-rolling-deployment',
          file: path.join(tree.dir, 'deploy', 'web.yaml'),
          line: 13,
          path: 'spec.template.spec.volumes[0].persistentVolumeClaim',
        }),
      );
      const alone = await lintJson([path.join(tree.dir, 'deploy')]);
      expect(alone.json.findings.map((f) => f.rule)).not.toContain('rwo-claim-in-rolling-deployment');
    } finally {
      tree.cleanup();
    }
  });

  test("invalid YAML is a yaml-syntax-error finding with file and line; the file's other documents are still checked", async () => {
    const { code, json } = await lintJson(
      ['-'],
      `${CLEAN_CONFIGMAP}---\nkind: [unclosed\n  x: y\n---\n${PV_WITH_NAMESPACE}`,
    );
    expect(code).toBe(1);
    expect(json.findings.map((f) => [f.rule, f.line])).toEqual([
      ['yaml-syntax-error', 10],
      ['persistent-volume-with-namespace', 16],
    ]);
    expect(json.findings[0]).toMatchObject({ severity: 'error', file: '<stdin>', object: { kind: null, name: null } });
  });
});

describe('ballast lint: usage errors exit 2 with one clear line', () => {
  test.each([
    [['lint', '/no/such/path'], 'path not found: /no/such/path'],
    [['lint', '--frobnicate'], "unknown option '--frobnicate'"],
    [['lint', '--format', 'xml', '.'], "argument 'xml' is invalid"],
    [['lint', '--kube-version', 'latest', '-'], 'invalid Kubernetes version "latest"'],
    [['lint', '--config', '/no/such/.ballast.yaml', '-'], 'config file not found'],
  ])('%j', async (argv, message) => {
    const { code, stderr, stdout } = await ballast(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('ballast lint: configuration', () => {
  test('--config turns rules off, overrides severities and sets the Kubernetes version', async () => {
    const tree = tempTree({
      'off.yaml': 'rules:\n  persistent-volume-with-namespace: off\n',
      'warn.yaml': 'kubernetesVersion: "1.30"\nrules:\n  persistent-volume-with-namespace: warning\n',
      'typo.yaml': 'rules:\n  persistent-volume-with-namespaces: off\n',
    });
    try {
      const off = await lintJson(['--config', path.join(tree.dir, 'off.yaml'), '-'], PV_WITH_NAMESPACE);
      expect(off.code).toBe(0);
      expect(off.json.findings.map((f) => f.rule)).not.toContain('persistent-volume-with-namespace');
      const warn = await lintJson(['--config', path.join(tree.dir, 'warn.yaml'), '-'], PV_WITH_NAMESPACE);
      expect(warn.code).toBe(0);
      expect(warn.json.findings).toContainEqual(
        expect.objectContaining({ rule: 'persistent-volume-with-namespace', severity: 'warning' }),
      );
      const typo = await ballast(['lint', '--config', path.join(tree.dir, 'typo.yaml'), '-'], PV_WITH_NAMESPACE);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain('rules.persistent-volume-with-namespaces: unknown rule id');
    } finally {
      tree.cleanup();
    }
  });

  test('.ballast.yaml in the working directory is read by default; rule parameters reach the rule', () => {
    const tree = tempTree({
      '.ballast.yaml':
        'parameters:\n  nfs-volume-without-node-prerequisite:\n    prerequisiteLabelKeys: [example.com/nfs-client]\n' +
        'rules:\n  recycle-reclaim-policy: error\n',
    });
    try {
      const options = readLintOptions(undefined, tree.dir, undefined);
      expect(options).toMatchObject({
        configFile: path.join(tree.dir, '.ballast.yaml'),
        disabledRules: [],
        severityOverrides: { 'recycle-reclaim-policy': 'error' },
        parameters: { 'nfs-volume-without-node-prerequisite': { prerequisiteLabelKeys: ['example.com/nfs-client'] } },
      });
      const empty = tempTree({});
      expect(readLintOptions(undefined, empty.dir, undefined).configFile).toBeUndefined();
      empty.cleanup();
    } finally {
      tree.cleanup();
    }
  });

  test('config mistakes are all named at once, with their field paths, as usage errors', () => {
    const tree = tempTree({
      'bad.yaml':
        'rule: {}\nkubernetesVersion: 1.30\nrules:\n  recycle-reclaim-policy: loud\n' +
        'parameters:\n  nfs-volume-without-node-prerequisite:\n    prerequisiteLabelKeys: a\n',
    });
    try {
      let message = '';
      try {
        readLintOptions(path.join(tree.dir, 'bad.yaml'), tree.dir, undefined);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        message = (error as Error).message;
      }
      expect(message).toContain('rule: unknown option; known: kubernetesVersion, rules, parameters');
      expect(message).toContain('kubernetesVersion: Kubernetes version 1.3 is a number: quote it');
      expect(message).toContain('rules.recycle-reclaim-policy: expected off, on, error or warning');
      expect(message).toContain('parameters.nfs-volume-without-node-prerequisite.prerequisiteLabelKeys:');
    } finally {
      tree.cleanup();
    }
  });

  test('the target version: --kube-version beats BALLAST_KUBERNETES_VERSION, which beats the config; every format prints it', async () => {
    const tree = tempTree({ '.ballast.yaml': 'kubernetesVersion: "1.29"\n' });
    try {
      expect(readLintOptions(undefined, tree.dir, undefined).kubernetesVersion.toString()).toBe('1.29');
      const saved = process.env.BALLAST_KUBERNETES_VERSION;
      process.env.BALLAST_KUBERNETES_VERSION = '1.31';
      try {
        expect(readLintOptions(undefined, tree.dir, undefined)).toMatchObject({
          kubernetesVersionSource: 'environment',
        });
        expect(readLintOptions(undefined, tree.dir, '1.30').kubernetesVersion.toString()).toBe('1.30');
        const json = await lintJson(['-'], CLEAN_CONFIGMAP);
        expect(json.json.target).toEqual({ kubernetesVersion: '1.31', source: 'environment' });
        const text = await ballast(['lint', '-'], CLEAN_CONFIGMAP);
        expect(text.stdout).toContain('(target Kubernetes 1.31 (from BALLAST_KUBERNETES_VERSION))');
        const sarif = JSON.parse((await ballast(['lint', '--format', 'sarif', '-'], CLEAN_CONFIGMAP)).stdout);
        expect(sarif.runs[0].properties).toEqual({ kubernetesVersion: '1.31', kubernetesVersionSource: 'environment' });
        const junit = await ballast(['lint', '--format', 'junit', '-'], CLEAN_CONFIGMAP);
        expect(junit.stdout).toContain('<property name="kubernetesVersion" value="1.31"/>');
        process.env.BALLAST_KUBERNETES_VERSION = '1.3';
        const bad = await ballast(['lint', '-'], CLEAN_CONFIGMAP);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain('BALLAST_KUBERNETES_VERSION: Kubernetes version "1.3" is not one the rules know');
      } finally {
        if (saved === undefined) delete process.env.BALLAST_KUBERNETES_VERSION;
        else process.env.BALLAST_KUBERNETES_VERSION = saved;
      }
    } finally {
      tree.cleanup();
    }
  });
});

describe('ballast lint: the version the input declares', () => {
  // erpost/kubernetes (held-out-190): a v1.12.2 kube-apiserver static pod beside a kubelet
  // configuration whose evictionHard names the four signals that were the whole default set before 1.30.
  const APISERVER_1_12 = `apiVersion: v1
kind: Pod
metadata: {name: kube-apiserver, namespace: kube-system}
spec:
  hostNetwork: true
  containers:
  - name: kube-apiserver
    image: k8s.gcr.io/kube-apiserver:v1.12.2
    command: [kube-apiserver, --advertise-address=10.0.0.10]
`;
  const KUBELET_FOUR_SIGNALS = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
evictionHard:
  imagefs.available: 15%
  memory.available: 100Mi
  nodefs.available: 10%
  nodefs.inodesFree: 5%
`;
  const input = `${APISERVER_1_12}---\n${KUBELET_FOUR_SIGNALS}`;

  test('real world: with no target set, a v1.12 control plane is judged at 1.20 (the oldest the rules know), saying so', async () => {
    const { code, json } = await lintJson(['-'], input);
    expect(code).toBe(0);
    expect(json.findings.filter((f) => f.rule === 'eviction-hard-drops-default-signals')).toEqual([]);
    expect(json.target).toEqual({
      kubernetesVersion: '1.20',
      source: 'input',
      declaredBy: expect.stringContaining('kube-apiserver image v1.12.2 (Pod kube-apiserver)'),
    });
    const text = await ballast(['lint', '-'], input);
    expect(text.stdout).toContain('(target Kubernetes 1.20 (declared by the input: kube-apiserver image v1.12.2');
    expect(text.stdout).toContain('--kube-version overrides it');
  });

  test('--kube-version (or the environment, or the configuration) overrides the declared version', async () => {
    const { code, json } = await lintJson(['--kube-version', '1.35', '-'], input);
    expect(code).toBe(1);
    expect(json.target).toEqual({ kubernetesVersion: '1.35', source: 'command line' });
    expect(
      json.findings.filter((f) => f.rule === 'eviction-hard-drops-default-signals').map((f) => [f.path, f.severity]),
    ).toEqual([['evictionHard', 'error']]);
  });

  test('declarations that disagree, and a kube-scheduler run by a Deployment, leave the default', async () => {
    const kubeadm129 = `apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
kubernetesVersion: v1.29.3
`;
    expect((await lintJson(['-'], `${kubeadm129}---\n${KUBELET_FOUR_SIGNALS}`)).json.target).toEqual({
      kubernetesVersion: '1.29',
      source: 'input',
      declaredBy: 'kubernetesVersion v1.29.3 (ClusterConfiguration)',
    });
    const disagreeing = await lintJson(['-'], `${kubeadm129}---\n${input}`);
    expect(disagreeing.json.target).toEqual({ kubernetesVersion: DEFAULT_KUBERNETES_VERSION, source: 'default' });
    const secondScheduler = `apiVersion: apps/v1
kind: Deployment
metadata: {name: user-scheduler}
spec:
  selector: {matchLabels: {app: user-scheduler}}
  template:
    metadata: {labels: {app: user-scheduler}}
    spec:
      containers:
      - name: kube-scheduler
        image: registry.k8s.io/kube-scheduler:v1.26.8
        command: [kube-scheduler, --leader-elect=false]
`;
    expect((await lintJson(['-'], secondScheduler)).json.target).toEqual({
      kubernetesVersion: DEFAULT_KUBERNETES_VERSION,
      source: 'default',
    });
  });
});

describe('ballast lint: output formats', () => {
  test('text: grouped by file with line, severity, object, path and fix; colour only when asked for (a TTY)', async () => {
    const plain = await ballast(['lint', '-'], PV_WITH_NAMESPACE);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('<stdin>\n');
    expect(plain.stdout).toMatch(
      /^\s+5 {2}error\s+PersistentVolume db\/data {2}metadata\.namespace {2}.*persistent-volume-with-namespace$/m,
    );
    expect(plain.stdout).toMatch(/fix: Remove metadata.namespace/);
    expect(plain.stdout).toContain('1 file, 1 object: 1 error, 0 warnings, 0 suppressed');
    expect(plain.stdout).not.toContain('\u001b[');
    let coloured = '';
    const { run } = await import('../../cli/program');
    await run(['lint', '-'], {
      out: (t) => {
        coloured += t;
      },
      err: () => undefined,
      colour: true,
      readStdin: () => PV_WITH_NAMESPACE,
    });
    expect(coloured).toContain('\u001b[31m');
  });

  test('sarif: 2.1.0 with every rule and its help, results with relative file URIs and line regions', async () => {
    const tree = tempTree({ 'pv.yaml': PV_WITH_NAMESPACE });
    const cwd = process.cwd();
    try {
      process.chdir(tree.dir);
      const { code, stdout } = await ballast(['lint', '--format', 'sarif', 'pv.yaml']);
      expect(code).toBe(1);
      const log = JSON.parse(stdout);
      expect(log.version).toBe('2.1.0');
      expect(log.$schema).toMatch(/sarif-2\.1\.0/);
      const driver = log.runs[0].tool.driver;
      expect(driver.name).toBe('ballast');
      expect(driver.rules.map((r: { id: string }) => r.id)).toEqual([
        ...ALL_RULES.map((r) => r.id),
        'yaml-syntax-error',
      ]);
      for (const rule of driver.rules) {
        expect(rule.shortDescription.text).toBeTruthy();
        expect(rule.help.text).toBeTruthy();
        expect(['error', 'warning']).toContain(rule.defaultConfiguration.level);
        // Code scanning links "learn more" to the rule's own entry of the catalogue.
        expect(rule.helpUri).toBe(`https://github.com/ballast-k8s/ballast/blob/main/docs/rules.md#${rule.id}`);
      }
      const catalogue = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
      for (const rule of driver.rules) expect(catalogue).toContain(`\n## ${rule.id}\n`);
      const nfs = driver.rules.find((r: { id: string }) => r.id === 'nfs-volume-without-node-prerequisite');
      expect(nfs.defaultConfiguration.parameters).toEqual({ prerequisiteLabelKeys: ['node.ballast.dev/nfs-client'] });
      const result = log.runs[0].results[0];
      expect(result).toMatchObject({ ruleId: 'persistent-volume-with-namespace', level: 'error' });
      expect(driver.rules[result.ruleIndex].id).toBe(result.ruleId);
      expect(result.locations[0].physicalLocation).toEqual({
        artifactLocation: { uri: 'pv.yaml', uriBaseId: '%SRCROOT%' },
        region: { startLine: 5 },
      });
    } finally {
      process.chdir(cwd);
      tree.cleanup();
    }
  });

  test('junit: one test case per object, failing when it has an error', async () => {
    const { code, stdout } = await ballast(
      ['lint', '--format', 'junit', '-'],
      `${PV_WITH_NAMESPACE}---\n${CLEAN_CONFIGMAP}`,
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="ballast lint" tests="2" failures="1"/,
    );
    expect(stdout.match(/<testcase /g)).toHaveLength(2);
    expect(stdout).toMatch(
      /<testcase classname="&lt;stdin&gt;" name="PersistentVolume db\/data">\n\s+<failure message="[^"]+" type="persistent-volume-with-namespace">/,
    );
    expect(stdout).toContain('<testcase classname="&lt;stdin&gt;" name="ConfigMap db/settings"/>');
  });
});

test('lint --help documents flags and exit codes', async () => {
  const { code, stdout } = await ballast(['lint', '--help']);
  expect(code).toBe(0);
  for (const text of ['--format', '--kube-version', '--config', 'Exit codes']) expect(stdout).toContain(text);
});
