import * as fs from 'fs';
import * as path from 'path';
import { CORPUS_DIR, CORPUS_KUBERNETES_VERSION, corpusFiles } from '../support/corpus';
import { ballast } from './run-cli';

/** A seeded shuffle (mulberry32), so a failure can be replayed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

(fs.existsSync(CORPUS_DIR) ? describe : describe.skip)('results do not depend on the order of the paths', () => {
  test('the corpus in five shuffled orders gives byte-identical JSON and the same exit code', async () => {
    const files = corpusFiles().map((file) => path.join(CORPUS_DIR, file));
    const runs = [];
    for (const seed of [1, 2, 3, 4, 5]) {
      runs.push(
        await ballast([
          'lint',
          '--format',
          'json',
          '--kube-version',
          CORPUS_KUBERNETES_VERSION,
          ...shuffled(files, seed),
        ]),
      );
    }
    const [first] = runs;
    expect(first!.code).toBe(1);
    for (const run of runs) {
      expect(run.code).toBe(first!.code);
      expect(run.stdout).toBe(first!.stdout);
    }
  });
});
