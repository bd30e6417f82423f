import * as fs from 'fs';
import { Finding, validateObjects } from '../../validators';
import {
  CORPUS_DIR,
  CORPUS_KUBERNETES_VERSION,
  DISAGREEMENTS,
  corpusFiles,
  corpusInputs,
  expectedRows,
  sourceFiles,
} from '../support/corpus';
import { RULES_BY_PATTERN } from './expected-patterns';

/**
 * The regression run over ../shared/corpus (real manifests from public repositories): every
 * hand-checked bad pattern is caught, and no error is raised anywhere else. The corpus is the
 * whole set, as `ballast lint ../shared/corpus` would see it.
 */
const available = fs.existsSync(CORPUS_DIR);

if (!available && process.env.CI) throw new Error(`corpus not found at ${CORPUS_DIR}: CI must run beside ../shared`);
const describeCorpus = available ? describe : describe.skip;

describeCorpus('the shared corpus', () => {
  // EXPECTED.md was labelled for the API level of cdk8s-plus-27: in-tree rbd still exists there.
  const report = available
    ? validateObjects(corpusInputs(), { kubernetesVersion: CORPUS_KUBERNETES_VERSION })
    : undefined;
  const unsuppressed = (report?.findings ?? []).filter((f) => !f.suppressed);
  const errors = unsuppressed.filter((f) => f.severity === 'error');
  const objectOf = (f: Finding) => `${f.object.kind}/${f.object.name}`;
  const rows = available ? expectedRows() : [];
  const covered = rows.filter(
    (row) => RULES_BY_PATTERN[row.pattern] && DISAGREEMENTS[`${row.file}|${row.object}`] === undefined,
  );
  const disagreed = rows.filter((row) => DISAGREEMENTS[`${row.file}|${row.object}`] !== undefined);

  test('holds every file SOURCES.tsv and EXPECTED.md list', () => {
    const files = corpusFiles();
    expect(files).toEqual(sourceFiles());
    for (const row of rows) expect(files).toContain(row.file);
  });

  // A row is caught by a finding of any severity (Recycle on nfs is rightly only a warning);
  // errors elsewhere are what the next test forbids.
  test.each(covered.map((row) => [row.pattern, row.file, row.object] as const))(
    'catches %s in %s (%s)',
    (pattern, file, object) => {
      const rules = RULES_BY_PATTERN[pattern] ?? [];
      const hits = unsuppressed.filter(
        (f) => f.source.file === file && objectOf(f) === object && rules.includes(f.rule),
      );
      expect(hits.length).toBeGreaterThan(0);
    },
  );

  test.each(disagreed.map((row) => [row.file, row.object] as const))(
    'knowingly leaves %s (%s) unflagged, for the reason in DISAGREEMENTS',
    (file, object) => {
      const rules =
        RULES_BY_PATTERN[rows.find((row) => row.file === file && row.object === object)?.pattern ?? ''] ?? [];
      expect(
        unsuppressed.filter((f) => f.source.file === file && objectOf(f) === object && rules.includes(f.rule)),
      ).toEqual([]);
    },
  );

  test('raises errors only on the objects and patterns EXPECTED.md lists', () => {
    const allowed = new Set(
      covered.flatMap((row) =>
        (RULES_BY_PATTERN[row.pattern] ?? []).map((rule) => `${row.file}|${row.object}|${rule}`),
      ),
    );
    const unexpected = errors
      .filter((f) => !allowed.has(`${f.source.file}|${objectOf(f)}|${f.rule}`))
      .map((f) => `${f.rule} on ${objectOf(f)} in ${f.source.file} at ${f.path}: ${f.message}`);
    expect(unexpected).toEqual([]);
  });
});
