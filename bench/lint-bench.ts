import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadAll } from 'js-yaml';
import { FloorKeeps, floorProgram } from './floor-programs';
import { LintStage, lintStageProgram } from './lint-stages';
import { PairedTiming, TimedTask, formatMs, pairedMs, whole } from './measure';
import { peakMemoryMiB } from './peak-memory';

const ROOT = path.resolve(__dirname, '..');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');
const TARGET_OBJECTS = 40000;
const RUNS = 7;
/** The text format is a side measurement: fewer pairs keep `npm run bench` within a few minutes. */
const TEXT_RUNS = 3;

/** The compiled CLI when it is up to date (`npm run build`), else ts-node transpile-only (slower start-up). */
export function cliCommand(): { argv: string[]; label: string } {
  const compiled = path.join(ROOT, 'lib', 'cli', 'main.js');
  const newestSource = Math.max(
    ...['cli', 'validators']
      .flatMap((dir) => sourceFiles(path.join(ROOT, dir)))
      .map((file) => fs.statSync(file).mtimeMs),
  );
  if (!fs.existsSync(compiled) || fs.statSync(compiled).mtimeMs < newestSource) {
    const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' });
    if (build.status !== 0 || !fs.existsSync(compiled)) {
      return {
        argv: [require.resolve('ts-node/dist/bin.js'), '--transpile-only', path.join(ROOT, 'cli', 'main.ts')],
        label: 'ts-node --transpile-only cli/main.ts (build failed)',
      };
    }
  }
  return { argv: [compiled], label: 'node lib/cli/main.js (compiled)' };
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

function manifestFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? manifestFiles(full) : /\.(ya?ml|json)$/.test(entry.name) ? [full] : [];
  });
}

function objectCount(text: string): number {
  let count = 0;
  for (const document of loadAll(text) as Array<Record<string, unknown> | null>) {
    if (!document || typeof document !== 'object' || Array.isArray(document)) continue;
    const items = document.items;
    if (typeof document.kind === 'string' && document.kind.endsWith('List') && Array.isArray(items))
      count += items.filter(
        (item) => item && typeof item === 'object' && ('kind' in item || 'apiVersion' in item),
      ).length;
    else if ('kind' in document || 'apiVersion' in document) count++;
  }
  return count;
}

/** `copies` copies of the corpus under `dir/copy-N/`, byte for byte. */
function writeCopies(dir: string, copies: number, corpus: ReadonlyArray<{ relative: string; text: string }>): void {
  for (let copy = 0; copy < copies; copy++) {
    for (const { relative, text } of corpus) {
      const target = path.join(dir, `copy-${copy}`, relative);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, text);
    }
  }
}

