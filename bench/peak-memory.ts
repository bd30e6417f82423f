import { spawnSync } from 'child_process';
import * as path from 'path';

const MAX_RSS = path.join(__dirname, 'max-rss.js');

/** Peak resident memory of a whole node process (median of `runs`), in MiB. */
export function peakMemoryMiB(argv: readonly string[], runs = 3, cwd = path.resolve(__dirname, '..')): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const result = spawnSync(process.execPath, ['-r', MAX_RSS, ...argv], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    const match = /max-rss-kib (\d+)/.exec(String(result.stderr));
    if (!match) throw new Error(`no memory reading from ${argv.join(' ')}: ${String(result.stderr).slice(-500)}`);
    samples.push(Number(match[1]) / 1024);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;
}
