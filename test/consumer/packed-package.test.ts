import { SpawnSyncReturns, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * ballast as a platform team gets it today (README, "Install"): `npm pack` in a clone, then
 * `npm install ./ballast-k8s-<version>.tgz` into their own cdk8s app. Here: a scratch app outside
 * this repo, dependencies from the npm registry into an npm cache of its own (never a warm cache),
 * then used only through the package name, the shipped declarations, the `bin` and the shipped
 * plugin entry, beside cdk8s-plus-27 and cdk8s-plus-34. Anything missing from `files`, `exports`,
 * `dependencies` or the peer ranges fails here, not in the platform team's CI.
 */
const REPO = path.resolve(__dirname, '..', '..');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const CDK8S_CLI = path.join(REPO, 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s');

let scratch: string;
let app: string;
let packedFiles: string[];

let npmCache: string;

function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const { BALLAST_KUBERNETES_VERSION: _unused, ...env } = process.env;
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_cache: npmCache },
  });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0)
    throw new Error(`${what} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The version of a dev dependency this repo tests with, so the consumer gets the same one. */
function installedVersion(name: string, project = REPO): string {
  return (
    JSON.parse(fs.readFileSync(path.join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
  ).version;
}

const CONSUMER_APP = `
import { ApiObject, App, Chart } from 'cdk8s';
import { BallastGate, ValidationReport, validateObjects } from 'ballast-k8s';

const app = new App({ outdir: 'dist' });
new BallastGate(app, { kubernetesVersion: '1.30' });
const chart = new Chart(app, 'storage');
new ApiObject(chart, 'volume', {
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'static-data', ...(process.argv.includes('--bad') ? { namespace: 'shop' } : {}) },
  spec: {
    capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain',
    csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'static-data' },
  },
});
const report: ValidationReport = validateObjects([]);
console.log(\`version \${app.node.findChild('BallastGate') ? 'gate' : 'none'} \${report.objects}\`);
app.synth();
`;

// The constructs take workloads of any cdk8s-plus line by shape: the same calls with plus-27 and plus-34.
const PLUS_LINES_APP = `
import { App, Chart } from 'cdk8s';
import * as plus27 from 'cdk8s-plus-27';
import * as plus34 from 'cdk8s-plus-34';
import { LeaderLease, NfsVersion, NfsVolume, synthOrExit } from 'ballast-k8s';

export function build(): App {
  const app = new App({ outdir: 'dist-plus' });
  for (const [line, plus] of [['p27', plus27], ['p34', plus34]] as const) {
    const chart = new Chart(app, line, { namespace: \`shop-\${line}\` });
    const deployment = new plus.Deployment(chart, 'web', {
      replicas: 1, containers: [{ image: 'nginx:1.27', portNumber: 8080 }],
    });
    const reports = new NfsVolume(chart, 'reports', {
      server: 'nfs.example.com', path: '/exports/reports', mountOptions: { version: NfsVersion.V4_1 },
      claim: { namespace: \`shop-\${line}\`, name: 'reports', storage: '5Gi' },
    });
    reports.mountIn(deployment);
    const account = new plus.ServiceAccount(chart, 'operator');
    new LeaderLease(chart, 'lock', { name: 'web-leader' }).grantLeadership(account);
  }
  return app;
}
if (process.argv.includes('--plus-lines')) synthOrExit(build);
`;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-consumer-'));
  npmCache = path.join(scratch, 'npm-cache');
  const packed = JSON.parse(
    ok(run('npm', ['pack', '--json', '--pack-destination', scratch], REPO), 'npm pack'),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = (packed[0]?.files ?? []).map((file) => file.path);

  app = path.join(scratch, 'platform-app');
  fs.mkdirSync(app);
  fs.writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: 'platform-app', version: '1.0.0', private: true }),
  );
  const tarball = packed[0]?.filename ?? '';
  ok(
    run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        path.join(scratch, tarball),
        `cdk8s@${installedVersion('cdk8s')}`,
        `constructs@${installedVersion('constructs')}`,
        `cdk8s-plus-27@${installedVersion('cdk8s-plus-27')}`,
        `cdk8s-plus-34@${installedVersion('cdk8s-plus-34')}`,
      ],
      app,
    ),
    'npm install of the tarball (README "Install")',
  );

  fs.writeFileSync(path.join(app, 'main.ts'), CONSUMER_APP);
  // No @types/node in the consumer: the shipped declarations must not need it for this app.
  fs.writeFileSync(path.join(app, 'node-shim.d.ts'), 'declare const process: { argv: string[] };\n');
  fs.writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        moduleResolution: 'node',
        strict: true,
        outDir: 'out',
        skipLibCheck: false,
        types: [],
      },
      files: ['main.ts', 'plus-lines.ts', 'node-shim.d.ts'],
    }),
  );
  fs.writeFileSync(path.join(app, 'plus-lines.ts'), PLUS_LINES_APP);
}, 300_000);