/** A whole process, start to exit, as a timed task; a failure (unexpected exit status) stops the bench. */
export function processRun(argv: string[], expectStatus: number[]): TimedTask {
  return whole(() => {
    const result = spawnSync(process.execPath, argv, {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (!expectStatus.includes(result.status ?? -1))
      throw new Error(`${argv.join(' ')} exited ${result.status}: ${String(result.stderr)}`);
  });
}

/** `npm run bench`, lint part: whole-process throughput of `ballast lint` against a parse-only pass. */
export function runLintBench(): void {
  if (!fs.existsSync(CORPUS)) {
    console.log(`lint: skipped, corpus not found at ${CORPUS}`);
    return;
  }
  const corpus = manifestFiles(CORPUS).map((file) => ({
    relative: path.relative(CORPUS, file),
    text: fs.readFileSync(file, 'utf8'),
  }));
  const perCopy = corpus.reduce((sum, file) => sum + objectCount(file.text), 0);
  const copies = Math.ceil(TARGET_OBJECTS / perCopy);
  const cli = cliCommand();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-lint-bench-'));
  try {
    const rows: Array<{
      objects: number;
      json: PairedTiming;
      text: PairedTiming;
      floors: Record<Exclude<FloorKeeps, 'nothing'>, { timing: PairedTiming; memory: number }>;
      stages: Record<LintStage, { timing: PairedTiming; memory: number }>;
      memory: { parse: number; lint: number };
    }> = [];
    // Doubling the input = a second, identical set of copies given as a second path.
    const halves = [path.join(root, 'a'), path.join(root, 'b')];
    for (const half of halves) writeCopies(half, copies, corpus);
    for (const dirs of [halves.slice(0, 1), halves]) {
      // Each lint run is paired with a parse-only run right before it, so machine drift cancels.
      const program = (keeps: FloorKeeps) => ['-e', floorProgram(keeps), ...dirs];
      const parseOnly = processRun(program('nothing'), [0]);
      const json = pairedMs(RUNS, parseOnly, processRun([...cli.argv, 'lint', '--format', 'json', ...dirs], [0, 1]));
      const text = pairedMs(TEXT_RUNS, parseOnly, processRun([...cli.argv, 'lint', ...dirs], [0, 1]));
      const measured = (argv: string[]) => ({
        timing: pairedMs(TEXT_RUNS, parseOnly, processRun(argv, [0])),
        memory: peakMemoryMiB(argv),
      });
      const floor = (keeps: FloorKeeps) => measured(program(keeps));
      const stage = (which: LintStage) => measured(['-e', lintStageProgram(which), ...dirs]);
      const stages = { 'read-and-parse': stage('read-and-parse'), rules: stage('rules') };
      const floors = {
        documents: floor('documents'),
        identities: floor('identities'),
        'identities-two-threads': floor('identities-two-threads'),
      };
      const memory = {
        parse: peakMemoryMiB(program('nothing')),
        lint: peakMemoryMiB([...cli.argv, 'lint', '--format', 'json', ...dirs]),
      };
      rows.push({ objects: perCopy * copies * dirs.length, json, text, floors, stages, memory });
    }
    console.log(
      `lint, whole process start to exit, ${RUNS} alternating pairs with a parse-only pass (medians); CLI: ${cli.label}`,
    );
    console.log(
      `  input: ${copies} and ${copies * 2} copies of ../shared/corpus (${corpus.length} files, ${perCopy} objects each)`,
    );
    for (const row of rows) {
      console.log(
        `  ${row.objects} objects: parse-only ${formatMs(row.json.first)}, lint --format json ${formatMs(row.json.second)} ` +
          `= ${Math.round(row.objects / (row.json.second / 1000))} objects/s (target >= 20000), ${row.json.ratio.toFixed(2)}x parse-only (target <= 1.5x); ` +
          `text ${formatMs(row.text.second)} = ${row.text.ratio.toFixed(2)}x`,
      );
      for (const [keeps, what] of [
        ['documents', 'parse and keep every document (no rules), as lint does today'],
        ['identities', 'parse and keep only identities, the floor of a streaming design on one thread'],
        [
          'identities-two-threads',
          'the same with two worker threads parsing, the floor of a streaming design on two cores',
        ],
      ] as const) {
        const { timing, memory } = row.floors[keeps];
        console.log(
          `    floor, ${what}: ${formatMs(timing.second)} = ${Math.round(row.objects / (timing.second / 1000))} objects/s, ` +
            `${timing.ratio.toFixed(2)}x parse-only; peak memory ${memory.toFixed(0)} MiB = ${(memory / row.memory.parse).toFixed(2)}x parse-only`,
        );
      }
      for (const [which, what] of [
        ['read-and-parse', 'lint up to its objects (loadManifests: walk, read, parse, keep each object compactly)'],
        ['rules', 'lint up to its findings (loadManifests, then every rule)'],
      ] as const) {
        const { timing, memory } = row.stages[which];
        console.log(
          `    stage, ${what}: ${formatMs(timing.second)} = ${timing.ratio.toFixed(2)}x parse-only; ` +
            `peak memory ${memory.toFixed(0)} MiB = ${(memory / row.memory.parse).toFixed(2)}x parse-only`,
        );
      }
      console.log(
        `    peak memory: lint ${row.memory.lint.toFixed(0)} MiB, parse-only ${row.memory.parse.toFixed(0)} MiB = ` +
          `${(row.memory.lint / row.memory.parse).toFixed(2)}x (target <= 2x)`,
      );
    }
    console.log(
      `  doubling the input: lint time x${(rows[1]!.json.second / rows[0]!.json.second).toFixed(2)} (target <= 2.00), parse-only x${(rows[1]!.json.first / rows[0]!.json.first).toFixed(2)}`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
