import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { DEFAULT_KUBERNETES_VERSION } from '../../validators';
import { scratchDir } from '../support/scratch-dir';

/**
 * The plugin through the real `cdk8s synth`, in a scratch project outside the repo whose app is a
 * plain cdk8s app (ApiObjects only, no ballast constructs, so no synth gate): whatever it reports
 * comes from the plugin.
 */
const REPO = path.resolve(__dirname, '..', '..');
const CDK8S_CLI = path.join(REPO, 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s');
const PLUGIN_DIR = path.join(REPO, 'plugins', 'cdk8s');

/** Incident 1: a rolling Deployment on a ReadWriteOnce claim, in another chart than the claim. */
const INCIDENT_1_CHARTS = {
  storage: [
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'db-data', namespace: 'shop' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'ceph-rbd',
        resources: { requests: { storage: '10Gi' } },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'static-data', namespace: 'shop' },
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        csi: { driver: 'rbd.csi.ceph.com', volumeHandle: 'static-data' },
      },
    },
  ],
  workload: [deployment({})],
};

/** The same service done right: Recreate, one replica, and a cluster-scoped PV. */
const GOOD_CHARTS = {
  storage: [INCIDENT_1_CHARTS.storage[0], { ...INCIDENT_1_CHARTS.storage[1], metadata: { name: 'static-data' } }],
  workload: [deployment({ replicas: 1, strategy: { type: 'Recreate' } })],
};

function deployment(extraSpec: Record<string, unknown>) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'db', namespace: 'shop' },
    spec: {
      ...extraSpec,
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: {
          containers: [
            {
              name: 'db',
              image: 'postgres:16',
              volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
            },
          ],
          volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'db-data' } }],
        },
      },
    },
  };
}

interface SynthResult {
  readonly status: number | null;
  readonly output: string;
  readonly dir: string;
  readonly reports?: { reports: Array<{ violations: Violation[]; summary: { status: string } }> };
}

interface Violation {
  ruleName: string;
  recommendation: string;
  fix: string;
  violatingConstructs: Array<{
    resourceName: string;
    manifestPath: string;
    locations: string[];
    constructPath?: string;
  }>;
}

/** Writes a scratch cdk8s project (one chart per key, raw ApiObjects) and runs `cdk8s synth`. */
function synth(charts: Record<string, Array<object | undefined>>, properties?: Record<string, unknown>): SynthResult {
  const dir = scratchDir('ballast-plugin');
  const app = [
    `const { App, Chart, ApiObject } = require(${JSON.stringify(require.resolve('cdk8s'))});`,
    'const app = new App();',
    `for (const [chartName, objects] of Object.entries(${JSON.stringify(charts)})) {`,
    '  const chart = new Chart(app, chartName);',
    '  objects.forEach((object, i) => new ApiObject(chart, `${object.kind}-${i}`, object));',
    '}',
    'app.synth();',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'app.js'), app);
  const validation = {
    package: PLUGIN_DIR,
    version: '0.1.0',
    class: 'BallastValidation',
    ...(properties ? { properties } : {}),
  };
  fs.writeFileSync(
    path.join(dir, 'cdk8s.yaml'),
    yaml.dump({ language: 'typescript', app: 'node app.js', output: 'dist', validations: [validation] }),
  );
  const reportFile = path.join(dir, 'reports.json');
  const { BALLAST_KUBERNETES_VERSION: _ignored, ...env } = process.env;
  const result = spawnSync(
    process.execPath,
    [CDK8S_CLI, 'synth', '--no-check-upgrade', '--validation-reports-output-file', reportFile],
    {
      cwd: dir,
      encoding: 'utf8',
      env,
    },
  );
  return {
    status: result.status,
    output: `${result.stdout}\n${result.stderr}`,
    dir,
    reports: fs.existsSync(reportFile) ? JSON.parse(fs.readFileSync(reportFile, 'utf8')) : undefined,
  };
}

function violations(result: SynthResult): Violation[] {
  expect(result.reports?.reports).toHaveLength(1);
  return result.reports!.reports[0]!.violations;
}