afterAll(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('ballast as an installed package (npm pack → scratch cdk8s app)', () => {
  test('the tarball ships the compiled code, declarations, plugin entry and catalogue, and no sources or tests', () => {
    for (const file of [
      'lib/index.js',
      'lib/index.d.ts',
      'lib/cli/main.js',
      'lib/plugins/cdk8s/ballast-validation.js',
      'lib/stacks/policy-pack/ballast-policies.js',
      'plugins/cdk8s/index.js',
      'docs/rules.md',
      'package.json',
    ])
      expect(packedFiles).toContain(file);
    expect(
      packedFiles.filter((file) => file.startsWith('test/') || (file.endsWith('.ts') && !file.endsWith('.d.ts'))),
    ).toEqual([]);
  });

  test("the consumer's TypeScript type-checks against the shipped declarations beside plus-27 and plus-34, and synthesizes through the gate", () => {
    ok(run(process.execPath, [TSC, '-p', '.'], app), 'tsc in the consumer app');
    const synth = run(process.execPath, ['out/main.js'], app);
    expect(ok(synth, 'consumer synth')).toContain('version gate 0');
    expect(fs.readFileSync(path.join(app, 'dist', 'storage.k8s.yaml'), 'utf8')).toContain('name: static-data');

    const refused = run(process.execPath, ['out/main.js', '--bad'], app);
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('persistent-volume-with-namespace');

    const plusLines = run(process.execPath, ['out/plus-lines.js', '--plus-lines'], app);
    expect(ok(plusLines, 'plus-lines synth')).toBe('');
    for (const line of ['p27', 'p34']) {
      const written = fs.readFileSync(path.join(app, 'dist-plus', `${line}.k8s.yaml`), 'utf8');
      expect(written).toMatch(/nfs-client/);
    }
  });

  test('`npx ballast rules`, `explain` and `lint --format sarif` work from the bin', () => {
    const rules = ok(run('npx', ['--no-install', 'ballast', 'rules'], app), 'ballast rules');
    expect(rules).toMatch(/^persistent-volume-with-namespace\s+error\s/m);
    const explain = ok(
      run('npx', ['--no-install', 'ballast', 'explain', 'persistent-volume-with-namespace'], app),
      'ballast explain',
    );
    expect(fs.readFileSync(path.join(app, 'node_modules', 'ballast-k8s', 'docs', 'rules.md'), 'utf8')).toContain(
      explain,
    );

    fs.writeFileSync(
      path.join(app, 'pv.yaml'),
      [
        'apiVersion: v1',
        'kind: PersistentVolume',
        'metadata: {name: data, namespace: shop}',
        'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: rbd.csi.ceph.com, volumeHandle: data}}',
        '',
      ].join('\n'),
    );
    const lint = run('npx', ['--no-install', 'ballast', 'lint', '--format', 'sarif', 'pv.yaml'], app);
    expect(lint.status).toBe(1);
    const sarif = JSON.parse(lint.stdout) as { runs: Array<{ results: Array<{ ruleId: string }> }> };
    expect(sarif.runs[0]?.results.map((result) => result.ruleId)).toContain('persistent-volume-with-namespace');

    // `| true` has closed the pipe long before ballast starts writing: ballast meets EPIPE, as under
    // `ballast lint | head`, and must end with the lint's own exit code and no stack trace.
    const piped = run('bash', ['-c', 'npx --no-install ballast lint pv.yaml | true; exit "${PIPESTATUS[0]}"'], app);
    expect({ status: piped.status, stderr: piped.stderr }).toEqual({ status: 1, stderr: '' });
  });

  test('the shipped cdk8s plugin entry (./node_modules/ballast-k8s/plugins/cdk8s) fails `cdk8s synth` of a plain app', () => {
    const plain = path.join(app, 'plain');
    fs.mkdirSync(plain, { recursive: true });
    fs.writeFileSync(
      path.join(plain, 'app.js'),
      [
        "const { App, Chart, ApiObject } = require('cdk8s');",
        'const app = new App();',
        "new ApiObject(new Chart(app, 'storage'), 'pv', { apiVersion: 'v1', kind: 'PersistentVolume',",
        "  metadata: { name: 'data', namespace: 'shop' },",
        "  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'data' } } });",
        'app.synth();',
      ].join('\n'),
    );
    // cdk8s-cli loads a local plugin only from an absolute path or one starting with `./`.
    fs.writeFileSync(
      path.join(app, 'cdk8s.yaml'),
      [
        'app: node plain/app.js',
        'output: dist-plain',
        'validations:',
        '  - package: ./node_modules/ballast-k8s/plugins/cdk8s',
        `    version: ${installedVersion('ballast-k8s', app)}`,
        '    class: BallastValidation',
      ].join('\n'),
    );
    const synth = run(process.execPath, [CDK8S_CLI, 'synth', '--no-check-upgrade'], app);
    expect(synth.status).toBe(2);
    expect(synth.stdout).toContain('persistent-volume-with-namespace');
  });

  test('the policy functions load from `ballast-k8s/policy-pack` without Pulumi installed', () => {
    const script = [
      "const { ballastStackViolations } = require('ballast-k8s/policy-pack');",
      'const found = ballastStackViolations([{ type: "kubernetes:core/v1:PersistentVolume", urn: "urn:x", props:',
      '  { metadata: { name: "data", namespace: "shop" }, spec: {} } }], "error");',
      'console.log(found.map((v) => v.rule + " " + v.urn).join(","));',
    ].join('\n');
    expect(ok(run(process.execPath, ['-e', script], app), 'require ballast-k8s/policy-pack').trim()).toBe(
      'persistent-volume-with-namespace urn:x',
    );
  });
});
