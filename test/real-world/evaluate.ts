/**
 * `npm run real-world`: ballast on public repositories it was not written against, judged by hand
 * labels (LABELS.tsv, one line a file: fail = must be refused, warn = a warning is fair, clean =
 * must stay silent) at the commits of SOURCES.tsv.
 *
 * The repositories' files are not kept here (they are others' work): the script reads them from
 * git snapshots on this machine (`--mirror DIR` or $BALLAST_REAL_WORLD_MIRROR; by default
 * ../.mirror and /work/.mirror, laid out as `<owner>+<name>/repo`). Each repository is linted
 * whole, as `ballast lint <checkout>` would (vendor/ and .github/ left out), and the findings are
 * compared file by file with the labels. Without snapshots it says so and exits 0; with
 * `--require` (CI on a machine that has them) a missing snapshot fails.
 *
 * Prints recall (fail files refused), error false alarms (warn and clean files with an error) and
 * warning false alarms (clean files with a warning), each against the targets of issue 15.
 *
 * DISAGREEMENTS.tsv lists the files where ballast and the label disagree today (a miss, an error
 * false alarm, a warning false alarm), each reviewed when it was recorded. `--check` (CI) exits 1
 * when a file disagrees that the list does not name: a regression, or a new round's file not yet
 * reviewed. A target missed is printed but does not fail `--check`: adding an honest, harder round
 * must not turn CI red, and the numbers go into the notes. `--update-disagreements` rewrites the
 * list from this run (the diff is the review). A label that no longer matches its file's blob is
 * an error (exit 2). `--set NAME` (repeatable) measures only the files of those sets, as when a new
 * blind round arrives.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { lint } from '../../cli/lint-command';
import { isWalkedFileName } from '../../cli/input-files';

const HERE = __dirname;
const DISAGREEMENTS = path.join(HERE, 'DISAGREEMENTS.tsv');
const DISAGREEMENTS_HEADER = 'repository\tpath\tdisagreement';
const TARGETS = { recall: 0.95, errorFalseAlarms: 0.01, warningFalseAlarms: 0.1 };
const LABELS = ['fail', 'warn', 'clean'] as const;
type Label = (typeof LABELS)[number];

export interface LabelledFile {
  readonly repository: string;
  readonly path: string;
  readonly blob: string;
  readonly label: Label;
  readonly rules: readonly string[];
  readonly why: string;
  /** `tuning`: labelled while the rules were being fixed; `held-out` and `held-out-N`: labelled before ballast ran on them, one set per round. */
  readonly set: string;
}

export interface Source {
  readonly repository: string;
  readonly commit: string;
}

function asLabel(value: string | undefined, where: string): Label {
  if ((LABELS as readonly string[]).includes(value ?? '')) return value as Label;
  throw new Error(`${where}: label "${value ?? ''}" is not one of ${LABELS.join(', ')}`);
}

function readTsv(file: string): Record<string, string>[] {
  const [header, ...lines] = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  const columns = (header ?? '').split('\t');
  return lines.map((line) => Object.fromEntries(line.split('\t').map((value, i) => [columns[i] ?? `${i}`, value])));
}

export function readLabels(file = path.join(HERE, 'LABELS.tsv')): LabelledFile[] {
  return readTsv(file).map((row) => ({
    repository: row.repository ?? '',
    path: row.path ?? '',
    blob: row.blob ?? '',
    label: asLabel(row.label, `${row.repository ?? ''}/${row.path ?? ''}`),
    rules: (row.rules ?? '').split(',').filter((rule) => rule !== ''),
    why: row.why ?? '',
    set: row.set ?? '',
  }));
}

export function readSources(file = path.join(HERE, 'SOURCES.tsv')): Source[] {
  return readTsv(file).map((row) => ({ repository: row.repository ?? '', commit: row.commit ?? '' }));
}

