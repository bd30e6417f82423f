/**
 * `npm run real-world:fix`: how far `ballast fix` takes the real-world set's failing files
 * (issue 16's measure). Each `fail` file is copied alone (at its repository path, so a drop-in keeps
 * its `kubelet.service.d/` directory), linted, fixed, linted again and fixed a second time:
 *   - refused alone: the file has an error when linted by itself (what a person running
 *     `ballast fix <file>` meets; context from the rest of the repository is left out);
 *   - error-free after the fix; byte-identical after a second fix; every comment line kept;
 *   - and the same with `--no-require-node-labels` (NFS volumes left as they are: by default they are
 *     made to require the NFS-client node label, which the nodes must carry before the files are applied);
 *   - the rate among the files whose every error is of a rule with a machine fix, and what is left by
 *     rule (rules without a machine fix marked), so a set's mix is visible beside its rate.
 * Then every repository is fixed whole, and every file labelled clean must be byte-identical.
 * Reads the same git snapshots as `npm run real-world`; without them it says so and exits 0.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runFix } from '../../cli/fix-command';
import { lint } from '../../cli/lint-command';
import { YAML_SYNTAX_ERROR } from '../../cli/load-manifests';
import { hasMachineFix } from '../../validators';
import { LabelledFile, gitDirectory, mirrorRoots, percent, readLabels, readSources, writeWalkedFiles } from './evaluate';

const TARGET_FIXED = 0.7;
const SILENT = { out: () => undefined, err: () => undefined };

interface FileOutcome {
  readonly file: LabelledFile;
  readonly refused: boolean;
  readonly fixed: boolean;
  readonly stable: boolean;
  readonly commentsKept: boolean;
  readonly remaining: readonly string[];
  /** The rules of the errors before the fix. */
  readonly errorRules: readonly string[];
  /** Error-free after `ballast fix --no-require-node-labels`. */
  readonly fixedWithoutNodeLabels: boolean;
}

function errorsOf(target: string, cwd: string): string[] {
  return lint([target], { cwd })
    .findings.filter((f) => f.severity === 'error' && !f.suppressed)
    .map((f) => f.rule);
}

function commentLines(text: string): string[] {
  return text.split('\n').filter((line) => /^\s*#/.test(line));
}

function fixAlone(checkout: string, file: LabelledFile, scratch: string): FileOutcome {
  const withoutLabels = path.join(scratch, 'without-node-labels', file.repository.replace('/', '+'), file.path);
  fs.mkdirSync(path.dirname(withoutLabels), { recursive: true });
  fs.copyFileSync(path.join(checkout, file.path), withoutLabels);
  runFix([withoutLabels], { requireNodeLabels: false }, SILENT);
  const fixedWithoutNodeLabels = errorsOf(withoutLabels, scratch).length === 0;
  const alone = path.join(scratch, 'alone', file.repository.replace('/', '+'), file.path);
  fs.mkdirSync(path.dirname(alone), { recursive: true });
  const original = fs.readFileSync(path.join(checkout, file.path), 'utf8');
  fs.writeFileSync(alone, original);
  const errorRules = [...new Set(errorsOf(alone, scratch))];
  const refused = errorRules.length > 0;
  runFix([alone], {}, SILENT);
  const once = fs.readFileSync(alone, 'utf8');
  const remaining = errorsOf(alone, scratch);
  runFix([alone], {}, SILENT);
  const twice = fs.readFileSync(alone, 'utf8');
  const kept = new Set(commentLines(once));
  return {
    file,
    refused,
    fixed: refused && remaining.length === 0,
    stable: once === twice,
    commentsKept: commentLines(original).every((line) => kept.has(line)),
    remaining: [...new Set(remaining)],
    errorRules,
    fixedWithoutNodeLabels: refused && fixedWithoutNodeLabels,
  };
}

/** How many unfixed files each rule leaves an error in, and whether the rule has a machine fix at all. */
function leftByRule(unfixed: readonly FileOutcome[]): string {
  const counts = new Map<string, number>();
  for (const outcome of unfixed) for (const rule of outcome.remaining) counts.set(rule, (counts.get(rule) ?? 0) + 1);
  if (counts.size === 0) return 'none';
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([rule, count]) => `${rule} ${count}${fixNote(rule)}`)
    .join(', ');
}