describe('cdk8s-cli validation plugin (BallastValidation)', () => {
  // cdk8s-cli hands the plugin manifest paths relative to the project directory.
  test('the objects of incident 1 fail `cdk8s synth` with exit 2, naming rule, resource, manifest and field', () => {
    const result = synth(INCIDENT_1_CHARTS);
    expect(result.status).toBe(2);
    expect(result.output).toContain('Validation failed');
    const found = violations(result);
    expect(result.reports!.reports[0]!.summary.status).toBe('failure');

    // Cross-object: the claim is in storage.k8s.yaml, the Deployment in workload.k8s.yaml.
    const rolling = found.find((v) => v.ruleName === 'rwo-claim-in-rolling-deployment');
    expect(rolling).toBeDefined();
    expect(rolling!.recommendation).toMatch(
      /^error rwo-claim-in-rolling-deployment: Deployment shop\/db at workload\/Deployment-0, field /,
    );
    // The target version is in the report, with where it came from.
    expect(JSON.stringify(result.reports)).toContain(`Kubernetes ${DEFAULT_KUBERNETES_VERSION} (the default`);
    expect(rolling!.fix).toContain('ballast.dev/suppress.rwo-claim-in-rolling-deployment');
    expect(rolling!.violatingConstructs).toEqual([
      expect.objectContaining({
        resourceName: 'db',
        manifestPath: 'dist/workload.k8s.yaml',
        locations: ['spec.template.spec.volumes[0].persistentVolumeClaim'],
        constructPath: 'workload/Deployment-0',
      }),
    ]);

    const namespaced = found.find((v) => v.ruleName === 'persistent-volume-with-namespace');
    expect(namespaced?.violatingConstructs).toEqual([
      expect.objectContaining({
        resourceName: 'static-data',
        manifestPath: 'dist/storage.k8s.yaml',
        locations: ['metadata.namespace'],
      }),
    ]);
  });

  test('the same service done right passes: exit 0, manifests written, no violations', () => {
    const result = synth(GOOD_CHARTS);
    expect(result.output).toContain('Validations ended succesfully');
    expect(result.status).toBe(0);
    expect(violations(result)).toEqual([]);
    expect(fs.existsSync(path.join(result.dir, 'dist', 'workload.k8s.yaml'))).toBe(true);
  });

  test('properties: rules switched off or to warning change the outcome; a warning does not fail synth', () => {
    const disabled = synth(INCIDENT_1_CHARTS, {
      rules: { 'rwo-claim-in-rolling-deployment': 'off', 'persistent-volume-with-namespace': 'off' },
    });
    expect(disabled.status).toBe(0);
    expect(violations(disabled).map((v) => v.ruleName)).not.toContain('rwo-claim-in-rolling-deployment');

    const downgraded = synth(INCIDENT_1_CHARTS, {
      kubernetesVersion: '1.30',
      rules: { 'rwo-claim-in-rolling-deployment': 'warning', 'persistent-volume-with-namespace': 'warning' },
    });
    expect(downgraded.status).toBe(0);
    const rolling = violations(downgraded).find((v) => v.ruleName === 'rwo-claim-in-rolling-deployment');
    expect(rolling?.recommendation).toMatch(/^warning rwo-claim-in-rolling-deployment: Deployment shop\/db at /);
  });

  test('bad properties stop synth with every problem named, as at every door (YAML 1.30 is the number 1.3)', () => {
    const bad = synth(GOOD_CHARTS, { kubernetesVersion: 1.3, rules: { 'no-such-rule': 'off' }, disabledRules: ['x'] });
    expect(bad.status).not.toBe(0);
    expect(bad.output).toContain('invalid ballast options in the ballast entry of cdk8s.yaml');
    expect(bad.output).toContain('kubernetesVersion: Kubernetes version 1.3 is a number: quote it');
    expect(bad.output).toContain('rules.no-such-rule: unknown rule id');
    expect(bad.output).toContain('disabledRules: unknown option; known: kubernetesVersion, rules, parameters');
  });

  test("this repo's cdk8s.yaml runs the plugin with a pinned version equal to the package version", () => {
    const config = yaml.load(fs.readFileSync(path.join(REPO, 'cdk8s.yaml'), 'utf8')) as {
      validations: Array<Record<string, string>>;
    };
    const version = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string })
      .version;
    expect(config.validations).toEqual([
      expect.objectContaining({ package: './plugins/cdk8s', class: 'BallastValidation', version }),
    ]);
  });
});
