import { SpawnSyncReturns, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * ballast as a platform team gets it: `npm pack` (which builds through `prepack`), installed from
 * the tarball into a scratch cdk8s app outside this repo, offline (dependencies from the npm cache
 * that `npm ci` filled), then used only through the package name, the shipped declarations, the
 * `bin` and the shipped plugin entry. Anything missing from `files`, `exports` or `dependencies`
 * fails here, not in the platform team's CI.
 */
const REPO = path.resolve(__dirname, '..', '..');
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const CDK8S_CLI = path.join(REPO, 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s');

let scratch: string;
let app: string;
let packedFiles: string[];

function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  const { BALLAST_KUBERNETES_VERSION: _unused, ...env } = process.env;
  return spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false' } });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The installed version of a dev dependency, so the scratch install hits the npm cache. */
function installedVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

const CONSUMER_APP = `
import { ApiObject, App, Chart } from 'cdk8s';
import { BallastGate, ValidationReport, validateObjects } from 'ballast';

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

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-consumer-'));
  const packed = JSON.parse(ok(run('npm', ['pack', '--json', '--pack-destination', scratch], REPO), 'npm pack')) as
    Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = packed[0].files.map((file) => file.path);

  app = path.join(scratch, 'platform-app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'platform-app', version: '1.0.0', private: true }));
  ok(run('npm', [
    'install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts',
    path.join(scratch, packed[0].filename),
    `cdk8s@${installedVersion('cdk8s')}`, `cdk8s-plus-27@${installedVersion('cdk8s-plus-27')}`, `constructs@${installedVersion('constructs')}`,
  ], app), 'npm install --offline of the tarball');

  fs.writeFileSync(path.join(app, 'main.ts'), CONSUMER_APP);
  // No @types/node in the consumer: the shipped declarations must not need it for this app.
  fs.writeFileSync(path.join(app, 'node-shim.d.ts'), 'declare const process: { argv: string[] };\n');
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: 'commonjs', moduleResolution: 'node', strict: true, outDir: 'out',
      skipLibCheck: false, types: [],
    },
    files: ['main.ts', 'node-shim.d.ts'],
  }));
}, 120_000);

afterAll(() => { if (scratch) fs.rmSync(scratch, { recursive: true, force: true }); });

describe('ballast as an installed package (npm pack → scratch cdk8s app)', () => {
  test('the tarball ships the compiled code, declarations, plugin entry and catalogue, and no sources or tests', () => {
    for (const file of [
      'lib/index.js', 'lib/index.d.ts', 'lib/cli/main.js', 'lib/plugins/cdk8s/ballast-validation.js',
      'lib/stacks/policy-pack/ballast-policies.js', 'plugins/cdk8s/index.js', 'docs/rules.md', 'package.json',
    ]) expect(packedFiles).toContain(file);
    expect(packedFiles.filter((file) => file.startsWith('test/') || (file.endsWith('.ts') && !file.endsWith('.d.ts')))).toEqual([]);
  });

  test("the consumer's TypeScript type-checks against the shipped declarations and synthesizes through the gate", () => {
    ok(run(process.execPath, [TSC, '-p', '.'], app), 'tsc in the consumer app');
    const synth = run(process.execPath, ['out/main.js'], app);
    expect(ok(synth, 'consumer synth')).toContain('version gate 0');
    expect(fs.readFileSync(path.join(app, 'dist', 'storage.k8s.yaml'), 'utf8')).toContain('name: static-data');

    const refused = run(process.execPath, ['out/main.js', '--bad'], app);
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('persistent-volume-with-namespace');
  });

  test('`npx ballast rules`, `explain` and `lint --format sarif` work from the bin', () => {
    const rules = ok(run('npx', ['--no-install', 'ballast', 'rules'], app), 'ballast rules');
    expect(rules).toMatch(/^persistent-volume-with-namespace\s+error\s/m);
    const explain = ok(run('npx', ['--no-install', 'ballast', 'explain', 'persistent-volume-with-namespace'], app), 'ballast explain');
    expect(fs.readFileSync(path.join(app, 'node_modules', 'ballast', 'docs', 'rules.md'), 'utf8')).toContain(explain);

    fs.writeFileSync(path.join(app, 'pv.yaml'), [
      'apiVersion: v1', 'kind: PersistentVolume', 'metadata: {name: data, namespace: shop}',
      'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: rbd.csi.ceph.com, volumeHandle: data}}', '',
    ].join('\n'));
    const lint = run('npx', ['--no-install', 'ballast', 'lint', '--format', 'sarif', 'pv.yaml'], app);
    expect(lint.status).toBe(1);
    const sarif = JSON.parse(lint.stdout) as { runs: Array<{ results: Array<{ ruleId: string }> }> };
    expect(sarif.runs[0].results.map((result) => result.ruleId)).toContain('persistent-volume-with-namespace');
  });

  test('the shipped cdk8s plugin entry (./node_modules/ballast/plugins/cdk8s) fails `cdk8s synth` of a plain app', () => {
    const plain = path.join(app, 'plain');
    fs.mkdirSync(plain, { recursive: true });
    fs.writeFileSync(path.join(plain, 'app.js'), [
      "const { App, Chart, ApiObject } = require('cdk8s');",
      'const app = new App();',
      "new ApiObject(new Chart(app, 'storage'), 'pv', { apiVersion: 'v1', kind: 'PersistentVolume',",
      "  metadata: { name: 'data', namespace: 'shop' },",
      "  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'data' } } });",
      'app.synth();',
    ].join('\n'));
    // cdk8s-cli loads a local plugin only from an absolute path or one starting with `./`.
    fs.writeFileSync(path.join(app, 'cdk8s.yaml'), [
      'app: node plain/app.js', 'output: dist-plain', 'validations:',
      '  - package: ./node_modules/ballast/plugins/cdk8s', '    version: 0.1.0', '    class: BallastValidation',
    ].join('\n'));
    const synth = run(process.execPath, [CDK8S_CLI, 'synth', '--no-check-upgrade'], app);
    expect(synth.status).toBe(2);
    expect(synth.stdout).toContain('persistent-volume-with-namespace');
  });

  test('the policy functions load from `ballast/policy-pack` without Pulumi installed', () => {
    const script = [
      "const { ballastStackViolations } = require('ballast/policy-pack');",
      'const found = ballastStackViolations([{ type: "kubernetes:core/v1:PersistentVolume", urn: "urn:x", props:',
      '  { metadata: { name: "data", namespace: "shop" }, spec: {} } }], "error");',
      'console.log(found.map((v) => v.rule + " " + v.urn).join(","));',
    ].join('\n');
    expect(ok(run(process.execPath, ['-e', script], app), 'require ballast/policy-pack').trim())
      .toBe('persistent-volume-with-namespace urn:x');
  });
});
