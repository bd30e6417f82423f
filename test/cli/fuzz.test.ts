import * as fs from 'fs';
import * as path from 'path';
import { CORPUS_DIR, corpusFiles } from '../support/corpus';
import { ballast, LintJson, tempTree } from './run-cli';

/** mulberry32: a small seeded generator, so every run mutates the same way. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WRONG_VALUES = [
  '5',
  'null',
  '"x"',
  '[]',
  '{}',
  'ReadWriteMany',
  '-1',
  'true',
  '[1, {a: b}]',
  '*nowhere',
  '&anchor',
  '|',
  '{',
];

type Mutation = (lines: string[], next: () => number) => string[];

const MUTATIONS: Record<string, Mutation> = {
  truncate: (lines, next) => {
    const text = lines.join('\n');
    return text.slice(0, Math.floor(next() * text.length)).split('\n');
  },
  deleteLines: (lines, next) => lines.filter(() => next() > 0.1),
  breakIndentation: (lines, next) =>
    lines.map((line) => {
      const r = next();
      return r < 0.05 ? line.trimStart() : r < 0.1 ? `   ${line}` : r < 0.12 ? `\t${line}` : line;
    }),
  wrongTypes: (lines, next) =>
    lines.map((line) => {
      const match = /^(\s*-?\s*[\w.\-/"]+:)\s+\S.*$/.exec(line);
      return match && next() < 0.3 ? `${match[1]} ${WRONG_VALUES[Math.floor(next() * WRONG_VALUES.length)]}` : line;
    }),
  shuffleLines: (lines, next) => {
    const copy = [...lines];
    for (let n = 0; n < 5 && copy.length > 1; n++) {
      const a = Math.floor(next() * copy.length);
      const b = Math.floor(next() * copy.length);
      [copy[a], copy[b]] = [copy[b]!, copy[a]!];
    }
    return copy;
  },
};

const available = fs.existsSync(CORPUS_DIR);
(available ? describe : describe.skip)('fuzz: mutated corpus files', () => {
  const files = available ? corpusFiles() : [];
  const SEEDS = [1, 2, 3, 4];
  const MUTANTS_PER_SEED = 60;

  test.each(SEEDS)(
    'seed %i: 60 mutants lint with exit 0 or 1, valid JSON, no exception, no internal rule error',
    async (seed) => {
      const next = random(seed);
      const mutants: Record<string, string> = {};
      const names = Object.keys(MUTATIONS);
      for (let i = 0; i < MUTANTS_PER_SEED; i++) {
        const file = files[Math.floor(next() * files.length)]!;
        const mutation = names[Math.floor(next() * names.length)]!;
        const lines = fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8').split('\n');
        mutants[`${i}-${mutation}-${path.basename(file)}`] = MUTATIONS[mutation]!(lines, next).join('\n');
      }
      const tree = tempTree(mutants);
      try {
        for (const format of ['json', 'sarif', 'junit', 'text']) {
          const { code, stdout, stderr } = await ballast(['lint', '--format', format, tree.dir]);
          expect(stderr).toBe('');
          expect([0, 1]).toContain(code);
          if (format === 'json') {
            const json = JSON.parse(stdout) as LintJson;
            expect(json.summary.files).toBe(MUTANTS_PER_SEED);
            expect(json.findings.filter((f) => f.message.startsWith('internal error'))).toEqual([]);
            // The mutants must exercise both the loader's error path and the rules.
            expect(json.findings.some((f) => f.rule === 'yaml-syntax-error')).toBe(true);
            expect(json.findings.some((f) => f.rule !== 'yaml-syntax-error')).toBe(true);
            for (const finding of json.findings) {
              expect(finding.file).toEqual(expect.any(String));
              if (finding.line !== null) expect(finding.line).toBeGreaterThanOrEqual(1);
            }
          }
          if (format === 'sarif') expect(JSON.parse(stdout).version).toBe('2.1.0');
        }
      } finally {
        tree.cleanup();
      }
    },
    60000,
  );
});