/** What `ballast fix` can do for a rule's findings, as the summary says it. */
function fixNote(rule: string): string {
  if (hasMachineFix(rule)) return '';
  return rule === YAML_SYNTAX_ERROR ? ' (a machine fix for repeated keys only)' : ' (no machine fix)';
}

function main(argv: readonly string[]): number {
  const labels = readLabels();
  const roots = mirrorRoots(argv);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-fix-rate-'));
  const outcomes: FileOutcome[] = [];
  const changedClean: string[] = [];
  let cleanChecked = 0;
  try {
    for (const source of readSources()) {
      const files = labels.filter((file) => file.repository === source.repository);
      const gitDir = gitDirectory(roots, source);
      if (!gitDir) continue;
      const checkout = path.join(scratch, 'repositories', source.repository.replace('/', '+'));
      fs.mkdirSync(checkout, { recursive: true });
      writeWalkedFiles(gitDir, source.commit, checkout);
      for (const file of files.filter((candidate) => candidate.label === 'fail'))
        outcomes.push(fixAlone(checkout, file, scratch));
      // The whole repository fixed at once: files labelled clean must not change by a byte.
      const clean = files.filter((file) => file.label === 'clean');
      const before = new Map(clean.map((file) => [file.path, fs.readFileSync(path.join(checkout, file.path), 'utf8')]));
      runFix([checkout], {}, SILENT);
      for (const file of clean) {
        cleanChecked++;
        if (fs.readFileSync(path.join(checkout, file.path), 'utf8') !== before.get(file.path))
          changedClean.push(`${file.repository}/${file.path}`);
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  if (outcomes.length === 0) {
    process.stdout.write('real-world fix rate NOT measured: no snapshot with a failing file here (see npm run real-world)\n');
    return 0;
  }
  const lines: string[] = [];
  let met = true;
  const sets = [...new Set(outcomes.map((o) => o.file.set))].sort().reverse();
  for (const set of [...sets, 'all']) {
    const inSet = outcomes.filter((o) => set === 'all' || o.file.set === set);
    const refused = inSet.filter((o) => o.refused);
    const fixed = refused.filter((o) => o.fixed);
    const withMachineFixes = refused.filter((o) => o.errorRules.every(hasMachineFix));
    const rate = refused.length === 0 ? 1 : fixed.length / refused.length;
    if (set === 'all') met = rate >= TARGET_FIXED;
    lines.push(
      `${set} set: ${inSet.length} fail files, ${refused.length} refused when linted alone`,
      `  error-free after ballast fix:      ${percent(fixed.length, refused.length)}  target >= 70%: ${rate >= TARGET_FIXED ? 'met' : 'MISSED'}`,
      `  unchanged by a second fix:         ${percent(inSet.filter((o) => o.stable).length, inSet.length)}`,
      `  every comment line kept:           ${percent(inSet.filter((o) => o.commentsKept).length, inSet.length)}`,
      `  error-free with --no-require-node-labels: ${percent(refused.filter((o) => o.fixedWithoutNodeLabels).length, refused.length)}`,
      `  error-free, of the files whose every error has a machine fix: ${percent(
        withMachineFixes.filter((o) => o.fixed).length,
        withMachineFixes.length,
      )}`,
      `  left, by rule: ${leftByRule(refused.filter((o) => !o.fixed))}`,
    );
    if (set !== 'all') {
      for (const o of refused.filter((candidate) => !candidate.fixed))
        lines.push(`    left: ${o.file.repository}/${o.file.path}: ${o.remaining.join(', ')}`);
    }
  }
  lines.push(`clean files unchanged when their repository is fixed whole: ${percent(cleanChecked - changedClean.length, cleanChecked)}`);
  for (const file of changedClean) lines.push(`  CHANGED: ${file}`);
  process.stdout.write(lines.join('\n') + '\n');
  const sound = met && changedClean.length === 0 && outcomes.every((o) => o.stable && o.commentsKept);
  return argv.includes('--check') && !sound ? 1 : 0;
}

if (require.main === module) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`real-world:fix: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
