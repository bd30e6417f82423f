import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { dump } from 'js-yaml';
import { configMapWithBomb, schedulerConfigurationBomb } from '../test/hostile/alias-bomb';
import { formatMs, medianMs, whole } from './measure';
import { peakMemoryMiB } from './peak-memory';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'lib', 'cli', 'main.js');

/** A `kubectl get pv -o yaml` List of `count` PersistentVolumes, each with a finding (a namespace). */
function volumeList(count: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'List',
    metadata: { resourceVersion: '' },
    items: Array.from({ length: count }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: `pv-${i}`, namespace: 'shop', labels: { tier: 'data' } },
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        csi: { driver: 'rbd.csi.ceph.com', volumeHandle: `volume-${i}` },
      },
    })),
  };
}

function lintRun(file: string): () => void {
  return () => {
    const result = spawnSync(process.execPath, [CLI, 'lint', '--format', 'json', file], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    if (result.status !== 1) throw new Error(`lint ${file} exited ${result.status}: ${String(result.stderr)}`);
  };
}

/**
 * `npm run bench`, input shapes: one List file whose every item has a finding, as YAML and as
 * one-line JSON, at 8,000 and 16,000 items (linear: doubling the items doubles the time), and a
 * 650-byte alias bomb through every door (time of the door's call and the process's peak memory).
 */
export function runInputShapesBench(): void {
  if (!fs.existsSync(CLI)) {
    console.log('input shapes: skipped, lib/ is not built (npm run build)');
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-shapes-'));
  try {
    console.log('input shapes: one List file, every item with a finding (whole process, median of 3)');
    for (const format of ['yaml', 'json'] as const) {
      const times: number[] = [];
      for (const count of [8000, 16000]) {
        const file = path.join(dir, `list-${count}.${format}`);
        const list = volumeList(count);
        fs.writeFileSync(file, format === 'yaml' ? dump(list) : JSON.stringify(list));
        const ms = medianMs(3, whole(lintRun(file)));
        times.push(ms);
        console.log(`  ${count} items, ${format === 'yaml' ? 'YAML' : 'one-line JSON'}: ${formatMs(ms)}`);
      }
      console.log(
        `  ${format}: 16,000 / 8,000 items = x${((times[1] ?? 0) / (times[0] ?? 1)).toFixed(2)} (linear: about 2)`,
      );
    }

    const bombFile = path.join(dir, 'scheduler-bomb.yaml');
    fs.writeFileSync(bombFile, schedulerConfigurationBomb());
    const configMapFile = path.join(dir, 'configmap-bomb.yaml');
    fs.writeFileSync(configMapFile, dump(configMapWithBomb()));
    console.log(
      `alias bomb (${fs.statSync(bombFile).size} bytes; 10^9 nodes expanded), target < 1 s and < 200 MB at every door:`,
    );
    const doors: Array<[string, string]> = [
      [
        'lint',
        `require(${JSON.stringify(path.join(ROOT, 'lib', 'cli', 'program.js'))}).run(['lint', '--format', 'json', ${JSON.stringify(bombFile)}], { out() {}, err() {} })`,
      ],
      [
        'gate',
        `const { App, Chart, ApiObject } = require('cdk8s'); const { BallastGate } = require(${JSON.stringify(path.join(ROOT, 'lib', 'index.js'))});
        const app = new App(); const gate = new BallastGate(app, { log() {} }); new ApiObject(new Chart(app, 'c'), 'cm', CONFIG_MAP); gate.validateApp();`,
      ],
      [
        'cdk8s plugin',
        `const { ValidationContext } = require('cdk8s-cli/plugins'); const { BallastValidation } = require(${JSON.stringify(path.join(ROOT, 'lib', 'plugins', 'cdk8s', 'ballast-validation.js'))});
        return new BallastValidation({}).validate(new ValidationContext([${JSON.stringify(configMapFile)}], 'ballast', '0', {}, false));`,
      ],
      [
        'policy pack',
        `const { ballastStackViolations } = require(${JSON.stringify(path.join(ROOT, 'lib', 'stacks', 'policy-pack', 'ballast-policies.js'))});
        ballastStackViolations([{ type: 'kubernetes:core/v1:ConfigMap', urn: 'urn:x', props: CONFIG_MAP }], 'error');`,
      ],
    ];
    for (const [door, call] of doors) {
      const script = `const CONFIG_MAP = ${JSON.stringify(configMapWithBomb())};
        (async () => { const start = process.hrtime.bigint(); await (async () => { ${call} })();
        process.stderr.write('door-ms ' + Number(process.hrtime.bigint() - start) / 1e6 + '\\n'); })();`;
      const timed = spawnSync(process.execPath, ['-e', script], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 60_000,
      });
      const ms = Number(/door-ms ([\d.]+)/.exec(String(timed.stderr))?.[1] ?? Number.NaN);
      const memory = peakMemoryMiB(['-e', script], 1);
      console.log(
        `  ${door}: ${Number.isNaN(ms) ? `did not finish (${String(timed.stderr).slice(-200)})` : formatMs(ms)}, peak memory ${memory.toFixed(0)} MiB (whole process)`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
