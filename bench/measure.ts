import { performance } from 'perf_hooks';

/** Runs `task` `runs` times after one warm-up and returns the median duration in milliseconds. */
export function medianMs(runs: number, task: () => void): number {
  task();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    task();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export function formatMs(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}