export function mirrorRoots(argv: readonly string[]): string[] {
  const flag = argv.indexOf('--mirror');
  const given = flag >= 0 ? argv[flag + 1] : process.env.BALLAST_REAL_WORLD_MIRROR;
  if (given) return [given];
  return [path.resolve(HERE, '../../../.mirror'), '/work/.mirror'];
}

/** The git directory of a repository's snapshot, or undefined when this machine has none with the commit. */
export function gitDirectory(roots: readonly string[], source: Source): string | undefined {
  for (const root of roots) {
    for (const candidate of ['repo/.git', 'repo']) {
      const directory = path.join(root, source.repository.replace('/', '+'), candidate);
      if (!fs.existsSync(path.join(directory, 'HEAD'))) continue;
      try {
        execFileSync('git', ['--git-dir', directory, 'cat-file', '-e', `${source.commit}^{commit}`], { stdio: 'ignore' });
        return directory;
      } catch {
        // the snapshot is at another commit: try the next root
      }
    }
  }
  return undefined;
}

interface Outcome {
  readonly file: LabelledFile;
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

function evaluateRepository(gitDir: string, source: Source, files: readonly LabelledFile[], scratch: string): Outcome[] {
  const checkout = path.join(scratch, source.repository.replace('/', '+'));
  fs.mkdirSync(checkout, { recursive: true });
  writeWalkedFiles(gitDir, source.commit, checkout);
  const result = lint([checkout], { cwd: scratch });
  const byFile = new Map<string, { errors: string[]; warnings: string[] }>();
  for (const finding of result.findings) {
    if (finding.file === null || finding.suppressed) continue;
    const relative = path.relative(checkout, finding.file);
    let entry = byFile.get(relative);
    if (!entry) byFile.set(relative, (entry = { errors: [], warnings: [] }));
    (finding.severity === 'error' ? entry.errors : entry.warnings).push(finding.rule);
  }
  return files.map((file) => {
    const actual = gitBlob(path.join(checkout, file.path));
    if (actual !== file.blob) throw new Error(`${source.repository}/${file.path}: blob ${actual} is not the labelled ${file.blob}`);
    const found = byFile.get(file.path);
    return { file, errors: found?.errors ?? [], warnings: found?.warnings ?? [] };
  });
}

const LEFT_OUT = /(^|\/)(vendor|\.github)\//;

/**
 * Writes the files a directory walk reads (input-files.ts; vendor/ and .github/ left out) of the
 * commit into `checkout`, blob by blob: a snapshot may lack its largest blobs, so no archive of
 * the whole tree is asked for.
 */
export function writeWalkedFiles(gitDir: string, commit: string, checkout: string): void {
  const tree = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', commit], { maxBuffer: 1 << 28 })
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry !== '');
  const wanted: { blob: string; path: string }[] = [];
  for (const entry of tree) {
    const [meta, name] = entry.split('\t');
    const [, type, blob] = (meta ?? '').split(' ');
    if (type === 'blob' && blob && name && isWalkedFileName(path.basename(name)) && !LEFT_OUT.test(name)) wanted.push({ blob, path: name });
  }
  if (wanted.length === 0) return;
  const batch = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
    input: wanted.map((file) => file.blob).join('\n') + '\n',
    maxBuffer: 1 << 30,
  });
  let offset = 0;
  for (const file of wanted) {
    const headerEnd = batch.indexOf(0x0a, offset);
    const header = batch.subarray(offset, headerEnd).toString('utf8').split(' ');
    if (header[1] === 'missing') {
      offset = headerEnd + 1;
      continue;
    }
    const size = Number(header[2]);
    const target = path.join(checkout, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, batch.subarray(headerEnd + 1, headerEnd + 1 + size));
    offset = headerEnd + 1 + size + 1;
  }
}

