import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { gitDirectory, mirrorRoots, readSources, writeWalkedFiles } from '../test/real-world/evaluate';
import { cliCommand, processRun } from './lint-bench';
import { formatMs, pairedMs } from './measure';
import { peakMemoryMiB } from './peak-memory';

const ROOT = path.resolve(__dirname, '..');
const RUNS = 5;

/**
 * The parse-only pass over exactly the files lint reads (lint's own walk: Helm charts and other
 * skipped directories left out), with the same schema, nothing kept: the denominator of the ratios.
 */
const PARSE_SAME_FILES = `
const fs = require('fs'), { loadAll } = require(${JSON.stringify(require.resolve('js-yaml'))});
const { KUBERNETES_YAML_SCHEMA: schema } = require(${JSON.stringify(path.join(ROOT, 'lib', 'validators', 'yaml-schema.js'))});
const { inputFiles } = require(${JSON.stringify(path.join(ROOT, 'lib', 'cli', 'input-files.js'))});
for (const file of inputFiles(process.argv.slice(1))) {
  if (file.kind !== 'file') continue;
  try { loadAll(fs.readFileSync(file.fsPath, 'utf8'), undefined, { schema }); } catch {}
}
`;

/**
 * `npm run bench`, real-world part: `ballast lint` on the repositories of the real-world set as they
 * are (what `npm run real-world` lints), against a parse-only pass over the same files. Unlike the
 * corpus copies of the lint part, these objects are of every size (CRD bundles, dashboards in
 * ConfigMaps, Cluster API templates) and rarely repeat. Needs the snapshots `npm run real-world` reads.
 */
export function runRealWorldBench(): void {
  const roots = mirrorRoots([]);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-real-world-bench-'));
  try {
    let repositories = 0;
    for (const source of readSources()) {
      const gitDir = gitDirectory(roots, source);
      if (!gitDir) continue;
      writeWalkedFiles(gitDir, source.commit, path.join(root, source.repository.replace('/', '+')));
      repositories++;
    }
    if (repositories === 0) {
      console.log('real world: skipped, no snapshot of the real-world set here (see npm run real-world)');
      return;
    }
    const cli = cliCommand();
    const lintArgv = [...cli.argv, 'lint', '--format', 'json', root];
    const parseArgv = ['-e', PARSE_SAME_FILES, root];
    const timing = pairedMs(RUNS, processRun(parseArgv, [0]), processRun(lintArgv, [0, 1]));
    const memory = { parse: peakMemoryMiB(parseArgv), lint: peakMemoryMiB(lintArgv) };
    const objects = countObjects(cli.argv, root);
    console.log(
      `real world, whole process, ${RUNS} alternating pairs (medians): ${repositories} repositories of test/real-world, ` +
        `${objects.files} files, ${objects.objects} objects`,
    );
    console.log(
      `  parse-only of the same files ${formatMs(timing.first)}, lint --format json ${formatMs(timing.second)} = ` +
        `${Math.round(objects.objects / (timing.second / 1000))} objects/s, ${timing.ratio.toFixed(2)}x parse-only (target <= 1.5x)`,
    );
    console.log(
      `  peak memory: lint ${memory.lint.toFixed(0)} MiB, parse-only ${memory.parse.toFixed(0)} MiB = ` +
        `${(memory.lint / memory.parse).toFixed(2)}x (target <= 2x)`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function countObjects(cliArgv: readonly string[], root: string): { files: number; objects: number } {
  const result = spawnSync(process.execPath, [...cliArgv, 'lint', '--format', 'json', root], {
    cwd: ROOT,
    maxBuffer: 1 << 30,
  });
  const summary = (JSON.parse(String(result.stdout)) as { summary: { files: number; objects: number } }).summary;
  return { files: summary.files, objects: summary.objects };
}
