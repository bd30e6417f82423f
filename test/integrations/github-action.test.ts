import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { load } from 'js-yaml';
import { SHELLCHECK_INSTALL, testWithBinary } from '../support/external-binary';

const ROOT = path.resolve(__dirname, '..', '..');
const ACTION_TEXT = fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

interface ActionStep {
  readonly name?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
}
const ACTION = load(ACTION_TEXT) as { inputs: Record<string, { default: string }>; runs: { steps: ActionStep[] } };

/** The YAML blocks of the README section that wires ballast into GitHub. */
function readmeYamlBlocks(): string[] {
  const section = README.slice(README.indexOf('### 4. `ballast lint` in CI'), README.indexOf('### 5.'));
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/**
 * The action's shell steps as GitHub runs them, with `${{ inputs.x }}` replaced by `inputs` (the
 * defaults filled in) and GITHUB_ACTION_PATH at this checkout, whose lib/ `npm ci` has built. The
 * `uses:` steps (setup-node, the SARIF upload) and the install step are GitHub's or npm's part.
 */
function runActionSteps(workspace: string, given: Record<string, string>): Array<{ name: string; status: number }> {
  const inputs = Object.fromEntries(
    Object.entries(ACTION.inputs).map(([name, input]) => [name, given[name] ?? input.default]),
  );
  const expand = (text: string) =>
    text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => inputs[name] ?? '');
  const results: Array<{ name: string; status: number }> = [];
  for (const step of ACTION.runs.steps) {
    if (step.run === undefined || step.name === 'Install ballast') continue;
    if (step.if !== undefined && step.if !== "inputs.upload-sarif == 'true'")
      throw new Error(`unknown condition ${step.if}`);
    if (step.if !== undefined && inputs['upload-sarif'] !== 'true') continue;
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(value)]));
    const run = spawnSync('bash', ['-e', '-c', step.run], {
      cwd: workspace,
      env: { ...process.env, ...env, GITHUB_ACTION_PATH: ROOT },
      encoding: 'utf8',
    });
    results.push({ name: step.name ?? '', status: run.status ?? -1 });
  }
  return results;
}

describe('the GitHub Action (action.yml) and the README workflows', () => {
  test("action.yml is valid against GitHub's action metadata schema, and the check sees a broken one", () => {
    expect(validateAction(ACTION_TEXT).errors).toEqual([]);
    expect(validateAction(ACTION_TEXT.replace('using: composite', 'using: compositeX')).errors.length).toBeGreaterThan(
      0,
    );
  });

  test("the README's workflows are valid GitHub workflows", () => {
    const [workflow, steps] = readmeYamlBlocks();
    expect(validateWorkflow(workflow ?? '').errors).toEqual([]);
    // The second block is the steps of a job written by hand.
    const job = `on: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n${steps ?? ''}`;
    expect(validateWorkflow(job).errors).toEqual([]);
  });

  test('its steps write SARIF without failing, then fail the job on errors only as fail-on says', () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-action-'));
    try {
      fs.mkdirSync(path.join(workspace, 'deploy'));
      fs.writeFileSync(
        path.join(workspace, 'deploy', 'pv.yaml'),
        'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: data, namespace: shop}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: Retain, csi: {driver: rbd.csi.ceph.com, volumeHandle: x}}\n',
      );
      expect(runActionSteps(workspace, { paths: 'deploy/', 'kubernetes-version': '1.31' })).toEqual([
        { name: 'ballast lint (SARIF)', status: 0 },
        { name: 'ballast lint', status: 1 },
      ]);
      const sarif = JSON.parse(fs.readFileSync(path.join(workspace, 'ballast.sarif'), 'utf8')) as {
        runs: Array<{ results: Array<{ ruleId: string }> }>;
      };
      expect(sarif.runs[0]?.results.map((result) => result.ruleId)).toContain('persistent-volume-with-namespace');
      expect(runActionSteps(workspace, { paths: 'deploy/', 'fail-on': 'never', 'upload-sarif': 'false' })).toEqual([
        { name: 'ballast lint', status: 0 },
      ]);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  testWithBinary('shellcheck', SHELLCHECK_INSTALL)('its shell steps are shellcheck-clean bash', () => {
    for (const step of ACTION.runs.steps.filter((candidate) => candidate.run !== undefined)) {
      const check = spawnSync('shellcheck', ['--shell=bash', '-'], { input: step.run, encoding: 'utf8' });
      expect({ step: step.name, output: check.stdout }).toEqual({ step: step.name, output: '' });
    }
  });
});