function gitBlob(file: string): string {
  if (!fs.existsSync(file)) return 'missing';
  return execFileSync('git', ['hash-object', file]).toString().trim();
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}% (${part}/${whole})`;
}

/** Recall and false alarms of one set of outcomes, with the files behind each miss and alarm. */
function measure(outcomes: readonly Outcome[], title: string): { lines: string[]; met: boolean } {
  const failing = outcomes.filter((o) => o.file.label === 'fail');
  const caught = failing.filter((o) => o.errors.length > 0);
  const expectedRule = failing.filter((o) => o.file.rules.some((rule) => o.errors.includes(rule)));
  const notFailing = outcomes.filter((o) => o.file.label !== 'fail');
  const errorAlarms = notFailing.filter((o) => o.errors.length > 0);
  const clean = outcomes.filter((o) => o.file.label === 'clean');
  const warningAlarms = clean.filter((o) => o.errors.length === 0 && o.warnings.length > 0);
  const fairWarnings = outcomes.filter((o) => o.file.label === 'warn');
  const warned = fairWarnings.filter((o) => o.warnings.length > 0);

  const recall = failing.length === 0 ? 1 : caught.length / failing.length;
  const errorRate = notFailing.length === 0 ? 0 : errorAlarms.length / notFailing.length;
  const warningRate = clean.length === 0 ? 0 : warningAlarms.length / clean.length;
  const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
  const repositories = new Set(outcomes.map((o) => o.file.repository)).size;
  const lines: string[] = [
    `${title}: ${outcomes.length} labelled files from ${repositories} repositories ` +
      `(${failing.length} fail, ${fairWarnings.length} warn, ${clean.length} clean)`,
    `recall (fail files refused):             ${percent(caught.length, failing.length)}  target >= 95%: ${verdict(recall >= TARGETS.recall)}`,
    `  ... by the expected rule:              ${percent(expectedRule.length, failing.length)}`,
    `error false alarms (warn + clean files): ${percent(errorAlarms.length, notFailing.length)}  target <= 1%: ${verdict(errorRate <= TARGETS.errorFalseAlarms)}`,
    `warning false alarms (clean files):      ${percent(warningAlarms.length, clean.length)}  target <= 10%: ${verdict(warningRate <= TARGETS.warningFalseAlarms)}`,
    `fair warnings given (warn files):        ${percent(warned.length, fairWarnings.length)}`,
  ];
  const describe = (o: Outcome) =>
    `  ${o.file.repository}/${o.file.path} [${o.file.label}] errors: ${[...new Set(o.errors)].join(', ') || '-'}; ` +
    `warnings: ${[...new Set(o.warnings)].join(', ') || '-'} (${o.file.why})`;
  const misses = failing.filter((o) => o.errors.length === 0);
  if (misses.length > 0) lines.push('missed:', ...misses.map(describe));
  if (errorAlarms.length > 0) lines.push('error false alarms:', ...errorAlarms.map(describe));
  if (warningAlarms.length > 0) lines.push('warning false alarms:', ...warningAlarms.map(describe));
  return {
    lines,
    met: recall >= TARGETS.recall && errorRate <= TARGETS.errorFalseAlarms && warningRate <= TARGETS.warningFalseAlarms,
  };
}

type Disagreement = 'missed' | 'error-false-alarm' | 'warning-false-alarm';

/** How ballast's findings on a file disagree with its label, if they do. */
function disagreementOf(outcome: Outcome): Disagreement | undefined {
  if (outcome.file.label === 'fail') return outcome.errors.length === 0 ? 'missed' : undefined;
  if (outcome.errors.length > 0) return 'error-false-alarm';
  if (outcome.file.label === 'clean' && outcome.warnings.length > 0) return 'warning-false-alarm';
  return undefined;
}

function disagreementKey(repository: string, file: string, disagreement: string): string {
  return `${repository}\t${file}\t${disagreement}`;
}

function readDisagreements(): Set<string> {
  if (!fs.existsSync(DISAGREEMENTS)) return new Set();
  return new Set(
    readTsv(DISAGREEMENTS).map((row) => disagreementKey(row.repository ?? '', row.path ?? '', row.disagreement ?? '')),
  );
}

/**
 * Today's disagreements against the recorded ones, for the measured files only (a `--set` run or a
 * missing snapshot leaves the others as they are): the new ones, the ones gone, and the list to write.
 */
function compareDisagreements(
  outcomes: readonly Outcome[],
  known: ReadonlySet<string>,
): { fresh: string[]; gone: string[]; updated: string[] } {
  const measured = new Set(outcomes.map((o) => `${o.file.repository}\t${o.file.path}`));
  const today = outcomes.flatMap((o) => {
    const disagreement = disagreementOf(o);
    return disagreement ? [disagreementKey(o.file.repository, o.file.path, disagreement)] : [];
  });
  const todaySet = new Set(today);
  const isMeasured = (key: string) => measured.has(key.split('\t').slice(0, 2).join('\t'));
  return {
    fresh: today.filter((key) => !known.has(key)),
    gone: [...known].filter((key) => isMeasured(key) && !todaySet.has(key)),
    updated: [...[...known].filter((key) => !isMeasured(key)), ...today].sort(),
  };
}

/** The values of every `--set NAME` in argv: the sets to measure (all when none is given). */
function chosenSets(argv: readonly string[]): ReadonlySet<string> {
  return new Set(argv.flatMap((arg, position) => (arg === '--set' && argv[position + 1] ? [argv[position + 1]!] : [])));
}

function main(argv: readonly string[]): number {
  const sets = chosenSets(argv);
  const labels = readLabels().filter((file) => sets.size === 0 || sets.has(file.set));
  const sources = readSources().filter((source) => labels.some((file) => file.repository === source.repository));
  const roots = mirrorRoots(argv);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ballast-real-world-'));
  const outcomes: Outcome[] = [];
  const unavailable: string[] = [];
  try {
    for (const source of sources) {
      const files = labels.filter((file) => file.repository === source.repository);
      const gitDir = gitDirectory(roots, source);
      if (!gitDir) {
        unavailable.push(source.repository);
        continue;
      }
      outcomes.push(...evaluateRepository(gitDir, source, files, scratch));
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  if (outcomes.length === 0) {
    process.stdout.write(
      `real-world set NOT evaluated: no snapshot of its ${sources.length} repositories under ${roots.join(' or ')} ` +
        '(fetch them, or pass --mirror DIR)\n',
    );
    return argv.includes('--require') ? 1 : 0;
  }

  const lines: string[] = [];
  let met = true;
  const measured = [...new Set(outcomes.map((o) => o.file.set))].sort().reverse();
  for (const set of [...measured, 'all']) {
    const report = measure(outcomes.filter((o) => set === 'all' || o.file.set === set), `${set} set`);
    lines.push(...report.lines);
    if (set === 'all') met = report.met;
  }
  if (unavailable.length > 0) lines.push(`not evaluated (no snapshot here): ${unavailable.join(', ')}`);
  const known = readDisagreements();
  const { fresh, gone, updated } = compareDisagreements(outcomes, known);
  const show = (key: string) => `  ${key.replace('\t', '/').replace('\t', ': ')}`;
  lines.push(
    `targets over the whole set: ${met ? 'met' : 'MISSED'}`,
    `recorded disagreements (DISAGREEMENTS.tsv): ${known.size}; new in this run: ${fresh.length}; gone: ${gone.length}`,
  );
  if (fresh.length > 0)
    lines.push('new disagreements (a regression, or files to review; --update-disagreements records them):', ...fresh.map(show));
  if (gone.length > 0) lines.push('disagreements gone (--update-disagreements drops them):', ...gone.map(show));
  if (argv.includes('--update-disagreements')) {
    fs.writeFileSync(DISAGREEMENTS, [DISAGREEMENTS_HEADER, ...updated].join('\n') + '\n');
    lines.push(`DISAGREEMENTS.tsv rewritten: ${updated.length} disagreements`);
  }
  process.stdout.write(lines.join('\n') + '\n');

  const complete = unavailable.length === 0 || !argv.includes('--require');
  const regressed = fresh.length > 0 && !argv.includes('--update-disagreements');
  return argv.includes('--check') && (regressed || !complete) ? 1 : 0;
}

if (require.main === module) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`real-world: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
